import type { Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/** Works: resumable uploads in progress, the versions a team completed, and each competition's limits for them. */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('competitions')
    .addColumn('works_max_mb', 'integer', (c) => c.notNull().defaultTo(500))
    .execute();
  await db.schema
    .alterTable('competitions')
    .addColumn('works_types', 'varchar(200)', (c) => c.notNull().defaultTo('zip,rar,7z,pdf,docx'))
    .execute();

  // Resumable uploads in progress: a team's works, or (kind `data`) an organiser's public data file of a question.
  await db.schema
    .createTable('work_uploads')
    .addColumn('upload_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(10)', (c) => c.notNull().defaultTo('works'))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('works')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('file_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    // Stamped by the server when the last byte arrived.
    .addColumn('completed_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('works_version', ['team_id', 'question_id', 'version'])
    .execute();
  await db.schema.createIndex('works_question').on('works').columns(['question_id', 'team_id']).execute();
}
