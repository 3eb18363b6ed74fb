import type { Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { enqueue } from '../../jobs/define.ts';
import { MailError } from '../../mail/smtp.ts';
import { SmsError, type SmsTemplatePurpose } from '../../sms/provider.ts';
import { sendNow } from '../sms/index.ts';
import { sendJob } from './jobs.ts';
import * as repo from './repo.ts';

/** What a message is for: a verification code, a notice, a reminder, an account's own mail, or a test send. */
export type Purpose = 'code' | 'notice' | 'reminder' | 'account' | 'test';

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

/** What is kept of a text's parameters once it is sent: a code is not kept (only its keyed hash, in phone_codes). */
const keptParams = (sms: Pick<QueuedSms, 'template' | 'params'>) => (sms.template === 'code' ? { ...sms.params, code: '******' } : sms.params);

/**
 * Queues a text message in `db`, the transaction of the event that causes it, as queueEmail does. Its parameters are
 * sealed (AES-GCM, like the payment keys) while it waits, since a code is among them; once sent, a code is masked.
 */
export async function queueSms(db: Db, cipher: Deps['cipher'], now: Date, sms: QueuedSms) {
  const at = now.toISOString();
  const id = await repo.insertMessage(db, {
    channel: 'sms',
    recipient: sms.to,
    purpose: sms.purpose,
    subject: sms.template,
    body: cipher.encrypt(JSON.stringify(sms.params)),
    idempotencyKey: sms.key,
    senderId: sms.senderId ?? null,
    orgId: sms.orgId ?? null,
    createdAt: at,
    updatedAt: at,
  });
  if (id !== undefined) await enqueue(db, sendJob, { messageId: id }, now);
  return id;
}

/** What the message says when a worker stopped while sending it. */
export const INTERRUPTED = '发送过程中断，无法确认是否已送达；为避免重复发送，不再重试';
export const NO_MAIL_SERVER = '未配置邮件服务器（SMTP_URL），邮件未发送';

/**
 * The delivery job: sends one message, at most once. A message found `sending` was being sent by a worker that stopped
 * (killed, or its machine lost): whether it went out cannot be known, so it becomes `unknown` and is never sent again.
 * Within the provider's rate (MAIL_PER_MINUTE, counted across workers in the shared limiter) it is sent now; past it,
 * its job is queued again for when the window has room, without waiting here. A refusal the server will repeat ends
 * it (`failed`, or `bounced` for a refused recipient, with the server's words); anything else puts it back in the queue
 * and fails the job, which the runner retries with backoff until `gaveUp`.
 */
export async function deliver(deps: Deps, messageId: number) {
  const at = () => deps.clock.now().toISOString();
  const found = await repo.findMessage(deps.db, messageId);
  if (!found) return;
  if (found.state === 'sending') {
    await repo.settle(deps.db, messageId, 'sending', { state: 'unknown', error: INTERRUPTED, now: at() });
    return;
  }
  if (found.state !== 'queued') return;

  const sms = found.channel === 'sms';
  const rate = sms
    ? await deps.limiter.hit('outbox:sms', deps.config.sms.perMinute, 60_000)
    : await deps.limiter.hit('outbox:email', deps.config.mailPerMinute, 60_000);
  if (!rate.allowed) {
    const now = deps.clock.now();
    await enqueue(deps.db, sendJob, { messageId }, now, new Date(now.getTime() + rate.retryAfterMs));
    return;
  }

  const message = await repo.claim(deps.db, messageId, at());
  if (!message) return;
  if (sms) return deliverSms(deps, message);
  if (!deps.mailer) {
    await repo.settle(deps.db, messageId, 'sending', { state: 'failed', error: NO_MAIL_SERVER, now: at() });
    return;
  }
  try {
    const { providerId } = await deps.mailer.send({ to: message.recipient, subject: message.subject ?? '', text: message.body, key: message.idempotencyKey });
    const now = at();
    await repo.settle(deps.db, messageId, 'sending', { state: 'sent', providerMessageId: providerId, sentAt: now, error: null, now });
  } catch (err) {
    const e = err instanceof MailError ? err : new MailError('retry', (err as Error).message);
    if (e.outcome === 'retry') {
      await repo.settle(deps.db, messageId, 'sending', { state: 'queued', error: e.reason, now: at() });
      throw e;
    }
    await repo.settle(deps.db, messageId, 'sending', { state: e.outcome, error: e.reason, now: at() });
  }
}

/** Sends a claimed text through the provider; the outcomes are those of an email. */
async function deliverSms(deps: Deps, message: NonNullable<Awaited<ReturnType<typeof repo.claim>>>) {
  const at = () => deps.clock.now().toISOString();
  const template = (message.subject ?? 'notice') as SmsTemplatePurpose;
  const params = JSON.parse(deps.cipher.decrypt(message.body)) as Record<string, string>;
  try {
    const { providerId } = await sendNow(deps, { phone: message.recipient, purpose: template, params });
    const now = at();
    await repo.settle(deps.db, message.id, 'sending', {
      state: 'sent',
      providerMessageId: providerId,
      sentAt: now,
      error: null,
      now,
      body: deps.cipher.encrypt(JSON.stringify(keptParams({ template, params }))),
    });
  } catch (err) {
    const e = err instanceof SmsError ? err : new SmsError('retry', (err as Error).message);
    if (e.outcome === 'retry') {
      await repo.settle(deps.db, message.id, 'sending', { state: 'queued', error: e.reason, now: at() });
      throw e;
    }
    await repo.settle(deps.db, message.id, 'sending', { state: e.outcome, error: e.reason, now: at() });
  }
}

/** The job used up its attempts on passing refusals: the message failed, with the last reason. */
export async function gaveUp(deps: Deps, messageId: number, error: string) {
  const found = await repo.findMessage(deps.db, messageId);
  await repo.settle(deps.db, messageId, 'queued', { state: 'failed', error: found?.error ?? error, now: deps.clock.now().toISOString() });
}
