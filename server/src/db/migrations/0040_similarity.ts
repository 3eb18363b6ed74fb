import type { Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * 查重 and duplicate accounts (issue 37): each question's thresholds and exclusions (its template and problem statement), its last run, the
 * text read from each work, the pairs found, each team's mark and the organiser's decision, and a team's own report.
 * Shares are per mille of a work's text (integers, the same in both dialects).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('questions')
    .addColumn('similarity_flag', 'integer', (c) => c.notNull().defaultTo(20))
    .execute();
  await db.schema
    .alterTable('questions')
    .addColumn('similarity_hold', 'integer', (c) => c.notNull().defaultTo(40))
    .execute();

  await db.schema
    .createTable('similarity_exclusions')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('file_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('chars', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(200)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('similarity_exclusions_question').on('similarity_exclusions').column('question_id').execute();

  // One row per question: its last run. `deadline` is the works deadline an automatic run was made for.
  await db.schema
    .createTable('similarity_runs')
    .addColumn('question_id', 'integer', (c) => c.primaryKey().references('questions.id').onDelete('cascade'))
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('works', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unreadable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pairs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'varchar(1000)')
    .addColumn('deadline', 'varchar(30)')
    .addColumn('started_at', 'varchar(30)')
    .addColumn('finished_at', 'varchar(30)')
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('work_texts')
    .addColumn('work_id', 'integer', (c) => c.primaryKey().references('works.id').onDelete('cascade'))
    .addColumn('competition_id', 'integer', (c) => c.notNull())
    .addColumn('question_id', 'integer', (c) => c.notNull())
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('chars', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // Each document read or not (name, chars, reason), and what names the files carry (metadata, zip entries).
    .addColumn('files_json', 'text', (c) => c.notNull())
    .addColumn('meta_json', 'text', (c) => c.notNull())
    // The source files of the work (path, language, content), for the comparison of code.
    .addColumn('code_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('extracted_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('work_texts_competition').on('work_texts').column('competition_id').execute();

  await db.schema
    .createTable('similarity_pairs')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('work_id', 'integer', (c) => c.notNull().references('works.id').onDelete('cascade'))
    .addColumn('other_work_id', 'integer', (c) => c.notNull().references('works.id').onDelete('cascade'))
    // 'text' (the written work) or 'code' (its source files of `language`, compared by Dolos).
    .addColumn('kind', 'varchar(10)', (c) => c.notNull().defaultTo('text'))
    .addColumn('language', 'varchar(20)')
    .addColumn('share', 'integer', (c) => c.notNull())
    .addColumn('other_share', 'integer', (c) => c.notNull())
    // [start, end) offsets of the shared passages into each work's stored text.
    .addColumn('passages_json', 'text', (c) => c.notNull())
    .addColumn('other_passages_json', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('similarity_pairs_question').on('similarity_pairs').columns(['question_id', 'work_id']).execute();
  await db.schema.createIndex('similarity_pairs_other').on('similarity_pairs').columns(['question_id', 'other_work_id']).execute();

  await db.schema
    .createTable('similarity_marks')
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('work_id', 'integer', (c) => c.notNull().references('works.id').onDelete('cascade'))
    .addColumn('top_share', 'integer', (c) => c.notNull())
    .addColumn('code_share', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('identity_json', 'text', (c) => c.notNull())
    .addColumn('decision', 'varchar(10)')
    .addColumn('decision_note', 'varchar(500)')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id'))
    .addColumn('decided_at', 'varchar(30)')
    .addPrimaryKeyConstraint('similarity_marks_pk', ['question_id', 'team_id'])
    .execute();

  // Duplicate accounts (item 5): the private rows' fingerprint of a prediction file scored by a built-in metric.
  await db.schema.alterTable('test_submissions').addColumn('fingerprint', 'text').execute();

  await db.schema
    .createTable('similarity_reports')
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('file_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('declared_rate', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('similarity_reports_pk', ['question_id', 'team_id'])
    .execute();
}
