import { CSRF_HEADER, SESSION_COOKIE } from '@contest/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unique } from './factories.ts';
import { ADMIN_PASSWORD, Client, DATABASES, body, createTestApp, loggedIn, registerUser, type TestApp } from './helpers.ts';

describe.each(DATABASES)('accounts on %s', (kind) => {
  let t: TestApp;
  const START = new Date('2026-11-21T08:00:00Z');
  let now = START;
  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: '2' } });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    now = START;
  });
  /** A participant of the test's own (an account no other test touches), who types the password Secr3tKey9. */
  async function someone() {
    const { username } = await registerUser(t.app, `alice${unique()}`, 'Secr3tKey9');
    return username;
  }

  describe('registration', () => {
    it('registers a participant who can then log in and read their own info', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { username: 'alice', password: 'Secr3tKey9', phone: '13800138000', email: 'alice@example.com' },
      });
      expect(res.statusCode).toBe(200);
      expect(body(res)).toMatchObject({ status: 200, data: { username: 'alice' } });
      const client = await loggedIn(t.app, 'alice', 'Secr3tKey9');
      const me = body(await client.get('/api/team/userinfo/'));
      expect(me.data).toMatchObject({ username: 'alice', phone: '13800138000', email: 'alice@example.com' });
      expect(me.data.roles.map((r: { code: string }) => r.code)).toEqual(['participant']);
    });

    it.each(['Admin', 'admin ', 'ＡＤＭＩＮ', ' ADMIN'])('refuses %j because admin exists, compared by case and width', async (username) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, password: 'Secr3tKey9' } });
      expect(res.statusCode).toBe(409);
      expect(body(res).message).toBe('用户名已被注册');
    });

    it('lets exactly one of two concurrent registrations of the same name win', async () => {
      const results = await Promise.all(
        ['racer', 'RACER', 'Racer'].map((username) =>
          t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, password: 'Secr3tKey9' } }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    });

    it.each([
      [{ username: 'bob', password: 'short1' }, 'password', '密码须为8至64位，且同时包含字母和数字'],
      [{ username: 'bob', password: 'onlyletters' }, 'password', '密码须为8至64位，且同时包含字母和数字'],
      [{ username: 'b', password: 'Secr3tKey9' }, 'username', '用户名须为3至32位的字母、数字、汉字、下划线、点或短横线'],
      [{ username: 'bob', password: 'Secr3tKey9', phone: '12345' }, 'phone', '手机号格式不正确'],
      [{ username: 'bob', password: 'Secr3tKey9', email: 'not-an-email' }, 'email', '邮箱格式不正确'],
    ])('refuses %j with a field message', async (payload, field, message) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
      expect(res.statusCode).toBe(400);
      expect(body(res).data.fields[field]).toBe(message);
      const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'bob', password: 'Secr3tKey9' } });
      expect(login.statusCode).toBe(400);
    });

    it('accepts Hong Kong and Taiwan phone numbers', async () => {
      await registerUser(t.app, 'hkuser', 'Secr3tKey9', { phone: '+85291234567' });
      await registerUser(t.app, 'twuser', 'Secr3tKey9', { phone: '0912345678' });
    });
  });

  describe('login and sessions', () => {
    it('sets an HttpOnly session cookie and a readable CSRF cookie', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
      expect(res.statusCode).toBe(200);
      const session = res.cookies.find((c) => c.name === SESSION_COOKIE)!;
      expect(session.httpOnly).toBe(true);
      expect(session.sameSite).toBe('Lax');
      expect(res.cookies.find((c) => c.name === 'contest_csrf')!.httpOnly).toBeFalsy();
      expect(body(res).data.username).toBe('admin');
    });

    it('gives a new session id on every login and ends the one the browser held', async () => {
      const client = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
      const first = client.token!;
      await client.post('/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD });
      expect(client.token).not.toBe(first);
      const stale = await t.app.inject({ method: 'GET', url: '/api/team/userinfo/', cookies: { [SESSION_COOKIE]: first } });
      expect(body(stale).data).toBeNull();
      expect(body(await client.get('/api/team/userinfo/')).data.username).toBe('admin');
    });

    it('answers a wrong password with one message whether or not the account exists', async () => {
      const alice = await someone();
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: alice, password: 'Wrong1234' },
        remoteAddress: '10.0.0.9',
      });
      const missing = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'nobody', password: 'Wrong1234' },
        remoteAddress: '10.0.0.9',
      });
      expect(wrong.statusCode).toBe(400);
      expect(body(wrong).message).toBe('用户名或密码错误');
      expect(body(missing).message).toBe('用户名或密码错误');
    });

    it('throttles an account after repeated failures, even with the right password, with a Chinese 429', async () => {
      await registerUser(t.app, 'victim', 'Secr3tKey9');
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'victim', password: `Wrong${i}abc` },
          remoteAddress: `10.1.0.${i}`,
        });
        expect(res.statusCode).toBe(400);
      }
      const blocked = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'VICTIM', password: 'Secr3tKey9' },
        remoteAddress: '10.1.1.1',
      });
      expect(blocked.statusCode).toBe(429);
      expect(body(blocked).message).toMatch(/^该账号登录失败次数过多，请\d+分钟后再试$/);
    });

    it('throttles one IP that sprays many accounts', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: `spray${i}`, password: 'Wrong1234' },
          remoteAddress: '10.2.0.1',
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
      expect(statuses.slice(30)).toEqual([429, 429]);
      const other = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
        remoteAddress: '10.2.0.2',
      });
      expect(other.statusCode).toBe(200);
    });

    it('refuses cookie-authenticated writes without the CSRF header, and accepts them with it', async () => {
      const client = await loggedIn(t.app, await someone(), 'Secr3tKey9');
      const bare = await t.app.inject({
        method: 'PUT',
        url: '/api/team/userinfo/',
        payload: { userName: '爱丽丝' },
        cookies: { [SESSION_COOKIE]: client.token! },
      });
      expect(bare.statusCode).toBe(403);
      expect(body(bare).message).toBe('页面已过期，请刷新页面后重试');
      const wrong = await t.app.inject({
        method: 'PUT',
        url: '/api/team/userinfo/',
        payload: { userName: '爱丽丝' },
        cookies: { [SESSION_COOKIE]: client.token! },
        headers: { [CSRF_HEADER]: 'x'.repeat(43) },
      });
      expect(wrong.statusCode).toBe(403);
      expect(body(await client.get('/api/team/userinfo/')).data.userName).toBeNull();
      const good = await client.put('/api/team/userinfo/', { userName: '爱丽丝' });
      expect(good.statusCode).toBe(200);
    });

    it('refuses writes from another origin', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { username: 'evil1', password: 'Secr3tKey9' },
        headers: { origin: 'https://evil.example', host: 'localhost:3000' },
      });
      expect(res.statusCode).toBe(403);
    });

    it('issues a bearer token for the desktop client that works without cookies or CSRF', async () => {
      const alice = await someone();
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/token', payload: { username: alice, password: 'Secr3tKey9' } });
      expect(res.statusCode).toBe(200);
      const { token } = body(res).data;
      const auth = { authorization: `Bearer ${token}` };
      expect(body(await t.app.inject({ method: 'GET', url: '/api/team/userinfo/', headers: auth })).data.username).toBe(alice);
      const put = await t.app.inject({ method: 'PUT', url: '/api/team/userinfo/', headers: auth, payload: { city: '广州市' } });
      expect(put.statusCode).toBe(200);
      const bad = await t.app.inject({ method: 'GET', url: '/api/team/userinfo/', headers: { authorization: `Bearer ${'a'.repeat(43)}` } });
      expect(body(bad).data).toBeNull();
    });

    it('issues a token for the caller’s own browser session', async () => {
      const client = await loggedIn(t.app, await someone(), 'Secr3tKey9');
      const res = await client.post('/api/auth/token');
      expect(res.statusCode).toBe(200);
      expect(body(res).data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/token' })).statusCode).toBe(401);
    });

    it('ends the session on logout', async () => {
      const client = await loggedIn(t.app, await someone(), 'Secr3tKey9');
      const token = client.token!;
      expect((await client.post('/api/auth/logout')).statusCode).toBe(200);
      expect(client.token).toBeUndefined();
      const after = await t.app.inject({ method: 'GET', url: '/api/team/userinfo/', cookies: { [SESSION_COOKIE]: token } });
      expect(body(after).data).toBeNull();
    });

    it('expires an idle session, and slides the expiry of an active one', async () => {
      const alice = await someone();
      const client = await loggedIn(t.app, alice, 'Secr3tKey9');
      now = new Date(now.getTime() + 90 * 60_000);
      expect(body(await client.get('/api/team/userinfo/')).data.username).toBe(alice);
      now = new Date(now.getTime() + 90 * 60_000);
      expect(body(await client.get('/api/team/userinfo/')).data.username).toBe(alice);
      now = new Date(now.getTime() + 121 * 60_000);
      expect(body(await client.get('/api/team/userinfo/')).data).toBeNull();
      expect((await client.put('/api/team/userinfo/', { city: '深圳市' })).statusCode).toBe(401);
    });
  });

  describe('account security', () => {
    it('changes the password and signs out the other sessions', async () => {
      await registerUser(t.app, 'carol', 'Secr3tKey9');
      const laptop = await loggedIn(t.app, 'carol', 'Secr3tKey9');
      const phone = await loggedIn(t.app, 'carol', 'Secr3tKey9');
      const wrongOld = await laptop.put('/api/auth/password', { oldPassword: 'Nope12345', newPassword: 'B3tterKey6' });
      expect(wrongOld.statusCode).toBe(400);
      expect(body(wrongOld).data.fields.oldPassword).toBe('原密码不正确');
      const weak = await laptop.put('/api/auth/password', { oldPassword: 'Secr3tKey9', newPassword: 'weak' });
      expect(weak.statusCode).toBe(400);
      expect((await laptop.put('/api/auth/password', { oldPassword: 'Secr3tKey9', newPassword: 'B3tterKey6' })).statusCode).toBe(200);
      expect(body(await laptop.get('/api/team/userinfo/')).data.username).toBe('carol');
      expect(body(await phone.get('/api/team/userinfo/')).data).toBeNull();
      await loggedIn(t.app, 'carol', 'B3tterKey6');
      const old = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'carol', password: 'Secr3tKey9' },
        remoteAddress: '10.3.0.1',
      });
      expect(old.statusCode).toBe(400);
    });

    it('lists sessions and signs out all others', async () => {
      await registerUser(t.app, 'dave', 'Secr3tKey9');
      const a = await loggedIn(t.app, 'dave', 'Secr3tKey9');
      const b = await loggedIn(t.app, 'dave', 'Secr3tKey9');
      const list = body(await a.get('/api/auth/sessions')).data;
      expect(list).toHaveLength(2);
      expect(list.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
      expect(body(await a.post('/api/auth/sessions/revokeOthers')).data.revoked).toBe(1);
      expect(body(await b.get('/api/team/userinfo/')).data).toBeNull();
      expect(body(await a.get('/api/auth/sessions')).data).toHaveLength(1);
    });
  });
});

