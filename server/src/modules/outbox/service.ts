import { MESSAGE_KINDS, MESSAGE_KIND_KEYS, type MessageKind, type MessagePreferences, type OutboxCounts } from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../http/errors.ts';
import { enqueue, hasPendingJob } from '../../jobs/define.ts';
import { MailError } from '../../mail/smtp.ts';
import { SmsError, type SmsTemplatePurpose } from '../../sms/provider.ts';
import { writeAudit } from '../audit-log/index.ts';
import { sendNow } from '../sms/index.ts';
import { drainJob, sendJob } from './jobs.ts';
import * as repo from './repo.ts';

/** What a message is for: a verification code, a notice, a reminder, an account's own mail, or a test send. */
export type Purpose = 'code' | 'notice' | 'result' | 'reminder' | 'account' | 'test';

export interface QueuedEmail {
  to: string;
  subject: string;
  text: string;
  purpose: Purpose;
  /** One per message and recipient (`notice:12:user:7`): the same event written twice queues one email. */
  key: string;
  senderId?: number | null;
  orgId?: number | null;
}

/**
 * Queues an email in `db`, the transaction of the event that causes it, with the job that delivers it: both are
 * written or neither. Answers the message's id, or undefined when its key was queued before. Tell the workers
 * (`jobsQueued()`) once the transaction has committed.
 */
export async function queueEmail(db: Db, now: Date, email: QueuedEmail) {
  const at = now.toISOString();
  const id = await repo.insertMessage(db, {
    channel: 'email',
    recipient: email.to,
    purpose: email.purpose,
    subject: email.subject,
    body: email.text,
    idempotencyKey: email.key,
    senderId: email.senderId ?? null,
    orgId: email.orgId ?? null,
    createdAt: at,
    updatedAt: at,
  });
  if (id !== undefined) await enqueue(db, sendJob, { messageId: id }, now);
  return id;
}

export interface QueuedSms {
  to: string;
  /** Which of the provider's templates carries it, and the template's parameters. */
  template: SmsTemplatePurpose;
  params: Record<string, string>;
  purpose: Purpose;
  key: string;
  senderId?: number | null;
  orgId?: number | null;
}

/** A text's body: its template's parameters as JSON; sealed (AES-GCM, like the payment keys) when they hold a code. */
const SEALED = /^v1\./;
const paramsOf = (cipher: Deps['cipher'], body: string) => JSON.parse(SEALED.test(body) ? cipher.decrypt(body) : body) as Record<string, string>;

/**
 * Queues a text message in `db`, the transaction of the event that causes it, as queueEmail does. A code's parameters
 * are sealed while it waits, and masked once it is sent (only its keyed hash is kept, in phone_codes).
 */
export async function queueSms(db: Db, cipher: Deps['cipher'], now: Date, sms: QueuedSms) {
  const at = now.toISOString();
  const json = JSON.stringify(sms.params);
  const id = await repo.insertMessage(db, {
    channel: 'sms',
    recipient: sms.to,
    purpose: sms.purpose,
    subject: sms.template,
    body: sms.template === 'code' ? cipher.encrypt(json) : json,
    idempotencyKey: sms.key,
    senderId: sms.senderId ?? null,
    orgId: sms.orgId ?? null,
    createdAt: at,
    updatedAt: at,
  });
  if (id !== undefined) await enqueue(db, sendJob, { messageId: id }, now);
  return id;
}

/**
 * Queues one message per user of `userIds` who has a verified address on the channel and has not turned this kind of
 * message off (in the caller's transaction), and makes sure the drain runs to deliver them. An email's text may hold
 * `{{unsubscribe}}`, replaced when it is sent by the recipient's own one-click link. Answers how many were queued.
 */
export async function queueForUsers(
  db: Db,
  now: Date,
  m: {
    channel: repo.Channel;
    kind: MessageKind;
    userIds: number[];
    /** An email's subject and text; a text's template and parameters. */
    email?: { subject: string; text: string };
    sms?: { template: Exclude<SmsTemplatePurpose, 'code'>; params: Record<string, string> };
    key: string;
    senderId?: number | null;
    orgId?: number | null;
    noticeId?: number | null;
  },
) {
  let queued = 0;
  // In statements of QUEUE_CHUNK users, the event loop served between them: each holds it briefly (SQLite's queries
  // run on it), however large the batch.
  for (let i = 0; i < m.userIds.length; i += QUEUE_CHUNK) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    queued += await repo.queueForUsers(db, {
      channel: m.channel,
      kind: m.kind,
      purpose: m.kind,
      userIds: m.userIds.slice(i, i + QUEUE_CHUNK),
      subject: m.channel === 'email' ? (m.email?.subject ?? '') : (m.sms?.template ?? 'notice'),
      body: m.channel === 'email' ? (m.email?.text ?? '') : JSON.stringify(m.sms?.params ?? {}),
      keyPrefix: `${m.key}:${m.channel}:user:`,
      senderId: m.senderId ?? null,
      orgId: m.orgId ?? null,
      noticeId: m.noticeId ?? null,
      now: now.toISOString(),
    });
  }
  if (m.noticeId) await repo.tally(db, m.noticeId, m.channel, 'total', queued);
  if (queued > 0 && !(await hasPendingJob(db, drainJob))) await enqueue(db, drainJob, {}, now);
  return queued;
}

