import { safeReturnTo } from '@contest/shared';
import { randomBytes } from 'node:crypto';
import type { Ctx } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { OPEN_PLATFORM, WechatError, identityOf, qrconnectUrl, type WechatApp } from '../../wechat/connect.ts';
import * as users from '../users/index.ts';

/**
 * 微信扫码登录 as the routes see it (issue 35): start a sign-in (or, signed in, a binding) and complete it. The state
 * WeChat carries back is checked against the browser's own cookie, which holds it with the purpose, the account that
 * started a binding and where to return, under a MAC: a callback this browser did not start is refused.
 */

export const WECHAT_OFF = '未启用微信登录';
const STATE_TTL_MS = 10 * 60_000;

/** The application to use: the simulator's outside production when it is on (its QR page is this site's own). */
async function app(ctx: Ctx, origin: string): Promise<WechatApp> {
  const sim = ctx.wechatSimulator;
  if (sim) return { appId: sim.appId, appSecret: sim.appSecret, connectBase: `${origin}/simulator/wechat`, apiBase: await sim.apiBase() };
  const w = ctx.config.wechat;
  if (!w || w.simulator) throw new AppError(404, WECHAT_OFF);
  return { appId: w.appId, appSecret: w.appSecret, ...OPEN_PLATFORM };
}

export const wechatEnabled = (ctx: Pick<Ctx, 'config'>) => Boolean(ctx.config.wechat);

type Purpose = 'login' | 'bind';
const seal = (ctx: Ctx, fields: string[]) => [...fields, ctx.cipher.mac('wechat-state', fields.join('.')).slice(0, 32)].join('.');

export async function startWechat(ctx: Ctx, purpose: Purpose, returnTo: string, origin: string) {
  const a = await app(ctx, origin);
  const state = randomBytes(16).toString('hex');
  const expires = String(ctx.clock.now().getTime() + STATE_TTL_MS);
  const cookie = seal(ctx, [state, purpose, String(ctx.actor?.userId ?? 0), expires, Buffer.from(safeReturnTo(returnTo)).toString('base64url')]);
  return { url: qrconnectUrl(a, `${origin}/api/auth/wechat/callback`, state), cookie, maxAgeMs: STATE_TTL_MS };
}

/** Checks the callback against this browser's cookie and asks WeChat who scanned. */
export async function completeWechat(ctx: Ctx, params: { code: string; state: string }, cookie: string | undefined, origin: string) {
  const parts = (cookie ?? '').split('.');
  const [state, purpose, userId, expires, returnTo] = parts;
  if (parts.length !== 6 || seal(ctx, parts.slice(0, 5)) !== cookie || state !== params.state || Number(expires) < ctx.clock.now().getTime())
    throw new AppError(400, '微信登录已过期或不是从本页面发起的，请重新扫码');
  let who: users.WechatIdentity;
  try {
    who = await identityOf(await app(ctx, origin), params.code);
  } catch (err) {
    if (err instanceof WechatError) throw new AppError(400, `微信登录未完成：${err.message}`);
    throw err;
  }
  return { purpose: purpose as Purpose, startedBy: Number(userId), returnTo: safeReturnTo(Buffer.from(returnTo!, 'base64url').toString('utf8')), who };
}
