import {
  NOTICE_KIND,
  NOTICE_STATUS,
  toEveryParticipant,
  type Message,
  type Notice,
  type PermissionCode,
  type NoticeBody,
  type NoticeTarget,
  type UnreadCount,
  type MessageKind,
} from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { sanitizeRichText } from '../../http/html.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { enqueue, jobsQueued } from '../../jobs/define.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as policy from '../../policy.ts';
import type { Audience } from '../../realtime/hub.ts';

export type { HubEvent } from '../../realtime/hub.ts';
import { deliverJob, publishJob } from './jobs.ts';
import * as repo from './repo.ts';
import { holdersOf } from '../roles/index.ts';
import * as outbox from '../outbox/index.ts';
import sanitizeHtml from 'sanitize-html';

/** An organiser writes to its own competitions' teams; everyone, or any chosen user, is the platform's to reach. */
async function checkTarget(ctx: AuthedCtx, target: NoticeTarget) {
  if (target.scope === 'all' || target.scope === 'users') {
    if (!policy.isPlatform(ctx)) throw badRequest('只有平台可以向全体用户或指定用户发送通知', { target: '只有平台可以向全体用户或指定用户发送通知' });
    return null;
  }
  if (!policy.manages(ctx, await repo.competitionOrg(ctx.db, target.competitionId))) {
    throw badRequest('请选择本组织的竞赛', { 'target.competitionId': '请选择本组织的竞赛' });
  }
  return target.competitionId;
}

/** How many users a target reaches now, and how many of them an email and a text would reach (shown before sending). */
export async function countRecipients(ctx: AuthedCtx, target: NoticeTarget) {
  await checkTarget(ctx, target);
  const count = await repo.countRecipients(ctx.db, target);
  return { count, ...(await outbox.reachable(ctx.db, target.scope === 'all' ? undefined : repo.recipientUsers(ctx.db, target), 'notice')) };
}

// ---- Writing and publishing -----------------------------------------------------------------------------------------------

type Messages = Awaited<ReturnType<typeof outbox.noticeMessages>>;
const toNotice = ({ targetJson, orgId: _org, byEmail, bySms, ...r }: repo.NoticeRow, messages?: Messages): Notice => ({
  ...r,
  target: JSON.parse(targetJson) as NoticeTarget,
  channels: { email: byEmail === 1, sms: bySms === 1 },
  messages: messages?.get(r.id) ?? { email: { queued: 0, sent: 0, failed: 0 }, sms: { queued: 0, sent: 0, failed: 0 } },
});
/** Notices as the back office shows them, with how their emails and texts stand. */
const withMessages = async (db: Db, rows: repo.NoticeRow[]) => {
  const messages = await outbox.noticeMessages(
    db,
    rows.filter((r) => r.byEmail || r.bySms).map((r) => r.id),
  );
  return rows.map((r) => toNotice(r, messages));
};

/** Whose notices the caller manages: the platform all, an organiser those of its organisation. */
const managedOrg = (ctx: AuthedCtx) => policy.orgScope(ctx);

export async function noticePage(ctx: AuthedCtx, q: { page: number; limit: number; kind?: number; status?: number; keyword?: string }) {
  const { rows, total } = await repo.noticePage(ctx.db, managedOrg(ctx), q);
  return { list: await withMessages(ctx.db, rows), total };
}

async function managedNotice(ctx: AuthedCtx, id: number) {
  const row = await repo.findManaged(ctx.db, managedOrg(ctx), id);
  if (!row) throw notFound('通知不存在');
  return row;
}

const content = (body: NoticeBody, competitionId: number | null) => ({
  kind: body.kind,
  title: body.title,
  content: sanitizeRichText(body.content),
  targetJson: JSON.stringify(body.target),
  competitionId,
  byEmail: body.channels?.email ? 1 : 0,
  bySms: body.channels?.sms ? 1 : 0,
});

