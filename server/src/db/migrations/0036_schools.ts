import type { Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * Schools as records (issue 36): the platform's list, one row per school, matched by its name normalised (`name_key`,
 * unique; packages/shared `schoolNameKey`) or its 学校标识码 (`code`, unique where known); `initials` are the pinyin
 * initials of its name, which the picker searches. `users.school_id` links a profile's school to its record; the
 * free-text `organization` stays beside it (a school not in the list, and what older accounts wrote).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('schools')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('code', 'varchar(10)', (c) => c.unique())
    .addColumn('province', 'varchar(50)')
    .addColumn('department', 'varchar(100)')
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('initials', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schools_initials').on('schools').column('initials').execute();
  await db.schema
    .alterTable('users')
    .addColumn('school_id', 'integer', (c) => c.references('schools.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('users_school').on('users').column('school_id').execute();
}
