import { CSRF_COOKIE, SESSION_COOKIE } from '@contest/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WECHAT_TAKEN } from '../src/modules/users/wechat-accounts.ts';
import { Client, DATABASES, body, createTestApp, loggedIn, registerUser, type TestApp } from './helpers.ts';

/**
 * Issue 35, item 5: 微信扫码登录 through the WeChat simulator, which speaks the open platform's protocol (the QR page's
 * redirect with a code and the state, the code traded for an access token, openid and unionid, then the user's info).
 * A WeChat bound to no account makes one; the same WeChat signs in to it again; a signed-in account binds a WeChat and
 * unbinds it, unless it would be left with no way to sign in; a callback this browser did not start is refused.
 */
describe.each(DATABASES)('WeChat sign-in on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { WECHAT_SIMULATOR: '1', PUBLIC_URL: 'https://contest.example.cn', REGISTER_MAX_PER_IP: '1000' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const cookie = (res: LightMyRequestResponse, name: string) => res.cookies.find((c) => c.name === name)?.value;
  const local = (url: string) => {
    const u = new URL(url);
    return u.pathname + u.search;
  };
  /** A browser's scan: start (as `client`, signed in or not), scan as `nickname` on the simulator's page, come back. */
  async function scan(nickname: string, start: '/api/auth/wechat/login?returnTo=/competitionList' | '/api/auth/wechat/bind', client = new Client(t.app)) {
    const started = await client.get(start);
    expect(started.statusCode).toBe(302);
    const qr = new URL(started.headers.location as string);
    expect(qr.origin + qr.pathname).toBe('https://contest.example.cn/simulator/wechat/connect/qrconnect');
    expect(qr.searchParams.get('scope')).toBe('snsapi_login');
    expect(qr.searchParams.get('redirect_uri')).toBe('https://contest.example.cn/api/auth/wechat/callback');
    const page = await t.app.inject({ method: 'GET', url: local(qr.toString()) });
    expect(page.body).toContain('确认登录');
    const form = new URLSearchParams({
      appid: qr.searchParams.get('appid')!,
      redirect_uri: qr.searchParams.get('redirect_uri')!,
      state: qr.searchParams.get('state')!,
      nickname,
    });
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/simulator/wechat/connect/confirm',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(confirmed.statusCode).toBe(302);
    const back = new URL(confirmed.headers.location as string);
    expect(back.searchParams.get('state')).toBe(qr.searchParams.get('state'));
    const state = cookie(started, 'contest_wx')!;
    // The browser sends both its cookies (Client would send only the session's).
    const done = await t.app.inject({
      method: 'GET',
      url: local(back.toString()),
      headers: { cookie: `contest_wx=${state}${client.token ? `; ${SESSION_COOKIE}=${client.token}` : ''}` },
    });
    const session = cookie(done, SESSION_COOKIE);
    if (session) client.token = session;
    const csrf = cookie(done, CSRF_COOKIE);
    if (csrf) client.csrf = csrf;
    return { done, client, back, state };
  }
  const me = async (c: Client) => body(await c.get('/api/team/userinfo/')).data;

  it('makes an account for a new WeChat and signs it in again; a callback this browser did not start is refused', async () => {
    expect(body(await t.app.inject({ method: 'GET', url: '/api/auth/config' })).data.wechatEnabled).toBe(true);
    const first = await scan(`张三${kind}`, '/api/auth/wechat/login?returnTo=/competitionList');
    expect(first.done.statusCode).toBe(302);
    expect(first.done.headers.location).toBe('/competitionList');
    const user = await me(first.client);
    expect(user.username).toMatch(/^微信用户_/);
    expect(user).toMatchObject({ wechat: `张三${kind}`, hasPassword: false });

    const again = await scan(`张三${kind}`, '/api/auth/wechat/login?returnTo=/competitionList');
    expect((await me(again.client)).userId).toBe(user.userId);

    // The code is good once; and a state without this browser's cookie is refused.
    const replay = await new Client(t.app).request({ method: 'GET', url: local(again.back.toString()), headers: { cookie: `contest_wx=${again.state}` } });
    expect(decodeURIComponent(replay.headers.location as string)).toMatch(/^\/login\?ssoError=微信登录未完成：微信开放平台：40029/);
    const stranger = await scan(`王五${kind}`, '/api/auth/wechat/login?returnTo=/competitionList');
    const forged = await new Client(t.app).request({ method: 'GET', url: local(stranger.back.toString()) });
    expect(decodeURIComponent(forged.headers.location as string)).toContain('不是从本页面发起的');
  });

  it('binds a WeChat to the signed-in account, refuses one bound elsewhere, and unbinds only with another way in', async () => {
    const username = `wxbind${kind}`;
    await registerUser(t.app, username);
    const client = await loggedIn(t.app, username);
    const bound = await scan(`李四${kind}`, '/api/auth/wechat/bind', client);
    expect(bound.done.headers.location).toBe('/userCenter/accountSet?wechat=bound');
    expect((await me(client)).wechat).toBe(`李四${kind}`);
    // That WeChat now signs in to this account.
    expect((await me((await scan(`李四${kind}`, '/api/auth/wechat/login?returnTo=/competitionList')).client)).username).toBe(username);

    // A WeChat bound to another account is refused.
    const other = await loggedIn(t.app, (await registerUser(t.app, `wxother${kind}`)).username);
    const taken = await scan(`李四${kind}`, '/api/auth/wechat/bind', other);
    expect(decodeURIComponent(taken.done.headers.location as string)).toBe(`/userCenter/accountSet?wechatError=${WECHAT_TAKEN}`);
    // Binding needs a signed-in account.
    expect((await new Client(t.app).get('/api/auth/wechat/bind')).statusCode).toBe(401);

    // An account made by WeChat cannot drop its only way in; one with a password can.
    const wechatOnly = (await scan(`赵六${kind}`, '/api/auth/wechat/login?returnTo=/competitionList')).client;
    const refused = await wechatOnly.delete('/api/account/wechat');
    expect(refused.statusCode).toBe(409);
    expect(body(refused).message).toContain('请先设置密码或验证手机号');
    expect((await client.delete('/api/account/wechat')).statusCode).toBe(200);
    expect((await me(client)).wechat).toBeNull();
    // Unbound: the same WeChat now makes a new account.
    const fresh = await scan(`李四${kind}`, '/api/auth/wechat/login?returnTo=/competitionList');
    expect((await me(fresh.client)).username).toMatch(/^微信用户_/);
  });
});