export async function create(ctx: AuthedCtx, body: NoticeBody) {
  const competitionId = await checkTarget(ctx, body.target);
  const id = await repo.insertNotice(ctx.db, {
    ...content(body, competitionId),
    orgId: policy.isPlatform(ctx) ? null : ctx.actor.orgId,
    authorId: ctx.actor.userId,
    now: ctx.clock.now().toISOString(),
  });
  await writeAudit(ctx, { action: 'notice.create', entity: 'notice', entityId: id, after: body });
  return (await withMessages(ctx.db, [await managedNotice(ctx, id)]))[0]!;
}

export async function update(ctx: AuthedCtx, id: number, body: NoticeBody) {
  const before = await managedNotice(ctx, id);
  if (before.status === NOTICE_STATUS.published) throw conflict('已发布的通知不能修改');
  const competitionId = await checkTarget(ctx, body.target);
  if (!(await repo.updateUnpublished(ctx.db, id, { ...content(body, competitionId), now: ctx.clock.now().toISOString() })))
    throw conflict('已发布的通知不能修改');
  await writeAudit(ctx, { action: 'notice.update', entity: 'notice', entityId: id, before: toNotice(before), after: body });
  return (await withMessages(ctx.db, [await managedNotice(ctx, id)]))[0]!;
}

/** An audience this small is delivered inside the publishing transaction (a users/teams list, an automatic message). */
export const INLINE_DELIVERY = 1000;

type DeliverDeps = Pick<Deps, 'db' | 'clock' | 'hub' | 'log' | 'config'>;

