import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Eligibility rules (issue 36 item 3). `competitions.eligibility_json` holds the rules (packages/shared
 * eligibility.ts; null: none). A team keeps the school it is counted under (`school_key`, its leader's school: the
 * list's record or the name normalised, with the name as written) and its group. `eligibility_quota` counts what the
 * rules limit, one row per competition and school (`kind` 'school') or teacher ('teacher', by phone): a place is taken
 * by an update that moves the count only while it is under the limit, so that racing registrations cannot overfill it;
 * a team whose registration is refused gives its places back (`places_held` 0) and takes them again when it resubmits.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('competitions').addColumn('eligibility_json', 'text').execute();
  await db.schema.alterTable('teams').addColumn('school_key', 'varchar(120)').execute();
  await db.schema.alterTable('teams').addColumn('school_name', 'varchar(100)').execute();
  await db.schema.alterTable('teams').addColumn('group_name', 'varchar(20)').execute();
  // 1 while the team holds its places (its school's, its teachers'); a refused registration gives them back (0).
  await db.schema
    .alterTable('teams')
    .addColumn('places_held', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('teams_competition_group').on('teams').columns(['competition_id', 'group_name']).execute();
  await db.schema.createIndex('teams_competition_school').on('teams').columns(['competition_id', 'school_key']).execute();
  await db.schema
    .createTable('eligibility_quota')
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('key', 'varchar(120)', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('eligibility_quota_pk', ['competition_id', 'kind', 'key'])
    .execute();
}
