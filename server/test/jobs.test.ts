import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NOTICE_STATUS } from '@contest/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QUEUE_COUNT_CAP, defineJob, enqueue, jobRegistry, jobsAhead, type JobType } from '../src/jobs/define.ts';
import { JOB_DEFINITIONS, JOBS } from '../src/compose/jobs.ts';
import { claim, runDueJobs, startWorker } from '../src/jobs/runner.ts';
import { publishJob } from '../src/modules/notices/jobs.ts';
import { scoreJob } from '../src/modules/test-submissions/jobs.ts';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, loggedIn, type TestApp } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MODULES = path.join(ROOT, 'server/src/modules');

const isJobType = (v: unknown): v is JobType =>
  typeof v === 'object' && v !== null && typeof (v as JobType).id === 'string' && typeof (v as JobType).payload?.safeParse === 'function';

describe('the job registry', () => {
  it('binds every job type a module jobs.ts declares, each once, to a handler, and declares no handler there', async () => {
    const declared: JobType[] = [];
    for (const module of fs.readdirSync(MODULES)) {
      const file = path.join(MODULES, module, 'jobs.ts');
      if (!fs.existsSync(file)) continue;
      const exports = (await import(file)) as Record<string, unknown>;
      const types = Object.values(exports).filter(isJobType);
      // A declaration only: what runs it is bound in compose/jobs.ts, so jobs.ts needs nothing of its service.
      for (const type of types) expect(Object.keys(type).sort(), type.id).toEqual(['id', 'payload']);
      declared.push(...types);
    }
    expect(declared.map((j) => j.id).sort()).toEqual([
      'certificate.generate',
      'client.build',
      'notice.deliver',
      'notice.publish',
      'order.closeExpired',
      'outbox.drain',
      'outbox.drainSweep',
      'outbox.send',
      'reminders.sweep',
      'similarity.check',
      'similarity.sweep',
      'test.release',
      'test.rescore',
      'test.score',
    ]);
    const ids = JOB_DEFINITIONS.map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(declared.map((j) => j.id).sort());
    // Bound to the very schema the module declares, with a handler.
    for (const type of declared) {
      expect(JOBS.get(type.id)?.payload, type.id).toBe(type.payload);
      expect(typeof JOBS.get(type.id)?.run, type.id).toBe('function');
    }
  });

  it('refuses two definitions with one id', () => {
    const twin = defineJob({ id: scoreJob.id, payload: z.object({}), run: async () => undefined });
    expect(() => jobRegistry([...JOB_DEFINITIONS, twin])).toThrow('Two job definitions have the id test.score');
  });
});

