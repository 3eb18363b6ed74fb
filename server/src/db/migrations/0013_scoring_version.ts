import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * A question's scoring version: it goes up whenever its metric, public share or answer file changes, and each test
 * submission records the version it was scored under. The boards rank only the submissions of the current version, so
 * they never mix scores of two metrics or two splits while the older ones are scored again in the background.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('questions')
    .addColumn('scoring_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('test_submissions')
    .addColumn('scoring_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('test_submissions_question_version').on('test_submissions').columns(['question_id', 'scoring_version']).execute();
}
