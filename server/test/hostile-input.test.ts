import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  Client,
  DATABASES,
  PDF,
  PNG,
  REG_INFO,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  onlineCompetition,
  registerUser,
  submitWork,
  type TestApp,
} from './helpers.ts';
import { HTML_INJECTION, SQL_INJECTION, UNICODE_EDGE, operationsOf, prng, variantsOf, type Operation, type Variant } from './hostile/generate.ts';
import { diffSnapshots, installWriteCounter, snapshot, snapshotFiles, writeMarker, type Snapshot } from './hostile/snapshot.ts';

/**
 * Hostile input (issue 9 item 3): requests generated from the OpenAPI document, sent as an administrator (so access
 * rules do not keep bodies from validation), a participant and an anonymous caller. No answer may be a 5xx; every
 * refusal is the envelope with a Chinese message; the app keeps serving; and a refused request changes nothing: the
 * database (every table's rows, hashed) and the data directory are compared around every refused write.
 */

const SEED = Number(process.env.HOSTILE_SEED ?? 20261122);
const CJK = /[\u4e00-\u9fff]/;
// A fixed clock inside the competition's registration window: sessions are never touched on a read, so a read
// changes nothing either.
const NOW = new Date('2026-03-20T02:00:00Z');

type Who = 'administrator' | 'participant' | 'anonymous';

/**
 * Fields whose schema coerces (documented as integers, but "1", false and null are read as numbers), so a wrong
 * type there is accepted, harmlessly: the competition type's body is the same schema as POST's query string.
 */
const COERCED: Record<string, string[]> = { 'PUT /api/competition/type/{id}': ['sort'] };
const coerced = (v: Variant) => (COERCED[`${v.op.method} ${v.op.path}`] ?? []).some((field) => v.label.startsWith(`body ${field} `));

interface Tally {
  requests: number;
  byStatus: Record<string, number>;
  failures: string[];
}

const describeRes = (v: { method: string; url: string; label?: string }, res: LightMyRequestResponse) =>
  `${v.method} ${v.url.slice(0, 120)}${v.label ? ` [${v.label}]` : ''} -> ${res.statusCode} ${res.body.slice(0, 200)}`;

/** The answer itself: never 5xx; a 4xx is the envelope with a Chinese message and the HTTP status; JSON parses. */
function checkAnswer(tally: Tally, v: { method: string; url: string; label?: string }, res: LightMyRequestResponse, expectRefusal: boolean) {
  tally.requests++;
  tally.byStatus[res.statusCode] = (tally.byStatus[res.statusCode] ?? 0) + 1;
  if (res.statusCode >= 500) return void tally.failures.push(`5xx: ${describeRes(v, res)}`);
  if (expectRefusal && res.statusCode < 400) tally.failures.push(`accepted a request that breaks the schema: ${describeRes(v, res)}`);
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode >= 400) {
    let b: { status?: unknown; message?: unknown; data?: unknown };
    try {
      b = res.json();
    } catch {
      return void tally.failures.push(`refusal is not JSON: ${describeRes(v, res)}`);
    }
    const keys = Object.keys(b).sort().join(',');
    if (keys !== 'data,message,status') tally.failures.push(`refusal is not the envelope: ${describeRes(v, res)}`);
    else if (b.status !== res.statusCode) tally.failures.push(`envelope status differs from HTTP status: ${describeRes(v, res)}`);
    else if (typeof b.message !== 'string' || !CJK.test(b.message)) tally.failures.push(`refusal message is not Chinese: ${describeRes(v, res)}`);
  } else if (type.startsWith('application/json')) {
    try {
      const b = res.json();
      if (b.status !== res.statusCode) tally.failures.push(`envelope status differs: ${describeRes(v, res)}`);
    } catch {
      tally.failures.push(`answer claims JSON but does not parse: ${describeRes(v, res)}`);
    }
  }
}

