import type { Kysely } from 'kysely';
import { idColumn, type MigrationContext } from './helpers.ts';

/**
 * The outbox of emails and text messages (issue 35): each message is a row written in the same transaction as the
 * event that causes it, and a job delivers it. `idempotency_key` (one per message and recipient) is unique, so an event
 * written twice queues one message. `state`: queued, sending (a worker has it), sent, failed (with the provider's
 * reason in `error`), bounced (the provider refused the recipient) or unknown (a worker stopped while sending: never
 * sent again, so nothing goes out twice).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', 'integer', (c) => idColumn(c, ctx))
    .addColumn('channel', 'varchar(10)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(255)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('subject', 'varchar(200)')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(200)', (c) => c.notNull().unique())
    // Who caused it, and for which organisation (none: the platform's own messages).
    .addColumn('sender_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('org_id', 'integer', (c) => c.references('organisations.id'))
    .addColumn('state', 'varchar(10)', (c) => c.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('provider_message_id', 'varchar(255)')
    .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
    .addColumn('sent_at', 'varchar(30)')
    .execute();
  await db.schema.createIndex('outbox_messages_sender').on('outbox_messages').columns(['sender_id', 'id']).execute();
  await db.schema.createIndex('outbox_messages_org').on('outbox_messages').columns(['org_id', 'id']).execute();
}
