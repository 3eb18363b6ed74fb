import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type ServerBuild } from '../build.ts';
import { ADMIN_PASSWORD, freePort } from './faults/server.ts';

/**
 * The server as `npm start` runs it: bundled by server/build.ts and started with plain `node` (no tsx). Fails when the
 * bundle breaks: a package that cannot be loaded from the output folder, a path computed from `import.meta` that no
 * longer points at its file (swagger-ui's assets, the migrations), or a "run me when I am the script" check that fires
 * inside another entry (backup.ts inside restore, desktop/build.ts inside the server).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
let built: ServerBuild;
const temps: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
const env = (dataDir: string) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  DATA_DIR: dataDir,
  CONTEST_ADMIN_PASSWORD: ADMIN_PASSWORD,
  SEED_DEMO: '1',
  LOG_LEVEL: 'warn',
  JOB_WORKER: '0',
});

beforeAll(async () => {
  // Inside the repository (server/.tmp is ignored by git), where node_modules is found as from server/dist.
  fs.mkdirSync(path.join(ROOT, 'server/.tmp'), { recursive: true });
  const outDir = fs.mkdtempSync(path.join(ROOT, 'server/.tmp/built-test-'));
  temps.push(outDir);
  built = await buildServer({ outDir });
});

afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the built server', () => {
  it('bundles every entry with our sources and @contest/shared inside and npm packages outside', () => {
    expect(built.entries).toEqual(expect.arrayContaining(['main', 'backup', 'restore']));
    for (const entry of built.entries) expect(fs.existsSync(path.join(built.outDir, `${entry}.js.map`))).toBe(true);
    const main = fs.readFileSync(path.join(built.outDir, 'main.js'), 'utf8');
    expect(main).not.toMatch(/from ["']@contest\/shared/);
    expect(main).toMatch(/from ["']better-sqlite3["']/);
    expect(built.external).toEqual(expect.arrayContaining(['better-sqlite3', 'fastify', 'kysely', 'zod']));
    expect(built.external).not.toContain('@contest/shared');
  });

  it('starts with plain node, migrates, serves the API and its docs, logs the administrator in, and backs up and restores', { timeout: 30_000 }, async () => {
    const dataDir = tempDir('contest-built-');
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(built.outDir, 'main.js')], {
      cwd: ROOT,
      env: { ...env(dataDir), PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const url = `http://127.0.0.1:${port}`;
    try {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the built server exited while starting:\n${output}`);
        const health = await fetch(`${url}/api/health`).then(
          (r) => (r.ok ? r.json() : null),
          () => null,
        );
        if (health) {
          expect(health).toMatchObject({ status: 200, data: { status: 'ok', database: 'sqlite' } });
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(output).toContain('竞赛平台已启动');

      // Swagger UI's files are read from node_modules by path.
      const docs = await fetch(`${url}/api/docs/static/index.html`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('swagger');
      expect((await fetch(`${url}/api/docs/json`)).status).toBe(200);

      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      });
      expect(login.status).toBe(200);
      expect(await login.json()).toMatchObject({ data: { username: 'admin' } });
      // The seeded demo competitions are there: migrations and the seed ran.
      const list = (await (await fetch(`${url}/api/competition/public/list`)).json()) as { data: { total: number } };
      expect(list.data.total).toBeGreaterThan(0);

      const backupDir = path.join(tempDir('contest-built-backup-'), 'backup');
      const backup = await run(process.execPath, [path.join(built.outDir, 'backup.js'), backupDir], { cwd: ROOT, env: env(dataDir) });
      expect(backup.stdout).toContain(`备份完成：${backupDir}`);
      const restoredDir = path.join(tempDir('contest-built-restored-'), 'data');
      const restore = await run(process.execPath, [path.join(built.outDir, 'restore.js'), backupDir], { cwd: ROOT, env: env(restoredDir) });
      expect(restore.stdout).toContain('恢复完成');
      // restore.js carries backup.ts's code; the backup must not have run inside it.
      expect(restore.stdout).not.toContain('备份完成');
      expect(fs.existsSync(path.join(restoredDir, 'contest.sqlite'))).toBe(true);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
