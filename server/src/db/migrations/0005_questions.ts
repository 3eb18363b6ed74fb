import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/** Question management: creator, review, the evaluation setting and its hidden answer file; teams' question choice. */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  for (const [name, type] of [
    ['creator_id', 'integer'],
    ['metric', 'varchar(20)'],
    ['id_column', 'varchar(64)'],
    ['target_column', 'varchar(64)'],
    ['public_percent', 'integer'],
    ['daily_limit', 'integer'],
    ['salt', 'varchar(64)'],
    // The answer file lives apart from public files: a key no download route serves.
    ['answer_key', 'varchar(200)'],
    ['answer_rows', 'integer'],
  ] as const) {
    await db.schema.alterTable('questions').addColumn(name, type).execute();
  }

  await db.schema
    .createTable('team_choices')
    .addColumn('team_id', 'integer', (c) => c.primaryKey().references('teams.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('chosen_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('chosen_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('team_choices_question').on('team_choices').column('question_id').execute();
}
