import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Deadline reminders (issue 35): a row per team reminded of a submission deadline in one window (24 hours or 1 hour
 * before), whose primary key lets exactly one of several workers sweeping at once remind a team of a deadline: the
 * team inserted is the team reminded. A deadline moved is a new deadline, reminded again.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('reminders_sent')
    .addColumn('competition_id', 'integer', (c) => c.notNull().references('competitions.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('deadline', 'varchar(30)', (c) => c.notNull())
    .addColumn('window', 'varchar(5)', (c) => c.notNull())
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('reminders_sent_pk', ['competition_id', 'kind', 'deadline', 'window', 'team_id'])
    .execute();
}