/** A notice's text for an email: its content without markup, a link to the message box, and the unsubscribe link. */
function emailText(config: Deps['config'], title: string, content: string | null) {
  const plain = sanitizeHtml((content ?? '').replace(/<\/(p|div|h\d|li)>|<br\s*\/?>/gi, '\n'), { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return [
    title,
    '',
    plain,
    '',
    config.publicUrl ? `在平台查看：${config.publicUrl}/message` : '请登录竞赛平台查看消息。',
    '',
    '不想再收到竞赛通知邮件？一键退订：{{unsubscribe}}',
  ].join('\n');
}

/** A batch's recipients who take notices by email or SMS get them (queued in the batch's transaction). */
async function queueMessages(
  trx: Db,
  config: Deps['config'],
  n: { id: number; title: string; content: string | null; orgId: number | null; authorId: number | null; byEmail: number; bySms: number },
  users: number[],
  now: Date,
) {
  const common = { kind: 'notice' as const, userIds: users, key: `notice:${n.id}`, senderId: n.authorId, orgId: n.orgId, noticeId: n.id };
  if (n.byEmail)
    await outbox.queueForUsers(trx, now, { ...common, channel: 'email', email: { subject: n.title, text: emailText(config, n.title, n.content) } });
  if (n.bySms) await outbox.queueForUsers(trx, now, { ...common, channel: 'sms', sms: { template: 'notice', params: { title: n.title.slice(0, 30) } } });
}

/** Another runner recorded this batch first (a job run twice): this one's copies are rolled back, nothing is lost. */
class BatchTaken extends Error {}

/**
 * One batch of a published notice's delivery, in the caller's transaction: copies for the next `size` recipients after
 * the notice's cursor (keyset on user id, never beyond the greatest user id when it was published), then the cursor,
 * the delivered counter and, at the end, the finished mark, moved only from where the batch started. Null when there is
 * nothing to deliver (deleted, or finished already). The one code path of every delivery, inline or by the job.
 */
async function deliverBatch(trx: Db, config: Deps['config'], id: number, size: number, now: string): Promise<{ users: number[]; done: boolean } | null> {
  const s = await repo.deliveryState(trx, id);
  if (!s || s.status !== NOTICE_STATUS.published || s.deliveredAt !== null || !s.publishedAt) return null;
  const target = JSON.parse(s.targetJson) as NoticeTarget;
  const after = s.deliveryCursor;
  const ceiling = s.deliveryCeiling ?? 0;
  const end = after < ceiling ? await repo.batchEnd(trx, target, after, ceiling, size) : undefined;
  const upTo = end ?? ceiling;
  const users = upTo > after ? await repo.insertCopies(trx, { noticeId: id, kind: s.kind, publishedAt: s.publishedAt, target, range: { after, upTo } }) : [];
  if (users.length && (s.byEmail || s.bySms)) await queueMessages(trx, config, { ...s, id }, users, new Date(now));
  const done = upTo >= ceiling;
  if (!(await repo.advanceDelivery(trx, id, { after, cursor: upTo, added: users.length, done, now }))) throw new BatchTaken();
  return { users, done };
}

/**
 * Publishes a notice, once: the conditional update from an unpublished state lets one of several concurrent publishers
 * through, and saves how many users it is to reach. A small audience is delivered in the same transaction; a larger one
 * by the delivery job (jobs.ts), enqueued in it too, so the request answers at once and the sender watches the progress.
 */
async function deliver(deps: DeliverDeps, id: number, expected: number[]): Promise<boolean> {
  const now = deps.clock.now();
  const users = await deps.db.transaction().execute(async (trx) => {
    const notice = await repo.findState(trx, id);
    if (!notice) return null;
    const target = JSON.parse(notice.targetJson) as NoticeTarget;
    const recipients = await repo.startDelivery(trx, id, { target, expected, now: now.toISOString() });
    if (recipients === null) return null;
    if (recipients <= INLINE_DELIVERY) {
      const batch = await deliverBatch(trx, deps.config, id, INLINE_DELIVERY + 1, now.toISOString());
      if (batch?.done) return batch.users;
    }
    await enqueue(trx, deliverJob, { noticeId: id }, now);
    return [];
  });
  if (users === null) return false;
  if (users.length) await tellBoxes(deps, users);
  return true;
}

/**
 * The delivery job's run: one batch of `size` recipients, and the job again for the next one until done, enqueued in
 * the batch's transaction so a batch is never recorded without its successor. The users of each batch hear of it on
 * their open message streams as soon as it is committed (one hub event per batch, naming them).
 */
export async function deliverNext(deps: DeliverDeps, noticeId: number, size: number) {
  // Between two batches the event loop serves whatever waits (SQLite's queries run on it).
  await new Promise((resolve) => setImmediate(resolve));
  const now = deps.clock.now();
  let batch: Awaited<ReturnType<typeof deliverBatch>>;
  try {
    batch = await deps.db.transaction().execute(async (trx) => {
      const b = await deliverBatch(trx, deps.config, noticeId, size, now.toISOString());
      if (b && !b.done) await enqueue(trx, deliverJob, { noticeId }, now);
      return b;
    });
  } catch (err) {
    // A second runner of the same notice: the first carries on, this chain ends here.
    if (err instanceof BatchTaken) return;
    throw err;
  }
  if (batch?.users.length) await tellBoxes(deps, batch.users);
}

/** A change of unread counts reaches the open streams; a failing channel never undoes what was saved. */
async function tellBoxes(deps: Pick<Deps, 'hub' | 'log'>, audience: Audience) {
  await deps.hub.notify(audience).catch((err: unknown) => deps.log.error({ err }, 'notice channel failed'));
}

/** `POST /{id}`: publishes at once, or schedules publishing through the job runner. */
export async function publish(ctx: AuthedCtx, id: number, publishAt: string | null | undefined) {
  const before = await managedNotice(ctx, id);
  if (before.status === NOTICE_STATUS.published) throw conflict('该通知已发布');
  const now = ctx.clock.now();
  if (publishAt && new Date(publishAt) > now) {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.schedule(trx, id, publishAt, now.toISOString());
      await enqueue(trx, publishJob, { noticeId: id }, now, new Date(publishAt));
      await writeAudit(ctx, { action: 'notice.schedule', entity: 'notice', entityId: id, after: { publishAt } }, trx);
    });
  } else {
    if (!(await deliver(ctx, id, [NOTICE_STATUS.draft, NOTICE_STATUS.scheduled]))) throw conflict('该通知已发布');
    await writeAudit(ctx, { action: 'notice.publish', entity: 'notice', entityId: id });
  }
  return (await withMessages(ctx.db, [await managedNotice(ctx, id)]))[0]!;
}

