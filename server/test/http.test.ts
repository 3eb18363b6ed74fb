import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, loggedIn, registerUser, type TestApp } from './helpers.ts';

const CHINESE = /[\u4e00-\u9fff]/;

describe.each(DATABASES)('HTTP conventions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers health with the envelope and the dialect', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(body(res)).toEqual({ status: 200, message: '操作成功', data: { status: 'ok', database: kind } });
  });

  it('sends a date header, a request id and security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const ids = new Set(
      await Promise.all(Array.from({ length: 50 }, async () => (await t.app.inject({ method: 'GET', url: '/api/health' })).headers['x-request-id'])),
    );
    expect(ids.size).toBe(50);
    expect(ids.has(res.headers['x-request-id'] as string)).toBe(false);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    // Node writes the Date header on the real socket; inject mirrors what the server sends.
    const listening = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const live = await fetch(`${listening}/api/health`);
    expect(Number.isNaN(Date.parse(live.headers.get('date') ?? ''))).toBe(false);
  });

  it.each([
    ['malformed JSON', { method: 'POST', url: '/api/auth/login', payload: '{"username": ', headers: { 'content-type': 'application/json' } }, 400],
    ['a wrong type', { method: 'POST', url: '/api/auth/login', payload: { username: 12, password: true } }, 400],
    ['a missing field', { method: 'POST', url: '/api/auth/login', payload: { username: 'admin' } }, 400],
    ['an unknown field', { method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: 'x', role: 'admin' } }, 400],
    ['an oversize body', { method: 'POST', url: '/api/auth/register', payload: { username: 'big', password: 'x'.repeat(2 * 1024 * 1024) } }, 413],
    ['an unsupported content type', { method: 'POST', url: '/api/auth/login', payload: '<xml/>', headers: { 'content-type': 'application/xml' } }, 415],
    ['an unknown API path', { method: 'GET', url: '/api/nope' }, 404],
    ['a bad pager', { method: 'GET', url: '/api/team/userinfo/list?limit=500' }, 401],
  ] as const)('answers %s with %i and a Chinese message, never 500', async (_name, req, status) => {
    const res = await t.app.inject(req as never);
    expect(res.statusCode).toBe(status);
    const b = body(res);
    expect(b.status).toBe(status);
    expect(b.message).toMatch(CHINESE);
    // The id a participant quotes to support is on refusals too.
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a word where a route reads a number as no such address (404), on every route, after the login check', async () => {
    // `/api/review/certificate/upload` is no certificate template number NaN: it is no address at all.
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/competition/public/abc' });
    expect([anonymous.statusCode, body(anonymous).message]).toEqual([404, '接口不存在']);
    expect((await t.app.inject({ method: 'GET', url: '/api/review/certificate/abc' })).statusCode).toBe(401);
    const zero = await t.app.inject({ method: 'GET', url: '/api/competition/public/0' });
    expect([zero.statusCode, body(zero).message]).toEqual([400, '编号须为正整数']);
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    const withParams = t.routes.filter((r) => r.url.startsWith('/api/') && r.url.includes('/:') && r.method !== 'HEAD' && r.module !== 'payments');
    expect(withParams.length).toBeGreaterThan(100);
    for (const r of withParams) {
      const res = await admin.request({ method: r.method, url: r.url.replace(/:[A-Za-z]+/g, 'abc') });
      expect(res.statusCode, `${r.method} ${r.url}`).toBeLessThan(500);
      expect(res.body, `${r.method} ${r.url}`).not.toContain('NaN');
    }
  });

  it('names the offending fields of a bad body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: 'x', role: 'admin' } });
    expect(Object.keys(body(res).data.fields)).toContain('role');
  });

  it('pages lists with page 1 and limit 20 by default, at most 100', async () => {
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    // Other tests of this file may have registered users too: count from what is there.
    const before = body(await admin.get('/api/team/userinfo/list')).data.total as number;
    for (let i = 0; i < 22; i++) await registerUser(t.app, `pager${i}`);
    const total = before + 22;
    const first = body(await admin.get('/api/team/userinfo/list'));
    expect(first.data).toMatchObject({ page: 1, limit: 20, total });
    expect(first.data.list).toHaveLength(20);
    const second = body(await admin.get('/api/team/userinfo/list?page=2'));
    expect(second.data.list).toHaveLength(Math.min(20, total - 20));
    const tooBig = await admin.get('/api/team/userinfo/list?limit=101');
    expect(tooBig.statusCode).toBe(400);
    expect(body(tooBig).message).toContain('每页最多100条');
    expect((await admin.get('/api/team/userinfo/list?page=0')).statusCode).toBe(400);
    expect((await admin.get('/api/team/userinfo/list?page=abc')).statusCode).toBe(400);
  });

  it('serves the OpenAPI document with the API routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/login', '/api/team/userinfo/']));
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('never writes passwords, tokens, ID numbers or full phone numbers to the log', async () => {
    const secret = 'Sup3rSecretPw';
    await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { username: 'logcheck', password: secret, phone: '13912345678' } });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'logcheck', password: secret } });
    const cookie = login.cookies.find((c) => c.name === 'contest_token')!.value;
    const csrf = login.cookies.find((c) => c.name === 'contest_csrf')!.value;
    await t.app.inject({ method: 'GET', url: '/api/team/userinfo/list?keyword=13912345678', cookies: { contest_token: cookie } });
    await t.app.inject({
      method: 'PUT',
      url: '/api/team/userinfo/',
      payload: { studentIdCard: '11010519491231002X', phone: '13912345678' },
      cookies: { contest_token: cookie },
      headers: { 'x-csrf-token': csrf },
    });
    const token = body(await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { username: 'logcheck', password: secret } })).data.token;
    await t.app.inject({ method: 'GET', url: '/api/team/userinfo/', headers: { authorization: `Bearer ${token}` } });
    await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'logcheck', password: 'wrong-13912345678' } });
    const log = t.logs.join('');
    expect(log).toContain('/api/auth/login');
    for (const s of [secret, '13912345678', '11010519491231002X', cookie, csrf, token]) expect(log).not.toContain(s);
  });
});

describe('serving the web entries', () => {
  it('serves the site entry for page paths, the other entries by name, and 404 for missing files', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const os = await import('node:os');
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>site</title>');
    fs.writeFileSync(path.join(dist, 'backadmin.html'), '<!doctype html><title>admin</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    const t = await createTestApp('sqlite', { env: { WEB_DIST: dist } });
    try {
      for (const url of ['/', '/competitionList', '/userCenter/myInfo', '/login', '/no/such/page']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toContain('<title>site</title>');
      }
      expect((await t.app.inject({ method: 'GET', url: '/backadmin.html' })).body).toContain('<title>admin</title>');
      const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.headers['cache-control']).toContain('immutable');
      fs.writeFileSync(path.join(dist, 'assets', 'later-def456.js'), 'console.log(2)');
      expect((await t.app.inject({ method: 'GET', url: '/assets/later-def456.js' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/favicon.ico' })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/api/missing' })).json().message).toBe('接口不存在');
    } finally {
      await t.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
