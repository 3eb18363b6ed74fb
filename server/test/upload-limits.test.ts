import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CSRF_HEADER, SESSION_COOKIE } from '@contest/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
  REG_INFO as info,
} from './helpers.ts';

const b64 = (v: string) => Buffer.from(v).toString('base64');
const TUS = { 'tus-resumable': '1.0.0' };
const UPLOAD = '/api/review/works/upload';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A competition whose works window is open at `now`, and teams that chose its question. */
async function worksWorld(t: TestApp, prefix: string) {
  const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  const org = await makeOrganiser(t, admin, `${prefix}Org`, `${prefix}大学`);
  const competitionId = await onlineCompetition(admin, org, { worksMaxMb: 1, worksTypes: 'zip' });
  const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
  await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'CHOICE_SET')!.id}`, { enable: true });
  await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'SUBMIT_WORKS')!.id}`, {
    enable: true,
    enableEndTime: '2026-03-30T12:00:00+08:00',
  });
  const questionId = body(
    await org.post(`/api/competition/question/${competitionId}`, {
      title: '作品题',
      evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
    }),
  ).data.id as number;
  await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true });
  let seq = 0;
  const team = async () => {
    const username = `${prefix}${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `${prefix}队${seq}`, info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId });
    return { leader, teamId: r.teamId as number };
  };
  const create = (who: Client, size: number, name = 'works.zip', headers: Record<string, string> = {}) =>
    who.request({
      method: 'POST',
      url: UPLOAD,
      headers: { ...TUS, ...headers, 'upload-length': String(size), 'upload-metadata': `questionId ${b64(String(questionId))},filename ${b64(name)}` },
    });
  const begin = async (who: Client, size: number) => {
    const res = await create(who, size);
    expect(res.statusCode, res.body).toBe(201);
    return res.headers.location as string;
  };
  return { questionId, team, create, begin };
}

/** A socket speaking HTTP/1.1 to the app as the given client, to send bodies at the pace a test chooses. */
function rawRequest(port: number, who: Client, method: string, url: string, headers: Record<string, string>) {
  const socket = net.connect(port, '127.0.0.1');
  const lines = [
    `${method} ${url} HTTP/1.1`,
    'host: 127.0.0.1',
    `cookie: ${SESSION_COOKIE}=${who.token}`,
    `${CSRF_HEADER}: ${who.csrf}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  let answer = '';
  socket.on('data', (d) => (answer += d.toString()));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  /** The status line's code, once the server has answered (or null if it closed the socket without an answer). */
  const status = new Promise<number | null>((resolve) => {
    socket.on('data', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (m) resolve(Number(m[1]));
    });
    void closed.then(() => resolve(null));
  });
  return { socket, closed, status, answer: () => answer };
}

const patchHeaders = (offset: number, length: number) => ({
  ...TUS,
  'upload-offset': String(offset),
  'content-type': 'application/offset+octet-stream',
  'content-length': String(length),
});
const waitUntil = async (check: () => boolean | Promise<boolean>) => {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
};