describe.each(DATABASES)('hostile input on %s', (kind) => {
  let t: TestApp;
  let clients: Record<Who, Client>;
  let organiser: Client;
  let ops: Operation[];
  let ids: { competition: number; brand: number; victimUser: number; victimRole: number };
  const tally: Tally = { requests: 0, byStatus: {}, failures: [] };
  const rng = prng(SEED);
  let state: Snapshot;

  const snap = () => snapshot(t.database, t.config.dataDir);

  beforeAll(async () => {
    t = await createTestApp(kind, {
      clock: { now: () => new Date(NOW) },
      // Small limits, so over-limit uploads stay cheap.
      env: { AVATAR_MAX_BYTES: String(64 * 1024), DOCUMENT_MAX_BYTES: String(128 * 1024), CLIENT_MAX_BYTES: String(256 * 1024) },
    });
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    organiser = await makeOrganiser(t, admin, 'hostileorg', '敌意测试学校');
    const competition = await onlineCompetition(admin, organiser);
    const brand = body(await admin.get(`/api/competition/public/${competition}`)).data.brandId as number;
    const victimUser = (await registerUser(t.app, 'hostilevictim')).id;
    await registerUser(t.app, 'hostileuser');
    const role = await admin.post('/api/system/role', { name: '敌意测试角色', code: 'hostile_role', permissions: [] });
    const victimRole = body(role).data?.id ?? 999_999;
    ids = { competition, brand, victimUser, victimRole };
    clients = { administrator: admin, participant: await loggedIn(t.app, 'hostileuser'), anonymous: new Client(t.app) };
    ops = operationsOf(t.app.swagger() as never);
    await installWriteCounter(t.database);
    await baselineState();
  });
  afterAll(async () => {
    // The seed and the spread of answers, so a failing run can be repeated with HOSTILE_SEED.
    console.info(`hostile input on ${kind}: seed ${SEED}, ${tally.requests} requests, statuses ${JSON.stringify(tally.byStatus)}`);
    await t?.close();
  });

  /** What a path or body identifier points at: things that exist, except where a hit would end the run's own session. */
  const ctxFor = (op: Operation) => ({
    bodyLimit: t.config.bodyLimit,
    id: (name: string) => {
      if (op.method === 'DELETE') return 999_999;
      if (op.path.startsWith('/api/system/user/') || op.path.startsWith('/api/team/userinfo/')) return ids.victimUser;
      if (op.path.startsWith('/api/system/role/')) return ids.victimRole;
      if (/^competitionId$/i.test(name) || op.path.startsWith('/api/competition/{id}') || /^\/api\/competition\/(publish|audit|stages|preset)/.test(op.path))
        return ids.competition;
      if (/brandId/i.test(name)) return ids.brand;
      return 1;
    },
  });

  let marker: string;
  let fileState: Snapshot['files'];
  /**
   * Called after every write: when the cheap write marker and the file listing stand still, nothing changed;
   * otherwise the full snapshots are compared (a refused request must leave them equal) and the newer one becomes
   * the baseline. Reads between two writes are covered by the next comparison.
   */
  async function checkpoint(refused: boolean, what: string) {
    const m = await writeMarker(t.database);
    const files = snapshotFiles(t.config.dataDir);
    if (m === marker && diffSnapshots({ tables: {}, files: fileState }, { tables: {}, files }).length === 0) return;
    const after = await snap();
    if (refused) {
      const diff = diffSnapshots(state, after);
      if (diff.length) tally.failures.push(`refused request changed state: ${what}\n  ${diff.join('\n  ')}`);
    }
    state = after;
    marker = await writeMarker(t.database);
    fileState = after.files;
  }
  async function baselineState() {
    state = await snap();
    marker = await writeMarker(t.database);
    fileState = state.files;
  }

  /** Sends variants in order, checking each answer, and the state after each write. */
  async function run(who: Who, variants: Variant[]) {
    const client = clients[who];
    for (const v of variants) {
      const res = await client.request({ method: v.method, url: v.url, headers: v.headers, payload: v.payload });
      const labelled = { ...v, label: `${who}: ${v.label}` };
      checkAnswer(tally, labelled, res, v.expect === 'refuse');
      if (v.method === 'GET' || v.method === 'HEAD') continue;
      await checkpoint(res.statusCode >= 400, describeRes(labelled, res));
    }
    const health = await clients.anonymous.get('/api/health');
    if (health.statusCode !== 200) tally.failures.push(`health check after ${who} batch: ${health.statusCode} ${health.body.slice(0, 200)}`);
    // The caller is still signed in (with its permissions), so every request of the batch reached what it aimed at.
    if (who !== 'anonymous') {
      const still = await client.get(who === 'administrator' ? '/api/system/role/list' : '/api/auth/sessions');
      if (still.statusCode !== 200) tally.failures.push(`${who} lost its session or rights during the batch: ${still.statusCode} ${still.body.slice(0, 200)}`);
    }
  }

  const skip = (op: Operation, who: Who) =>
    // Logging out or revoking sessions would end the session the rest of the run needs.
    (who !== 'anonymous' && (op.path === '/api/auth/logout' || op.path === '/api/auth/sessions/revokeOthers')) ||
    // The documentation pages are not API routes.
    op.path.startsWith('/api/docs');

  it('notices a change: the state comparison is not blind', async () => {
    await baselineState();
    const before = state;
    const res = await clients.administrator.post('/api/competition/type/?name=' + encodeURIComponent('对照类型'));
    expect(res.statusCode, res.body).toBe(200);
    expect(await writeMarker(t.database)).not.toBe(marker);
    const diff = diffSnapshots(before, await snap());
    expect(diff.some((d) => d.startsWith('table competition_types') || d.startsWith('table audit_log'))).toBe(true);
    await baselineState();
  });

  it('generates from the OpenAPI document', () => {
    expect(ops.length).toBeGreaterThan(150);
    const withInput = ops.filter((o) => o.body || o.params.length);
    expect(withInput.length).toBeGreaterThan(120);
  });

  it('answers schema-generated hostile requests without a 5xx, with the envelope, changing nothing when refused', async () => {
    // The state as this test finds it, whatever the tests before it stored.
    await baselineState();
    const start = tally.failures.length;
    const sent = tally.requests;
    const all: Record<Who, Variant[]> = { administrator: [], participant: [], anonymous: [] };
    for (const op of ops) {
      const variants = variantsOf(op, ctxFor(op), rng).map((v) => (coerced(v) ? { ...v, expect: 'any' as const } : v));
      for (const who of Object.keys(all) as Who[]) {
        if (skip(op, who)) continue;
        // Everything as the administrator; a seeded sample as the others (mostly refused by access rules first).
        const share = who === 'administrator' ? variants : rng.sample(variants, Math.ceil(variants.length * (who === 'participant' ? 0.15 : 0.08)));
        all[who].push(...share);
      }
    }
    // Refusals first (they all must leave the state as it was), then the ones that may be stored.
    for (const who of ['anonymous', 'participant', 'administrator'] as Who[]) {
      const list = all[who];
      await run(
        who,
        list.filter((v) => v.expect === 'refuse'),
      );
      await run(
        who,
        list.filter((v) => v.expect === 'any'),
      );
    }
    expect(tally.failures.slice(start, start + 40)).toEqual([]);
    expect(tally.requests - sent).toBeGreaterThan(3000);
  }, 240_000);

  it('stores injection strings as data and returns them verbatim, inside the envelope', async () => {
    const admin = clients.administrator;
    const participant = clients.participant;
    const nasty = [SQL_INJECTION[0], SQL_INJECTION[2], HTML_INJECTION[0], HTML_INJECTION[1], UNICODE_EDGE[0], UNICODE_EDGE[2], UNICODE_EDGE[4]] as string[];
    for (const [i, value] of nasty.entries()) {
      // A brand's name: stored, read back and searched for, always as the same string.
      const name = `${value}`.slice(0, 50) + i;
      const created = await admin.post('/api/competition/brand/', { name, shortName: `b${i}` });
      expect(created.statusCode, created.body).toBe(200);
      const id = body(created).data.id as number;
      const read = await clients.anonymous.get(`/api/competition/brand/public/${id}`);
      expect(read.statusCode).toBe(200);
      expect(read.headers['content-type']).toMatch(/^application\/json/);
      expect(read.headers['x-content-type-options']).toBe('nosniff');
      expect(body(read).data.name).toBe(name);
      // Searching for the injection finds exactly that brand: the string is a value, not SQL.
      const found = await clients.anonymous.get(`/api/competition/brand/public/page?keyword=${encodeURIComponent(name)}`);
      expect(found.statusCode).toBe(200);
      expect((body(found).data.list as { name: string }[]).map((b) => b.name)).toEqual([name]);
    }
    // Injection in a search matches nothing and leaks nothing.
    for (const q of SQL_INJECTION) {
      const res = await admin.get(`/api/team/userinfo/list?keyword=${encodeURIComponent(q)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(body(res).data.total).toBe(0);
    }
    // The participant's own profile: a nickname with markup comes back as the same string.
    const profile = body(await participant.get('/api/team/userinfo/')).data as Record<string, unknown>;
    const nick = '<b onmouseover=alert(1)>张三</b>\u202E';
    expect(profile).toBeTruthy();
    const put = await participant.put('/api/team/userinfo/', { userName: nick });
    expect(put.statusCode, put.body).toBe(200);
    expect(body(await participant.get('/api/team/userinfo/')).data.userName).toBe(nick);
  });

  describe('uploads', () => {
    const token = `hostile${SEED}`;
    const traversal = [
      `../../${token}-passwd`,
      `..\\..\\${token}-win.ini`,
      `/tmp/${token}-abs.png`,
      `C:\\${token}\\evil.png`,
      `a\u0000${token}.png`,
      `${'长'.repeat(300)}.png`,
      `${token}\r\nx-injected: 1.png`,
      `%2e%2e%2f${token}.png`,
      '',
      '.',
      '..',
    ];

    function multipartOf(parts: { name: string; filename?: string; type?: string; content: Buffer }[], boundary = '----hostile' + SEED) {
      const chunks: Buffer[] = [];
      for (const p of parts) {
        const disp = p.filename === undefined ? `form-data; name="${p.name}"` : `form-data; name="${p.name}"; filename="${p.filename}"`;
        chunks.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`),
          p.content,
          Buffer.from('\r\n'),
        );
      }
      chunks.push(Buffer.from(`--${boundary}--\r\n`));
      return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
    }

    /** A zip whose one entry inflates to `inflated` bytes of zeros: a bomb for anything that would open it. */
    function zipBomb(inflated: number): Buffer {
      const zeros = Buffer.alloc(inflated);
      const data = zlib.deflateRawSync(zeros, { level: 9 });
      const crc = (zlib as unknown as { crc32?: (b: Buffer) => number }).crc32?.(zeros) ?? 0;
      const name = Buffer.from('bomb.bin');
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(8, 8);
      local.writeUInt32LE(crc >>> 0, 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(inflated, 22);
      local.writeUInt16LE(name.length, 26);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(8, 10);
      central.writeUInt32LE(crc >>> 0, 16);
      central.writeUInt32LE(data.length, 20);
      central.writeUInt32LE(inflated, 24);
      central.writeUInt16LE(name.length, 28);
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(1, 8);
      end.writeUInt16LE(1, 10);
      end.writeUInt32LE(46 + name.length, 12);
      end.writeUInt32LE(30 + name.length + data.length, 16);
      return Buffer.concat([local, name, data, central, name, end]);
    }

    /** Nothing with the run's token anywhere near the data directory: no upload escaped it. */
    function assertNothingOutside() {
      const parent = path.dirname(t.config.dataDir);
      const hits: string[] = [];
      const look = (dir: string, depth: number) => {
        let entries: fs.Dirent[] = [];
        try {
          entries = fs.readdirSync(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const e of entries) {
          if (e.name.includes(token)) hits.push(path.join(dir, e.name));
          if (e.isDirectory() && depth > 0 && (dir !== parent || path.join(dir, e.name) === t.config.dataDir)) look(path.join(dir, e.name), depth - 1);
        }
      };
      look(parent, 6);
      look('/tmp', 0);
      look(os.tmpdir(), 0);
      expect(hits).toEqual([]);
      // Every file under the data directory has a name the server chose.
      const names = Object.keys(snapshotFiles(t.config.dataDir)).filter((f) => !f.endsWith('/'));
      const known =
        /^(files\/[a-z0-9-]+\/[0-9a-f-]+|files\/\.tmp\/[0-9a-f-]+|uploads\/[0-9a-f]+(\.json)?|client\/clientApp-(win|mac)\.zip(\.json)?|client\/\.tmp\/build\.json|[a-z0-9_.-]*secret[a-z0-9_.-]*|certificates\/.*\.pdf)$/;
      expect(names.filter((n) => !known.test(n))).toEqual([]);
    }

    it('stores traversal and odd file names under names of its own, and refuses bad files leaving no file or row', async () => {
      const start = tally.failures.length;
      const admin = clients.administrator;
      const routes: { url: string; who: Who; good: Buffer; type: string; max: number }[] = [
        { url: '/api/file/upload/avatar', who: 'participant', good: PNG, type: 'image/png', max: 64 * 1024 },
        { url: '/api/file/upload/image?purpose=logo', who: 'administrator', good: PNG, type: 'image/png', max: 64 * 1024 },
        { url: '/api/file/upload/document?purpose=attachment', who: 'participant', good: PDF, type: 'application/pdf', max: 128 * 1024 },
        { url: '/api/review/certificate/cert/imgUrl', who: 'administrator', good: PNG, type: 'image/png', max: 128 * 1024 },
        { url: '/api/system/client/win', who: 'administrator', good: zipBomb(1024), type: 'application/zip', max: 256 * 1024 },
      ];
      await baselineState();
      for (const r of routes) {
        const client = clients[r.who];
        // Accepted: odd names are kept only as a display name; the stored file is named by the server.
        for (const filename of traversal) {
          const res = await client.request({ method: 'POST', url: r.url, ...multipartOf([{ name: 'file', filename, type: r.type, content: r.good }]) });
          checkAnswer(tally, { method: 'POST', url: r.url, label: `upload name ${JSON.stringify(filename).slice(0, 40)}` }, res, false);
          await checkpoint(res.statusCode >= 400, `${r.url} name ${JSON.stringify(filename).slice(0, 40)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
          if (res.statusCode === 200) {
            // The name is kept for display only, without control characters.
            const shown = body(res).data?.name as string | undefined;
            if (shown !== undefined) expect(shown).not.toMatch(/[\u0000-\u001f]/);
            const uri = body(res).data?.fileUri as string | undefined;
            if (uri) {
              expect(uri).toMatch(/^[a-z0-9-]+\/[0-9a-f-]+$/);
              expect(fs.existsSync(path.join(t.config.dataDir, 'files', uri))).toBe(true);
              const download = await admin.get(`/api/file/common/download?fileUri=${encodeURIComponent(uri)}`);
              expect(download.statusCode, download.body.slice(0, 200)).toBeLessThan(500);
              if (download.statusCode === 200) {
                expect(download.rawPayload.equals(r.good)).toBe(true);
                expect(String(download.headers['content-disposition'])).not.toMatch(/[\r\n\0]/);
                expect(download.headers['x-injected']).toBeUndefined();
              }
            }
          }
        }
        await baselineState();
        // Refused: each must leave no file and no row.
        const refused: { label: string; opts: { payload: Buffer | string; headers: Record<string, string> } }[] = [
          {
            label: 'wrong magic bytes',
            opts: multipartOf([{ name: 'file', filename: 'evil.png', type: r.type, content: Buffer.from('<?php system($_GET["c"]); ?>') }]),
          },
          {
            label: 'html as image',
            opts: multipartOf([{ name: 'file', filename: 'x.png', type: 'image/png', content: Buffer.from('<html><script>alert(1)</script></html>') }]),
          },
          { label: 'empty file', opts: multipartOf([{ name: 'file', filename: 'empty.png', type: r.type, content: Buffer.alloc(0) }]) },
          {
            label: 'over the limit',
            opts: multipartOf([{ name: 'file', filename: 'big.png', type: r.type, content: Buffer.concat([r.good, Buffer.alloc(r.max + 1)]) }]),
          },
          { label: 'no file part', opts: multipartOf([{ name: 'note', content: Buffer.from('hello') }]) },
          { label: 'not multipart', opts: { payload: r.good, headers: { 'content-type': 'application/octet-stream' } } },
          { label: 'json instead', opts: { payload: '{"file":"../../etc/passwd"}', headers: { 'content-type': 'application/json' } } },
          { label: 'no boundary', opts: { payload: r.good, headers: { 'content-type': 'multipart/form-data' } } },
          {
            label: 'truncated multipart',
            opts: {
              payload: multipartOf([{ name: 'file', filename: 'cut.png', type: r.type, content: r.good }]).payload.subarray(0, 120),
              headers: multipartOf([]).headers,
            },
          },
          { label: 'too many fields', opts: multipartOf(Array.from({ length: 20 }, (_, i) => ({ name: `f${i}`, content: Buffer.from('x') }))) },
        ];
        if (r.url.includes('/client/')) refused.shift();
        for (const { label, opts } of refused) {
          const res = await client.request({ method: 'POST', url: r.url, ...opts });
          checkAnswer(tally, { method: 'POST', url: r.url, label }, res, true);
          await checkpoint(true, `${r.url} ${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
      // Downloads name stored files by key: a path in its place reads nothing.
      for (const key of [
        '../../contest.sqlite',
        'avatar/../../contest.sqlite',
        '/etc/passwd',
        'files/.tmp',
        'avatar/..%2F..%2Fcontest.sqlite',
        'avatar/00000000-0000-0000-0000-000000000000',
        '..\\..\\contest.sqlite',
        'avatar/\u0000',
      ]) {
        const res = await admin.get(`/api/file/common/download?fileUri=${encodeURIComponent(key)}`);
        checkAnswer(tally, { method: 'GET', url: `/api/file/common/download?fileUri=${key}`, label: 'download key' }, res, true);
        expect([400, 404]).toContain(res.statusCode);
      }
      // The client package: a platform that is not one, including names of Object.prototype members.
      for (const platform of ['toString', 'constructor', '__proto__', 'hasOwnProperty', '..', 'win%00', 'linux']) {
        const res = await admin.request({
          method: 'POST',
          url: `/api/system/client/${platform}`,
          ...multipartOf([{ name: 'file', filename: 'c.zip', type: 'application/zip', content: zipBomb(1024) }]),
        });
        checkAnswer(tally, { method: 'POST', url: `/api/system/client/${platform}`, label: 'platform' }, res, true);
        await checkpoint(true, `client platform ${platform}: ${res.statusCode}`);
      }
      expect(tally.failures.slice(start, start + 40)).toEqual([]);
      assertNothingOutside();
    });

    it('stores a zip bomb as an opaque file of its own size: no upload is ever unpacked', async () => {
      // The server opens no uploaded archive (grep: archiver only writes the organisers' export; the client package
      // is checked for the zip signature only). A bomb is stored byte for byte, within the size limit.
      const bomb = zipBomb(200 * 1024 * 1024);
      expect(bomb.length).toBeLessThan(256 * 1024);
      const before = Object.values(snapshotFiles(t.config.dataDir)).reduce((n, v) => n + (v === 'dir' ? 0 : Number(v.split(':')[0])), 0);
      const res = await clients.administrator.request({
        method: 'POST',
        url: '/api/system/client/mac',
        ...multipartOf([{ name: 'file', filename: 'bomb.zip', type: 'application/zip', content: bomb }]),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(body(res).data.size).toBe(bomb.length);
      const stored = fs.readFileSync(path.join(t.config.clientDir, 'clientApp-mac.zip'));
      expect(stored.equals(bomb)).toBe(true);
      const afterSize = Object.values(snapshotFiles(t.config.dataDir)).reduce((n, v) => n + (v === 'dir' ? 0 : Number(v.split(':')[0])), 0);
      expect(afterSize - before).toBeLessThan(2 * bomb.length + 4096);
      // The participant has stored an attachment and an avatar before, so their folders exist, as after any earlier
      // upload (a refused first upload of a kind leaves its empty folder behind, which this test does not judge).
      for (const [url, content, type] of [
        ['/api/file/upload/document?purpose=attachment', PDF, 'application/pdf'],
        ['/api/file/upload/avatar', PNG, 'image/png'],
      ] as const) {
        const kept = await clients.participant.request({ method: 'POST', url, ...multipartOf([{ name: 'file', filename: 'ok', type, content }]) });
        expect(kept.statusCode, kept.body).toBe(200);
      }
      // A bomb over the limit is refused while streaming, before anything is kept.
      await baselineState();
      const big = Buffer.concat([bomb, Buffer.alloc(256 * 1024)]);
      const refused = await clients.administrator.request({
        method: 'POST',
        url: '/api/system/client/win',
        ...multipartOf([{ name: 'file', filename: 'big.zip', type: 'application/zip', content: big }]),
      });
      expect(refused.statusCode).toBe(413);
      expect(diffSnapshots(state, await snap())).toEqual([]);
      // As a document or an image, a zip is refused by its content.
      for (const url of ['/api/file/upload/document?purpose=attachment', '/api/file/upload/avatar']) {
        const r = await clients.participant.request({
          method: 'POST',
          url,
          ...multipartOf([{ name: 'file', filename: 'bomb.png', type: 'image/png', content: bomb.subarray(0, 60 * 1024) }]),
        });
        expect(r.statusCode).toBe(415);
        expect(diffSnapshots(state, await snap())).toEqual([]);
      }
      assertNothingOutside();
    });

    /** The entry names of a zip, read from its central directory. */
    function zipEntries(zip: Buffer): string[] {
      const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
      let at = zip.readUInt32LE(end + 16);
      const names: string[] = [];
      for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
        const n = zip.readUInt16LE(at + 28);
        names.push(zip.subarray(at + 46, at + 46 + n).toString('utf8'));
        at += 46 + n + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
      }
      return names;
    }

    it("keeps works with traversal names and a zip bomb opaque, and the organisers' export inside its folders", async () => {
      // A competition of its own: the generated requests above may have changed the shared one.
      const competition = await onlineCompetition(clients.administrator, organiser);
      const presets = body(await organiser.get(`/api/competition/preset/public/list/${competition}`)).data as { id: number; menuCode: string }[];
      for (const code of ['CHOICE_SET', 'SUBMIT_WORKS'])
        await organiser.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
      const created = await organiser.post(`/api/competition/question/${competition}`, {
        title: '敌意作品题',
        evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
      });
      expect(created.statusCode, created.body).toBe(200);
      const question = body(created).data.id as number;
      const reviewed = await clients.administrator.put(`/api/competition/question/review/${question}`, { reviewed: true });
      expect(reviewed.statusCode, reviewed.body).toBe(200);
      await registerUser(t.app, 'hostileleader');
      const leader = await loggedIn(t.app, 'hostileleader');
      const registered = await leader.post(`/api/team/register/${competition}`, { teamName: '../../队伍<script>', info: REG_INFO });
      expect(registered.statusCode, registered.body).toBe(200);
      const r = body(registered).data;
      await organiser.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
      const chosen = await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId: question });
      expect(chosen.statusCode, chosen.body).toBe(200);
      const bomb = zipBomb(50 * 1024 * 1024);
      await submitWork(leader, question, bomb, `../../../${token}-evil.zip`);
      const versions = body(await leader.get(`/api/review/works/${question}`)).data as { fileName: string; size: number }[];
      expect(versions.map((v) => [v.fileName, v.size])).toEqual([[`../../../${token}-evil.zip`, bomb.length]]);
      const zip = await organiser.get(`/api/review/works/export/${question}`);
      expect(zip.statusCode).toBe(200);
      const names = zipEntries(zip.rawPayload);
      expect(names).toHaveLength(1);
      expect(names[0]!.split('/')).toHaveLength(2);
      expect(names[0]!.split('/').every((part) => part !== '' && !part.startsWith('.') && !/[\\:\u0000]/.test(part))).toBe(true);
      expect(zip.rawPayload.includes(bomb)).toBe(true);
      assertNothingOutside();
    });

    it('refuses tus works uploads with bad metadata, leaving no file and no row', async () => {
      const start = tally.failures.length;
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const meta = (m: Record<string, string>) =>
        Object.entries(m)
          .map(([k, v]) => `${k} ${b64(v)}`)
          .join(',');
      const headerSets: { label: string; headers: Record<string, string> }[] = [
        { label: 'no metadata', headers: { 'upload-length': '10' } },
        { label: 'metadata not base64', headers: { 'upload-length': '10', 'upload-metadata': 'questionId !!!,filename ***' } },
        { label: 'metadata garbage', headers: { 'upload-length': '10', 'upload-metadata': ',,, ,\u0000,' + 'x'.repeat(5000) } },
        ...['abc', '-1', '0', '1.5', '1e309', '1e20', '9007199254740993', '2147483648', "1' OR '1'='1", '１'].map((q) => ({
          label: `questionId ${q}`,
          headers: { 'upload-length': '10', 'upload-metadata': meta({ questionId: q, filename: 'a.zip' }) },
        })),
        ...['../../etc/passwd', '..\\..\\win.ini', '/etc/passwd', 'a\u0000b.zip', '长'.repeat(2000) + '.zip', ''].map((f) => ({
          label: `filename ${JSON.stringify(f).slice(0, 30)}`,
          headers: { 'upload-length': '10', 'upload-metadata': meta({ questionId: '1', filename: f }) },
        })),
        ...['-1', '0', 'abc', '1e309', '99999999999999999999', '', '10.5'].map((l) => ({
          label: `length ${l}`,
          headers: { 'upload-length': l, 'upload-metadata': meta({ questionId: '1', filename: 'a.zip' }) },
        })),
        { label: 'bad sha256', headers: { 'upload-length': '10', 'upload-metadata': meta({ questionId: '1', filename: 'a.zip', sha256: "' OR 1=1" }) } },
        {
          label: 'data kind, no such question',
          headers: { 'upload-length': '10', 'upload-metadata': meta({ questionId: '2147483647', filename: 'a.zip', kind: 'data' }) },
        },
        {
          label: 'data kind, huge question id',
          headers: { 'upload-length': '10', 'upload-metadata': meta({ questionId: '2147483648', filename: 'a.zip', kind: 'data' }) },
        },
      ];
      await baselineState();
      for (const who of ['participant', 'administrator', 'anonymous'] as Who[]) {
        for (const { label, headers } of headerSets) {
          const res = await clients[who].request({ method: 'POST', url: '/api/review/works/upload', headers: { 'tus-resumable': '1.0.0', ...headers } });
          checkAnswer(tally, { method: 'POST', url: '/api/review/works/upload', label: `${who}: tus ${label}` }, res, true);
          await checkpoint(true, `${who} tus ${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
        for (const id of ['0123456789abcdef0123456789abcdef', '..%2F..%2Fcontest.sqlite', '%00', 'x'.repeat(300), '..']) {
          for (const method of ['HEAD', 'PATCH', 'DELETE']) {
            const res = await clients[who].request({
              method,
              url: `/api/review/works/upload/${id}`,
              headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
              payload: method === 'PATCH' ? Buffer.from('PK\x03\x04') : undefined,
            });
            expect(res.statusCode, `${who} ${method} ${id}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
            expect(res.statusCode).toBeGreaterThanOrEqual(400);
            if (method !== 'HEAD') checkAnswer(tally, { method, url: `/api/review/works/upload/${id}`, label: `${who} tus` }, res, true);
            await checkpoint(true, `${who} tus ${method} ${id}: ${res.statusCode}`);
          }
        }
      }
      expect(tally.failures.slice(start, start + 40)).toEqual([]);
      assertNothingOutside();
    });
  });
});
