import { sql, type ExpressionBuilder, type Insertable, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB, OutboxMessagesTable } from '../../db/schema.ts';

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
    .returning(['id', 'channel', 'recipient', 'purpose', 'subject', 'body', 'idempotencyKey', 'attempts', 'userId', 'noticeId'])
    .executeTakeFirst();

export const findMessage = (db: Db, id: number) => db.selectFrom('outboxMessages').selectAll().where('id', '=', id).executeTakeFirst();

/** Moves a message on from `from` (the state this worker knows it in); false when it had already moved. */
export async function settle(
  db: Db,
  id: number,
  from: OutboxState,
  v: { state: OutboxState; error?: string | null; providerMessageId?: string; sentAt?: string; body?: string; retryAt?: string | null; now: string },
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
      ...(v.retryAt !== undefined && { retryAt: v.retryAt }),
    })
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

// ---- Messages to many: a notice's emails and texts, reminders ------------------------------------------------------

export type Channel = 'email' | 'sms';

/**
 * Queues a message for each of `userIds` who has a verified address on the channel, is enabled, and has not turned off
 * `kind` on it: one INSERT ... SELECT, whose idempotency keys (`keyPrefix` and the user id) make a batch written twice
 * queue nobody twice. No job per message: the drain delivers them. Answers how many were queued.
 */
export async function queueForUsers(
  db: Db,
  v: {
    channel: Channel;
    kind: string;
    purpose: string;
    userIds: number[];
    subject: string | null;
    body: string;
    keyPrefix: string;
    senderId: number | null;
    orgId: number | null;
    noticeId: number | null;
    now: string;
  },
) {
  if (!v.userIds.length) return 0;
  const address = v.channel === 'email' ? 'u.verifiedEmail' : 'u.verifiedPhone';
  const res = await db
    .insertInto('outboxMessages')
    .columns(['channel', 'recipient', 'purpose', 'subject', 'body', 'idempotencyKey', 'senderId', 'orgId', 'userId', 'noticeId', 'createdAt', 'updatedAt'])
    .expression(
      db
        .selectFrom('users as u')
        .select((eb) => [
          eb.val(v.channel).as('channel'),
          eb.ref(address).$castTo<string>().as('recipient'),
          eb.val(v.purpose).as('purpose'),
          eb.val(v.subject).as('subject'),
          eb.val(v.body).as('body'),
          sql<string>`cast(${v.keyPrefix} as text) || cast(u.id as text)`.as('idempotencyKey'),
          eb.val(v.senderId).as('senderId'),
          eb.val(v.orgId).as('orgId'),
          'u.id as userId',
          eb.val(v.noticeId).as('noticeId'),
          eb.val(v.now).as('createdAt'),
          eb.val(v.now).as('updatedAt'),
        ])
        .where('u.id', 'in', v.userIds)
        .where(address, 'is not', null)
        .where('u.status', '=', 1)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('messageOptouts as o')
                .select('o.userId')
                .whereRef('o.userId', '=', 'u.id')
                .where('o.kind', '=', v.kind)
                .where('o.channel', '=', v.channel),
            ),
          ),
        ),
    )
    .onConflict((oc) => oc.column('idempotencyKey').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0);
}

/**
 * How many users of a recipients query (none: every user) would get a message on each channel now: those with a verified
 * address, less those who turned this kind off there. Counted on the unique indexes of the addresses, not row by row,
 * so that counting an audience of 190,000 (the editor asks as the target changes) holds SQLite's event loop briefly.
 */
export async function reachable(db: Db, users: SelectQueryBuilder<DB, 'users', { userId: number }> | undefined, kind: string) {
  const count = async (channel: Channel) => {
    const address = channel === 'email' ? 'verifiedEmail' : 'verifiedPhone';
    let q = db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(address, 'is not', null);
    if (users) q = q.where('id', 'in', users);
    let off = db
      .selectFrom('messageOptouts as o')
      .innerJoin('users as u', 'u.id', 'o.userId')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('o.kind', '=', kind)
      .where('o.channel', '=', channel)
      .where(`u.${address}`, 'is not', null);
    if (users) off = off.where('u.id', 'in', users);
    const [all, out] = await Promise.all([q.executeTakeFirst(), off.executeTakeFirst()]);
    return Number(all?.n ?? 0) - Number(out?.n ?? 0);
  };
  return { emails: await count('email'), texts: await count('sms') };
}

