import { SESSION_COOKIE } from '@contest/shared';
import { SSO_COOKIE } from '../src/http/cookies.ts';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, body, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { startOidcProvider } from './oidc-provider.ts';

const CLIENT = { clientId: 'contest-platform', clientSecret: 's3cret-value' };

describe.each(DATABASES)('OpenID Connect single sign-on on %s', (kind) => {
  let t: TestApp;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  beforeAll(async () => {
    provider = await startOidcProvider(CLIENT);
    t = await createTestApp(kind, {
      // Every sign-in of these tests comes from one address: its limit is tested on its own below.
      env: {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: CLIENT.clientId,
        OIDC_CLIENT_SECRET: CLIENT.clientSecret,
        PUBLIC_URL: 'http://contest.test',
        SSO_MAX_PER_IP: '100000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  /** Our login redirect and the provider's redirect back: the callback address, and the cookie our redirect set. */
  async function startSignIn(returnTo = '/userCenter/myInfo', ip = '127.0.0.1') {
    const start = await t.app.inject({ method: 'GET', url: `/api/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}`, remoteAddress: ip });
    expect(start.statusCode).toBe(302);
    const authorize = new URL(start.headers.location as string);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://contest.test/api/auth/oidc/callback');
    const cookie = start.cookies.find((c) => c.name === SSO_COOKIE)!;
    const atProvider = await fetch(authorize, { redirect: 'manual' });
    return { callback: new URL(atProvider.headers.get('location')!), cookie };
  }

  /** The callback, as a browser holding `secret` in its single sign-on cookie (none: another browser) opens it. */
  const callBack = (callback: URL, secret?: string, ip = '127.0.0.1') =>
    t.app.inject({ method: 'GET', url: callback.pathname + callback.search, cookies: secret ? { [SSO_COOKIE]: secret } : {}, remoteAddress: ip });

  /** Runs the browser's part: our login redirect, the provider's redirect back, our callback. */
  async function signIn(returnTo = '/userCenter/myInfo', tamper?: (callback: URL) => void) {
    const { callback, cookie } = await startSignIn(returnTo);
    tamper?.(callback);
    return callBack(callback, cookie.value);
  }

  const sessionOf = (res: Awaited<ReturnType<typeof signIn>>) => res.cookies.find((c) => c.name === SESSION_COOKIE && c.value)?.value;
  const stateRows = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('oidcStates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('tells the login page that single sign-on is on', async () => {
    expect(body(await t.app.inject({ method: 'GET', url: '/api/auth/config' })).data).toMatchObject({ oidcEnabled: true, oidcName: '统一身份认证' });
  });

  it('creates a participant on first sign-in, logs them in and returns to the page asked for', async () => {
    const res = await signIn();
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/userCenter/myInfo');
    const token = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    const me = body(await t.app.inject({ method: 'GET', url: '/api/team/userinfo/', cookies: { [SESSION_COOKIE]: token } })).data;
    expect(me).toMatchObject({ username: 'ssouser', userName: '单点用户', email: 'sso@example.edu.cn' });
    expect(me.roles.map((r: { code: string }) => r.code)).toEqual(['participant']);
  });

  it('finds the same account by issuer and subject on the next sign-in', async () => {
    const first = await signIn();
    const second = await signIn();
    const id = async (res: typeof first) =>
      body(
        await t.app.inject({
          method: 'GET',
          url: '/api/team/userinfo/',
          cookies: { [SESSION_COOKIE]: res.cookies.find((c) => c.name === SESSION_COOKIE)!.value },
        }),
      ).data.id;
    expect(await id(first)).toBe(await id(second));
    const count = await t.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('oidcSubject', '=', 'u-1001')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('never takes over a local account with the same name', async () => {
    await registerUser(t.app, 'localname');
    const usual = provider.state.user;
    provider.state.user = { sub: 'u-2002', preferred_username: 'localname' };
    try {
      const res = await signIn();
      const token = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
      const me = body(await t.app.inject({ method: 'GET', url: '/api/team/userinfo/', cookies: { [SESSION_COOKIE]: token } })).data;
      expect(me.username).toMatch(/^sso_[0-9a-f]{12}$/);
    } finally {
      // The other tests sign in as the provider's usual user, with a name and an email, whatever order they run in.
      provider.state.user = usual;
    }
  });

  it('refuses a state it did not issue, and a state used twice', async () => {
    const forged = await signIn('/', (cb) => cb.searchParams.set('state', 'forged-state'));
    expect(forged.statusCode).toBe(302);
    // A state this browser did not start is refused before it is even looked up.
    expect(decodeURIComponent(forged.headers.location as string)).toBe('/login?ssoError=统一身份认证须在发起登录的同一浏览器中完成，请重新登录');
    expect(forged.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    // Used twice by the same browser (its cookie kept): the state is gone.
    const { callback, cookie } = await startSignIn('/');
    expect(sessionOf(await callBack(callback, cookie.value))).toBeTruthy();
    const again = await callBack(callback, cookie.value);
    expect(decodeURIComponent(again.headers.location as string)).toBe('/login?ssoError=登录请求已失效，请重新登录');
    expect(sessionOf(again)).toBeUndefined();
  });

  it('refuses an ID token signed by another key, for another audience, or with another nonce', async () => {
    provider.state.signingKey = (await generateKeyPair('RS256')).privateKey;
    expect((await signIn()).headers.location).toMatch(/^\/login\?ssoError=/);
    provider.state.signingKey = undefined;
    provider.state.audienceOverride = 'someone-else';
    expect((await signIn()).headers.location).toMatch(/^\/login\?ssoError=/);
    provider.state.audienceOverride = undefined;
    provider.state.nonceOverride = 'replayed-nonce';
    const res = await signIn();
    expect(res.headers.location).toMatch(/^\/login\?ssoError=/);
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    provider.state.nonceOverride = undefined;
  });

  it('never returns to another site', async () => {
    for (const returnTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      expect((await signIn(returnTo)).headers.location).toBe('/');
    }
  });

  it('binds the sign-in to the browser that started it with an HttpOnly, SameSite=Lax cookie', async () => {
    const { cookie } = await startSignIn();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/oidc' });
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The state sent to the provider does not carry the cookie's secret.
    const { callback, cookie: other } = await startSignIn();
    expect(callback.searchParams.get('state')).not.toBe(other.value);
    const done = await callBack(callback, other.value);
    expect(done.headers.location).toBe('/userCenter/myInfo');
    // Done: the browser's single sign-on cookie is cleared.
    expect(done.cookies.find((c) => c.name === SSO_COOKIE)?.value).toBe('');
  });

  it('does nothing for a callback opened in another browser, and leaves the sign-in to the browser that started it', async () => {
    const { callback, cookie } = await startSignIn('/userCenter/myInfo');
    const before = await stateRows();
    // Without the cookie (a link sent to someone else, a page that makes the victim's browser open it).
    const bare = await callBack(callback);
    expect(bare.statusCode).toBe(302);
    expect(decodeURIComponent(bare.headers.location as string)).toBe('/login?ssoError=统一身份认证须在发起登录的同一浏览器中完成，请重新登录');
    expect(sessionOf(bare)).toBeUndefined();
    // With the cookie of another sign-in (the attacker's own, say).
    const { cookie: another } = await startSignIn('/');
    const crossed = await callBack(callback, another.value);
    expect(decodeURIComponent(crossed.headers.location as string)).toBe('/login?ssoError=统一身份认证须在发起登录的同一浏览器中完成，请重新登录');
    expect(sessionOf(crossed)).toBeUndefined();
    // That other sign-in's cookie is left alone, and no state was used up.
    expect(crossed.cookies.find((c) => c.name === SSO_COOKIE)).toBeUndefined();
    expect(await stateRows()).toBe(before + 1);
    // The browser that started it still completes it.
    const own = await callBack(callback, cookie.value);
    expect(own.headers.location).toBe('/userCenter/myInfo');
    expect(sessionOf(own)).toBeTruthy();
  });

  const HOSTILE_RETURN_TO = [
    'https://evil.example/',
    'http://contest.test.evil.example/',
    '//evil.example/x',
    '///evil.example',
    '/\\evil.example',
    '\\evil.example',
    '/\\/evil.example',
    '/%2F%2Fevil.example',
    '/%2f%2fevil.example',
    '/%252F%252Fevil.example',
    '/%25252F%25252Fevil.example',
    '/%5Cevil.example',
    '/%5cevil.example',
    '/%09/evil.example',
    '/%0A/evil.example',
    '/%0D%0A/evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n//evil.example',
    '\t//evil.example',
    ' //evil.example',
    '/ /evil.example',
    '/\u00a0/evil.example',
    '/\u3000/evil.example',
    '/\u2028//evil.example',
    '/\u0000//evil.example',
    '/.//evil.example',
    '/./\\evil.example',
    '/a/../..//evil.example',
    '/%2e%2e/%2fevil.example',
    '/%2e/%2fevil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '/javascript:alert(1)%0A',
    'data:text/html,<script>alert(1)</script>',
    'evil.example',
    '',
    '/%',
    '/%E0%A4%A',
  ];

  it('returns only to a normalised path on this site, whatever the returnTo holds', async () => {
    for (const returnTo of HOSTILE_RETURN_TO) {
      const res = await signIn(returnTo);
      expect([returnTo, res.headers.location]).toEqual([returnTo, '/']);
    }
    const kept: [string, string][] = [
      ['/userCenter/myInfo?tab=2#top', '/userCenter/myInfo?tab=2#top'],
      ['/competitionList?keyword=%E6%95%B0%E6%8D%AE%20%E6%8C%96%E6%8E%98', '/competitionList?keyword=%E6%95%B0%E6%8D%AE%20%E6%8C%96%E6%8E%98'],
      ['/竞赛/详情', '/%E7%AB%9E%E8%B5%9B/%E8%AF%A6%E6%83%85'],
      ['/a/./b/../c', '/a/c'],
      ['/admin/javascript:void(0)', '/admin/javascript:void(0)'],
    ];
    for (const [returnTo, location] of kept) expect((await signIn(returnTo)).headers.location).toBe(location);
    // A returnTo longer than the limit is refused outright.
    const long = await t.app.inject({ method: 'GET', url: `/api/auth/oidc/login?returnTo=/${'a'.repeat(600)}` });
    expect(long.statusCode).toBe(400);
  });

  it('checks the stored returnTo again at the callback', async () => {
    const { callback, cookie } = await startSignIn('/userCenter/myInfo');
    // A sign-in started before an upgrade, stored under older, looser rules.
    await t.database.db.updateTable('oidcStates').set({ returnTo: '/\\evil.example' }).where('state', '=', callback.searchParams.get('state')!).execute();
    expect((await callBack(callback, cookie.value)).headers.location).toBe('/');
  });
});

describe.each(DATABASES)('single sign-on requests per address on %s', (kind) => {
  let t: TestApp;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  beforeAll(async () => {
    provider = await startOidcProvider(CLIENT);
    t = await createTestApp(kind, {
      env: {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: CLIENT.clientId,
        OIDC_CLIENT_SECRET: CLIENT.clientSecret,
        PUBLIC_URL: 'http://contest.test',
        SSO_MAX_PER_IP: '3',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  const start = (ip: string) => t.app.inject({ method: 'GET', url: '/api/auth/oidc/login?returnTo=/', remoteAddress: ip });
  const stateRows = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('oidcStates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const TOO_MANY = /^统一身份认证请求过于频繁，请\d+分钟后再试$/;

  it('refuses sign-ins started past the limit from one address, storing nothing for them', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => start('10.70.0.1')));
    expect(results.filter((r) => r.statusCode === 302)).toHaveLength(3);
    const refused = results.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(body(r).message).toMatch(TOO_MANY);
    expect(await stateRows()).toBe(3);
    expect((await start('10.70.0.2')).statusCode).toBe(302);
  });

  it('refuses callbacks past the limit from one address without touching any state, and completes from another', async () => {
    const begun = await start('10.70.0.3');
    const secret = begun.cookies.find((c) => c.name === SSO_COOKIE)!.value;
    const callback = new URL((await fetch(begun.headers.location as string, { redirect: 'manual' })).headers.get('location')!);
    const url = callback.pathname + callback.search;
    const flood = await Promise.all(
      Array.from({ length: 6 }, () => t.app.inject({ method: 'GET', url: '/api/auth/oidc/callback?code=x&state=forged', remoteAddress: '10.70.0.4' })),
    );
    expect(flood.filter((r) => r.statusCode === 302)).toHaveLength(3);
    expect(flood.filter((r) => r.statusCode === 429)).toHaveLength(3);
    const rows = await stateRows();
    const refused = await t.app.inject({ method: 'GET', url, cookies: { [SSO_COOKIE]: secret }, remoteAddress: '10.70.0.4' });
    expect(refused.statusCode).toBe(429);
    expect(body(refused).message).toMatch(TOO_MANY);
    expect(await stateRows()).toBe(rows);
    const done = await t.app.inject({ method: 'GET', url, cookies: { [SSO_COOKIE]: secret }, remoteAddress: '10.70.0.5' });
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/');
    expect(done.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBeTruthy();
  });
});

describe('without single sign-on configured', () => {
  it('answers 404 with a Chinese message', async () => {
    const t = await createTestApp('sqlite');
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
      expect(res.statusCode).toBe(404);
      expect(body(res).message).toBe('未启用统一身份认证');
      expect(body(await t.app.inject({ method: 'GET', url: '/api/auth/config' })).data.oidcEnabled).toBe(false);
    } finally {
      await t.close();
    }
  });
});

describe('in production without PUBLIC_URL', () => {
  it('starts no sign-in: the address the provider returns to would come from the Host header', async () => {
    const provider = await startOidcProvider(CLIENT);
    const t = await createTestApp('sqlite', {
      env: {
        NODE_ENV: 'production',
        SECRET_KEY: 'a'.repeat(64),
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: CLIENT.clientId,
        OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      },
    });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/login', headers: { host: 'evil.example' } });
      expect(res.statusCode).toBe(503);
      expect(body(res).message).toBe('平台未配置对外访问地址（PUBLIC_URL），暂不能使用统一身份认证，请联系管理员');
      expect(res.cookies.find((c) => c.name === SSO_COOKIE)).toBeUndefined();
    } finally {
      await t.close();
      await provider.close();
    }
  });
});
