import type { Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/** The job table, test (prediction) submissions with their daily quota, and leaderboard publication. */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('run_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'varchar(64)')
    .addColumn('locked_until', 'varchar(30)')
    .addColumn('last_error', 'varchar(1000)')
    .addColumn('done_at', 'varchar(30)')
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['done_at', 'run_at']).execute();

  await db.schema
    .createTable('test_submissions')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('file_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'varchar(2000)')
    .addColumn('public_score', 'double precision')
    .addColumn('private_score', 'double precision')
    .addColumn('rows', 'integer')
    .addColumn('selected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('scored_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('test_submissions_team').on('test_submissions').columns(['team_id', 'question_id']).execute();
  await db.schema.createIndex('test_submissions_question').on('test_submissions').columns(['question_id', 'status']).execute();

  // One row per team, question and Beijing day; taking a submission is a conditional increment, so parallel uploads
  // cannot pass the daily limit.
  await db.schema
    .createTable('test_quota')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('test_quota_pk', ['team_id', 'question_id', 'day'])
    .execute();

  await db.schema
    .alterTable('questions')
    .addColumn('leaderboard_published', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
