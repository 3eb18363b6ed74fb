import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';

/** One email as the outbox hands it to the mail server. */
export interface Email {
  to: string;
  subject: string;
  text: string;
  /** The outbox's idempotency key, carried as the Message-ID so a mail server or a reader can tell a copy. */
  key: string;
  /** Extra headers (List-Unsubscribe for messages a person may turn off). */
  headers?: Record<string, string>;
}

/**
 * Why a send did not go: `bounced` when the server refused the recipient, `failed` for any other refusal it will repeat
 * (5xx), `retry` for what may pass later (4xx, the connection, a timeout). `reason` is the server's own words.
 */
export class MailError extends Error {
  constructor(
    readonly outcome: 'bounced' | 'failed' | 'retry',
    readonly reason: string,
  ) {
    super(reason);
  }
}

export interface Mailer {
  /** Sends one email; answers the server's id of it, or throws a MailError. */
  send(email: Email): Promise<{ providerId: string }>;
  close(): void;
}

/** The SMTP mailer of SMTP_URL (nodemailer, pooled), signing with DKIM when configured. */
export function smtpMailer(mail: NonNullable<Config['mail']>): Mailer {
  const transport = nodemailer.createTransport({
    url: mail.smtpUrl,
    pool: true,
    maxConnections: 2,
    // A server that stops answering fails the send (and the job retries it) rather than holding a worker.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    ...(mail.dkim && { dkim: mail.dkim }),
  } as Parameters<typeof nodemailer.createTransport>[0]);
  const domain = /@([^>\s]+)>?\s*$/.exec(mail.from)?.[1] ?? 'localhost';
  return {
    async send(email) {
      try {
        const info = await transport.sendMail({
          from: mail.from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          messageId: `<${email.key.replace(/[^\w.:-]/g, '_')}@${domain}>`,
          ...(email.headers && { headers: email.headers }),
        });
        if (info.rejected.length > 0) throw new MailError('bounced', `收件人被拒收：${info.response}`);
        return { providerId: info.messageId };
      } catch (err) {
        throw toMailError(err);
      }
    },
    close: () => transport.close(),
  };
}

function toMailError(err: unknown): MailError {
  if (err instanceof MailError) return err;
  const e = err as { responseCode?: number; code?: string; command?: string; response?: string; message?: string };
  const reason = e.response ?? e.message ?? String(err);
  if (e.responseCode !== undefined && e.responseCode >= 500) {
    // A permanent refusal of the recipient (at RCPT TO, or as the envelope) is a bounce; any other one a failure.
    return new MailError(e.code === 'EENVELOPE' || /RCPT/i.test(e.command ?? '') ? 'bounced' : 'failed', reason);
  }
  return new MailError('retry', reason);
}
