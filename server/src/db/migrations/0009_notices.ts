import { sql, type Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * Notices and each user's box: a notice is written once; publishing fixes its recipients as rows, which carry the
 * read mark, so unread counts are one indexed count per user.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('notices')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('target_json', 'text', (c) => c.notNull())
    .addColumn('competition_id', 'integer', (c) => c.references('competitions.id').onDelete('cascade'))
    // The organisation that wrote it; none for the platform's own notices and automatic messages.
    .addColumn('org_id', 'integer', (c) => c.references('organisations.id'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('publish_at', 'varchar(30)')
    .addColumn('published_at', 'varchar(30)')
    .addColumn('source', 'varchar(40)')
    .addColumn('recipients', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('author_id', 'integer', (c) => c.references('users.id'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notices_status').on('notices').columns(['status', 'id']).execute();

  await db.schema
    .createTable('notice_recipients')
    .addColumn('notice_id', 'integer', (c) => c.notNull().references('notices.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('read_at', 'varchar(30)')
    .addPrimaryKeyConstraint('notice_recipients_pk', ['notice_id', 'user_id'])
    .execute();
  await db.schema.createIndex('notice_recipients_box').on('notice_recipients').columns(['user_id', 'kind', 'read_at']).execute();

  await sql`insert into role_permissions (role_id, code) select id, 'message:notice:edit' from roles r where r.code = 'organiser'
    and not exists (select 1 from role_permissions p where p.role_id = r.id and p.code = 'message:notice:edit')`.execute(db);
}
