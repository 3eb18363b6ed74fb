import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * A fair scoring queue (issue 23): workers take due jobs by `priority`, then oldest first. A test submission's scoring
 * job gets as priority the number of its team's submissions already waiting for the question, so a team that floods
 * the queue does not delay the others' first submission: each team's first waits only for the other teams' firsts.
 * A test submission keeps its scoring job's id, so that its place in the queue is read without searching the jobs.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['done_at', 'priority', 'id']).execute();
  await db.schema.alterTable('test_submissions').addColumn('score_job_id', 'integer').execute();
}