/** Users per statement when queueing messages to many. */
const QUEUE_CHUNK = 500;

/** How many users of a recipients query an email and a text would reach now. */
export const reachable = repo.reachable;

/** What the message says when a worker stopped while sending it. */
export const INTERRUPTED = '发送过程中断，无法确认是否已送达；为避免重复发送，不再重试';
export const NO_MAIL_SERVER = '未配置邮件服务器（SMTP_URL），邮件未发送';
/** Attempts a message of the drain gets before it fails with the last passing refusal, and the pause after each. */
const DRAIN_ATTEMPTS = 8;
const drainBackoffMs = (attempts: number) => Math.min(10 * 60_000, 30_000 * 2 ** (attempts - 1));
/** What messages to many may use of the provider's rate: the rest stays for codes and links people wait for. */
const BULK_SHARE = 0.8;

/**
 * Sends one message, at most once; answers how long to wait when the provider's rate is used up (nothing was claimed
 * then). A message found `sending` was being sent by a worker that stopped (killed, or its machine lost): whether it
 * went out cannot be known, so it becomes `unknown` and is never sent again. Within the rate (MAIL_PER_MINUTE or
 * SMS_PER_MINUTE, counted across workers in the shared limiter; messages to many only up to BULK_SHARE of it) it is
 * sent now. A refusal the provider will repeat ends it (`failed`, or `bounced` for a refused recipient, with the
 * provider's words); anything else puts it back in the queue and throws, for the caller's retry with backoff.
 */
/**
 * Moves a message on from `from`; a message of a notice that ends (sent, or failed, bounced, unknown) counts in the
 * notice's tally, once: only when this call moved it.
 */
async function settle(deps: Deps, m: { id: number; channel: string; noticeId: number | null }, from: repo.OutboxState, v: Parameters<typeof repo.settle>[3]) {
  const moved = await repo.settle(deps.db, m.id, from, v);
  if (moved && m.noticeId !== null && v.state !== 'queued' && v.state !== 'sending')
    await repo.tally(deps.db, m.noticeId, m.channel, v.state === 'sent' ? 'sent' : 'failed');
}

async function deliverOne(deps: Deps, messageId: number, bulk: boolean): Promise<{ waitMs: number } | 'retry' | undefined> {
  const at = () => deps.clock.now().toISOString();
  const found = await repo.findMessage(deps.db, messageId);
  if (!found) return;
  if (found.state === 'sending') {
    await settle(deps, found, 'sending', { state: 'unknown', error: INTERRUPTED, now: at() });
    return;
  }
  if (found.state !== 'queued') return;
  const channel = found.channel === 'sms' ? 'sms' : 'email';
  const perMinute = channel === 'sms' ? deps.config.sms.perMinute : deps.config.mailPerMinute;
  if (bulk) {
    const share = await deps.limiter.hit(`outbox:${channel}:bulk`, Math.max(1, Math.floor(perMinute * BULK_SHARE)), 60_000);
    if (!share.allowed) return { waitMs: share.retryAfterMs };
  }
  const rate = await deps.limiter.hit(`outbox:${channel}`, perMinute, 60_000);
  if (!rate.allowed) return { waitMs: rate.retryAfterMs };

  const message = await repo.claim(deps.db, messageId, at());
  if (!message) return;
  try {
    const sent = channel === 'sms' ? await sendSms(deps, message) : await sendEmail(deps, message);
    const now = at();
    await settle(deps, message, 'sending', {
      state: 'sent',
      providerMessageId: sent.providerId,
      sentAt: now,
      error: null,
      now,
      ...(sent.body && { body: sent.body }),
    });
  } catch (err) {
    const e = err instanceof MailError || err instanceof SmsError ? err : new MailError('retry', (err as Error).message);
    if (e.outcome === 'retry') {
      const lastTry = bulk && message.attempts >= DRAIN_ATTEMPTS;
      const retryAt = bulk && !lastTry ? new Date(deps.clock.now().getTime() + drainBackoffMs(message.attempts)).toISOString() : undefined;
      await settle(deps, message, 'sending', { state: lastTry ? 'failed' : 'queued', error: e.reason, now: at(), ...(retryAt && { retryAt }) });
      if (!bulk) throw e;
      // Refused for now (a busy mailbox, greylisting): this message waits, the others go on.
      return lastTry ? undefined : 'retry';
    }
    await settle(deps, message, 'sending', { state: e.outcome, error: e.reason, now: at() });
  }
}