describe('a second login client', () => {
  it('does not share cookies between clients', async () => {
    const t = await createTestApp('sqlite');
    try {
      const a = new Client(t.app);
      expect(body(await a.get('/api/team/userinfo/')).data).toBeNull();
      await a.login('admin', ADMIN_PASSWORD);
      expect(body(await new Client(t.app).get('/api/team/userinfo/')).data).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe.each(DATABASES)('registrations per address on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { REGISTER_MAX_PER_IP: '3' } });
  });
  afterAll(() => t.close());

  const register = (username: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, password: 'Passw0rd1' }, remoteAddress: ip });
  const created = async (prefix: string) =>
    Number(
      (
        await t.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('username', 'like', `${prefix}%`)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses registrations past the limit from one address with a Chinese 429 and creates nobody for them', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => register(`flood${i}`, '10.60.0.1')));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(body(r)).toMatchObject({ status: 429, message: expect.stringMatching(/^注册过于频繁，请\d+分钟后再试$/), data: null });
    expect(await created('flood')).toBe(3);
    // Another address still registers.
    expect((await register('elsewhere1', '10.60.0.2')).statusCode).toBe(200);
  });

  it('counts refused registrations too, so that trying names one after another does not get past the limit', async () => {
    expect((await register('admin', '10.60.0.3')).statusCode).toBe(409);
    expect((await register('taken1', '10.60.0.3')).statusCode).toBe(200);
    expect((await register('taken1', '10.60.0.3')).statusCode).toBe(409);
    const over = await register('taken2', '10.60.0.3');
    expect(over.statusCode).toBe(429);
    expect(await created('taken2')).toBe(0);
  });
});
