import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OutboxMessagesTable } from '../../db/schema.ts';

/** Every query of the outbox of emails and text messages. */

export type OutboxState = 'queued' | 'sending' | 'sent' | 'failed' | 'bounced' | 'unknown';

/** Adds a message unless one with its idempotency key exists; answers the new row's id, or undefined for a repeat. */
export async function insertMessage(db: Db, v: Omit<Insertable<OutboxMessagesTable>, 'state' | 'attempts'>) {
  const row = await db
    .insertInto('outboxMessages')
    .values(v)
    .onConflict((oc) => oc.column('idempotencyKey').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * Takes a queued message for sending: marks it `sending` and counts the attempt, in one statement, so two workers never
 * both take it. Undefined when it is not queued (sent, given up, or left `sending` by a worker that stopped).
 */
export const claim = (db: Db, id: number, now: string) =>
  db
    .updateTable('outboxMessages')
    .set((eb) => ({ state: 'sending', attempts: eb('attempts', '+', 1), updatedAt: now }))
    .where('id', '=', id)
    .where('state', '=', 'queued')
    .returning(['id', 'channel', 'recipient', 'subject', 'body', 'idempotencyKey', 'attempts'])
    .executeTakeFirst();

export const findMessage = (db: Db, id: number) => db.selectFrom('outboxMessages').selectAll().where('id', '=', id).executeTakeFirst();

/** Moves a message on from `from` (the state this worker knows it in); false when it had already moved. */
export async function settle(
  db: Db,
  id: number,
  from: OutboxState,
  v: { state: OutboxState; error?: string | null; providerMessageId?: string; sentAt?: string; body?: string; now: string },
) {
  const res = await db
    .updateTable('outboxMessages')
    .set({
      state: v.state,
      updatedAt: v.now,
      ...(v.error !== undefined && { error: v.error }),
      ...(v.providerMessageId !== undefined && { providerMessageId: v.providerMessageId }),
      ...(v.sentAt !== undefined && { sentAt: v.sentAt }),
      ...(v.body !== undefined && { body: v.body }),
    })
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