/** Publishes a scheduled notice once its time has come (the publishing job, see jobs.ts). */
export async function publishScheduled(deps: Deps, noticeId: number) {
  const n = await repo.findState(deps.db, noticeId);
  // Deleted, published already, or moved to a later time (whose own job will come).
  if (!n || n.status !== NOTICE_STATUS.scheduled || !n.publishAt || new Date(n.publishAt) > deps.clock.now()) return;
  await deliver(deps, noticeId, [NOTICE_STATUS.scheduled]);
}

/** Deleting a published notice takes it out of every box too. */
export async function remove(ctx: AuthedCtx, id: number) {
  const before = await managedNotice(ctx, id);
  const ids = before.status === NOTICE_STATUS.published ? (before.delivered > 5000 ? 'all' : await repo.recipientIds(ctx.db, id)) : [];
  await repo.deleteNotice(ctx.db, id);
  await writeAudit(ctx, { action: 'notice.delete', entity: 'notice', entityId: id, before: toNotice(before) });
  if (ids === 'all' || ids.length) await tellBoxes(ctx, ids);
}

/**
 * An automatic personal message from the platform (invitation, review result, payment, grade...), published at once.
 * It never fails the action that caused it: a problem is logged.
 */
export async function notify(
  deps: Pick<Deps, 'db' | 'clock' | 'hub' | 'log' | 'config'>,
  userIds: number[],
  message: { title: string; content?: string; source: string },
) {
  const ids = [...new Set(userIds)];
  if (!ids.length) return;
  try {
    const names = await repo.usernames(deps.db, ids);
    if (!names.length) return;
    const id = await repo.insertNotice(deps.db, {
      kind: NOTICE_KIND.personal,
      title: message.title,
      content: message.content ? `<p>${escapeHtml(message.content)}</p>` : null,
      targetJson: JSON.stringify({ scope: 'users', usernames: names }),
      competitionId: null,
      orgId: null,
      authorId: null,
      source: message.source,
      now: deps.clock.now().toISOString(),
    });
    await deliver(deps, id, [NOTICE_STATUS.draft]);
    // Messages of a kind people take by email and SMS too (per their preferences) go there as well.
    const kind = MESSAGE_KIND_OF_SOURCE[message.source];
    if (kind) {
      const now = deps.clock.now();
      const common = { kind, userIds: ids, key: `notice:${id}`, noticeId: id };
      const text = [
        message.title,
        '',
        message.content ?? '',
        '',
        deps.config.publicUrl ? `在平台查看：${deps.config.publicUrl}/message` : '请登录竞赛平台查看消息。',
        '',
        '不想再收到这类邮件？一键退订：{{unsubscribe}}',
      ].join('\n');
      await deps.db.transaction().execute(async (trx) => {
        await outbox.queueForUsers(trx, now, { ...common, channel: 'email', email: { subject: message.title, text } });
        await outbox.queueForUsers(trx, now, { ...common, channel: 'sms', sms: { template: 'notice', params: { title: message.title.slice(0, 30) } } });
      });
      jobsQueued();
    }
  } catch (err) {
    deps.log.error({ err, source: message.source }, 'automatic message failed');
  }
}
/** Automatic messages that also go by email and SMS, by the kind people choose them by (reminders send their own). */
const MESSAGE_KIND_OF_SOURCE: Record<string, MessageKind | undefined> = {
  'register.approved': 'result',
  'register.rejected': 'result',
  'register.school': 'result',
  // A student a school's coordinator registered learns it by SMS or email too: the account may be new to them.
  'register.imported': 'result',
  'grade.published': 'result',
  'certificate.ready': 'result',
  'realname.result': 'account',
  'account.password': 'account',
};

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

// ---- A user's box -----------------------------------------------------------------------------------------------------------

/** A notice to every participant of a competition, with no narrowing by registration, payment or works. */

