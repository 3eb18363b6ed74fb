import type { AuthedCtx, Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import { signInOrMake } from './made-accounts.ts';
import * as repo from './repo.ts';

/**
 * Accounts of WeChat identities (issue 35): signing in with a WeChat bound to an account, making a participant account
 * for a WeChat bound to none (`微信用户_…`, no password), binding a WeChat to the signed-in account, and unbinding it.
 */

export interface WechatIdentity {
  unionid: string;
  openid: string;
  nickname: string | null;
}

export const WECHAT_TAKEN = '该微信已绑定其他账号。如需改绑，请先用微信登录那个账号，在“账号设置”中解绑';

/** The account a WeChat signs in to, made now (a participant) when it is bound to none. */
export const wechatLogin = (ctx: Ctx, who: WechatIdentity) =>
  signInOrMake(ctx, {
    find: () => repo.userByUnionid(ctx.db, who.unionid),
    prefix: '微信用户_',
    phone: null,
    attach: (trx, userId, now) => repo.bindWechat(trx, { userId, ...who, now }),
    action: 'user.registerByWechat',
  });

/** Binds a WeChat to the signed-in account. */
export async function bindWechat(ctx: AuthedCtx, who: WechatIdentity) {
  const owner = await repo.userByUnionid(ctx.db, who.unionid);
  if (owner?.id === ctx.actor.userId) return;
  if (owner) throw conflict(WECHAT_TAKEN);
  if (await repo.wechatOf(ctx.db, ctx.actor.userId)) throw conflict('该账号已绑定微信，请先解绑');
  try {
    await repo.bindWechat(ctx.db, { userId: ctx.actor.userId, ...who, now: ctx.clock.now().toISOString() });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(WECHAT_TAKEN);
    throw err;
  }
  await writeAudit(ctx, { action: 'user.bindWechat', entity: 'user', entityId: ctx.actor.userId });
}

/** Unbinds the account's WeChat, unless it is the only way to sign in. */
export async function unbindWechat(ctx: AuthedCtx) {
  if (!(await repo.wechatOf(ctx.db, ctx.actor.userId))) throw conflict('该账号未绑定微信');
  if (!(await repo.otherSignIn(ctx.db, ctx.actor.userId))) throw conflict('解绑后将无法登录：请先设置密码或验证手机号，再解绑微信');
  await repo.unbindWechat(ctx.db, ctx.actor.userId);
  await writeAudit(ctx, { action: 'user.unbindWechat', entity: 'user', entityId: ctx.actor.userId });
}
