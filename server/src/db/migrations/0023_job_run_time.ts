import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * How long each job ran, in milliseconds of the worker's own clock (issue 33): a waiting file's estimate is the time a
 * scoring takes over the workers taking them, not the count of the last minutes' scorings over those minutes (which
 * said "about 15 minutes" for scorings of 3 s when few files came).
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('run_ms', 'integer').execute();
}
