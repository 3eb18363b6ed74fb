import { sql, type Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * 公示 and embeddable boards (issue 38 items 3 and 4): a competition's 公示期 (`publicity_start`, `publicity_end`) and
 * the origins allowed to frame its embeddable pages (`embed_origins`, a JSON list). An objection to the provisional
 * award list is a row of the dispute queue (`score_disputes.kind` 'objection', by a verified user about any team's
 * result, with an optional attachment): the queue's "once per team and question" now holds for a team's own disputes
 * only (SQLite cannot drop a table constraint in place, so there the table is rebuilt).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema.alterTable('competitions').addColumn('publicity_start', 'varchar(30)').execute();
  await db.schema.alterTable('competitions').addColumn('publicity_end', 'varchar(30)').execute();
  await db.schema.alterTable('competitions').addColumn('embed_origins', 'text').execute();

  if (ctx.dialect === 'postgres') {
    await sql`alter table score_disputes drop constraint score_disputes_once`.execute(db);
    await db.schema
      .alterTable('score_disputes')
      .addColumn('kind', 'varchar(10)', (c) => c.notNull().defaultTo('dispute'))
      .execute();
    await db.schema.alterTable('score_disputes').addColumn('attachment_key', 'varchar(200)').execute();
  } else {
    await db.schema
      .createTable('score_disputes_new')
      .addColumn('id', 'integer', (c) => idColumn(c, ctx))
      .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
      .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('answer', 'text')
      .addColumn('rereview', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('answered_by', 'integer', (c) => c.references('users.id'))
      .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
      .addColumn('answered_at', 'varchar(30)')
      .addColumn('kind', 'varchar(10)', (c) => c.notNull().defaultTo('dispute'))
      .addColumn('attachment_key', 'varchar(200)')
      .execute();
    await sql`
      insert into score_disputes_new (id, question_id, team_id, user_id, reason, status, answer, rereview, answered_by, created_at, answered_at)
      select id, question_id, team_id, user_id, reason, status, answer, rereview, answered_by, created_at, answered_at from score_disputes`.execute(db);
    await db.schema.dropTable('score_disputes').execute();
    await db.schema.alterTable('score_disputes_new').renameTo('score_disputes').execute();
  }
  // A team disputes its grade on a question once; objections are many (one per person and line is the service's rule).
  await db.schema
    .createIndex('score_disputes_once')
    .on('score_disputes')
    .columns(['question_id', 'team_id'])
    .unique()
    .where(sql.ref('kind'), '=', 'dispute')
    .execute();
  await db.schema
    .createIndex('score_disputes_objection_once')
    .on('score_disputes')
    .columns(['question_id', 'team_id', 'user_id'])
    .unique()
    .where(sql.ref('kind'), '=', 'objection')
    .execute();
  await db.schema.createIndex('score_disputes_question').on('score_disputes').columns(['question_id', 'status']).execute();
}
