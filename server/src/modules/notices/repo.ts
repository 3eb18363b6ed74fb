import { NOTICE_STATUS, PAY_STATUS, REGISTER_STATUS, usernameKey, type NoticeTarget } from '@contest/shared';
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { DB, TeamMembersTable } from '../../db/schema.ts';
import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';

/** Every query of notices and the users' copies of them (their boxes). */

type MemberEb = ExpressionBuilder<DB & { m: TeamMembersTable }, 'm'>;

/** Whose the competition a notice is sent for is (what the policy judges), if it exists. */
export const competitionOrg = (db: Db, id: number) => db.selectFrom('competitions').select('orgId').where('id', '=', id).executeTakeFirst();

// ---- Who a target reaches ---------------------------------------------------------------------------------------------

/** A slice of user ids, `after` < id <= `upTo`: what one delivery batch covers (keyset on the user id). */
export type UserRange = { after: number; upTo: number };

/**
 * The ids of the users a target reaches now, as a query (so delivering copies them with one INSERT ... SELECT),
 * optionally only those in a range of user ids: every branch filters on its own user id column, so a batch reads the
 * index from where the previous one stopped.
 */
export function recipientQuery(db: Db, target: NoticeTarget, range?: UserRange) {
  switch (target.scope) {
    case 'all':
    case 'users': {
      let q = db.selectFrom('users').select('users.id as userId');
      if (target.scope === 'users') q = q.where('usernameKey', 'in', target.usernames.map(usernameKey));
      return range ? q.where('users.id', '>', range.after).where('users.id', '<=', range.upTo) : q;
    }
    case 'teams': {
      const q = db
        .selectFrom('teamMembers as m')
        .innerJoin('teams as t', 't.id', 'm.teamId')
        .select('m.userId')
        .where('t.competitionId', '=', target.competitionId)
        .where('t.teamNo', 'in', target.teamNos);
      return range ? q.where('m.userId', '>', range.after).where('m.userId', '<=', range.upTo) : q;
    }
    case 'competition': {
      let q = db.selectFrom('teamMembers as m').select('m.userId').where('m.competitionId', '=', target.competitionId);
      if (range) q = q.where('m.userId', '>', range.after).where('m.userId', '<=', range.upTo);
      if (target.registerStatus) {
        const status = REGISTER_STATUS[target.registerStatus];
        q = q.where((eb) => eb.exists(eb.selectFrom('registers as r').select('r.id').whereRef('r.teamId', '=', 'm.teamId').where('r.status', '=', status)));
      }
      if (target.payStatus) {
        const paid = (eb: MemberEb) =>
          eb.exists(eb.selectFrom('orders as o').select('o.id').whereRef('o.teamId', '=', 'm.teamId').where('o.payStatus', '=', PAY_STATUS.paid));
        q = q.where((eb) => (target.payStatus === 'paid' ? paid(eb) : eb.not(paid(eb))));
      }
      if (target.works) {
        const works = (eb: MemberEb) => eb.exists(eb.selectFrom('works as w').select('w.id').whereRef('w.teamId', '=', 'm.teamId'));
        q = q.where((eb) => (target.works === 'submitted' ? works(eb) : eb.not(works(eb))));
      }
      return q;
    }
  }
}

/** The ids of a target's users as one query shape, whichever scope's tables it reads (for counting who takes email or SMS). */
export const recipientUsers = (db: Db, target: NoticeTarget) => recipientQuery(db, target) as unknown as SelectQueryBuilder<DB, 'users', { userId: number }>;

/**
 * How many users a target reaches now (up to the user id `upTo`, when given). Everyone is the users table's count, which
 * both databases answer without reading each row's id against `upTo` (taken in the same transaction as the greatest id,
 * it is the same number; a user registering in between is put right when delivery ends).
 */
