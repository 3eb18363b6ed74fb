import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Database_ } from '../server/src/db/database.ts';
import { eventLoopMax } from './scale.ts';
import type { Spawned } from './processes.ts';
import type { Seeded } from './seed.ts';

/**
 * Issue 35: a notice by email and SMS to every user of the bench's database, as the back office sends it. Every user
 * has a verified email and phone for it; the emails go to a local SMTP sink (smtp-server, counting what it receives),
 * the texts through the SMS simulator (the Aliyun SDK's signed requests, checked). After the notice is delivered to
 * every box (its emails and texts queued with the copies), sending is watched for WINDOW_MS: the rates reached against
 * the configured ones (MAIL_PER_MINUTE, SMS_PER_MINUTE), and the longest event-loop delay of the server meanwhile.
 */
export const MAIL_RATE_PER_MINUTE = 60_000;
export const SMS_RATE_PER_MINUTE = 60_000;
const WINDOW_MS = 20_000;

export interface MessagesResult {
  users: number;
  /** How many an email and a text would reach, as the back office counted before sending. */
  expectedEmails: number;
  expectedTexts: number;
  emailsQueued: number;
  textsQueued: number;
  queuedSeconds: number | null;
  emailsPerSecond: number;
  textsPerSecond: number;
  /** The longest event-loop delay while the notice's copies, emails and texts were queued, and while they were sent. */
  queueingLoopMaxMs: number;
  eventLoopMaxMs: number;
  failed: number;
  error?: string;
}

/** The SMTP sink: accepts everything, keeps only a count. */
export async function smtpSink() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  // A client gone (the platform's process stopped mid-send) is no failure of the sink.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Gives every user a verified email and phone (their seeded phone), as if each had proved both. */
export async function verifyEveryone(database: Database_) {
  const { sql } = await import('kysely');
  await sql`update users set email = 'u' || cast(id as text) || '@bench.test', verified_email = 'u' || cast(id as text) || '@bench.test', verified_phone = phone where phone is not null`.execute(
    database.db,
  );
}

async function call(server: Spawned, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown>; message: string } };
}

export async function messagesBenchmark(
  server: Spawned,
  seeded: Seeded,
  database: Database_,
  sink: Awaited<ReturnType<typeof smtpSink>>,
  reportFile: string,
  log: (t: string) => void,
): Promise<MessagesResult> {
  const token = seeded.adminToken;
  const failed = (error: string): MessagesResult => ({
    users: seeded.expect.users,
    expectedEmails: 0,
    expectedTexts: 0,
    emailsQueued: 0,
    textsQueued: 0,
    queuedSeconds: null,
    emailsPerSecond: 0,
    textsPerSecond: 0,
    queueingLoopMaxMs: NaN,
    eventLoopMaxMs: NaN,
    failed: 0,
    error,
  });
  // The platform's SMS provider: Aliyun, with the simulator's keys (the simulator gets every text outside production).
  const config = await call(server, token, 'GET', '/api/system/sms/config');
  const sim = config.body.data.simulator as { aliyun: { accessKeyId: string; accessKeySecret: string } } | null;
  if (!sim) return failed('SMS simulator off');
  const saved = await call(server, token, 'PUT', '/api/system/sms/config', {
    provider: 'aliyun',
    enable: true,
    accessKeyId: sim.aliyun.accessKeyId,
    accessKeySecret: sim.aliyun.accessKeySecret,
    signName: '竞赛平台',
    templates: { code: 'SMS_1', notice: 'SMS_2', reminder: 'SMS_3' },
  });
  if (saved.status !== 200) return failed(`sms config ${saved.status} ${saved.body.message}`);

  log('notice by email and SMS to all users');
  const target = { scope: 'all' };
  const counted = await call(server, token, 'POST', '/api/message/notice/recipients', { target });
  log(`counted before sending: ${JSON.stringify(counted.body.data)}`);
  const draft = await call(server, token, 'POST', '/api/message/notice', {
    kind: 0,
    title: '全体通知（邮件与短信基准）',
    content: '<p>基准测试</p>',
    target,
    channels: { email: true, sms: true },
  });
  if (draft.status !== 200) return failed(`draft ${draft.status} ${draft.body.message}`);
  const id = draft.body.data.id as number;
  const started = Date.now();
  const published = await call(server, token, 'POST', `/api/message/notice/${id}`, {});
  if (published.status !== 200) return failed(`publish ${published.status} ${published.body.message}`);

  // Until every box has its copy (and every email and text is queued with it), or five minutes.
  let queuedSeconds: number | null = null;
  while (Date.now() - started < 300_000) {
    const page = await call(server, token, 'GET', '/api/message/notice/page?page=1&limit=20');
    const row = (page.body.data.list as { id: number; deliveredAt: string | null }[]).find((n) => n.id === id);
    if (row?.deliveredAt) {
      queuedSeconds = (Date.now() - started) / 1000;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const counts = async () => {
    const rows = await database.db
      .selectFrom('outboxMessages')
      .select((eb) => ['channel', 'state', eb.fn.countAll<number>().as('n')])
      .where('noticeId', '=', id)
      .groupBy(['channel', 'state'])
      .execute();
    const of = (channel: string, states?: string[]) =>
      rows.filter((r) => r.channel === channel && (!states || states.includes(r.state))).reduce((s, r) => s + Number(r.n), 0);
    return {
      emails: of('email'),
      texts: of('sms'),
      emailsSent: of('email', ['sent']),
      textsSent: of('sms', ['sent']),
      failed: of('email', ['failed', 'bounced', 'unknown']) + of('sms', ['failed', 'bounced', 'unknown']),
    };
  };
  const before = await counts();
  const mailedBefore = sink.received();
  const t = Date.now();
  const queueingLoopMaxMs = eventLoopMax(reportFile, started, t);
  log(`queued ${before.emails} emails and ${before.texts} texts; watching sending for ${WINDOW_MS / 1000} s`);
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  const after = await counts();
  const seconds = (Date.now() - t) / 1000;
  return {
    users: seeded.expect.users,
    expectedEmails: Number(counted.body.data.emails ?? 0),
    expectedTexts: Number(counted.body.data.texts ?? 0),
    emailsQueued: before.emails,
    textsQueued: before.texts,
    queuedSeconds,
    emailsPerSecond: (sink.received() - mailedBefore) / seconds,
    textsPerSecond: (after.textsSent - before.textsSent) / seconds,
    queueingLoopMaxMs,
    eventLoopMaxMs: eventLoopMax(reportFile, t, Date.now()),
    failed: after.failed,
  };
}
