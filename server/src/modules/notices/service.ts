import {
  NOTICE_KIND,
  NOTICE_STATUS,
  PAY_STATUS,
  REGISTER_STATUS,
  usernameKey,
  type Message,
  type Notice,
  type NoticeBody,
  type NoticeTarget,
  type UnreadCount,
} from '@contest/shared';
import type { ExpressionBuilder } from 'kysely';
import type { Ctx, Deps } from '../../context.ts';
import type { DB, TeamMembersTable } from '../../db/schema.ts';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';
import { sanitizeRichText } from '../../http/html.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { enqueue } from '../../jobs/define.ts';
import { writeAudit } from '../audit-log/repo.ts';
import { manageable, seesAll } from '../competitions/service.ts';
import type { Audience } from './hub.ts';
import { publishJob } from './jobs.ts';

type MemberEb = ExpressionBuilder<DB & { m: TeamMembersTable }, 'm'>;

// ---- Who a target reaches ---------------------------------------------------------------------------------------------

/** The ids of the users a target reaches now, as a query (so publishing copies them with one INSERT ... SELECT). */
function recipientQuery(db: Db, target: NoticeTarget) {
  switch (target.scope) {
    case 'all':
      return db.selectFrom('users').select('users.id as userId');
    case 'users':
      return db.selectFrom('users').select('users.id as userId').where('usernameKey', 'in', target.usernames.map(usernameKey));
    case 'teams':
      return db
        .selectFrom('teamMembers as m')
        .innerJoin('teams as t', 't.id', 'm.teamId')
        .select('m.userId')
        .where('t.competitionId', '=', target.competitionId)
        .where('t.teamNo', 'in', target.teamNos);
    case 'competition': {
      let q = db.selectFrom('teamMembers as m').select('m.userId').where('m.competitionId', '=', target.competitionId);
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

/** An organiser writes to its own competitions' teams; everyone, or any chosen user, is the platform's to reach. */
async function checkTarget(ctx: Ctx, target: NoticeTarget) {
  if (target.scope === 'all' || target.scope === 'users') {
    if (!seesAll(ctx)) throw badRequest('只有平台可以向全体用户或指定用户发送通知', { target: '只有平台可以向全体用户或指定用户发送通知' });
    return null;
  }
  await manageable(ctx, target.competitionId).catch(() => {
    throw badRequest('请选择本组织的竞赛', { 'target.competitionId': '请选择本组织的竞赛' });
  });
  return target.competitionId;
}

export async function countRecipients(ctx: Ctx, target: NoticeTarget) {
  await checkTarget(ctx, target);
  const { count } = await ctx.db
    .selectFrom(recipientQuery(ctx.db, target).distinct().as('r'))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return { count: Number(count) };
}

// ---- Writing and publishing -----------------------------------------------------------------------------------------------

const noticeRows = (db: Db) =>
  db
    .selectFrom('notices as n')
    .leftJoin('competitions as c', 'c.id', 'n.competitionId')
    .leftJoin('users as u', 'u.id', 'n.authorId')
    .select((eb) => [
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
      'u.username as author',
      'n.orgId',
      'n.createdAt',
      'n.updatedAt',
      eb.selectFrom('noticeRecipients as r').select((s) => s.fn.countAll<number>().as('n')).whereRef('r.noticeId', '=', 'n.id').where('r.readAt', 'is not', null).as('reads'),
    ]);
type NoticeRow = Awaited<ReturnType<ReturnType<typeof noticeRows>['executeTakeFirstOrThrow']>>;
const toNotice = ({ targetJson, orgId: _org, reads, ...r }: NoticeRow): Notice => ({ ...r, target: JSON.parse(targetJson) as NoticeTarget, reads: Number(reads ?? 0) });

/** The notices the caller may manage: the platform's all, an organiser's those of its organisation. */
function scoped(ctx: Ctx) {
  const q = noticeRows(ctx.db);
  return seesAll(ctx) ? q : q.where('n.orgId', '=', ctx.actor!.orgId ?? -1);
}

export async function noticePage(ctx: Ctx, q: { page: number; limit: number; kind?: number; status?: number; keyword?: string }) {
  let query = scoped(ctx);
  if (q.kind !== undefined) query = query.where('n.kind', '=', q.kind);
  if (q.status !== undefined) query = query.where('n.status', '=', q.status);
  if (q.keyword) query = query.where(containsText('n.title', q.keyword));
  const { total } = await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.orderBy('n.id', 'desc').limit(q.limit).offset((q.page - 1) * q.limit).execute();
  return { list: rows.map(toNotice), total: Number(total) };
}

async function managedNotice(ctx: Ctx, id: number) {
  const row = await scoped(ctx).where('n.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('通知不存在');
  return row;
}

export async function create(ctx: Ctx, body: NoticeBody) {
  const competitionId = await checkTarget(ctx, body.target);
  const now = ctx.clock.now().toISOString();
  const { id } = await ctx.db
    .insertInto('notices')
    .values({ kind: body.kind, title: body.title, content: sanitizeRichText(body.content), targetJson: JSON.stringify(body.target), competitionId, orgId: seesAll(ctx) ? null : ctx.actor!.orgId, authorId: ctx.actor!.userId, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeAudit(ctx, { action: 'notice.create', entity: 'notice', entityId: id, after: body });
  return toNotice(await managedNotice(ctx, id));
}

export async function update(ctx: Ctx, id: number, body: NoticeBody) {
  const before = await managedNotice(ctx, id);
  if (before.status === NOTICE_STATUS.published) throw conflict('已发布的通知不能修改');
  const competitionId = await checkTarget(ctx, body.target);
  const { numUpdatedRows } = await ctx.db
    .updateTable('notices')
    .set({ kind: body.kind, title: body.title, content: sanitizeRichText(body.content), targetJson: JSON.stringify(body.target), competitionId, updatedAt: ctx.clock.now().toISOString() })
    .where('id', '=', id)
    .where('status', '!=', NOTICE_STATUS.published)
    .executeTakeFirst();
  if (!Number(numUpdatedRows)) throw conflict('已发布的通知不能修改');
  await writeAudit(ctx, { action: 'notice.update', entity: 'notice', entityId: id, before: toNotice(before), after: body });
  return toNotice(await managedNotice(ctx, id));
}

/**
 * Copies the recipients into their boxes and marks the notice published, once: the conditional update from an
 * unpublished state lets one of several concurrent publishers through.
 */
async function deliver(deps: Pick<Deps, 'db' | 'clock' | 'hub' | 'log'>, id: number, expected: number[]): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  const done = await deps.db.transaction().execute(async (trx) => {
    const notice = await trx.selectFrom('notices').select(['kind', 'targetJson']).where('id', '=', id).executeTakeFirst();
    if (!notice) return null;
    const { numUpdatedRows } = await trx.updateTable('notices').set({ status: NOTICE_STATUS.published, publishedAt: now, updatedAt: now }).where('id', '=', id).where('status', 'in', expected).executeTakeFirst();
    if (!Number(numUpdatedRows)) return null;
    const target = JSON.parse(notice.targetJson) as NoticeTarget;
    const users = recipientQuery(trx, target).distinct();
    await trx
      .insertInto('noticeRecipients')
      .columns(['noticeId', 'userId', 'kind', 'publishedAt'])
      .expression(trx.selectFrom(users.as('x')).select((eb) => [eb.val(id).as('noticeId'), 'x.userId', eb.val(notice.kind).as('kind'), eb.val(now).as('publishedAt')]))
      .execute();
    const { n } = await trx.selectFrom('noticeRecipients').select((eb) => eb.fn.countAll<number>().as('n')).where('noticeId', '=', id).executeTakeFirstOrThrow();
    await trx.updateTable('notices').set({ recipients: Number(n) }).where('id', '=', id).execute();
    return target.scope === 'all' ? ('all' as const) : id;
  });
  if (done === null) return false;
  await tellBoxes(deps, done === 'all' ? 'all' : await recipientIds(deps.db, id));
  return true;
}

const recipientIds = async (db: Db, noticeId: number) => (await db.selectFrom('noticeRecipients').select('userId').where('noticeId', '=', noticeId).execute()).map((r) => r.userId);

/** A change of unread counts reaches the open streams; a failing channel never undoes what was saved. */
async function tellBoxes(deps: Pick<Deps, 'hub' | 'log'>, audience: Audience) {
  await deps.hub.notify(audience).catch((err: unknown) => deps.log.error({ err }, 'notice channel failed'));
}

/** `POST /{id}`: publishes at once, or schedules publishing through the job runner. */
export async function publish(ctx: Ctx, id: number, publishAt: string | null | undefined) {
  const before = await managedNotice(ctx, id);
  if (before.status === NOTICE_STATUS.published) throw conflict('该通知已发布');
  const now = ctx.clock.now();
  if (publishAt && new Date(publishAt) > now) {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('notices').set({ status: NOTICE_STATUS.scheduled, publishAt, updatedAt: now.toISOString() }).where('id', '=', id).where('status', '!=', NOTICE_STATUS.published).execute();
      await enqueue(trx, publishJob, { noticeId: id }, now, new Date(publishAt));
      await writeAudit(ctx, { action: 'notice.schedule', entity: 'notice', entityId: id, after: { publishAt } }, trx);
    });
  } else {
    if (!(await deliver(ctx, id, [NOTICE_STATUS.draft, NOTICE_STATUS.scheduled]))) throw conflict('该通知已发布');
    await writeAudit(ctx, { action: 'notice.publish', entity: 'notice', entityId: id });
  }
  return toNotice(await managedNotice(ctx, id));
}

/** Publishes a scheduled notice once its time has come (the publishing job, see jobs.ts). */
export async function publishScheduled(deps: Deps, noticeId: number) {
  const n = await deps.db.selectFrom('notices').select(['status', 'publishAt']).where('id', '=', noticeId).executeTakeFirst();
  // Deleted, published already, or moved to a later time (whose own job will come).
  if (!n || n.status !== NOTICE_STATUS.scheduled || !n.publishAt || new Date(n.publishAt) > deps.clock.now()) return;
  await deliver(deps, noticeId, [NOTICE_STATUS.scheduled]);
}

/** Deleting a published notice takes it out of every box too. */
export async function remove(ctx: Ctx, id: number) {
  const before = await managedNotice(ctx, id);
  const ids = before.status === NOTICE_STATUS.published ? (before.recipients > 5000 ? 'all' : await recipientIds(ctx.db, id)) : [];
  await ctx.db.deleteFrom('notices').where('id', '=', id).execute();
  await writeAudit(ctx, { action: 'notice.delete', entity: 'notice', entityId: id, before: toNotice(before) });
  if (ids === 'all' || ids.length) await tellBoxes(ctx, ids);
}

/**
 * An automatic personal message from the platform (invitation, review result, payment, grade...), published at once.
 * It never fails the action that caused it: a problem is logged.
 */
export async function notify(deps: Pick<Deps, 'db' | 'clock' | 'hub' | 'log'>, userIds: number[], message: { title: string; content?: string; source: string }) {
  const ids = [...new Set(userIds)];
  if (!ids.length) return;
  try {
    const users = await deps.db.selectFrom('users').select('username').where('id', 'in', ids).execute();
    if (!users.length) return;
    const now = deps.clock.now().toISOString();
    const { id } = await deps.db
      .insertInto('notices')
      .values({ kind: NOTICE_KIND.personal, title: message.title, content: message.content ? `<p>${escapeHtml(message.content)}</p>` : null, targetJson: JSON.stringify({ scope: 'users', usernames: users.map((u) => u.username) }), source: message.source, createdAt: now, updatedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await deliver(deps, id, [NOTICE_STATUS.draft]);
  } catch (err) {
    deps.log.error({ err, source: message.source }, 'automatic message failed');
  }
}
const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

// ---- A user's box -----------------------------------------------------------------------------------------------------------

/** A notice to every participant of a competition, with no narrowing by registration, payment or works. */
function toEveryParticipant(target: NoticeTarget) {
  return target.scope === 'competition' && !target.registerStatus && !target.payStatus && !target.works;
}

/**
 * Notices to all participants of a competition reach those who join it later too: publishing copied the participants
 * of that moment, so whoever joined since gets their copy (unread, dated as the notice) the next time their box or the
 * competition page is read. The primary key (notice, user) makes concurrent catch-ups add each copy once. Notices
 * narrowed to a state (unpaid teams, pending registrations...) described the teams of their moment and are not copied.
 * Returns how many copies were added.
 */
export async function catchUp(db: Db, userId: number, competitionId?: number): Promise<number> {
  let q = db
    .selectFrom('notices as n')
    .select(['n.id', 'n.kind', 'n.targetJson', 'n.publishedAt'])
    .where('n.status', '=', NOTICE_STATUS.published)
    .where('n.competitionId', 'in', db.selectFrom('teamMembers as m').select('m.competitionId').where('m.userId', '=', userId))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('noticeRecipients as r').select('r.noticeId').whereRef('r.noticeId', '=', 'n.id').where('r.userId', '=', userId))));
  if (competitionId !== undefined) q = q.where('n.competitionId', '=', competitionId);
  const missing = (await q.execute()).filter((n) => n.publishedAt && toEveryParticipant(JSON.parse(n.targetJson) as NoticeTarget));
  if (!missing.length) return 0;
  const added = await db
    .insertInto('noticeRecipients')
    .values(missing.map((n) => ({ noticeId: n.id, userId, kind: n.kind, publishedAt: n.publishedAt! })))
    .onConflict((oc) => oc.columns(['noticeId', 'userId']).doNothing())
    .returning('noticeId')
    .execute();
  if (added.length) {
    // The notice's recipient count follows its copies.
    await db
      .updateTable('notices')
      .set((eb) => ({ recipients: eb.selectFrom('noticeRecipients as r').select((s) => s.fn.countAll<number>().as('n')).whereRef('r.noticeId', '=', 'notices.id') }))
      .where('id', 'in', added.map((a) => a.noticeId))
      .execute();
  }
  return added.length;
}

export async function unread(db: Db, userId: number): Promise<UnreadCount> {
  await catchUp(db, userId);
  const rows = await db
    .selectFrom('noticeRecipients')
    .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
    .where('userId', '=', userId)
    .where('readAt', 'is', null)
    .groupBy('kind')
    .execute();
  const of = (kind: number) => Number(rows.find((r) => r.kind === kind)?.n ?? 0);
  const person = of(NOTICE_KIND.personal);
  const system = of(NOTICE_KIND.system);
  return { person, system, total: person + system };
}

export async function box(ctx: Ctx, kind: number, q: { page: number; limit: number; unread?: string }) {
  await catchUp(ctx.db, ctx.actor!.userId);
  return messagePage(ctx.db, ctx.actor!.userId, q, (query) => {
    const ofKind = query.where('r.kind', '=', kind);
    return q.unread ? ofKind.where('r.readAt', 'is', null) : ofKind;
  });
}

/** A page of the user's own message copies, newest first, narrowed by `narrow`; each with its read mark. */
async function messagePage(db: Db, userId: number, q: { page: number; limit: number }, narrow: (query: ReturnType<typeof ownCopies>) => ReturnType<typeof ownCopies>) {
  const query = narrow(ownCopies(db, userId));
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['n.id', 'n.kind', 'n.title', 'n.content', 'r.publishedAt', 'r.readAt'])
    .orderBy('r.publishedAt', 'desc')
    .orderBy('n.id', 'desc')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  const list: Message[] = rows.map(({ readAt, ...r }) => ({ ...r, read: readAt !== null }));
  return { list, total: Number(total) };
}

const ownCopies = (db: Db, userId: number) => db.selectFrom('noticeRecipients as r').innerJoin('notices as n', 'n.id', 'r.noticeId').where('r.userId', '=', userId);

/** Marks one of the caller's messages read (another user's answers as missing), or all of a kind. */
export async function markRead(ctx: Ctx, id: number | 'all', kind?: number) {
  let q = ctx.db.updateTable('noticeRecipients').set({ readAt: ctx.clock.now().toISOString() }).where('userId', '=', ctx.actor!.userId).where('readAt', 'is', null);
  if (id !== 'all') {
    const mine = await ctx.db.selectFrom('noticeRecipients').select('noticeId').where('noticeId', '=', id).where('userId', '=', ctx.actor!.userId).executeTakeFirst();
    if (!mine) throw notFound('消息不存在');
    q = q.where('noticeId', '=', id);
  } else if (kind !== undefined) q = q.where('kind', '=', kind);
  const { numUpdatedRows } = await q.executeTakeFirst();
  if (Number(numUpdatedRows)) await tellBoxes(ctx, [ctx.actor!.userId]);
  return unread(ctx.db, ctx.actor!.userId);
}

/**
 * `GET /competition/{id}`: the notices of one competition that reach the caller (its announcements on the site), newest
 * first, with the caller's read mark. Only the caller's own copies are read, so a notice narrowed to other teams (unpaid,
 * pending...) or another competition's never shows; a visitor has none.
 */
export async function competitionNotices(ctx: Ctx, competitionId: number, q: { page: number; limit: number }) {
  const userId = ctx.actor?.userId;
  if (userId === undefined) return { list: [] as Message[], total: 0 };
  if (await catchUp(ctx.db, userId, competitionId)) await tellBoxes(ctx, [userId]);
  return messagePage(ctx.db, userId, q, (query) => query.where('n.competitionId', '=', competitionId));
}

// ---- Automatic messages of the other modules ----------------------------------------------------------------------------------

type NotifyDeps = Pick<Deps, 'db' | 'clock' | 'hub' | 'log'>;

export async function teamUserIds(db: Db, teamIds: number[]) {
  if (!teamIds.length) return [];
  return (await db.selectFrom('teamMembers').select('userId').where('teamId', 'in', teamIds).execute()).map((r) => r.userId);
}

/** Tells each order's team that it was paid, or closed unpaid. */
export async function orderMessages(deps: NotifyDeps, orderIds: number[], what: 'paid' | 'closed') {
  if (!orderIds.length) return;
  const rows = await deps.db
    .selectFrom('orders as o')
    .innerJoin('competitions as c', 'c.id', 'o.competitionId')
    .select(['o.orderNo', 'o.teamId', 'c.name'])
    .where('o.id', 'in', orderIds)
    .execute();
  for (const o of rows) {
    const message =
      what === 'paid'
        ? { title: '订单已支付', content: `“${o.name}”的报名费订单 ${o.orderNo} 已支付成功。`, source: 'order.paid' }
        : { title: '订单已关闭', content: `“${o.name}”的报名费订单 ${o.orderNo} 超时未支付，已关闭；如需缴费请重新发起支付。`, source: 'order.closed' };
    await notify(deps, await teamUserIds(deps.db, [o.teamId]), message);
  }
}
