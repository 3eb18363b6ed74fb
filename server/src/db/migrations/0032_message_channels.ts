import type { Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * Notices that reach people (issue 35): a notice may also go by email and SMS (`by_email`, `by_sms`); the outbox's
 * messages name the user they go to and the notice they carry (`user_id`, `notice_id`), so the sender sees how many
 * went, and an email's unsubscribe link knows whose preference to change; `message_optouts` are those preferences: a
 * row turns off one kind of message (notice, result, reminder, account) on one channel (email, sms) for one user,
 * everything else goes (in-app messages always do).
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('notices')
    .addColumn('by_email', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('notices')
    .addColumn('by_sms', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('outbox_messages').addColumn('user_id', 'integer').execute();
  await db.schema.alterTable('outbox_messages').addColumn('notice_id', 'integer').execute();
  // A message the provider refused for now waits until then before the drain tries it again.
  await db.schema.alterTable('outbox_messages').addColumn('retry_at', 'varchar(30)').execute();
  await db.schema.createIndex('outbox_messages_notice').on('outbox_messages').columns(['notice_id', 'channel', 'state']).execute();
  // The drain takes queued messages an organisation at a time, oldest first.
  await db.schema.createIndex('outbox_messages_state').on('outbox_messages').columns(['state', 'org_id', 'id']).execute();
  // How a notice's emails and texts stand, kept as they are queued and settled: the back office reads three numbers,
  // not a count over hundreds of thousands of messages.
  await db.schema
    .createTable('outbox_tallies')
    .addColumn('notice_id', 'integer', (c) => c.notNull())
    .addColumn('channel', 'varchar(10)', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('outbox_tallies_pk', ['notice_id', 'channel'])
    .execute();
  await db.schema
    .createTable('message_optouts')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('channel', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_optouts_pk', ['user_id', 'kind', 'channel'])
    .execute();
}
