import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingAcked, startLoad, untilAcked, untilEveryKind, type LoadWorker } from './faults/load.ts';
import { privateCluster, type PrivateCluster } from './faults/postgres.ts';
import {
  ADMIN_PASSWORD,
  HttpClient,
  ROOT,
  arena,
  checkFileRows,
  createUpload,
  integrityCheck,
  patchUpload,
  png,
  seeded,
  sha256,
  sqliteQuery,
  startServer,
  teamLeader,
  uploadOffset,
  type ServerProcess,
} from './faults/server.ts';

/**
 * Faults (issue 9, item 4), against the real server in a child process: kill -9 during writes and uploads, a
 * PostgreSQL restart under load, a full disk during uploads, and an online backup under write load restored into a
 * fresh platform.
 */

const run = promisify(execFile);
const STORAGE_FULL = '服务器存储空间不足，请稍后再试';
const DATABASE_UNAVAILABLE = '数据库暂时不可用，请稍后再试';
const temps: string[] = [];
const servers: ServerProcess[] = [];

function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

async function serve(env: Record<string, string>) {
  const s = await startServer(env);
  servers.push(s);
  return s;
}

afterAll(async () => {
  for (const s of servers) await s.kill9();
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

async function leaders(url: string, a: Awaited<ReturnType<typeof arena>>, prefix: string, n: number): Promise<LoadWorker[]> {
  const out: LoadWorker[] = [];
  for (let i = 0; i < n; i++) {
    const t = await teamLeader(url, a, `${prefix}lead${i}`);
    out.push({ leader: t.leader, username: t.username, teamId: t.teamId });
  }
  return out;
}

/** The platform answers normally: a login, a read, a registration and a works upload. */
async function servesNormally(url: string, questionId: number, worker: LoadWorker, tag: string) {
  const admin = await new HttpClient(url).login('admin', ADMIN_PASSWORD);
  expect((await admin.get('/api/team/userinfo/')).body?.data.username).toBe('admin');
  expect((await new HttpClient(url).post('/api/auth/register', { username: `${tag}after`, password: 'Passw0rd1' })).status).toBe(200);
  worker.leader.base = url;
  const content = Buffer.from(`after ${tag}`);
  const created = await createUpload(worker.leader, questionId, content);
  expect(created.status, created.text).toBe(201);
  expect((await patchUpload(worker.leader, created.headers.get('location')!, 0, content)).status).toBe(204);
  const versions = (await worker.leader.get(`/api/review/works/${questionId}`)).body!.data as { sha256: string; fileUri: string }[];
  expect(versions[0]!.sha256).toBe(sha256(content));
  const download = await fetch(`${url}/api/file/common/download?fileUri=${encodeURIComponent(versions[0]!.fileUri)}`, {
    headers: { cookie: [...worker.leader.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
}

describe('kill -9 during writes and uploads (SQLite)', () => {
  it('keeps every acknowledged write, points no row at a partial file and passes integrity_check after each restart', async () => {
    const dataDir = tempDir('faults-kill-');
    const dbFile = path.join(dataDir, 'contest.sqlite');
    const filesDir = path.join(dataDir, 'files');
    const rand = seeded(9_4_2026);
    let server = await serve({ DATA_DIR: dataDir });
    const a = await arena(server.url);
    const workers = await leaders(server.url, a, 'k', 3);
    const load = startLoad(() => server.url, workers, a, 94, 'k');
    const rounds = 3;
    for (let round = 0; round < rounds; round++) {
      // Killed after a seeded number of acknowledged writes, with the other workers in the middle of theirs.
      if (round === 0) await untilEveryKind(load, server);
      await untilAcked(load, rand.int(3, 12), server);
      await server.kill9();
      if (round === 1) {
        // A temporary file an earlier process left behind long ago is swept when the store opens.
        fs.writeFileSync(path.join(filesDir, '.tmp', 'left-by-a-crash'), 'partial');
        const old = new Date(Date.now() - 2 * 3600_000);
        fs.utimesSync(path.join(filesDir, '.tmp', 'left-by-a-crash'), old, old);
      }
      // The server recovers its own database at start-up; the checks read it (read-only) once it runs again.
      server = await serve({ DATA_DIR: dataDir });
      if (round === 1) expect(fs.existsSync(path.join(filesDir, '.tmp', 'left-by-a-crash'))).toBe(false);
      expect(integrityCheck(dbFile)).toBe('ok');
      expect(await missingAcked(sqliteQuery(dbFile), load)).toEqual([]);
      expect((await checkFileRows(sqliteQuery(dbFile), filesDir)).problems).toEqual([]);
    }
    await load.stop();
    expect(load.acked.filter((x) => x.kind === 'works').length).toBeGreaterThan(0);
    expect(load.acked.filter((x) => x.kind === 'avatar').length).toBeGreaterThan(0);
    // Every answer was a 2xx; only connections the kills cut went unanswered.
    expect(load.refused).toEqual([]);
    expect(await missingAcked(sqliteQuery(dbFile), load)).toEqual([]);
    expect((await checkFileRows(sqliteQuery(dbFile), filesDir)).problems).toEqual([]);
    // A temporary file is never what a row points at.
    const keys = (await sqliteQuery(dbFile)('select key from files')).map((r) => String(r.key));
    expect(keys.filter((k) => k.startsWith('.tmp'))).toEqual([]);
    await servesNormally(server.url, a.questionId, workers[0]!, 'k');
    // The acknowledged works are served whole, through HTTP, by the restarted server.
    const w = workers[1]!;
    w.leader.base = server.url;
    const served = new Set(((await w.leader.get(`/api/review/works/${a.questionId}`)).body!.data as { sha256: string }[]).map((v) => v.sha256));
    for (const x of load.acked.filter((x) => x.kind === 'works' && x.value === String(w.teamId))) expect(served.has(x.sha256!)).toBe(true);
    await server.stop();
    expect(integrityCheck(dbFile)).toBe('ok');
  }, 120_000);
});

describe('disk full during uploads', () => {
  let disk: string | undefined;
  afterAll(async () => {
    if (!disk) return;
    // A server left running by a failed test holds files open there.
    for (const s of servers) await s.kill9();
    execFileSync('umount', [disk]);
  });

  it('answers 507 with a Chinese message, keeps no partial file and takes uploads again once there is room', async (ctx) => {
    const base = tempDir('faults-disk-');
    const mountPoint = path.join(base, 'disk');
    fs.mkdirSync(mountPoint);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=20m', 'tmpfs', mountPoint], { stdio: 'pipe' });
      disk = mountPoint;
    } catch (err) {
      ctx.skip(`cannot mount a small tmpfs to fill (needs root): ${(err as Error).message.split('\n')[0]}`);
      return;
    }
    // The database stays on the big disk; the stored files and the uploads in progress live on the small one.
    const dataDir = path.join(base, 'data');
    fs.mkdirSync(dataDir);
    for (const dir of ['files', 'uploads']) {
      fs.mkdirSync(path.join(mountPoint, dir));
      fs.symlinkSync(path.join(mountPoint, dir), path.join(dataDir, dir));
    }
    const dbFile = path.join(dataDir, 'contest.sqlite');
    const filesDir = path.join(dataDir, 'files');
    const server = await serve({ DATA_DIR: dataDir });
    const a = await arena(server.url, 50);
    const [w] = await leaders(server.url, a, 'd', 1);
    const leader = w!.leader;
    const rand = seeded(507);
    const send = async (content: Buffer) => {
      const created = await createUpload(leader, a.questionId, content);
      expect(created.status, created.text).toBe(201);
      return created.headers.get('location')!;
    };
    /** Sends from `from` in chunks of 256 KiB (small enough to be read whole before an answer); the last answer. */
    const chunks = async (location: string, content: Buffer, from = 0) => {
      let last;
      for (let at = from; at < content.length; at += 256 * 1024) {
        last = await patchUpload(leader, location, at, content.subarray(at, at + 256 * 1024));
        if (last.status !== 204) return last;
      }
      return last!;
    };

    const early = rand.bytes(512 * 1024);
    expect((await chunks(await send(early), early)).status).toBe(204);
    const avatar = png(1);
    expect((await leader.upload('/api/file/upload/avatar', 'a.png', avatar, 'image/png')).status).toBe(200);

    const free = () => {
      const s = fs.statfsSync(mountPoint);
      return s.bavail * s.bsize;
    };
    fs.writeFileSync(path.join(mountPoint, 'filler'), Buffer.alloc(free() - 3 * 1024 * 1024));

    // 2 MB arrive (3 MB were free), but the store's copy does not fit: refused at the finish.
    const atFinish = rand.bytes(2 * 1024 * 1024);
    const finishLocation = await send(atFinish);
    const refusedAtFinish = await chunks(finishLocation, atFinish);
    expect([refusedAtFinish.status, refusedAtFinish.text]).toEqual([507, STORAGE_FULL]);
    // 4 MB do not even arrive.
    const tooBig = rand.bytes(4 * 1024 * 1024);
    const bigLocation = await send(tooBig);
    const refusedMidway = await chunks(bigLocation, tooBig);
    expect([refusedMidway.status, refusedMidway.text]).toEqual([507, STORAGE_FULL]);
    const arrived = await uploadOffset(leader, bigLocation);
    expect(arrived).toBeLessThan(tooBig.length);
    // The last bytes of the disk: a form upload is refused the same way, in the JSON envelope.
    try {
      fs.writeFileSync(path.join(mountPoint, 'filler2'), Buffer.alloc(free()));
    } catch {
      // Full already.
    }
    const refusedAvatar = await leader.upload('/api/file/upload/avatar', 'b.png', png(2), 'image/png');
    expect([refusedAvatar.status, refusedAvatar.body]).toEqual([507, { status: 507, message: STORAGE_FULL, data: null }]);

    // Nothing was corrupted or half-recorded: only the early work counts, no temporary copy is left, reads work.
    expect(fs.readdirSync(path.join(filesDir, '.tmp'))).toEqual([]);
    const versions = async () => ((await leader.get(`/api/review/works/${a.questionId}`)).body!.data as { sha256: string }[]).map((v) => v.sha256);
    expect(await versions()).toEqual([sha256(early)]);
    expect(integrityCheck(dbFile)).toBe('ok');
    expect((await checkFileRows(sqliteQuery(dbFile), filesDir)).problems).toEqual([]);

    // Room again: the interrupted upload resumes where it stopped, the refused finish is repeated, uploads work.
    fs.rmSync(path.join(mountPoint, 'filler'));
    fs.rmSync(path.join(mountPoint, 'filler2'), { force: true });
    expect((await chunks(bigLocation, tooBig, await uploadOffset(leader, bigLocation))).status).toBe(204);
    // The upload refused at its finish had all its bytes: the client resuming it asks how far it got, which records it.
    expect(await uploadOffset(leader, finishLocation)).toBe(atFinish.length);
    expect((await leader.upload('/api/file/upload/avatar', 'c.png', png(3), 'image/png')).status).toBe(200);
    expect(new Set(await versions())).toEqual(new Set([sha256(early), sha256(atFinish), sha256(tooBig)]));
    expect((await checkFileRows(sqliteQuery(dbFile), filesDir)).problems).toEqual([]);
    expect(integrityCheck(dbFile)).toBe('ok');
    await server.stop();
  }, 90_000);
});

/** Writes go on while `npm run backup` runs; the backup, restored into a fresh platform, serves what was acknowledged before it began. */
async function backupUnderLoad(
  tag: string,
  source: Record<string, string>,
  target: Record<string, string>,
  targetQuery: (sql: string) => Promise<Record<string, unknown>[]>,
) {
  const server = await serve(source);
  const a = await arena(server.url);
  const workers = await leaders(server.url, a, tag, 2);
  const load = startLoad(() => server.url, workers, a, 1234, tag);
  await untilAcked(load, 10, server);
  const before = load.acked.length;
  const dest = path.join(tempDir('faults-backup-'), 'backup');
  const env = { PATH: process.env.PATH!, HOME: process.env.HOME!, LOG_LEVEL: 'warn' };
  const backup = await run('npm', ['run', 'backup', '--', dest], { cwd: ROOT, env: { ...env, ...source } });
  expect(backup.stdout).toContain(`备份完成：${dest}`);
  // The load went on during the backup.
  await untilAcked(load, 3, server);
  await load.stop();
  await server.stop();
  expect(load.refused).toEqual([]);

  const restore = await run('npm', ['run', 'restore', '--', dest], { cwd: ROOT, env: { ...env, ...target } });
  expect(restore.stdout).toContain('恢复完成');
  expect(fs.readFileSync(path.join(target.DATA_DIR!, 'secret.key')).equals(fs.readFileSync(path.join(source.DATA_DIR!, 'secret.key')))).toBe(true);
  const restored = await serve(target);
  expect(await missingAcked(targetQuery, load, before)).toEqual([]);
  const store = await checkFileRows(targetQuery, path.join(target.DATA_DIR!, 'files'));
  expect(store.problems).toEqual([]);
  expect(store.referenced).toBeGreaterThan(0);
  // Accounts made before the backup log in; sessions made before it still hold.
  const registered = load.acked.find((x) => x.kind === 'register' && x.seq < before);
  if (registered) await new HttpClient(restored.url).login(registered.username, registered.value);
  await servesNormally(restored.url, a.questionId, workers[0]!, `${tag}r`);
  await restored.stop();
  return load;
}

describe('online backup under write load', () => {
  it('restores a SQLite platform that serves every write acknowledged before the backup began', async () => {
    const source = tempDir('faults-src-');
    const target = tempDir('faults-dst-');
    fs.rmdirSync(target);
    await backupUnderLoad('bs', { DATA_DIR: source }, { DATA_DIR: target }, sqliteQuery(path.join(target, 'contest.sqlite')));
    expect(integrityCheck(path.join(target, 'contest.sqlite'))).toBe('ok');
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL (a private cluster; TEST_DATABASE_URL unset skips it like the other PostgreSQL tests)', () => {
  let cluster: PrivateCluster;
  beforeAll(async () => {
    cluster = await privateCluster();
  }, 60_000);
  afterAll(() => cluster?.destroy());

  it('keeps serving when PostgreSQL restarts under load, without a restart of its own', async () => {
    const database = 'contest_restart';
    const url = await cluster.createDatabase(database);
    const dataDir = tempDir('faults-pgr-');
    const server = await serve({ DATA_DIR: dataDir, DATABASE_URL: url });
    const a = await arena(server.url);
    const workers = await leaders(server.url, a, 'r', 3);
    const load = startLoad(() => server.url, workers, a, 5432, 'r');
    await untilAcked(load, 8, server);
    await cluster.restart();
    await untilAcked(load, 8, server);
    await load.stop();
    // The same process, never restarted.
    expect(server.child.exitCode).toBe(null);
    // A request caught by the outage got a clear 503, never a dropped connection or a bare 500.
    for (const r of load.refused) expect(r).toEqual({ status: 503, message: DATABASE_UNAVAILABLE });
    expect(load.errors).toBe(0);
    // Once the database is back, everything succeeds.
    const checks = [];
    for (let i = 0; i < 5; i++) {
      checks.push((await new HttpClient(server.url).post('/api/auth/register', { username: `rafter${i}`, password: 'Passw0rd1' })).status);
      const w = workers[i % 3]!;
      load.profileSent.get(w.username)?.push(`恢复后${i}`);
      checks.push((await w.leader.put('/api/team/userinfo/', { organization: `恢复后${i}` })).status);
      checks.push((await new HttpClient(server.url).get(`/api/competition/public/${a.competitionId}`)).status);
    }
    expect(checks.every((s) => s === 200)).toBe(true);
    const query = (sql: string) => cluster.query(database, sql);
    expect(await missingAcked(query, load)).toEqual([]);
    expect((await checkFileRows(query, path.join(dataDir, 'files'))).problems).toEqual([]);
    await servesNormally(server.url, a.questionId, workers[0]!, 'r');
    await server.stop();
  }, 120_000);

  it('restores a PostgreSQL platform from a backup taken under write load', async () => {
    const source = { DATA_DIR: tempDir('faults-pgsrc-'), DATABASE_URL: await cluster.createDatabase('contest_source') };
    const target = { DATA_DIR: path.join(tempDir('faults-pgdst-'), 'data'), DATABASE_URL: await cluster.createDatabase('contest_restored') };
    await backupUnderLoad('bp', source, target, (sql) => cluster.query('contest_restored', sql));
  }, 120_000);
});
