import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, runDueJobs } from '../src/jobs/runner.ts';
import { memoryRateLimiter } from '../src/limits/rate-limiter.ts';
import { INTERRUPTED, NO_MAIL_SERVER, queueEmail } from '../src/modules/outbox/service.ts';
import { claim } from '../src/modules/outbox/repo.ts';
import { DATABASES, createTestApp, type TestApp } from './helpers.ts';
import { startSmtp } from './smtp.ts';

/**
 * The outbox of emails (issue 35, item 1): written with the event that causes it, delivered by the job worker through
 * a real SMTP server (smtp-server on a local port), once. The server refuses `nobody@` for good (550, a bounce) and
 * `busy@` for now (451), as mail servers do.
 */
describe.each(DATABASES)('the outbox of emails on %s', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url, MAIL_FROM: '竞赛平台 <noreply@contest.test>', MAIL_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
  });

  const message = (id: number) => t.database.db.selectFrom('outboxMessages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sendJobs = (id: number) =>
    t.database.db
      .selectFrom('jobs')
      .selectAll()
      .where('type', '=', 'outbox.send')
      .where('payload', '=', JSON.stringify({ messageId: id }))
      .execute();
  const queue = (to: string, key: string) =>
    t.database.db
      .transaction()
      .execute((trx) => queueEmail(trx, new Date(), { to, subject: '报名审核通过', text: '您的队伍已通过审核。', purpose: 'notice', key }));

  it('is written with its event or not at all, once per key, and sent once through SMTP', async () => {
    // The event fails after queueing: neither the message nor its job is left.
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await queueEmail(trx, new Date(), { to: 'lost@example.edu.cn', subject: 's', text: 't', purpose: 'notice', key: 'rolled-back' });
        throw new Error('the event failed');
      }),
    ).rejects.toThrow('the event failed');
    expect(await t.database.db.selectFrom('outboxMessages').select('id').where('idempotencyKey', '=', 'rolled-back').execute()).toEqual([]);

    const id = (await queue('student@example.edu.cn', 'notice:1:user:7'))!;
    // The same event written again queues nothing more.
    expect(await queue('student@example.edu.cn', 'notice:1:user:7')).toBeUndefined();
    expect(await sendJobs(id)).toHaveLength(1);
    expect((await message(id)).state).toBe('queued');

    await runDueJobs(t.deps);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['student@example.edu.cn']);
    expect(smtp.received[0]!.raw).toMatch(/^Message-ID: <notice:1:user:7@contest\.test>/m);
    // The subject is MIME-encoded Chinese; the body says what was queued.
    expect(smtp.received[0]!.raw).toContain('Subject: =?UTF-8?');
    const sent = await message(id);
    expect(sent).toMatchObject({ state: 'sent', attempts: 1, error: null });
    expect(sent.sentAt).toBeTruthy();
    expect(sent.providerMessageId).toBe('<notice:1:user:7@contest.test>');

    // Its job is done: running the worker again sends nothing.
    await runDueJobs(t.deps);
    expect(smtp.received).toHaveLength(1);
  });

  it('marks a recipient the server refuses for good as bounced, with the server’s words, and does not retry', async () => {
    const id = (await queue('nobody@example.edu.cn', 'bounce:1'))!;
    await runDueJobs(t.deps);
    const m = await message(id);
    expect(m.state).toBe('bounced');
    expect(m.error).toContain('No such user here');
    expect(m.attempts).toBe(1);
    expect(smtp.received).toEqual([]);
  });

  it('retries a passing refusal with backoff, then fails it with the last reason', async () => {
    const id = (await queue('busy@example.edu.cn', 'busy:1'))!;
    await runDueJobs(t.deps);
    let m = await message(id);
    expect(m).toMatchObject({ state: 'queued', attempts: 1 });
    expect(m.error).toContain('Mailbox busy');
    // Not again at once: the runner waits before the next attempt.
    expect(await runDueJobs(t.deps)).toBe(0);
    let later = Date.now();
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      later += 3_600_000;
      const at = new Date(later);
      await runDueJobs({ ...t.deps, clock: { now: () => at } });
    }
    m = await message(id);
    expect(m.state).toBe('failed');
    expect(m.attempts).toBe(MAX_ATTEMPTS);
    expect(m.error).toContain('Mailbox busy');
    expect(smtp.received).toEqual([]);
  });

  it('never sends twice a message a stopped worker was sending: it is marked unknown', async () => {
    const id = (await queue('student@example.edu.cn', 'interrupted:1'))!;
    // A worker took it and stopped before it could tell whether the server had it (as a SIGKILL leaves it).
    expect(await claim(t.database.db, id, new Date().toISOString())).toBeTruthy();
    await runDueJobs(t.deps);
    const m = await message(id);
    expect(m.state).toBe('unknown');
    expect(m.error).toBe(INTERRUPTED);
    expect(smtp.received).toEqual([]);
  });

  it('keeps to the provider’s rate across workers: past it, a message waits for the next window without holding a worker', async () => {
    let nowMs = Date.now();
    const limiter = memoryRateLimiter(() => nowMs);
    const deps = { ...t.deps, limiter, config: { ...t.config, mailPerMinute: 2 } };
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await queue(`student${i}@example.edu.cn`, `rate:${i}`))!);
    await runDueJobs(deps);
    expect(smtp.received).toHaveLength(2);
    const states = await Promise.all(ids.map(async (id) => (await message(id)).state));
    expect(states.filter((s) => s === 'sent')).toHaveLength(2);
    expect(states.filter((s) => s === 'queued')).toHaveLength(1);
    const third = ids[states.indexOf('queued')]!;
    // Its job waits for the window to end.
    const pending = (await sendJobs(third)).filter((j) => j.doneAt === null);
    expect(pending).toHaveLength(1);
    expect(new Date(pending[0]!.runAt).getTime()).toBeGreaterThan(Date.now() + 30_000);

    nowMs += 61_000;
    const later = new Date(Date.now() + 61_000);
    await runDueJobs({ ...deps, clock: { now: () => later } });
    expect(smtp.received).toHaveLength(3);
    expect((await message(third)).state).toBe('sent');
  });

  it('fails a message at once, with the reason, when no mail server is configured', async () => {
    const id = (await queue('student@example.edu.cn', 'no-server:1'))!;
    await runDueJobs({ ...t.deps, mailer: null });
    expect(await message(id)).toMatchObject({ state: 'failed', error: NO_MAIL_SERVER });
    expect(smtp.received).toEqual([]);
  });
});
