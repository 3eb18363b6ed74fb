import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * The version a judge scored (issue 33): a submitted score records the works version it was given for
 * (`review_assignments.work_id`). A newer version uploaded before the deadline gives the task back to the judge; the
 * organiser is told. Scores submitted before this migration have none: they stand for the version counting now.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('review_assignments').addColumn('work_id', 'integer').execute();
}
