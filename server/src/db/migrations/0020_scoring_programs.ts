import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Organisers' own scoring programs (issue 23). A question scored by `custom` keeps its direction (`higher_is_better`,
 * 1 or 0), each run's time limit in seconds, and its program: a file of purpose 'scorer' (`scorer_key`). A submission
 * the program failed on keeps the end of the program's standard error for the organisers (`scorer_log`), who read a
 * competition's failures and its queue by status and time.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('questions').addColumn('higher_is_better', 'integer').execute();
  await db.schema.alterTable('questions').addColumn('time_limit_sec', 'integer').execute();
  await db.schema.alterTable('questions').addColumn('scorer_key', 'text').execute();
  await db.schema.alterTable('test_submissions').addColumn('scorer_log', 'text').execute();
  await db.schema.createIndex('test_submissions_competition_status').on('test_submissions').columns(['competition_id', 'status', 'scored_at']).execute();
}