type Claimed = NonNullable<Awaited<ReturnType<typeof repo.claim>>>;

async function sendEmail(deps: Deps, message: Claimed): Promise<{ providerId: string; body?: string }> {
  if (!deps.mailer) throw new MailError('failed', NO_MAIL_SERVER);
  const unsubscribe = message.userId !== null && isKind(message.purpose) ? unsubscribeLinks(deps, message.userId, message.purpose, 'email') : null;
  const text = message.body.replace('{{unsubscribe}}', unsubscribe?.page ?? '请登录平台，在“个人中心 → 消息设置”中修改');
  return deps.mailer.send({
    to: message.recipient,
    subject: message.subject ?? '',
    text,
    key: message.idempotencyKey,
    ...(unsubscribe?.oneClick && { headers: { 'List-Unsubscribe': `<${unsubscribe.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }),
  });
}

async function sendSms(deps: Deps, message: Claimed): Promise<{ providerId: string; body?: string }> {
  const template = (message.subject ?? 'notice') as SmsTemplatePurpose;
  const params = paramsOf(deps.cipher, message.body);
  const { providerId } = await sendNow(deps, { phone: message.recipient, purpose: template, params });
  // A code is not kept once sent.
  return { providerId, ...(template === 'code' && { body: deps.cipher.encrypt(JSON.stringify({ ...params, code: '******' })) }) };
}

/**
 * The job of one message (a code, a link): sends it now; past the provider's rate its job is queued again for when the
 * window has room, without waiting here.
 */
export async function deliver(deps: Deps, messageId: number) {
  const wait = await deliverOne(deps, messageId, false);
  if (typeof wait === 'object') {
    const now = deps.clock.now();
    await enqueue(deps.db, sendJob, { messageId }, now, new Date(now.getTime() + wait.waitMs));
  }
}

/** Messages a drain run sends at once (the SMTP pool and the provider take them in parallel). */
const DRAIN_PARALLEL = 4;
/** Messages of one organisation a drain takes before the next organisation's turn. */
const DRAIN_TURN = 20;
/** Passing refusals in a row after which the provider is taken to be down and the drain pauses. */
const DOWN_AFTER = 8;
/** Turns one drain run takes before it queues itself again (so other jobs get the worker in between). */
const DRAIN_TURNS = 25;

/**
 * The drain: delivers messages to many (a notice's emails and texts, reminders) without a job each, an organisation's
 * turn at a time (`after`: the last served), so that no organisation's flood holds another's messages back. Within a
 * turn a few go at once; past the rate the drain queues itself again for when the window has room.
 */
export async function drain(deps: Deps, after = -1) {
  let cursor = after;
  let refusedInRow = 0;
  for (let turn = 0; turn < DRAIN_TURNS; turn++) {
    const next = await repo.nextQueued(deps.db, cursor, DRAIN_TURN, deps.clock.now().toISOString());
    if (!next) {
      if (cursor < 0) return;
      cursor = -1;
      continue;
    }
    cursor = next.org;
    for (let i = 0; i < next.ids.length; i += DRAIN_PARALLEL) {
      const outcomes = await Promise.all(next.ids.slice(i, i + DRAIN_PARALLEL).map((id) => deliverOne(deps, id, true)));
      refusedInRow = outcomes.every((o) => o === 'retry') ? refusedInRow + outcomes.length : 0;
      const wait = outcomes.find((o) => typeof o === 'object');
      // Past the rate, or the provider refusing message after message (it is down): the drain pauses.
      const pause = typeof wait === 'object' ? wait.waitMs : refusedInRow >= DOWN_AFTER ? drainBackoffMs(1) : 0;
      if (pause) {
        const now = deps.clock.now();
        await enqueue(deps.db, drainJob, { after: cursor - 1 }, now, new Date(now.getTime() + pause));
        return;
      }
    }
    // Between turns the event loop serves whatever waits.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await enqueue(deps.db, drainJob, { after: cursor }, deps.clock.now());
}

/** The job used up its attempts on passing refusals: the message failed, with the last reason. */
export async function gaveUp(deps: Deps, messageId: number, error: string) {
  const found = await repo.findMessage(deps.db, messageId);
  if (found) await settle(deps, found, 'queued', { state: 'failed', error: found.error ?? error, now: deps.clock.now().toISOString() });
}

// ---- What senders see --------------------------------------------------------------------------------------------------

const zero = (): OutboxCounts => ({ queued: 0, sent: 0, failed: 0 });

/** Per notice, how its emails and texts stand: waiting (queued or being sent), sent, refused (failed, bounced, unknown). */
export async function noticeMessages(db: Db, noticeIds: number[]) {
  const out = new Map<number, { email: OutboxCounts; sms: OutboxCounts }>();
  for (const id of noticeIds) out.set(id, { email: zero(), sms: zero() });
  for (const r of await repo.noticeCounts(db, noticeIds)) {
    const counts = out.get(r.noticeId)?.[r.channel === 'sms' ? 'sms' : 'email'];
    if (!counts) continue;
    counts.sent = Number(r.sent);
    counts.failed = Number(r.failed);
    counts.queued = Math.max(0, Number(r.total) - counts.sent - counts.failed);
  }
  return out;
}

// ---- Preferences and one-click unsubscribing ---------------------------------------------------------------------------

const isKind = (k: string): k is MessageKind => (MESSAGE_KIND_KEYS as string[]).includes(k);

/** A user's preferences: every kind, email and SMS on unless turned off. */
export async function preferences(ctx: AuthedCtx): Promise<MessagePreferences> {
  const off = new Set((await repo.optouts(ctx.db, ctx.actor.userId)).map((o) => `${o.kind}:${o.channel}`));
  const me = await repo.verifiedAddresses(ctx.db, ctx.actor.userId);
  return {
    kinds: MESSAGE_KIND_KEYS.map((kind) => ({ kind, email: !off.has(`${kind}:email`), sms: !off.has(`${kind}:sms`) })),
    emailVerified: Boolean(me?.verifiedEmail),
    phoneVerified: Boolean(me?.verifiedPhone),
  };
}

export async function savePreferences(ctx: AuthedCtx, kinds: { kind: MessageKind; email: boolean; sms: boolean }[]) {
  const off = kinds.flatMap((k) => [...(k.email ? [] : [{ kind: k.kind, channel: 'email' }]), ...(k.sms ? [] : [{ kind: k.kind, channel: 'sms' }])]);
  await ctx.db.transaction().execute((trx) => repo.setOptouts(trx, ctx.actor.userId, off, ctx.clock.now().toISOString()));
  await writeAudit(ctx, { action: 'user.messagePreferences', entity: 'user', entityId: ctx.actor.userId, after: { off } });
  return preferences(ctx);
}

/** An unsubscribe token: the user, the kind and the channel, with a MAC under a key derived from SECRET_KEY. */
function unsubscribeToken(deps: Pick<Deps, 'cipher'>, userId: number, kind: MessageKind, channel: repo.Channel) {
  const what = `${userId}.${kind}.${channel}`;
  return `${what}.${deps.cipher.mac('unsubscribe', what).slice(0, 32)}`;
}

/** The page a person opens from an email, and the address a mail client posts to (RFC 8058), when PUBLIC_URL is set. */
function unsubscribeLinks(deps: Pick<Deps, 'cipher' | 'config'>, userId: number, kind: MessageKind, channel: repo.Channel) {
  const origin = deps.config.publicUrl;
  if (!origin) return null;
  const token = unsubscribeToken(deps, userId, kind, channel);
  return { page: `${origin}/unsubscribe?token=${token}`, oneClick: `${origin}/api/account/unsubscribe?token=${token}` };
}

export const UNSUBSCRIBE_INVALID = '退订链接无效';

/** One click from an email: turns that kind of message off on that channel, for the user the token names. */
export async function unsubscribe(ctx: Ctx, token: string | undefined) {
  const parts = (token ?? '').split('.');
  const [user, kind, channel, mac] = parts;
  const userId = Number(user);
  if (parts.length !== 4 || !Number.isInteger(userId) || !kind || !isKind(kind) || (channel !== 'email' && channel !== 'sms'))
    throw badRequest(UNSUBSCRIBE_INVALID);
  if (unsubscribeToken(ctx, userId, kind, channel) !== `${user}.${kind}.${channel}.${mac}`) throw badRequest(UNSUBSCRIBE_INVALID);
  await repo.addOptout(ctx.db, { userId, kind, channel, now: ctx.clock.now().toISOString() });
  await writeAudit({ ...ctx, actor: null }, { action: 'user.unsubscribe', entity: 'user', entityId: userId, after: { kind, channel } });
  return { kind, channel, label: `${MESSAGE_KINDS[kind]}${channel === 'email' ? '邮件' : '短信'}` };
}