/**
 * The next queued messages of one sender organisation, taking organisations in turn (`after`: the last one served; -1
 * to start with the platform's own messages, which have none): so one organisation's notice to 190,000 users takes its
 * turn beside another's few, never ahead of them. Each query reads the (state, org_id, id) index.
 */
export async function nextQueued(db: Db, after: number, limit: number, now: string): Promise<{ org: number; ids: number[] } | null> {
  const due = (eb: ExpressionBuilder<DB, 'outboxMessages'>) => eb.or([eb('retryAt', 'is', null), eb('retryAt', '<=', now)]);
  if (after < 0) {
    const rows = await db
      .selectFrom('outboxMessages')
      .select('id')
      .where('state', '=', 'queued')
      .where('orgId', 'is', null)
      .where(due)
      .orderBy('id')
      .limit(limit)
      .execute();
    if (rows.length) return { org: 0, ids: rows.map((r) => r.id) };
  }
  let from = Math.max(after, 0);
  // The next organisation with a message due (one whose messages all wait for a retry is passed over).
  for (;;) {
    const next = await db
      .selectFrom('outboxMessages')
      .select('orgId')
      .where('state', '=', 'queued')
      .where('orgId', '>', from)
      .orderBy('orgId')
      .limit(1)
      .executeTakeFirst();
    if (!next?.orgId) return null;
    const rows = await db
      .selectFrom('outboxMessages')
      .select('id')
      .where('state', '=', 'queued')
      .where('orgId', '=', next.orgId)
      .where(due)
      .orderBy('id')
      .limit(limit)
      .execute();
    if (rows.length) return { org: next.orgId, ids: rows.map((r) => r.id) };
    from = next.orgId;
  }
}

/** Per notice and channel, how its messages stand: the tallies kept as they were queued and settled. */
export const noticeCounts = (db: Db, noticeIds: number[]) =>
  noticeIds.length ? db.selectFrom('outboxTallies').selectAll().where('noticeId', 'in', noticeIds).execute() : Promise.resolve([]);

/** Adds to a notice's tally of a channel: messages queued (`total`), or settled as sent or failed. */
export async function tally(db: Db, noticeId: number, channel: string, column: 'total' | 'sent' | 'failed', n = 1) {
  if (n <= 0) return;
  await db
    .insertInto('outboxTallies')
    .values({ noticeId, channel, [column]: n })
    .onConflict((oc) => oc.columns(['noticeId', 'channel']).doUpdateSet((eb) => ({ [column]: eb(eb.ref(`outboxTallies.${column}`), '+', n) })))
    .execute();
}

// ---- Preferences ----------------------------------------------------------------------------------------------------

export const optouts = (db: Db, userId: number) => db.selectFrom('messageOptouts').select(['kind', 'channel']).where('userId', '=', userId).execute();

/** Replaces a user's preferences: the rows are the kinds and channels turned off. */
export async function setOptouts(db: Db, userId: number, off: { kind: string; channel: string }[], now: string) {
  await db.deleteFrom('messageOptouts').where('userId', '=', userId).execute();
  if (off.length)
    await db
      .insertInto('messageOptouts')
      .values(off.map((o) => ({ userId, ...o, createdAt: now })))
      .execute();
}

export async function addOptout(db: Db, v: { userId: number; kind: string; channel: string; now: string }) {
  await db
    .insertInto('messageOptouts')
    .values({ userId: v.userId, kind: v.kind, channel: v.channel, createdAt: v.now })
    .onConflict((oc) => oc.columns(['userId', 'kind', 'channel']).doNothing())
    .execute();
}

export const verifiedAddresses = (db: Db, userId: number) =>
  db.selectFrom('users').select(['verifiedEmail', 'verifiedPhone', 'email', 'phone']).where('id', '=', userId).executeTakeFirst();
