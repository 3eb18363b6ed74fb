import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Issue 32. Organisers' programs run in a lane of their own (`jobs.lane = 'program'`), apart from every other job, so
 * built-in scoring never waits behind them; within it each organisation (`jobs.tenant`) takes its turn: the one served
 * least recently (`job_turns.last_claim_at`) and running the fewest goes first. A test submission that failed gave its
 * attempt back: what a team's failed files keep is bounded, and past the bound the oldest lose their file
 * (`file_removed_at`), their outcome kept; rescoring reads only those that still have theirs.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('lane', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('tenant', 'integer').execute();
  await db.schema.createIndex('jobs_lane').on('jobs').columns(['lane', 'done_at', 'tenant']).execute();
  await db.schema
    .createTable('job_turns')
    .addColumn('tenant', 'integer', (c) => c.primaryKey())
    .addColumn('last_claim_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('test_submissions').addColumn('file_removed_at', 'text').execute();
  // A team's failed files still kept, newest first (what they may keep is bounded).
  await db.schema.createIndex('test_submissions_team_failed').on('test_submissions').columns(['team_id', 'status', 'file_removed_at']).execute();
  // Rescoring and the boards' "being re-scored" test read the submissions that still have their file.
  await db.schema.createIndex('test_submissions_rescorable').on('test_submissions').columns(['question_id', 'file_removed_at', 'scoring_version']).execute();
}
