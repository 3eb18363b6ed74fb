import { SESSION_COOKIE } from '@contest/shared';
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
      env: { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: CLIENT.clientId, OIDC_CLIENT_SECRET: CLIENT.clientSecret, PUBLIC_URL: 'http://contest.test' },
    });
  });
  afterAll(async () => {
    await t.close();
    await provider.close();
  });

  /** Runs the browser's part: our login redirect, the provider's redirect back, our callback. */
  async function signIn(returnTo = '/userCenter/myInfo', tamper?: (callback: URL) => void) {
    const start = await t.app.inject({ method: 'GET', url: `/api/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}` });
    expect(start.statusCode).toBe(302);
    const authorize = new URL(start.headers.location as string);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://contest.test/api/auth/oidc/callback');
    const atProvider = await fetch(authorize, { redirect: 'manual' });
    const callback = new URL(atProvider.headers.get('location')!);
    tamper?.(callback);
    return t.app.inject({ method: 'GET', url: callback.pathname + callback.search });
  }

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
      body(await t.app.inject({ method: 'GET', url: '/api/team/userinfo/', cookies: { [SESSION_COOKIE]: res.cookies.find((c) => c.name === SESSION_COOKIE)!.value } })).data.id;
    expect(await id(first)).toBe(await id(second));
    const count = await t.database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('oidcSubject', '=', 'u-1001').executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('never takes over a local account with the same name', async () => {
    await registerUser(t.app, 'localname');
    provider.state.user = { sub: 'u-2002', preferred_username: 'localname' };
    const res = await signIn();
    const token = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    const me = body(await t.app.inject({ method: 'GET', url: '/api/team/userinfo/', cookies: { [SESSION_COOKIE]: token } })).data;
    expect(me.username).toMatch(/^sso_[0-9a-f]{12}$/);
    provider.state.user = { sub: 'u-1001', preferred_username: 'ssouser' };
  });

  it('refuses a state it did not issue, and a state used twice', async () => {
    const forged = await signIn('/', (cb) => cb.searchParams.set('state', 'forged-state'));
    expect(forged.statusCode).toBe(302);
    expect(decodeURIComponent(forged.headers.location as string)).toBe('/login?ssoError=登录请求已失效，请重新登录');
    expect(forged.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    let replay: URL | undefined;
    await signIn('/', (cb) => (replay = new URL(cb)));
    const again = await t.app.inject({ method: 'GET', url: replay!.pathname + replay!.search });
    expect(again.headers.location).toMatch(/^\/login\?ssoError=/);
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