describe.each(DATABASES)('jobs on %s', (kind) => {
  let t: TestApp;
  const now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const insertRaw = async (type: string, payload: string) =>
    (
      await t.database.db
        .insertInto('jobs')
        .values({ type, payload, runAt: now.toISOString(), createdAt: now.toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const row = (id: number) =>
    t.database.db.selectFrom('jobs').select(['attempts', 'failed', 'doneAt', 'lastError']).where('id', '=', id).executeTakeFirstOrThrow();

  it('takes the payload its definition declares, at compile time and when enqueued', async () => {
    // What other tests left due runs first, and their scoring jobs are counted, so that what follows is this test's.
    while (await runDueJobs(t.deps));
    const scoreJobs = async () => (await t.database.db.selectFrom('jobs').select('id').where('type', '=', scoreJob.id).execute()).length;
    const before = await scoreJobs();
    // @ts-expect-error a payload that does not fit the definition does not compile
    const wrongType = () => enqueue(t.database.db, scoreJob, { submissionId: '7' }, now);
    // @ts-expect-error nor does one with a field the definition does not have
    const extraField = () => enqueue(t.database.db, publishJob, { noticeId: 1, extra: true }, now);
    await expect(wrongType()).rejects.toThrow();
    // At run time the schema lets an unknown field pass (z.object): there the types are what refuse it.
    await expect(extraField()).resolves.toBeGreaterThan(0);
    await expect(enqueue(t.database.db, scoreJob, { submissionId: 0 }, now)).rejects.toThrow();
    expect(await scoreJobs()).toBe(before);
    expect(await runDueJobs(t.deps)).toBe(1);
  });

  it('runs as many jobs at once as SCORING_CONCURRENCY allows, and no more', async () => {
    // Jobs that each wait until released: how many run at the same moment shows the worker's slots.
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const slowJob = defineJob({
      id: 'test.slow',
      payload: z.object({ n: z.number() }),
      run: async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running--;
      },
    });
    const jobs = jobRegistry([...JOB_DEFINITIONS, slowJob]);
    for (const concurrency of [1, 3]) {
      most = 0;
      for (let n = 0; n < 4; n++) await enqueue(t.database.db, slowJob, { n }, now);
      const stop = startWorker(t.deps, { jobs, concurrency, intervalMs: 10 });
      // Let every slot claim what it can, then let the jobs finish one by one.
      const until = async (check: () => boolean) => {
        for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
      };
      await until(() => running === concurrency);
      expect(running).toBe(concurrency);
      // Given time, no slot beyond them takes a job.
      await new Promise((r) => setTimeout(r, 100));
      expect(running).toBe(concurrency);
      let finished = 0;
      while (finished < 4) {
        await until(() => release.length > 0);
        expect(running).toBeLessThanOrEqual(concurrency);
        release.shift()!();
        finished++;
      }
      await stop();
      expect(most).toBe(concurrency);
    }
  });

  it('takes a team’s later submissions after the other teams’ firsts: by priority, then oldest first', async () => {
    const order: number[] = [];
    const probe = defineJob({ id: 'test.probe', payload: z.object({ n: z.number() }), run: async (_deps, { n }) => void order.push(n) });
    const jobs = jobRegistry([...JOB_DEFINITIONS, probe]);
    await enqueue(t.database.db, probe, { n: 1 }, now, now, 0);
    await enqueue(t.database.db, probe, { n: 2 }, now, now, 1);
    await enqueue(t.database.db, probe, { n: 3 }, now, now, 2);
    await enqueue(t.database.db, probe, { n: 4 }, now, now, 0);
    await enqueue(t.database.db, probe, { n: 5 }, now, now, 1);
    await runDueJobs(t.deps, undefined, { jobs });
    expect(order).toEqual([1, 4, 2, 5, 3]);
  });

  it('counts a waiting job’s place up to QUEUE_COUNT_CAP, so a poll’s count stays bounded however long the queue', async () => {
    const probe = defineJob({ id: 'test.place', payload: z.object({ n: z.number() }), run: async () => undefined });
    const jobs = jobRegistry([...JOB_DEFINITIONS, probe]);
    while (await runDueJobs(t.deps, undefined, { jobs }));
    const first = await enqueue(t.database.db, probe, { n: 0 }, now);
    const values = Array.from({ length: QUEUE_COUNT_CAP + 5 }, (_, n) => ({
      type: probe.id,
      payload: JSON.stringify({ n }),
      runAt: now.toISOString(),
      createdAt: now.toISOString(),
    }));
    for (let i = 0; i < values.length; i += 200)
      await t.database.db
        .insertInto('jobs')
        .values(values.slice(i, i + 200))
        .execute();
    const last = await enqueue(t.database.db, probe, { n: -1 }, now);
    expect(await jobsAhead(t.database.db, first, now)).toBe(0);
    expect(await jobsAhead(t.database.db, last, now)).toBe(QUEUE_COUNT_CAP);
    while (await runDueJobs(t.deps, undefined, { jobs }));
    expect(await jobsAhead(t.database.db, last, now)).toBeUndefined();
  });

  it('keeps organisers’ programs in a lane of their own: a general slot never takes one, a program slot nothing else', async () => {
    const probe = defineJob({ id: 'test.lane', payload: z.object({ n: z.number() }), run: async () => undefined });
    const jobs = jobRegistry([...JOB_DEFINITIONS, probe]);
    while (await runDueJobs(t.deps, undefined, { jobs }));
    // The program job is older and first by priority: a general slot still passes it by.
    const program = await enqueue(t.database.db, probe, { n: 1 }, now, now, 0, { lane: 'program', tenant: 7 });
    const general = await enqueue(t.database.db, probe, { n: 2 }, now, now, 5);
    expect((await claim(t.database.db, 'w-general', now, 60_000, 'general'))?.id).toBe(general);
    expect(await claim(t.database.db, 'w-general', now, 60_000, 'general')).toBeNull();
    expect((await claim(t.database.db, 'w-program', now, 60_000, 'program'))?.id).toBe(program);
    expect(await claim(t.database.db, 'w-program', now, 60_000, 'program')).toBeNull();
    await t.database.db.updateTable('jobs').set({ doneAt: now.toISOString(), lockedUntil: null }).where('id', 'in', [program, general]).execute();
  });

  it('serves organisations in turn in the program lane: the one running fewest, then the one served least recently', async () => {
    const probe = defineJob({ id: 'test.turns', payload: z.object({ n: z.number() }), run: async () => undefined });
    const jobs = jobRegistry([...JOB_DEFINITIONS, probe]);
    while (await runDueJobs(t.deps, undefined, { jobs }));
    const tenantOf = new Map<number, string>();
    const add = async (tenant: number, name: string, priority = 0) =>
      tenantOf.set(await enqueue(t.database.db, probe, { n: 0 }, now, now, priority, { lane: 'program', tenant }), name);
    // Organisation 101 floods the lane first; 102 and 103 send one each afterwards.
    for (let i = 0; i < 4; i++) await add(101, `a${i}`);
    await add(102, 'b0');
    await add(103, 'c0');
    await add(102, 'b1', 1);
    let at = now.getTime();
    const take = async () => {
      at += 1000;
      const job = await claim(t.database.db, 'w-turns', new Date(at), 60_000, 'program');
      return job && { id: job.id, name: tenantOf.get(job.id)! };
    };
    const finish = (id: number) =>
      t.database.db
        .updateTable('jobs')
        .set({ doneAt: new Date(at).toISOString(), lockedUntil: null })
        .where('id', '=', id)
        .execute();
    // One at a time (one program slot): a0, then the organisations not yet served, then in turn.
    const order: string[] = [];
    for (let job = await take(); job; job = await take()) {
      order.push(job.name);
      await finish(job.id);
    }
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'a3']);

    // Two slots: an organisation running a program waits while another runs none, though it was served less recently
    // and its file is older.
    await add(101, 'x0');
    await add(101, 'x1');
    const x0 = (await take())!;
    expect(x0.name).toBe('x0');
    await add(102, 'y0');
    await add(102, 'y1');
    const y0 = (await take())!;
    expect(y0.name).toBe('y0');
    await finish(y0.id);
    const y1 = (await take())!;
    expect(y1.name).toBe('y1');
    // With no other organisation waiting, 101 may take a second slot rather than leave it idle.
    const x1 = (await take())!;
    expect(x1.name).toBe('x1');
    for (const job of [x0, y1, x1]) await finish(job.id);
    expect(await take()).toBeNull();
  });

  it('places a waiting program job behind its organisation’s own and one turn of each other organisation', async () => {
    const probe = defineJob({ id: 'test.ahead', payload: z.object({ n: z.number() }), run: async () => undefined });
    const jobs = jobRegistry([...JOB_DEFINITIONS, probe]);
    while (await runDueJobs(t.deps, undefined, { jobs }));
    const add = (tenant: number) => enqueue(t.database.db, probe, { n: 0 }, now, now, 0, { lane: 'program', tenant });
    for (let i = 0; i < 10; i++) await add(201);
    const newcomer = await add(202);
    const mineFirst = await add(203);
    const mineSecond = await add(203);
    // A general job waiting meanwhile is in another queue.
    await enqueue(t.database.db, probe, { n: 1 }, now);
    // 202's only file: one turn of 201's and one of 203's before it.
    expect(await jobsAhead(t.database.db, newcomer, now)).toBe(2);
    expect(await jobsAhead(t.database.db, mineFirst, now)).toBe(2);
    // 203's second: its own first, and two turns of 201's, one of 202's.
    expect(await jobsAhead(t.database.db, mineSecond, now)).toBe(4);
    while (await runDueJobs(t.deps, undefined, { jobs }));
  });

  it('fails a job whose stored payload is malformed at once, with a clear log, and goes on with the next', async () => {
    // What other tests left due first (the periodic sweeps a started worker queues), so that the count below is these.
    while (await runDueJobs(t.deps));
    const wrongField = await insertRaw(scoreJob.id, JSON.stringify({ submissionId: 'seven' }));
    const notJson = await insertRaw(publishJob.id, '{"noticeId": 1');
    // A well-formed job after them still runs (the notice does not exist, so it has nothing to do).
    const fine = await insertRaw(publishJob.id, JSON.stringify({ noticeId: 999_999 }));
    const logged = t.logs.length;

    expect(await runDueJobs(t.deps)).toBe(3);

    const first = await row(wrongField);
    expect(first).toMatchObject({ attempts: 1, failed: 1 });
    expect(first.doneAt).not.toBeNull();
    expect(first.lastError).toMatch(/^payload does not match the job's schema \(submissionId: .+\)$/);
    expect(await row(notJson)).toMatchObject({ attempts: 1, failed: 1, lastError: 'payload is not JSON' });
    const third = await row(fine);
    expect(third).toMatchObject({ attempts: 1, failed: 0, lastError: null });
    expect(third.doneAt).not.toBeNull();
    // Nothing is left for a later run: a malformed payload is not retried.
    expect(await runDueJobs(t.deps)).toBe(0);

    const lines = t.logs
      .slice(logged)
      .flatMap((chunk) => chunk.split('\n').filter(Boolean))
      .map((l) => JSON.parse(l) as { level: number; msg: string; jobId?: number; type?: string; problem?: string });
    const errors = lines.filter((l) => l.msg === 'job failed without running: its stored payload is malformed');
    expect(errors.map((l) => [l.level, l.jobId, l.type])).toEqual([
      [50, wrongField, 'test.score'],
      [50, notJson, 'notice.publish'],
    ]);
    expect(errors[0]!.problem).toContain('submissionId');
  });
});

/** Sockets in the LISTEN state that process `pid` holds open (Linux, from /proc). */
function listeningSockets(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    // A descriptor the process closes between the listing and this read is gone: it holds nothing open.
    let target: string;
    try {
      target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' }).toString();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) inodes.add(m[1]!);
  }
  const listening: string[] = [];
  for (const table of ['tcp', 'tcp6', 'udp', 'udp6']) {
    const file = `/proc/${pid}/net/${table}`;
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // Columns: sl local_address rem_address st ... inode (10th). 0A is LISTEN; a UDP socket bound to a port shows 07.
      if (cols.length > 9 && inodes.has(cols[9]!) && (cols[3] === '0A' || table.startsWith('udp'))) listening.push(`${table} ${cols[1]}`);
    }
  }
  return listening;
}

