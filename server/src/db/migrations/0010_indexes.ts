import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Indexes found missing by `npm run bench` on a catalogue of realistic volume (bench/results/latest.json).
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  // The public list (no brand chosen) is read newest registration first: walking this index stops after one page,
  // where `competitions_public` (brand before date) made both databases sort every online competition per request.
  await db.schema.createIndex('competitions_public_order').on('competitions').columns(['audit_status', 'reg_start_time', 'id']).execute();
}
