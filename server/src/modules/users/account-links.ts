import { FORGOT_ANSWER } from '@contest/shared';
import { createHash, randomBytes } from 'node:crypto';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { hashPassword } from '../../crypto/passwords.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, tooMany } from '../../http/errors.ts';
import { jobsQueued } from '../../jobs/define.ts';
import { retryMinutes } from '../../limits/rate-limiter.ts';
import { writeAudit } from '../audit-log/index.ts';
import { queueEmail } from '../outbox/index.ts';
import { tellPasswordChanged } from './account-notices.ts';
import * as repo from './repo.ts';

/**
 * Links sent by email (issue 35): proving an address, and resetting a forgotten password without an administrator.
 * A link carries 32 random bytes; only their SHA-256 is stored, used once, within its time. The email is queued in the
 * outbox in the same transaction as the link, and goes to the platform's PUBLIC_URL (never an address built from the
 * request's Host header in production: routes hand `origin` from http/origin.ts).
 */

export const VERIFY_TTL_MS = 24 * 3600_000;
export const RESET_TTL_MS = 15 * 60_000;
export const EMAIL_TAKEN = '该邮箱已被其他账号验证。如果那是您的账号，请在登录页使用“忘记密码”找回';
export const LINK_INVALID = '链接无效或已过期，请重新获取';

/** What is stored of a link's token: its SHA-256. */
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOf(token) };
};

/**
 * Links go by email: refused while the platform has no mail server, rather than queued to fail. A conflict with the
 * platform's configuration (409), not a server error: nothing is broken, the operator has not set SMTP_URL.
 */
function assertMail(ctx: Ctx) {
  if (!ctx.config.mail) throw conflict(MAIL_OFF);
}
export const MAIL_OFF = '平台未配置邮件服务，暂不能发送邮件，请联系平台管理员';

/** Counts one request against a limit; past it, 429 with the wait in Chinese. */
async function limit(ctx: Ctx, key: string, max: number, windowMs: number) {
  const hit = await ctx.limiter.hit(key, max, windowMs);
  if (!hit.allowed) throw tooMany(`操作过于频繁，请${retryMinutes(hit.retryAfterMs)}分钟后再试`);
}

/** Sends the signed-in user a link proving the email of their profile (1 a minute, 10 a day). */
export async function sendEmailVerification(ctx: AuthedCtx, origin: string) {
  assertMail(ctx);
  const userId = ctx.actor.userId;
  const user = await repo.findUserInfo(ctx.db, userId);
  if (!user?.email) throw badRequest('请先在个人信息中填写邮箱并保存');
  if (user.emailVerified) throw conflict('该邮箱已验证');
  const email = repo.normalEmail(user.email);
  const owner = await repo.userByVerifiedEmail(ctx.db, email);
  if (owner && owner.id !== userId) throw conflict(EMAIL_TAKEN);
  await limit(ctx, `mail:verify:minute:${userId}`, 1, 60_000);
  await limit(ctx, `mail:verify:day:${userId}`, 10, 24 * 3600_000);
  const now = ctx.clock.now();
  const { token, hash } = newToken();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertToken(trx, {
      userId,
      purpose: 'verify-email',
      tokenHash: hash,
      email,
      expiresAt: new Date(now.getTime() + VERIFY_TTL_MS).toISOString(),
      now: now.toISOString(),
    });
    await queueEmail(trx, now, {
      to: user.email!,
      subject: '请验证您的邮箱',
      text: [
        `${user.userName ?? user.username}，您好：`,
        '',
        '请点击下面的链接验证您在竞赛平台填写的邮箱（24小时内有效，只能使用一次）：',
        `${origin}/verify-email?token=${token}`,
        '',
        '如果这不是您本人的操作，请忽略本邮件。',
      ].join('\n'),
      purpose: 'account',
      key: `verify-email:${hash}`,
      senderId: userId,
    });
  });
  jobsQueued();
  return { email: user.email };
}

/** Opens a verification link: the account proves the address it was sent to, if it still has that address. */
export async function verifyEmail(ctx: Ctx, token: string) {
  const now = ctx.clock.now().toISOString();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const link = await repo.consumeToken(trx, hashOf(token), 'verify-email', now);
      if (!link) throw badRequest(LINK_INVALID);
      const user = await repo.findUserInfo(trx, link.userId);
      if (!user?.email || repo.normalEmail(user.email) !== link.email) throw badRequest('账号的邮箱已更改，请重新发送验证邮件');
      await repo.setVerifiedEmail(trx, link.userId, link.email, now);
      await writeAudit(ctx, { action: 'user.verifyEmail', entity: 'user', entityId: link.userId }, trx);
      return { email: user.email };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
    throw err;
  }
}

/**
 * 忘记密码: sends a reset link (15 minutes, once) to a verified address. The answer is the same whether or not an
 * account has that address, and so is what the limits count (the address and the caller's IP), so neither tells.
 */
export async function forgotPassword(ctx: Ctx, emailInput: string, origin: string) {
  assertMail(ctx);
  const email = repo.normalEmail(emailInput);
  await limit(ctx, `mail:forgot:ip:${ctx.ip}`, 20, 3600_000);
  await limit(ctx, `mail:forgot:minute:${email}`, 1, 60_000);
  await limit(ctx, `mail:forgot:day:${email}`, 5, 24 * 3600_000);
  const user = await repo.userByVerifiedEmail(ctx.db, email);
  if (user && user.status === 1 && user.email) {
    const now = ctx.clock.now();
    const { token, hash } = newToken();
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertToken(trx, {
        userId: user.id,
        purpose: 'reset-password',
        tokenHash: hash,
        email,
        expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString(),
        now: now.toISOString(),
      });
      await queueEmail(trx, now, {
        to: user.email!,
        subject: '重置您的密码',
        text: [
          '您好：',
          '',
          '有人（希望是您）申请重置竞赛平台账号的密码。请点击下面的链接设置新密码（15分钟内有效，只能使用一次）：',
          `${origin}/reset-password?token=${token}`,
          '',
          '重置后，该账号在所有设备上的登录都将退出。如果这不是您本人的操作，请忽略本邮件，您的密码不会改变。',
        ].join('\n'),
        purpose: 'account',
        key: `reset-password:${hash}`,
        senderId: user.id,
      });
    });
    jobsQueued();
  }
  return { message: FORGOT_ANSWER };
}

/** Opens a reset link with a new password: sets it, signs the account out everywhere and voids its other links. */
export async function resetForgottenPassword(ctx: Ctx, token: string, password: string) {
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now().toISOString();
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const link = await repo.consumeToken(trx, hashOf(token), 'reset-password', now);
    if (!link) throw badRequest(LINK_INVALID);
    await repo.setPasswordHash(trx, link.userId, passwordHash, now);
    await repo.deleteUserSessions(trx, link.userId);
    await repo.voidTokens(trx, link.userId, 'reset-password', now);
    await writeAudit(ctx, { action: 'user.resetForgottenPassword', entity: 'user', entityId: link.userId }, trx);
    return link.userId;
  });
  await tellPasswordChanged(ctx, userId, '通过邮件链接重置');
}
