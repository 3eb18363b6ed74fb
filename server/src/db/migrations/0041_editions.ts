import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Editions (issue 38 item 1): a competition copied as the next edition (复制为新一届) keeps the one it was copied from
 * (`previous_id`) and the first edition of its line (`series_id`; null on a competition never copied, which is then its
 * own line's first). `recheck_json` lists what its organiser is still to recheck after the copy (dates, fee), and
 * `shift_days` by how many days its dates were moved.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('competitions')
    .addColumn('previous_id', 'integer', (c) => c.references('competitions.id'))
    .execute();
  await db.schema
    .alterTable('competitions')
    .addColumn('series_id', 'integer', (c) => c.references('competitions.id'))
    .execute();
  await db.schema.alterTable('competitions').addColumn('shift_days', 'integer').execute();
  await db.schema.alterTable('competitions').addColumn('recheck_json', 'text').execute();
  await db.schema.createIndex('competitions_series').on('competitions').column('series_id').execute();
}
