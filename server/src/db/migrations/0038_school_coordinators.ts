import type { Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * School coordinators (院校负责人, issue 36 item 2). An appointment binds a user to one school of the list for a
 * scope: the whole platform ('platform', by the platform), one organisation's competitions ('org:<id>') or one
 * competition ('competition:<id>'), by its organiser; one row per user, school and scope. A registration of a
 * competition with 两级审核 keeps the school's decision beside the organiser's: `school_status` null (no school level),
 * 0 waiting for the school, 1 passed by it, 2 refused by it.
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('school_coordinators')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('school_id', 'integer', (c) => c.notNull().references('schools.id').onDelete('cascade'))
    .addColumn('scope_key', 'varchar(40)', (c) => c.notNull())
    .addColumn('org_id', 'integer', (c) => c.references('organisations.id').onDelete('cascade'))
    .addColumn('competition_id', 'integer', (c) => c.references('competitions.id').onDelete('cascade'))
    .addColumn('appointed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('school_coordinators_one', ['user_id', 'school_id', 'scope_key'])
    .execute();
  await db.schema.createIndex('school_coordinators_user').on('school_coordinators').column('user_id').execute();
  await db.schema.createIndex('school_coordinators_competition').on('school_coordinators').column('competition_id').execute();
  await db.schema.alterTable('registers').addColumn('school_status', 'integer').execute();
  await db.schema.alterTable('registers').addColumn('school_reason', 'varchar(500)').execute();
}