describe.each(DATABASES)('works upload limits on %s', (kind) => {
  const now = new Date('2026-03-20T02:00:00Z');
  let t: TestApp;
  let port: number;
  let w: Awaited<ReturnType<typeof worksWorld>>;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { UPLOAD_IDLE_TIMEOUT_SECONDS: '600', TEAM_STORAGE_QUOTA_MB: '1' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    w = await worksWorld(t, 'fair');
  });
  afterAll(() => t.close());

  it('gives every route the configured timeouts', () => {
    expect(t.app.server.requestTimeout).toBe(3600_000);
    expect(t.app.server.timeout).toBe(60_000);
    expect(t.app.server.keepAliveTimeout).toBe(72_000);
    expect(t.app.server.headersTimeout).toBe(30_000);
  });

  it("completes another team's upload while one team holds 30 stalled bodies open", async () => {
    const hog = await w.team();
    const locations = await Promise.all(Array.from({ length: 30 }, () => w.begin(hog.leader, 10_000)));
    // Headers and a few bytes each, then nothing more.
    const stalled = locations.map((location) => {
      const r = rawRequest(port, hog.leader, 'PATCH', location, patchHeaders(0, 10_000));
      r.socket.write(Buffer.alloc(100, 1));
      return r;
    });
    // The server is reading them: the first of them (all it lets one team have at once) hold their 100 bytes.
    // (Read on disk: a HEAD would make tus end the PATCH holding the upload's lock.)
    const received = (l: string) =>
      fs.promises.stat(path.join(t.config.uploadsDir, l.split('/').pop()!)).then(
        (s) => s.size,
        () => 0,
      );
    await waitUntil(async () => (await Promise.all(locations.map(received))).filter((size) => size === 100).length >= 3);
    const other = await w.team();
    const content = Buffer.alloc(200_000, 9);
    const location = await w.begin(other.leader, content.length);
    const res = await other.leader.request({
      method: 'PATCH',
      url: location,
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: content,
    });
    expect(res.statusCode, res.body).toBe(204);
    const versions = body(await other.leader.get(`/api/review/works/${w.questionId}`)).data;
    expect(versions[0]).toMatchObject({ version: 1, sha256: sha(content) });
    // The hog's bodies were still open: the other team got through beside them, not after them.
    expect(stalled.map((s) => s.answer())).toEqual(stalled.map(() => ''));
    expect(stalled.every((s) => !s.socket.destroyed)).toBe(true);
    for (const s of stalled) s.socket.destroy();
    await Promise.all(stalled.map((s) => s.closed));
  });

  it('takes an upload only from its team, whatever else the URL carries, and never names a file after a header', async () => {
    const victim = await w.team();
    const attacker = await w.team();
    const content = Buffer.alloc(4000, 5);
    const victimLocation = await w.begin(victim.leader, content.length);
    expect(
      (
        await victim.leader.request({
          method: 'PATCH',
          url: victimLocation,
          headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          payload: content.subarray(0, 1000),
        })
      ).statusCode,
    ).toBe(204);
    const victimId = victimLocation.split('/').pop()!;
    const tusFile = path.join(t.config.uploadsDir, victimId);
    const before = { bytes: fs.readFileSync(tusFile), meta: fs.readFileSync(`${tusFile}.json`, 'utf8') };

    // The attacker's own upload, whose id ends the URLs below (or begins them).
    const own = (await w.begin(attacker.leader, 4000)).split('/').pop()!;
    const urls = [
      `${UPLOAD}/${own}?id=/${victimId}`,
      `${UPLOAD}/${own}?x=%2F${victimId}`,
      `${UPLOAD}/${own}?/${victimId}/`,
      `${UPLOAD}/${own}/${victimId}`,
      `${UPLOAD}/${own}%2F${victimId}`,
      `${UPLOAD}/${own}%2f..%2f${victimId}`,
      `${UPLOAD}/${victimId}/`,
      `${UPLOAD}/${victimId}?${own}`,
      `${UPLOAD}/${own}/`,
      `${UPLOAD}/${own}//${victimId}`,
      `${UPLOAD}/${own};${victimId}`,
      `${UPLOAD}/${victimId}%00`,
    ];
    for (const url of urls) {
      const patch = await attacker.leader.request({
        method: 'PATCH',
        url,
        headers: { ...TUS, 'upload-offset': '1000', 'content-type': 'application/offset+octet-stream' },
        payload: Buffer.alloc(3000, 0xee),
      });
      expect([400, 404, 409, 204]).toContain(patch.statusCode);
      const headRes = await attacker.leader.request({ method: 'HEAD', url, headers: TUS });
      // Nothing of the victim's upload is told: at most the attacker's own offset, 0.
      if (headRes.statusCode === 200) expect(headRes.headers['upload-offset']).not.toBe('1000');
      const del = await attacker.leader.request({ method: 'DELETE', url, headers: TUS });
      expect([400, 404, 204]).toContain(del.statusCode);
      expect(fs.readFileSync(tusFile)).toEqual(before.bytes);
      expect(fs.readFileSync(`${tusFile}.json`, 'utf8')).toBe(before.meta);
    }
    const head = await victim.leader.request({ method: 'HEAD', url: victimLocation, headers: TUS });
    expect(head.headers['upload-offset']).toBe('1000');
    const rest = await victim.leader.request({
      method: 'PATCH',
      url: victimLocation,
      headers: { ...TUS, 'upload-offset': '1000', 'content-type': 'application/offset+octet-stream' },
      payload: content.subarray(1000),
    });
    expect(rest.statusCode).toBe(204);
    expect(body(await victim.leader.get(`/api/review/works/${w.questionId}`)).data[0].sha256).toBe(sha(content));

    // A header the client sends never becomes the upload's id or a path on disk.
    const named = await w.create(attacker.leader, 100, 'works.zip', { 'x-work-upload-id': '../../escaped', 'upload-id': '../escaped' });
    expect(named.statusCode).toBe(201);
    expect(named.headers.location).toMatch(new RegExp(`^${UPLOAD}/[0-9a-f]{32}$`));
    const everywhere = [t.config.uploadsDir, path.dirname(t.config.uploadsDir), t.config.dataDir].flatMap((d) => fs.readdirSync(d));
    expect(everywhere.filter((f) => f.includes('escaped'))).toEqual([]);
  });

  it('keeps each team within its storage quota, even for uploads started at once, and a cancelled upload gives its share back', async () => {
    const { leader } = await w.team();
    const content = Buffer.alloc(600 * 1024, 1);
    const location = await w.begin(leader, content.length);
    expect(
      (
        await leader.request({
          method: 'PATCH',
          url: location,
          headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          payload: content,
        })
      ).statusCode,
    ).toBe(204);
    // 600 KB of the 1 MB used: of two 300 KB uploads started at once, one fits.
    const both = await Promise.all([w.create(leader, 300 * 1024), w.create(leader, 300 * 1024)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 413]);
    const refused = body(both.find((r) => r.statusCode === 413)!);
    expect(refused.message).toContain('队伍的作品存储空间不足');
    expect(refused.message).toContain('上限1.00 MB');
    const inProgress = both.find((r) => r.statusCode === 201)!.headers.location as string;
    await leader.request({
      method: 'PATCH',
      url: inProgress,
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.alloc(1000),
    });
    expect((await w.create(leader, 300 * 1024)).statusCode).toBe(413);
    // Cancelled: its bytes are gone from disk and its share of the quota is free again.
    expect((await leader.request({ method: 'DELETE', url: inProgress, headers: TUS })).statusCode).toBe(204);
    const id = inProgress.split('/').pop()!;
    expect(fs.existsSync(path.join(t.config.uploadsDir, id))).toBe(false);
    expect(fs.existsSync(path.join(t.config.uploadsDir, `${id}.json`))).toBe(false);
    expect(await t.database.db.selectFrom('workUploads').select('uploadId').where('uploadId', '=', id).execute()).toEqual([]);
    expect((await w.create(leader, 300 * 1024)).statusCode).toBe(201);
  });
});

