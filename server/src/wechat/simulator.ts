import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { PUBLIC } from '../http/access.ts';
import type { App } from '../http/app-types.ts';
import { escapeHtml } from '../http/html.ts';

/**
 * A development stand-in for the WeChat open platform (WECHAT_SIMULATOR=1, refused in production). Its QR page is a
 * page of the platform's own (`/simulator/wechat/connect/qrconnect`, where "scanning" is choosing a nickname and
 * confirming); its API (`/sns/oauth2/access_token`, `/sns/userinfo`) listens on a port of its own on 127.0.0.1 and
 * answers as WeChat does: a code is good once and for five minutes, the app id and secret must be its own, and errors
 * carry WeChat's errcode (40029 invalid code, 40125 invalid secret, 40013 invalid appid, 42001 expired token). The same
 * nickname is the same person (the same unionid), so a test or a developer can sign in twice as one person.
 */

export interface WechatSimulator {
  appId: string;
  appSecret: string;
  /** The QR page's "scan": a code for `nickname`, for the app and redirect address the page was opened with. */
  scan(v: { appid: string; redirectUri: string; nickname: string }): string;
  apiBase(): Promise<string>;
  close(): Promise<void>;
}

const CODE_TTL_MS = 5 * 60_000;

export function wechatSimulator(dataDir: string): WechatSimulator {
  const file = path.join(dataDir, 'wechat-simulator.json');
  let keys: { appId: string; appSecret: string };
  if (fs.existsSync(file)) keys = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof keys;
  else {
    keys = { appId: `wx${randomBytes(8).toString('hex')}`, appSecret: randomBytes(16).toString('hex') };
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  }
  const idOf = (kind: string, nickname: string) => `o${createHash('sha256').update(`${kind}:${keys.appId}:${nickname}`).digest('base64url').slice(0, 27)}`;
  const codes = new Map<string, { nickname: string; expires: number }>();
  const tokens = new Map<string, { nickname: string; openid: string; expires: number }>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const send = (body: object) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    const q = (k: string) => url.searchParams.get(k) ?? '';
    if (url.pathname === '/sns/oauth2/access_token') {
      if (q('appid') !== keys.appId) return send({ errcode: 40013, errmsg: 'invalid appid' });
      if (q('secret') !== keys.appSecret) return send({ errcode: 40125, errmsg: 'invalid appsecret' });
      if (q('grant_type') !== 'authorization_code') return send({ errcode: 40002, errmsg: 'invalid grant_type' });
      const found = codes.get(q('code'));
      codes.delete(q('code'));
      if (!found || found.expires < Date.now()) return send({ errcode: 40029, errmsg: 'invalid code' });
      const accessToken = randomBytes(24).toString('base64url');
      const openid = idOf('openid', found.nickname);
      tokens.set(accessToken, { nickname: found.nickname, openid, expires: Date.now() + 7200_000 });
      return send({
        access_token: accessToken,
        expires_in: 7200,
        refresh_token: randomBytes(24).toString('base64url'),
        openid,
        scope: 'snsapi_login',
        unionid: idOf('unionid', found.nickname),
      });
    }
    if (url.pathname === '/sns/userinfo') {
      const t = tokens.get(q('access_token'));
      if (!t || t.expires < Date.now()) return send({ errcode: 42001, errmsg: 'access_token expired' });
      if (q('openid') !== t.openid) return send({ errcode: 40003, errmsg: 'invalid openid' });
      return send({
        openid: t.openid,
        nickname: t.nickname,
        sex: 0,
        province: '',
        city: '',
        country: 'CN',
        headimgurl: '',
        privilege: [],
        unionid: idOf('unionid', t.nickname),
      });
    }
    res.writeHead(404).end();
  });
  let listening: Promise<string> | undefined;
  return {
    ...keys,
    scan({ appid, redirectUri, nickname }) {
      if (appid !== keys.appId) throw new Error('appid 参数错误');
      if (!/^https?:\/\//.test(redirectUri)) throw new Error('redirect_uri 参数错误');
      const code = randomBytes(16).toString('hex');
      codes.set(code, { nickname, expires: Date.now() + CODE_TTL_MS });
      return code;
    },
    apiBase() {
      listening ??= new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      });
      return listening;
    },
    async close() {
      if (!listening) return;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}

const page = (inner: string) =>
  '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>微信扫码登录（模拟）</title>' +
  '<style>body{font-family:"Noto Sans CJK SC",sans-serif;background:#333;margin:0;color:#fff;text-align:center}main{max-width:360px;margin:48px auto;padding:24px}' +
  '.qr{width:200px;height:200px;margin:24px auto;background:repeating-conic-gradient(#000 0 25%,#fff 0 50%) 0 0/20px 20px;border:12px solid #fff}' +
  'input{font-size:16px;padding:8px;border-radius:4px;border:0;width:200px}button{background:#07c160;color:#fff;border:0;border-radius:4px;padding:10px 32px;font-size:16px;margin-top:16px;cursor:pointer}' +
  '.note{color:#aaa;font-size:13px}</style></head><body><main>' +
  inner +
  '</main></body></html>';

/**
 * The simulator's QR page, where WeChat's `/connect/qrconnect` would show a QR code: "scanning" it is giving a nickname
 * (the simulated WeChat user) and confirming, which sends the browser back to the platform with a code, as WeChat does.
 */
export function wechatSimulatorRoutes(app: App, sim: WechatSimulator) {
  const query = z.object({
    appid: z.string().max(64),
    redirect_uri: z.string().max(1000),
    response_type: z.string().max(20),
    scope: z.string().max(50),
    state: z.string().max(200),
  });
  app.get('/simulator/wechat/connect/qrconnect', { config: { rule: PUBLIC }, schema: { hide: true } }, async (req, reply) => {
    reply.type('text/html; charset=utf-8');
    const parsed = query.safeParse(req.query);
    if (!parsed.success || parsed.data.appid !== sim.appId || parsed.data.scope !== 'snsapi_login' || parsed.data.response_type !== 'code')
      return page('<h2>请求参数错误</h2><p class="note">appid、scope 或 response_type 不正确（模拟微信开放平台）。</p>');
    const q = parsed.data;
    const hidden = ['appid', 'redirect_uri', 'state'].map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q[k as keyof typeof q])}">`).join('');
    return page(
      '<h2>微信扫码登录（模拟）</h2><div class="qr" aria-hidden="true"></div><p class="note">开发用的微信模拟器：填写扫码的微信昵称并确认，相同昵称即同一位微信用户。</p>' +
        `<form method="post" action="/simulator/wechat/connect/confirm">${hidden}<label>微信昵称 <input name="nickname" value="模拟微信用户" maxlength="30"></label><br><button type="submit">确认登录</button></form>`,
    );
  });
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post('/simulator/wechat/connect/confirm', { config: { rule: PUBLIC, foreign: true }, schema: { hide: true } }, async (req, reply) => {
      const b = (req.body ?? {}) as Record<string, string>;
      const nickname = (b.nickname ?? '').trim().slice(0, 30) || '模拟微信用户';
      let code: string;
      try {
        code = sim.scan({ appid: b.appid ?? '', redirectUri: b.redirect_uri ?? '', nickname });
      } catch (err) {
        reply.type('text/html; charset=utf-8');
        return page(`<h2>${escapeHtml((err as Error).message)}</h2>`);
      }
      const back = new URL(b.redirect_uri!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', b.state ?? '');
      return reply.redirect(back.toString());
    });
  });
}
