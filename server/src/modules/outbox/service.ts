import type { Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { enqueue } from '../../jobs/define.ts';
import { MailError } from '../../mail/smtp.ts';
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

  const rate = await deps.limiter.hit('outbox:email', deps.config.mailPerMinute, 60_000);
  if (!rate.allowed) {
    const now = deps.clock.now();
    await enqueue(deps.db, sendJob, { messageId }, now, new Date(now.getTime() + rate.retryAfterMs));
    return;
  }

  const message = await repo.claim(deps.db, messageId, at());
  if (!message) return;
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

/** The job used up its attempts on passing refusals: the message failed, with the last reason. */
export async function gaveUp(deps: Deps, messageId: number, error: string) {
  const found = await repo.findMessage(deps.db, messageId);
  await repo.settle(deps.db, messageId, 'queued', { state: 'failed', error: found?.error ?? error, now: deps.clock.now().toISOString() });
}
