import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Large answer files (issue 21): how a question draws its public rows (scoring/split.ts), and the loaded form of its
 * answer file stored at upload (scoring/prepared.ts) with the tag of the setting it was loaded under. New questions use
 * the keyed rule, a hundred times faster on large answer files; a question that already has an answer file keeps
 * SHA-256, so no row moves between the boards.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('questions')
    .addColumn('split_rule', 'varchar(16)', (c) => c.notNull().defaultTo('keyed'))
    .execute();
  await sql`UPDATE questions SET split_rule = 'sha256' WHERE answer_key IS NOT NULL`.execute(db);
  await db.schema.alterTable('questions').addColumn('answer_index_key', 'varchar(200)').execute();
  await db.schema.alterTable('questions').addColumn('answer_index_tag', 'varchar(64)').execute();
}