export async function countRecipients(db: Db, target: NoticeTarget, upTo?: number) {
  if (target.scope === 'all') {
    const { count } = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  }
  const { count } = await db
    .selectFrom(
      recipientQuery(db, target, upTo === undefined ? undefined : { after: 0, upTo })
        .distinct()
        .as('r'),
    )
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The greatest user id now: a notice reaches the users of its moment, none registered while it is being delivered. */
export async function maxUserId(db: Db) {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id == null ? 0 : Number(row.id);
}

/**
 * The last user id of the next batch of `size` recipients after `after` (keyset on the user id, reading at most `size`
 * index entries), or undefined when fewer remain up to `ceiling`: that batch is the last.
 */
export async function batchEnd(db: Db, target: NoticeTarget, after: number, ceiling: number, size: number) {
  // Each scope's builder has its own tables; all that matters here is the one column they share.
  const users = recipientQuery(db, target, { after, upTo: ceiling }) as unknown as SelectQueryBuilder<DB, 'users', { userId: number }>;
  const row = await users
    .distinct()
    .orderBy('userId')
    .limit(1)
    .offset(size - 1)
    .executeTakeFirst();
  return row ? Number(row.userId) : undefined;
}

// ---- Notices, as the back office manages them ------------------------------------------------------------------------------

const noticeRows = (db: Db) =>
  db
    .selectFrom('notices as n')
    .leftJoin('competitions as c', 'c.id', 'n.competitionId')
    .leftJoin('users as u', 'u.id', 'n.authorId')
    .select([
      'n.id',
      'n.kind',
      'n.title',
      'n.content',
      'n.targetJson',
      'c.name as competitionName',
      'n.status',
      'n.publishAt',
      'n.publishedAt',
      'n.source',
      'n.recipients',
      'n.delivered',
      'n.deliveredAt',
      'n.reads',
      'u.username as author',
      'n.orgId',
      'n.createdAt',
      'n.updatedAt',
      'n.byEmail',
      'n.bySms',
    ]);
export type NoticeRow = Awaited<ReturnType<ReturnType<typeof noticeRows>['executeTakeFirstOrThrow']>>;

/** Notices of the scope's organisation, or all of them (the platform's view). */
const managedRows = (db: Db, scope: OrgScope) => {
  const q = noticeRows(db);
  return q.where(inOrgScope('n.orgId', scope));
};

export async function noticePage(db: Db, scope: OrgScope, q: { page: number; limit: number; kind?: number; status?: number; keyword?: string }) {
  let query = managedRows(db, scope);
  if (q.kind !== undefined) query = query.where('n.kind', '=', q.kind);
  if (q.status !== undefined) query = query.where('n.status', '=', q.status);
  if (q.keyword) query = query.where(containsText('n.title', q.keyword));
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy('n.id', 'desc')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { rows, total: Number(total) };
}

export const findManaged = (db: Db, scope: OrgScope, id: number) => managedRows(db, scope).where('n.id', '=', id).executeTakeFirst();

type Content = { kind: number; title: string; content: string | null; targetJson: string; competitionId: number | null; byEmail?: number; bySms?: number };

export async function insertNotice(db: Db, v: Content & { orgId: number | null; authorId: number | null; source?: string; now: string }) {
  const { now, ...values } = v;
  const { id } = await db
    .insertInto('notices')
    .values({ ...values, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Rewrites a notice not yet published; false when it was published meanwhile. */
export async function updateUnpublished(db: Db, id: number, v: Content & { now: string }) {
  const { now, ...values } = v;
  const { numUpdatedRows } = await db
    .updateTable('notices')
    .set({ ...values, updatedAt: now })
    .where('id', '=', id)
    .where('status', '!=', NOTICE_STATUS.published)
    .executeTakeFirst();
  return Number(numUpdatedRows) > 0;
}

export const schedule = (db: Db, id: number, publishAt: string, now: string) =>
  db
    .updateTable('notices')
    .set({ status: NOTICE_STATUS.scheduled, publishAt, updatedAt: now })
    .where('id', '=', id)
    .where('status', '!=', NOTICE_STATUS.published)
    .execute();

export const findState = (db: Db, id: number) =>
  db.selectFrom('notices').select(['kind', 'targetJson', 'status', 'publishAt']).where('id', '=', id).executeTakeFirst();

export const deleteNotice = (db: Db, id: number) => db.deleteFrom('notices').where('id', '=', id).execute();

/**
 * Marks the notice published if it is still in one of the `expected` states, and sets out its delivery: how many users
 * it is to reach (those of now, up to the greatest user id of now), nothing delivered yet. In the caller's transaction;
 * returns that count, or null when another publisher came first.
 */
export async function startDelivery(trx: Db, id: number, v: { target: NoticeTarget; expected: number[]; now: string }) {
  const { numUpdatedRows } = await trx
    .updateTable('notices')
    .set({ status: NOTICE_STATUS.published, publishedAt: v.now, updatedAt: v.now })
    .where('id', '=', id)
    .where('status', 'in', v.expected)
    .executeTakeFirst();
  if (!Number(numUpdatedRows)) return null;
  const ceiling = await maxUserId(trx);
  const recipients = await countRecipients(trx, v.target, ceiling);
  await trx
    .updateTable('notices')
    .set({ recipients, delivered: 0, reads: 0, deliveryCursor: 0, deliveryCeiling: ceiling, deliveredAt: null })
    .where('id', '=', id)
    .execute();
  return recipients;
}

/** Where a published notice's delivery stands. */
export const deliveryState = (db: Db, id: number) =>
  db
    .selectFrom('notices')
    .select([
      'kind',
      'targetJson',
      'status',
      'publishedAt',
      'deliveryCursor',
      'deliveryCeiling',
      'deliveredAt',
      'title',
      'content',
      'orgId',
      'authorId',
      'byEmail',
      'bySms',
    ])
    .where('id', '=', id)
    .executeTakeFirst();

/**
 * Copies the notice into the boxes of the target's users in `range` that have none yet (one INSERT ... SELECT; the
 * (notice, user) key with insert-or-ignore makes a batch run twice add nobody twice). Returns the users given a copy.
 */
export async function insertCopies(trx: Db, v: { noticeId: number; kind: number; publishedAt: string; target: NoticeTarget; range: UserRange }) {
  const users = recipientQuery(trx, v.target, v.range).distinct();
  const rows = await trx
    .insertInto('noticeRecipients')
    .columns(['noticeId', 'userId', 'kind', 'publishedAt'])
    .expression(
      trx
        .selectFrom(users.as('x'))
        .select((eb) => [eb.val(v.noticeId).as('noticeId'), 'x.userId', eb.val(v.kind).as('kind'), eb.val(v.publishedAt).as('publishedAt')])
        // Also keeps SQLite from reading ON CONFLICT as a join constraint of the SELECT.
        .where('x.userId', '>', v.range.after),
    )
    .onConflict((oc) => oc.columns(['noticeId', 'userId']).doNothing())
    .returning('userId')
    .execute();
  return rows.map((r) => r.userId);
}

/**
 * Records a delivered batch: `added` more copies, delivery now up to `cursor`, and, when `done`, finished, with its
 * recipient count made exact (the copies there are). Only from the cursor the batch started at, so of two runners of
 * one notice only one records a batch; false for the other.
 */
export async function advanceDelivery(trx: Db, id: number, v: { after: number; cursor: number; added: number; done: boolean; now: string }) {
  const { numUpdatedRows } = await trx
    .updateTable('notices')
    .set((eb) => ({
      delivered: eb('delivered', '+', v.added),
      deliveryCursor: v.cursor,
      ...(v.done ? { recipients: eb('delivered', '+', v.added), deliveredAt: v.now } : {}),
    }))
    .where('id', '=', id)
    .where('deliveryCursor', '=', v.after)
    .where('deliveredAt', 'is', null)
    .executeTakeFirst();
  return Number(numUpdatedRows) > 0;
}

export const recipientIds = async (db: Db, noticeId: number) =>
  (await db.selectFrom('noticeRecipients').select('userId').where('noticeId', '=', noticeId).execute()).map((r) => r.userId);

export const usernames = async (db: Db, ids: number[]) =>
  (await db.selectFrom('users').select('username').where('id', 'in', ids).execute()).map((u) => u.username);

// ---- A user's box ---------------------------------------------------------------------------------------------------------

/** Published notices of the user's competitions of which the user has no copy (optionally of one competition). */
export async function uncopiedNotices(db: Db, userId: number, competitionId?: number) {
  let q = db
    .selectFrom('notices as n')
    .select(['n.id', 'n.kind', 'n.targetJson', 'n.publishedAt'])
    .where('n.status', '=', NOTICE_STATUS.published)
    .where('n.competitionId', 'in', db.selectFrom('teamMembers as m').select('m.competitionId').where('m.userId', '=', userId))
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('noticeRecipients as r').select('r.noticeId').whereRef('r.noticeId', '=', 'n.id').where('r.userId', '=', userId))),
    );
  if (competitionId !== undefined) q = q.where('n.competitionId', '=', competitionId);
  return q.execute();
}

/** Adds the user's copies (each once, whoever else adds them at the same time) and keeps the notices' counts; returns how many were added. */
export async function addCopies(db: Db, userId: number, notices: { id: number; kind: number; publishedAt: string }[]) {
  const added = await db
    .insertInto('noticeRecipients')
    .values(notices.map((n) => ({ noticeId: n.id, userId, kind: n.kind, publishedAt: n.publishedAt })))
    .onConflict((oc) => oc.columns(['noticeId', 'userId']).doNothing())
    .returning('noticeId')
    .execute();
  if (added.length) {
    // One user: each notice gained one copy.
    await db
      .updateTable('notices')
      .set((eb) => ({ recipients: eb('recipients', '+', 1), delivered: eb('delivered', '+', 1) }))
      .where(
        'id',
        'in',
        added.map((a) => a.noticeId),
      )
      .execute();
  }
  return added.length;
}

/** Unread copies by kind. */
export async function unreadByKind(db: Db, userId: number) {
  const rows = await db
    .selectFrom('noticeRecipients')
    .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
    .where('userId', '=', userId)
    .where('readAt', 'is', null)
    .groupBy('kind')
    .execute();
  return (kind: number) => Number(rows.find((r) => r.kind === kind)?.n ?? 0);
}

const ownCopies = (db: Db, userId: number) =>
  db.selectFrom('noticeRecipients as r').innerJoin('notices as n', 'n.id', 'r.noticeId').where('r.userId', '=', userId);
export type OwnCopies = ReturnType<typeof ownCopies>;

/** A page of the user's own copies, newest first, narrowed by `narrow`. */
export async function copiesPage(db: Db, userId: number, q: { page: number; limit: number }, narrow: (query: OwnCopies) => OwnCopies) {
  const query = narrow(ownCopies(db, userId));
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['n.id', 'n.kind', 'n.title', 'n.content', 'r.publishedAt', 'r.readAt'])
    .orderBy('r.publishedAt', 'desc')
    .orderBy('n.id', 'desc')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { rows, total: Number(total) };
}

