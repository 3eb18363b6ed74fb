import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * The name an organiser gives its own scoring program's metric (issue 33), shown on the boards and the test tab instead
 * of 自定义评分程序 (`questions.metric_name`; null: that default).
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('questions').addColumn('metric_name', 'text').execute();
}
