import { ROLE_CODES, usernameKey } from '@contest/shared';
import { randomBytes } from 'node:crypto';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, conflict, forbidden } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
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

async function freeUsername(ctx: Ctx) {
  for (;;) {
    const name = `微信用户_${randomBytes(5).toString('hex')}`;
    if (!(await repo.usernameClash(ctx.db, name, usernameKey(name)))) return name;
  }
}

/** The account a WeChat signs in to, made now (a participant) when it is bound to none. */
export async function wechatLogin(ctx: Ctx, who: WechatIdentity): Promise<{ userId: number; created: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const owner = await repo.userByUnionid(ctx.db, who.unionid);
    if (owner) {
      if (owner.status !== 1) throw forbidden('账号已被停用，请联系管理员');
      return { userId: owner.id, created: false };
    }
    const now = ctx.clock.now().toISOString();
    const username = await freeUsername(ctx);
    try {
      const userId = await ctx.db.transaction().execute(async (trx) => {
        const id = await repo.insertUser(
          trx,
          { username, usernameKey: usernameKey(username), passwordHash: null, phone: null, email: null },
          [ROLE_CODES.participant],
          now,
        );
        await repo.bindWechat(trx, { userId: id, ...who, now });
        return id;
      });
      await writeAudit({ ...ctx, actor: null }, { action: 'user.registerByWechat', entity: 'user', entityId: userId });
      return { userId, created: true };
    } catch (err) {
      // The same WeChat signed in twice at once: the other made the account; sign in to it.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new AppError(409, '请稍后重试');
}

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