describe.runIf(fs.existsSync('/proc/self/net/tcp'))('npm run worker (server/src/worker.ts)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs a due job against the database of its DATA_DIR without opening a port, and stops on SIGTERM', { timeout: 120_000 }, async () => {
    // A scheduled notice to the administrator, due now: the worker must publish it.
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    const notice = body(
      await admin.post('/api/message/notice', { kind: 1, title: '由独立进程发布', content: '<p>你好</p>', target: { scope: 'users', usernames: ['admin'] } }),
    ).data as { id: number };
    const due = new Date(Date.now() - 1000);
    await t.database.db.updateTable('notices').set({ status: NOTICE_STATUS.scheduled, publishAt: due.toISOString() }).where('id', '=', notice.id).execute();
    const jobId = await enqueue(t.database.db, publishJob, { noticeId: notice.id }, due);

    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/worker.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: t.config.dataDir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the worker exited before running the job:\n${output}`);
        const job = await t.database.db.selectFrom('jobs').select(['doneAt', 'failed', 'attempts']).where('id', '=', jobId).executeTakeFirstOrThrow();
        if (job.doneAt) {
          expect(job).toMatchObject({ failed: 0, attempts: 1 });
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const published = await t.database.db.selectFrom('notices').select(['status', 'recipients']).where('id', '=', notice.id).executeTakeFirstOrThrow();
      expect(published).toEqual({ status: NOTICE_STATUS.published, recipients: 1 });
      expect(body(await admin.get('/api/message/notice/page/1')).data.list.map((m: { title: string }) => m.title)).toContain('由独立进程发布');
      expect(listeningSockets(child.pid!)).toEqual([]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"job worker started"');
    expect(output).toContain('"msg":"job worker stopped"');
  });
});
