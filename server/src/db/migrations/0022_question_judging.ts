import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * How a question's result is made (issue 33), as its organiser chooses: `review` (experts judge the works), `auto` (the
 * private board of the test files is the result) or `both` (combined by the review rule's weights). A question without
 * an evaluation was judged by experts only; one with an evaluation combined both, as every question did before.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('questions')
    .addColumn('judging', 'varchar(8)', (c) => c.notNull().defaultTo('both'))
    .execute();
  await sql`update questions set judging = 'review' where metric is null`.execute(db);
}