/**
 * Notices to all participants of a competition reach those who join it later too: publishing copied the participants
 * of that moment, so whoever joined since gets their copy (unread, dated as the notice) the next time their box or the
 * competition page is read. The primary key (notice, user) makes concurrent catch-ups add each copy once. Notices
 * narrowed to a state (unpaid teams, pending registrations...) described the teams of their moment and are not copied.
 * Returns how many copies were added.
 */
export async function catchUp(db: Db, userId: number, competitionId?: number): Promise<number> {
  const missing = (await repo.uncopiedNotices(db, userId, competitionId)).filter(
    (n) => n.publishedAt && toEveryParticipant(JSON.parse(n.targetJson) as NoticeTarget),
  );
  if (!missing.length) return 0;
  return repo.addCopies(
    db,
    userId,
    missing.map((n) => ({ id: n.id, kind: n.kind, publishedAt: n.publishedAt! })),
  );
}

export async function unread(db: Db, userId: number): Promise<UnreadCount> {
  await catchUp(db, userId);
  const of = await repo.unreadByKind(db, userId);
  const person = of(NOTICE_KIND.personal);
  const system = of(NOTICE_KIND.system);
  return { person, system, total: person + system };
}

export async function box(ctx: AuthedCtx, kind: number, q: { page: number; limit: number; unread?: string }) {
  await catchUp(ctx.db, ctx.actor.userId);
  return messagePage(ctx.db, ctx.actor.userId, q, (query) => {
    const ofKind = query.where('r.kind', '=', kind);
    return q.unread ? ofKind.where('r.readAt', 'is', null) : ofKind;
  });
}

/** A page of the user's own message copies, newest first, narrowed by `narrow`; each with its read mark. */
async function messagePage(db: Db, userId: number, q: { page: number; limit: number }, narrow: (query: repo.OwnCopies) => repo.OwnCopies) {
  const { rows, total } = await repo.copiesPage(db, userId, q, narrow);
  const list: Message[] = rows.map(({ readAt, ...r }) => ({ ...r, read: readAt !== null }));
  return { list, total };
}

/** Marks one of the caller's messages read (another user's answers as missing), or all of a kind. */
export async function markRead(ctx: AuthedCtx, id: number | 'all', kind?: number) {
  const userId = ctx.actor.userId;
  if (id !== 'all' && !(await repo.hasCopy(ctx.db, userId, id))) throw notFound('消息不存在');
  const now = ctx.clock.now().toISOString();
  const changed = await ctx.db.transaction().execute((trx) => repo.markRead(trx, userId, id === 'all' ? { kind } : { noticeId: id }, now));
  if (changed) await tellBoxes(ctx, [userId]);
  return unread(ctx.db, userId);
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

type NotifyDeps = Pick<Deps, 'db' | 'clock' | 'hub' | 'log' | 'config'>;

export const teamUserIds = repo.teamUserIds;

/**
 * Tells the organisation's staff whose work it is (the active holders of `code` in it) that something waits for them:
 * a registration to review, an invoice to issue, a dispute to answer. The to-do home counts the same things.
 */
export async function tellStaff(deps: NotifyDeps, code: PermissionCode, orgId: number | null, message: { title: string; content: string; source: string }) {
  if (orgId === null) return;
  await notify(deps, await holdersOf(deps.db, code, orgId), message);
}

/** Tells each order's team that it was paid, or closed unpaid. */
export async function orderMessages(deps: NotifyDeps, orderIds: number[], what: 'paid' | 'closed') {
  if (!orderIds.length) return;
  for (const o of await repo.ordersWithCompetition(deps.db, orderIds)) {
    const message =
      what === 'paid'
        ? { title: '订单已支付', content: `“${o.name}”的报名费订单 ${o.orderNo} 已支付成功。`, source: 'order.paid' }
        : { title: '订单已关闭', content: `“${o.name}”的报名费订单 ${o.orderNo} 超时未支付，已关闭；如需缴费请重新发起支付。`, source: 'order.closed' };
    await notify(deps, await repo.teamUserIds(deps.db, [o.teamId]), message);
  }
}