export const hasCopy = async (db: Db, userId: number, noticeId: number) =>
  Boolean(await db.selectFrom('noticeRecipients').select('noticeId').where('noticeId', '=', noticeId).where('userId', '=', userId).executeTakeFirst());

const READ_CHUNK = 500;

/**
 * Marks the user's unread copies read: one notice, all of a kind, or all; returns how many changed. Each notice's read
 * counter grows by the copies this statement turned from unread to read (never one already read, whoever marked it at
 * the same time), in the caller's transaction.
 */
export async function markRead(trx: Db, userId: number, which: { noticeId?: number; kind?: number }, now: string) {
  let q = trx.updateTable('noticeRecipients').set({ readAt: now }).where('userId', '=', userId).where('readAt', 'is', null);
  if (which.noticeId !== undefined) q = q.where('noticeId', '=', which.noticeId);
  else if (which.kind !== undefined) q = q.where('kind', '=', which.kind);
  const flipped = (await q.returning('noticeId').execute()).map((r) => r.noticeId).sort((a, b) => a - b);
  // In id order, so two users marking many notices read at once take the notices' rows in the same order.
  for (let i = 0; i < flipped.length; i += READ_CHUNK) {
    await trx
      .updateTable('notices')
      .set((eb) => ({ reads: eb('reads', '+', 1) }))
      .where('id', 'in', flipped.slice(i, i + READ_CHUNK))
      .execute();
  }
  return flipped.length;
}

// ---- For the automatic messages ------------------------------------------------------------------------------------------

export async function teamUserIds(db: Db, teamIds: number[]) {
  if (!teamIds.length) return [];
  return (await db.selectFrom('teamMembers').select('userId').where('teamId', 'in', teamIds).execute()).map((r) => r.userId);
}

export const ordersWithCompetition = (db: Db, orderIds: number[]) =>
  db
    .selectFrom('orders as o')
    .innerJoin('competitions as c', 'c.id', 'o.competitionId')
    .select(['o.orderNo', 'o.teamId', 'c.name'])
    .where('o.id', 'in', orderIds)
    .execute();
