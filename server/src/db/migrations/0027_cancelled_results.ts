import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * The organiser's 取消成绩 (issue 33): a test submission's score can be cancelled with a reason
 * (`test_submissions.cancel_reason`, `cancelled_at`), which takes it off the boards; a team can be disqualified from a
 * question (`disqualifications`), which takes it off the question's boards and grades. 恢复 clears either.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('test_submissions').addColumn('cancel_reason', 'text').execute();
  await db.schema.alterTable('test_submissions').addColumn('cancelled_at', 'text').execute();
  await db.schema
    .createTable('disqualifications')
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('disqualifications_pk', ['question_id', 'team_id'])
    .execute();
}
