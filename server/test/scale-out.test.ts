import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '@contest/shared';
import { HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, type BuiltApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock, type Deps } from '../src/context.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedIfEmpty } from '../src/seed/index.ts';
import { defineJob, enqueue, jobRegistry } from '../src/jobs/define.ts';
import { JOB_DEFINITIONS } from '../src/compose/jobs.ts';
import { closeExpiredJob } from '../src/modules/orders/jobs.ts';
import { drainSweepJob } from '../src/modules/outbox/jobs.ts';
import { remindJob } from '../src/modules/reminders/jobs.ts';
import { sweepJob as similaritySweepJob } from '../src/modules/similarity/jobs.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { UPLOAD_IDLE_EXPIRY_MS, expireUploads } from '../src/modules/works/index.ts';
import { RedisLocker } from '../src/modules/works/redis-locker.ts';
import { ADMIN_PASSWORD, Client, PNG, REG_INFO, body, loggedIn, makeOrganiser, multipart, onlineCompetition, registerUser, type TestApp } from './helpers.ts';
import { S3_ACCESS_KEY_ID, S3_BUCKET, S3_SECRET_ACCESS_KEY, s3Env, startS3 } from './s3-server.ts';
import { streamEvents } from './sse.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;

/** Polls `check` until it holds, for at most `ms`; never a fixed sleep. */
async function until(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Instance extends BuiltApp {
  name: string;
  url: string;
  close(): Promise<void>;
}

/** One server instance as `npm start` runs it (migrate, seed if empty, build, listen), on its own data directory. */
async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `contest-${name}-`));
  const config = loadConfig({ ...env, DATA_DIR: dataDir });
  const database = openDatabase(config);
  await migrateToLatest(database);
  await seedIfEmpty(database.db, config, systemClock);
  const logStream = new Writable({ write: (_c, _e, done) => done() });
  const built = await buildApp({ config, database, logStream, jobs: TEST_JOBS });
  const url = await built.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    ...built,
    name,
    url,
    async close() {
      await built.app.close();
      await database.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One port in front of the instances, as a load balancer without sticky sessions: each request goes to the next
 * instance in turn, bodies stream both ways (server-sent events included), and the reply says who served it.
 */
async function roundRobin(targets: Instance[]) {
  let next = 0;
  const server = http.createServer((req, res) => {
    const target = targets[next++ % targets.length]!;
    const { port } = new URL(target.url);
    const upstream = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress } },
      (reply) => {
        res.writeHead(reply.statusCode!, { ...reply.headers, 'x-instance': target.name });
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A browser over real HTTP: keeps its session and CSRF cookies and echoes the CSRF token on writes. */
class Browser {
  cookies = new Map<string, string>();
  constructor(public base: string) {}

  async fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const csrf = this.cookies.get(CSRF_COOKIE);
    if (csrf && init.method && init.method !== 'GET') headers.set(CSRF_HEADER, csrf);
    const res = await fetch(this.base + url, { ...init, headers });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return res;
  }

  async json(method: string, url: string, payload?: unknown) {
    const res = await this.fetch(
      url,
      payload === undefined ? { method } : { method, body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } },
    );
    return { status: res.status, instance: res.headers.get('x-instance'), body: (await res.json()) as { status: number; message: string; data: any } };
  }

  /** The same session, seen through another address (another instance, directly). */
  via(base: string) {
    const other = new Browser(base);
    other.cookies = this.cookies;
    return other;
  }
}

/** Reads `event: unread` payloads from a server-sent event stream. */
async function openStream(browser: Browser) {
  const controller = new AbortController();
  const res = await browser.fetch('/api/message/notice/stream', { signal: controller.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  return { instance: res.headers.get('x-instance'), ...streamEvents(res, controller) };
}

/** Executions of the test job, by payload, with the instance that ran each. */
const executions: { n: number; instance: string }[] = [];
const scaleOutJob = defineJob({
  id: 'test.scaleOut',
  payload: z.object({ n: z.number().int() }),
  async run(deps, { n }) {
    const instance = deps.config.dataDir;
    executions.push({ n, instance });
    // Hold the first jobs until each instance has started one, so the test proves both were really competing.
    await until(() => new Set(executions.map((e) => e.instance)).size >= 2, 10_000).catch(() => undefined);
  },
});
/** A job whose work the lease test sets. */
let longJobWork: (deps: Deps) => Promise<void> = async () => undefined;
const longJob = defineJob({ id: 'test.longJob', payload: z.object({}), run: (deps) => longJobWork(deps) });
/**
 * The platform's jobs and this file's, for the instances' background workers and the runners the tests start; without
 * the periodic sweeps, which would be due whenever a test moves its clock on, and run as more jobs.
 */
const SWEEPS = new Set([closeExpiredJob.id, drainSweepJob.id, remindJob.id, similaritySweepJob.id]);
const TEST_JOBS = jobRegistry([...JOB_DEFINITIONS.filter((j) => !SWEEPS.has(j.id)), scaleOutJob, longJob]);

describe.skipIf(!DATABASE || !REDIS)('two instances on PostgreSQL and Redis behind one port (needs TEST_DATABASE_URL and TEST_REDIS_URL)', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const redisPrefix = `test-${randomBytes(6).toString('hex')}:`;
  // Each instance has only its own DATA_DIR (UPLOADS_DIR under it): works uploads in progress live in the bucket.
  let s3: Awaited<ReturnType<typeof startS3>>;
  let one: Instance;
  let two: Instance;
  let proxy: Awaited<ReturnType<typeof roundRobin>>;
  let redis: Redis;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: DATABASE });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(DATABASE!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    s3 = await startS3();
    redis = new Redis(REDIS!);
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: REDIS!,
      REDIS_PREFIX: redisPrefix,
      ...s3Env(s3.endpoint),
      SECRET_KEY: randomBytes(32).toString('hex'),
      CONTEST_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(os.tmpdir(), `contest-no-web-${schema}`),
      TRUST_PROXY: '1',
      JOB_WORKER: '1',
    };
    // Both start at once on the empty database: migrations and the first seed must not trip over each other.
    [one, two] = await Promise.all([startInstance('one', env), startInstance('two', env)]);
    proxy = await roundRobin([one, two]);
  });

  afterAll(async () => {
    await proxy?.close();
    await one?.close();
    await two?.close();
    await s3?.close();
    if (redis) {
      const keys = await redis.keys(`${redisPrefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
    const admin = new pg.Client({ connectionString: DATABASE });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  const register = async (username: string) => {
    const res = await new Browser(proxy.url).json('POST', '/api/auth/register', { username, password: 'Passw0rd1' });
    expect(res.status).toBe(200);
    return res.body.data as { id: number };
  };

  it('started both instances on one freshly migrated and seeded database', async () => {
    const admins = await one.deps.db.selectFrom('users').select('id').where('username', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
  });

  it('keeps a session made on one instance valid on the other, and ends it on both', async () => {
    const browser = new Browser(proxy.url);
    const login = await browser.json('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await browser.json('GET', '/api/auth/sessions');
      expect(res.status).toBe(200);
      served.add(res.instance!);
    }
    expect(served).toEqual(new Set(['one', 'two']));
    // A write (with its CSRF token) on the instance that did not make the session.
    const other = login.instance === 'one' ? two : one;
    const direct = browser.via(other.url);
    expect((await direct.json('POST', '/api/message/notice/recipients', { target: { scope: 'all' } })).status).toBe(200);
    const token = browser.cookies.get(SESSION_COOKIE)!;
    expect((await browser.json('POST', '/api/auth/logout')).status).toBe(200);
    // Logged out through one instance, the old cookie is refused by both.
    for (const instance of [one, two]) {
      const stale = new Browser(instance.url);
      stale.cookies.set(SESSION_COOKIE, token);
      expect((await stale.json('GET', '/api/auth/sessions')).status).toBe(401);
    }
  });

  it('counts failed logins across instances: failures split over both lock the account on both', async () => {
    await register('limited');
    const browser = new Browser(proxy.url);
    const served = new Set<string>();
    // LOGIN_MAX_FAILURES_PER_ACCOUNT is 5: each instance alone sees fewer.
    for (let i = 0; i < 5; i++) {
      const res = await browser.json('POST', '/api/auth/login', { username: 'limited', password: 'wrong-password' });
      expect(res.status).toBe(400);
      served.add(res.instance!);
    }
    expect(served).toEqual(new Set(['one', 'two']));
    for (const instance of [one, two]) {
      const res = await new Browser(instance.url).json('POST', '/api/auth/login', { username: 'limited', password: 'Passw0rd1' });
      expect(res.status).toBe(429);
    }
  });

  it('tells a message stream held open on one instance of a notice published through the other', async () => {
    await register('reader');
    const reader = new Browser(proxy.url);
    expect((await reader.json('POST', '/api/auth/login', { username: 'reader', password: 'Passw0rd1' })).status).toBe(200);
    const stream = await openStream(reader);
    try {
      // Through the proxy, with buffering of neither side in the way.
      const first = await stream.next();
      const publisher = stream.instance === 'one' ? two : one;
      expect(publisher.name).not.toBe(stream.instance);
      // Both instances listen on the shared channel before anything is published.
      await until(async () => {
        const [, subscribers] = (await redis.pubsub('NUMSUB', `${redisPrefix}notice`)) as [string, number];
        return subscribers >= 2;
      });
      const admin = new Browser(publisher.url);
      expect((await admin.json('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
      const notice = await admin.json('POST', '/api/message/notice', {
        kind: 1,
        title: '跨实例通知',
        content: '<p>你好</p>',
        target: { scope: 'users', usernames: ['reader'] },
      });
      expect(notice.status).toBe(200);
      expect((await admin.json('POST', `/api/message/notice/${notice.body.data.id}`, {})).status).toBe(200);
      expect(await stream.next()).toEqual({ ...first, person: first.person + 1, total: first.total + 1 });
    } finally {
      stream.close();
    }
  });

  it('runs each job exactly once while both instances run workers at the same time', async () => {
    const jobs = 40;
    const now = new Date();
    for (let n = 0; n < jobs; n++) await enqueue(one.deps.db, scaleOutJob, { n }, now);
    // Besides the workers both instances run in the background (JOB_WORKER), three more runners each.
    const runners = [one, two].flatMap((i) => [1, 2, 3].map((k) => runDueJobs(i.deps, `${i.name}-${k}`, { jobs: TEST_JOBS })));
    await Promise.all(runners);
    await until(async () => {
      const open = await one.deps.db.selectFrom('jobs').select('id').where('type', '=', 'test.scaleOut').where('doneAt', 'is', null).execute();
      return open.length === 0;
    });
    expect(executions.map((e) => e.n).sort((a, b) => a - b)).toEqual(Array.from({ length: jobs }, (_, n) => n));
    expect(new Set(executions.map((e) => e.instance))).toEqual(new Set([one.deps.config.dataDir, two.deps.config.dataDir]));
    const rows = await two.deps.db.selectFrom('jobs').select(['attempts', 'failed']).where('type', '=', 'test.scaleOut').execute();
    expect(rows.every((r) => Number(r.attempts) === 1 && Number(r.failed) === 0)).toBe(true);
  });

  it('renews the lease of a job that runs longer than the lease, so no other instance takes it over', async () => {
    // A clock of this test's own, an hour ahead: the instances' background workers (on the real clock) leave the job be.
    let now = new Date(Date.now() + 3600_000);
    const clock = { now: () => now };
    const a = { ...one.deps, clock };
    const b = { ...two.deps, clock };
    const runs: string[] = [];
    let takenOver: number | undefined;
    longJobWork = async (deps) => {
      runs.push(deps === a ? 'one' : 'two');
      // Ten minutes pass, twice the lease: the renewal must have pushed the lease past them...
      now = new Date(now.getTime() + 10 * 60_000);
      await until(async () => {
        const row = await one.deps.db.selectFrom('jobs').select('lockedUntil').where('type', '=', 'test.longJob').executeTakeFirstOrThrow();
        return row.lockedUntil !== null && new Date(row.lockedUntil) > now;
      });
      // ...so the other instance's worker, looking now, finds nothing to take.
      takenOver = await runDueJobs(b, 'two-late', { jobs: TEST_JOBS });
    };
    await enqueue(one.deps.db, longJob, {}, now);
    expect(await runDueJobs(a, 'one-long', { renewMs: 20, jobs: TEST_JOBS })).toBe(1);
    expect(runs).toEqual(['one']);
    expect(takenOver).toBe(0);
  });

  it('serves from either instance a file uploaded through the other, from the shared bucket', async () => {
    await register('uploader');
    const browser = new Browser(one.url);
    expect((await browser.json('POST', '/api/auth/login', { username: 'uploader', password: 'Passw0rd1' })).status).toBe(200);
    const { payload, headers } = multipart('头像.png', PNG);
    const res = await browser.fetch('/api/file/upload/avatar', { method: 'POST', body: payload, headers });
    expect(res.status).toBe(200);
    const fileUri = ((await res.json()) as { data: { fileUri: string } }).data.fileUri;
    const download = await fetch(`${two.url}/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
    const part = await fetch(`${proxy.url}/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}`, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('PNG');
  });

  it('publishes a scheduled notice once, by whichever worker comes first', async () => {
    const { id: userId } = await register('scheduled');
    const admin = new Browser(proxy.url);
    expect((await admin.json('POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).status).toBe(200);
    const notice = await admin.json('POST', '/api/message/notice', {
      kind: 1,
      title: '定时通知',
      content: '<p>稍后送达</p>',
      target: { scope: 'users', usernames: ['scheduled'] },
    });
    const publishAt = new Date(Date.now() + 1500).toISOString();
    expect((await admin.json('POST', `/api/message/notice/${notice.body.data.id}`, { publishAt })).status).toBe(200);
    // Both instances' background workers poll the job table; one of them publishes it when due.
    await until(
      async () =>
        (await one.deps.db.selectFrom('jobs').select('id').where('type', '=', 'notice.publish').where('doneAt', 'is not', null).execute()).length === 1,
    );
    const job = await one.deps.db.selectFrom('jobs').select(['attempts', 'failed']).where('type', '=', 'notice.publish').executeTakeFirstOrThrow();
    expect(job).toMatchObject({ failed: 0 });
    expect(Number(job.attempts)).toBe(1);
    const boxes = await one.deps.db.selectFrom('noticeRecipients').select('userId').where('noticeId', '=', notice.body.data.id).execute();
    expect(boxes).toEqual([{ userId }]);
  });

  /** A team that has chosen a works question of a competition open for works (set up directly on one instance). */
  async function worksTeam(prefix: string) {
    const t = { app: one.app } as TestApp;
    const admin = await loggedIn(one.app, 'admin', ADMIN_PASSWORD);
    const org = await makeOrganiser(t, admin, `${prefix}Org`, `${prefix}大学`);
    const day = 24 * 3600_000;
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    const competitionId = await onlineCompetition(admin, org, {
      regStartTime: at(-day),
      regEndTime: at(10 * day),
      endTime: at(30 * day),
      worksMaxMb: 20,
      worksTypes: 'zip',
    });
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'CHOICE_SET')!.id}`, { enable: true });
    await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'SUBMIT_WORKS')!.id}`, { enable: true, enableEndTime: at(10 * day) });
    const questionId = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '作品题',
        evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
      }),
    ).data.id;
    await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true });
    await registerUser(one.app, `${prefix}Leader`);
    const leader = await loggedIn(one.app, `${prefix}Leader`);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `${prefix}队`, info: REG_INFO })).data;
    expect((await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' })).statusCode).toBe(200);
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    const browser = new Browser(proxy.url);
    browser.cookies.set(SESSION_COOKIE, leader.token!);
    browser.cookies.set(CSRF_COOKIE, leader.csrf!);
    return { questionId, leader, browser };
  }

  const TUS = { 'tus-resumable': '1.0.0' };
  async function createUpload(browser: Browser, questionId: number, content: Buffer) {
    const sha256 = createHash('sha256').update(content).digest('hex');
    const meta = { questionId: String(questionId), filename: 'works.zip', sha256 };
    const created = await browser.fetch('/api/review/works/upload', {
      method: 'POST',
      headers: {
        ...TUS,
        'upload-length': String(content.length),
        'upload-metadata': Object.entries(meta)
          .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
          .join(','),
      },
    });
    expect(created.status).toBe(201);
    return { location: new URL(created.headers.get('location')!, proxy.url).pathname, sha256, instance: created.headers.get('x-instance') };
  }
  const patch = (browser: Browser, location: string, offset: number, chunk: Buffer) =>
    browser.fetch(location, {
      method: 'PATCH',
      headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: chunk,
    });

  const bucket = () =>
    new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
    });
  const tusObjects = async (client: S3Client) =>
    ((await client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: 'tus/' }))).Contents ?? []).map((o) => o.Key!);
  const tusMultiparts = async (client: S3Client) =>
    ((await client.send(new ListMultipartUploadsCommand({ Bucket: S3_BUCKET, Prefix: 'tus/' }))).Uploads ?? []).map((u) => u.Key!);

  it('takes one resumable works upload on both instances in turn with no shared folder, through the bucket, and keeps the right bytes', async () => {
    const { questionId, leader, browser } = await worksTeam('scale');
    // Over S3's 5 MiB part minimum, so the upload becomes a real multipart upload; sent in four pieces, each PATCH to
    // the other instance than the one before (the port in front takes turns), the small ones waiting as a tail object.
    const content = randomBytes(11 * 1024 * 1024 + 12_345);
    const { location, sha256, instance } = await createUpload(browser, questionId, content);
    const served = [instance];
    const cuts = [0, 700_000, 6 * 1024 * 1024, 9 * 1024 * 1024, content.length];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const res = await patch(browser, location, cuts[i]!, content.subarray(cuts[i], cuts[i + 1]));
      expect(res.status).toBe(204);
      expect(res.headers.get('upload-offset')).toBe(String(cuts[i + 1]));
      served.push(res.headers.get('x-instance'));
      if (i === 1) {
        // Between PATCHes, whichever instance is asked reports where the upload stands.
        const head = await browser.fetch(location, { method: 'HEAD', headers: TUS });
        expect(head.headers.get('upload-offset')).toBe(String(cuts[2]));
        served.push(head.headers.get('x-instance'));
      }
    }
    // Strictly alternating: every instance took its share of the one upload.
    for (let i = 1; i < served.length; i++) expect(served[i]).not.toBe(served[i - 1]);
    expect(new Set(served)).toEqual(new Set(['one', 'two']));

    const versions = body(
      await new Client(two.app).request({ method: 'GET', url: `/api/review/works/${questionId}`, headers: { cookie: `${SESSION_COOKIE}=${leader.token}` } }),
    ).data as { fileUri: string; sha256: string; size: number }[];
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ sha256, size: content.length });
    const download = await browser.fetch(`/api/file/common/download?fileUri=${encodeURIComponent(versions[0]!.fileUri)}`);
    expect(download.status).toBe(200);
    const got = Buffer.from(await download.arrayBuffer());
    expect(createHash('sha256').update(got).digest('hex')).toBe(sha256);
    // The finished upload left nothing behind in the bucket's upload area, and no instance has an uploads folder.
    const client = bucket();
    expect(await tusObjects(client)).toEqual([]);
    expect(await tusMultiparts(client)).toEqual([]);
    for (const instance of [one, two]) expect(fs.existsSync(instance.deps.config.uploadsDir)).toBe(false);
  });

  it('drops an upload left idle past the expiry from the bucket: its multipart upload, its parts and its objects', async () => {
    const { questionId, browser } = await worksTeam('idle');
    const content = randomBytes(6 * 1024 * 1024 + 100);
    const { location } = await createUpload(browser, questionId, content);
    // Part one goes up as a part of the multipart upload, the rest waits as the tail object.
    expect((await patch(browser, location, 0, content.subarray(0, 5 * 1024 * 1024 + 10))).status).toBe(204);
    const client = bucket();
    const uploadId = location.split('/').pop()!;
    expect((await tusObjects(client)).some((k) => k === `tus/${uploadId}.info`)).toBe(true);
    expect(await tusMultiparts(client)).toContain(`tus/${uploadId}`);

    // Not yet idle long enough: kept.
    expect(await expireUploads(one.deps)).toBe(0);
    const later = { ...one.deps, clock: { now: () => new Date(Date.now() + UPLOAD_IDLE_EXPIRY_MS + 60_000) } };
    expect(await expireUploads(later)).toBe(1);
    expect((await tusObjects(client)).filter((k) => k.startsWith(`tus/${uploadId}`))).toEqual([]);
    expect(await tusMultiparts(client)).not.toContain(`tus/${uploadId}`);
    // The client coming back is told the upload is gone, on either instance.
    for (const instance of [one, two]) {
      const head = await browser.via(instance.url).fetch(location, { method: 'HEAD', headers: TUS });
      expect(head.status).toBe(404);
    }
    await client.send(new HeadObjectCommand({ Bucket: S3_BUCKET, Key: `tus/${uploadId}` })).then(
      () => expect.fail('the object should be gone'),
      (err: { $metadata?: { httpStatusCode?: number } }) => expect(err.$metadata?.httpStatusCode).toBe(404),
    );
  });

  it('lets one request at a time write an upload across instances: a second asks the holder to let go, and takes over', async () => {
    const prefix = `${redisPrefix}lock-test:`;
    const a = new RedisLocker(new Redis(REDIS!), prefix, { ttlMs: 2_000, retryMs: 10 });
    const b = new RedisLocker(new Redis(REDIS!), prefix, { ttlMs: 2_000, retryMs: 10 });
    try {
      const first = a.newLock('u1');
      let asked = 0;
      await first.lock(new AbortController().signal, async () => {
        asked++;
        await first.unlock();
      });
      expect(await redis.get(`${prefix}u1`)).toBeTruthy();
      // The second instance's request waits for the lock, asking its holder (on the other instance) to let go.
      const second = b.newLock('u1');
      await second.lock(new AbortController().signal, async () => undefined);
      expect(asked).toBe(1);
      // Only the holder's token unlocks: the first lock's late unlock would not free the second's.
      const token = await redis.get(`${prefix}u1`);
      expect(token).toBeTruthy();
      await second.unlock();
      expect(await redis.get(`${prefix}u1`)).toBeNull();
      // A holder that does not let go (a request still writing) keeps the upload: the other gives up at its timeout.
      const busy = b.newLock('u2');
      await busy.lock(new AbortController().signal, async () => undefined);
      await expect(a.newLock('u2').lock(AbortSignal.timeout(200), async () => undefined)).rejects.toBeTruthy();
      await busy.unlock();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