describe.each(DATABASES)('idle bodies on %s', (kind) => {
  const now = new Date('2026-03-20T02:00:00Z');
  let t: TestApp;
  let port: number;
  let w: Awaited<ReturnType<typeof worksWorld>>;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { UPLOAD_IDLE_TIMEOUT_SECONDS: '2', CONNECTION_TIMEOUT_SECONDS: '5' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
    w = await worksWorld(t, 'idle');
  });
  afterAll(() => t.close());

  it('cuts off an upload body that stops moving, keeps what it received, and lets it resume', async () => {
    const { leader } = await w.team();
    const content = Buffer.alloc(5000, 4);
    const location = await w.begin(leader, content.length);
    const stalled = rawRequest(port, leader, 'PATCH', location, patchHeaders(0, content.length));
    stalled.socket.write(content.subarray(0, 1000));
    await stalled.closed;
    let offset = '';
    await waitUntil(async () => {
      offset = String((await leader.request({ method: 'HEAD', url: location, headers: TUS })).headers['upload-offset']);
      return offset === '1000';
    });
    const rest = await leader.request({
      method: 'PATCH',
      url: location,
      headers: { ...TUS, 'upload-offset': offset, 'content-type': 'application/offset+octet-stream' },
      payload: content.subarray(1000),
    });
    expect(rest.statusCode).toBe(204);
    expect(body(await leader.get(`/api/review/works/${w.questionId}`)).data[0].sha256).toBe(sha(content));
  });

  it('takes a slow upload (50 kB/s) whose bytes keep moving', async () => {
    const { leader } = await w.team();
    const content = Buffer.alloc(250_000);
    for (let i = 0; i < content.length; i++) content[i] = (i * 7) & 0xff;
    const location = await w.begin(leader, content.length);
    const slow = rawRequest(port, leader, 'PATCH', location, patchHeaders(0, content.length));
    for (let sent = 0; sent < content.length; sent += 5000) {
      slow.socket.write(content.subarray(sent, sent + 5000));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await slow.status).toBe(204);
    slow.socket.destroy();
    expect(body(await leader.get(`/api/review/works/${w.questionId}`)).data[0].sha256).toBe(sha(content));
  });

  it('closes a connection whose request body stops moving on any route', async () => {
    const idle = rawRequest(port, { token: '', csrf: '' } as unknown as Client, 'POST', '/api/auth/login', {
      'content-type': 'application/json',
      'content-length': '200',
    });
    idle.socket.write('{"username":');
    await idle.closed;
    expect(idle.answer()).toBe('');
  });
});
