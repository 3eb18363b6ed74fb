import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * The two settings some metrics read besides the columns (issue 21): the positive label of f1, precision and recall,
 * and the K of mapAtK. Null means the default ('1' and 10), so questions set before keep scoring as they did.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('questions').addColumn('positive_label', 'varchar(64)').execute();
  await db.schema.alterTable('questions').addColumn('top_k', 'integer').execute();
}
