import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { INTERRUPTED, queueEmail } from '../src/modules/outbox/service.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  type TestApp,
  REG_INFO as info,
} from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Long enough that scoring it takes a while (the worker is killed while it is at it), small enough to build quickly. */
const ROWS = 3_000_000;

/** A job worker as `npm run worker` runs it, on the test app's database, with a short lease. */
function startWorker(dataDir: string, log: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/worker.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'info', JOB_LEASE_SECONDS: '2', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
  return child;
}

/**
 * Issue 23, item 5: a worker killed mid-scoring leaves nothing 「评分中」 for ever. A real worker process is killed
 * (SIGKILL, no chance to clean up) while it scores; another worker takes the job once its lease has run out and scores
 * the submission, once.
 */
describe('a scoring worker killed mid-run', () => {
  let t: TestApp;
  const log: string[] = [];
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { REGISTER_MAX_PER_IP: '100' } });
  });
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await t?.close();
  });

  it('leaves the submission to the next worker, which scores it exactly once', { timeout: 180_000 }, async () => {
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    const org = await makeOrganiser(t, admin, 'killOrg', '中断大学');
    const day = 24 * 3600_000;
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    const competitionId = await onlineCompetition(admin, org, { regStartTime: at(-day), regEndTime: at(10 * day), endTime: at(30 * day) });
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true, enableEndTime: at(10 * day) });
    const questionId = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '中断题',
        evaluation: { metric: 'rmse', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
      }),
    ).data.id as number;
    const lines = (value: (i: number) => number) => {
      const out = ['id,y'];
      for (let i = 0; i < ROWS; i++) out.push(`r${i},${value(i)}`);
      return Buffer.from(out.join('\n'));
    };
    expect(
      (
        await org.request({
          method: 'POST',
          url: `/api/competition/question/${questionId}/answer`,
          ...multipart(
            'answer.csv',
            lines((i) => i % 10),
            'text/csv',
          ),
        })
      ).statusCode,
    ).toBe(200);
    expect((await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true })).statusCode).toBe(200);
    await registerUser(t.app, 'killLeader');
    const leader = await loggedIn(t.app, 'killLeader');
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: '中断队', info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    // Off by 2 on every row: RMSE 2 on both boards.
    const sent = await leader.request({
      method: 'POST',
      url: `/api/review/test/${questionId}`,
      ...multipart(
        'pred.csv',
        lines((i) => (i % 10) + 2),
        'text/csv',
      ),
    });
    expect(sent.statusCode).toBe(200);
    const submissionId = body(sent).data.id as number;
    const submission = () =>
      t.database.db
        .selectFrom('testSubmissions')
        .select(['status', 'publicScore', 'privateScore', 'scoredAt'])
        .where('id', '=', submissionId)
        .executeTakeFirstOrThrow();
    const job = () =>
      t.database.db
        .selectFrom('jobs')
        .select(['attempts', 'doneAt', 'failed', 'lockedBy'])
        .where('type', '=', 'test.score')
        .where('payload', '=', JSON.stringify({ submissionId }))
        .executeTakeFirstOrThrow();

    // The first worker takes the job and starts scoring: killed then, without a word.
    const first = startWorker(t.config.dataDir, log);
    workers.push(first);
    for (let i = 0; (await submission()).status !== 1; i++) {
      if (i > 6000 || first.exitCode !== null) throw new Error(`the first worker never started scoring:\n${log.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    // Killed mid-scoring: still 评分中, its job claimed once and not done.
    expect(await submission()).toMatchObject({ status: 1, publicScore: null, scoredAt: null });
    expect(await job()).toMatchObject({ attempts: 1, doneAt: null, failed: 0 });

    // The next worker takes it once the dead one's lease (2 s here) has run out, and scores it.
    const second = startWorker(t.config.dataDir, log);
    workers.push(second);
    for (let i = 0; (await submission()).status !== 2; i++) {
      if (i > 1200 || second.exitCode !== null) throw new Error(`the second worker did not score the submission:\n${log.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
    const scored = await submission();
    expect(scored.publicScore).toBeCloseTo(2, 9);
    expect(await job()).toMatchObject({ attempts: 2, failed: 0 });
    expect((await job()).doneAt).not.toBeNull();
    // Once: one stored outcome, one row on the board, one attempt of the day used.
    const mine = body(await leader.get(`/api/review/test/list/${questionId}`)).data;
    expect(mine.list).toHaveLength(1);
    expect(mine.usedToday).toBe(1);
    const board = body(await leader.get(`/api/review/test/leaderboard/${questionId}`)).data;
    expect(board.entries.map((e: { teamName: string; score: number; submissions: number }) => [e.teamName, e.submissions])).toEqual([['中断队', 1]]);
  });
});

/**
 * Issue 35, item 8: a worker SIGKILLed mid-send sends nothing twice. The mail server takes the whole message and never
 * answers it (as a server that had it, or not, when the connection died); the worker is killed while it waits; the next
 * worker finds the message `sending` and marks it unknown instead of sending it again.
 */
describe('a mail worker killed mid-send', () => {
  let t: TestApp;
  const log: string[] = [];
  const workers: ChildProcess[] = [];
  const received: string[] = [];
  let smtp: SMTPServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // The whole message arrives; the answer never comes.
      onData(stream, session, _callback) {
        stream.on('data', () => {});
        stream.on('end', () => received.push(session.envelope.rcptTo.map((r) => r.address).join(',')));
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('leaves the message unknown, sent once, when the next worker finds it', { timeout: 120_000 }, async () => {
    const env = { SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, MAIL_FROM: 'noreply@contest.test' };
    const id = (await t.database.db
      .transaction()
      .execute((trx) =>
        queueEmail(trx, new Date(), { to: 'student@example.edu.cn', subject: '晋级通知', text: '恭喜晋级。', purpose: 'notice', key: 'kill:1' }),
      ))!;
    const message = () => t.database.db.selectFrom('outboxMessages').select(['state', 'attempts', 'error']).where('id', '=', id).executeTakeFirstOrThrow();

    const first = startWorker(t.config.dataDir, log, env);
    workers.push(first);
    for (let i = 0; received.length === 0; i++) {
      if (i > 1200 || first.exitCode !== null) throw new Error(`the first worker never sent the message:\n${log.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(await message()).toMatchObject({ state: 'sending', attempts: 1 });

    // The next worker takes the job once the dead one's lease (2 s) has run out.
    const second = startWorker(t.config.dataDir, log, env);
    workers.push(second);
    for (let i = 0; (await message()).state === 'sending'; i++) {
      if (i > 1200 || second.exitCode !== null) throw new Error(`the second worker did not take the job:\n${log.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
    expect(await message()).toMatchObject({ state: 'unknown', attempts: 1, error: INTERRUPTED });
    expect(received).toEqual(['student@example.edu.cn']);
  });
});
