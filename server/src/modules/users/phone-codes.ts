import { SMS_CODE_TRIES, SMS_CODE_TTL_MINUTES, SMS_CODE_WRONG, normalPhone } from '@contest/shared';
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { checkAltcha } from '../../crypto/altcha.ts';
import { hashPassword } from '../../crypto/passwords.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, tooMany } from '../../http/errors.ts';
import { jobsQueued } from '../../jobs/define.ts';
import { writeAudit } from '../audit-log/index.ts';
import { signInOrMake } from './made-accounts.ts';
import { queueSms } from '../outbox/index.ts';
import { SMS_OFF, smsEnabled } from '../sms/index.ts';
import { tellPasswordChanged } from './account-notices.ts';
import * as repo from './repo.ts';

/**
 * Codes sent by SMS (issue 35): signing in (an unknown phone gets an account), resetting a forgotten password, proving
 * the phone of a signed-in account. A code is 6 random digits, good for 10 minutes and 5 tries, once; only its keyed
 * hash is stored (HMAC under a key derived from SECRET_KEY), and a new code for the same phone and purpose voids the
 * last. Asking for one needs a solved ALTCHA challenge and stays within 1 a minute and 10 a day per phone, and
 * SMS_CODES_PER_IP_HOUR per address; past a limit the answer is 429 with the wait in Chinese. The text is queued in the
 * outbox with the code, in the transaction that stores it.
 */

export type CodePurpose = 'login' | 'reset' | 'verify';
export const PHONE_TAKEN = '该手机号已被其他账号验证。如果那是您的账号，请退出后用短信验证码登录，或通过“忘记密码”找回';
export const TOO_MANY_TRIES = '验证码错误次数过多，请重新获取';
const TTL_MS = SMS_CODE_TTL_MINUTES * 60_000;

const codeHash = (ctx: Ctx, phone: string, purpose: CodePurpose, code: string) => ctx.cipher.mac('sms-code', `${phone}|${purpose}|${code}`);

const wait = (ms: number) =>
  ms < 60_000 ? `${Math.max(1, Math.ceil(ms / 1000))}秒` : ms < 3600_000 ? `${Math.ceil(ms / 60_000)}分钟` : `${Math.ceil(ms / 3600_000)}小时`;

async function limit(ctx: Ctx, key: string, max: number, windowMs: number, what: string) {
  const hit = await ctx.limiter.hit(key, max, windowMs);
  if (!hit.allowed) throw tooMany(`${what}，请${wait(hit.retryAfterMs)}后再试`);
}

/**
 * Sends a code for `purpose` to `phoneInput`, after the proof of work and within the limits; `deliver` false keeps the
 * text back (a reset for a phone no account verified) while everything else, limits included, happens the same, so
 * the answer tells nobody which phones have accounts.
 */
async function sendCode(ctx: Ctx, phoneInput: string, purpose: CodePurpose, altcha: string, who: { userId: number | null; deliver: boolean }) {
  await checkAltcha(ctx, altcha);
  if (!(await smsEnabled(ctx))) throw conflict(SMS_OFF);
  const phone = normalPhone(phoneInput);
  await limit(ctx, `sms:code:ip:${ctx.ip}`, ctx.config.sms.codesPerIpHour, 3600_000, '该网络获取验证码过于频繁');
  await limit(ctx, `sms:code:minute:${phone}`, 1, 60_000, '验证码发送过于频繁');
  await limit(ctx, `sms:code:day:${phone}`, 10, 24 * 3600_000, '该手机号今天获取验证码的次数已达上限');
  if (!who.deliver) return;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.voidPhoneCodes(trx, phone, purpose, now.toISOString());
    const id = await repo.insertPhoneCode(trx, {
      phone,
      purpose,
      userId: who.userId,
      codeHash: codeHash(ctx, phone, purpose, code),
      expiresAt: new Date(now.getTime() + TTL_MS).toISOString(),
      createdAt: now.toISOString(),
    });
    await queueSms(trx, ctx.cipher, now, {
      to: phone,
      template: 'code',
      params: { code, minutes: String(SMS_CODE_TTL_MINUTES) },
      purpose: 'code',
      key: `phone-code:${id}`,
      senderId: who.userId,
    });
  });
  jobsQueued();
}

/**
 * Spends a try of the phone's live code for `purpose` and uses it if it matches. The try is counted in its own
 * statement before the comparison (at most five, however many guesses arrive at once), and using the code is another
 * that only one caller wins. Wrong, expired, spent or absent: 400, saying how many tries are left.
 */
async function takeCode(ctx: Ctx, phoneInput: string, purpose: CodePurpose, code: string, userId: number | null = null) {
  const phone = normalPhone(phoneInput);
  const now = ctx.clock.now().toISOString();
  const live = await repo.livePhoneCode(ctx.db, phone, purpose, now, userId);
  if (!live) throw badRequest(SMS_CODE_WRONG, { code: SMS_CODE_WRONG });
  const tries = await repo.spendCodeTry(ctx.db, live.id, SMS_CODE_TRIES);
  if (tries === undefined) throw badRequest(TOO_MANY_TRIES, { code: TOO_MANY_TRIES });
  const expected = Buffer.from(live.codeHash);
  const given = Buffer.from(codeHash(ctx, phone, purpose, code));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    const left = SMS_CODE_TRIES - tries;
    const message = left > 0 ? `验证码错误，还可尝试${left}次` : TOO_MANY_TRIES;
    throw badRequest(message, { code: message });
  }
  if (!(await repo.usePhoneCode(ctx.db, live.id, now))) throw badRequest(SMS_CODE_WRONG, { code: SMS_CODE_WRONG });
  return phone;
}

/** 短信验证码登录: a code to any valid phone (signing in with it makes an account for a phone none verified). */
export const sendLoginCode = (ctx: Ctx, phone: string, altcha: string) => sendCode(ctx, phone, 'login', altcha, { userId: null, deliver: true });

/** 忘记密码 by SMS: a code only to a phone an enabled account verified; the answer is the same for any phone. */
export async function sendResetCode(ctx: Ctx, phone: string, altcha: string) {
  const owner = await repo.userByVerifiedPhone(ctx.db, normalPhone(phone));
  await sendCode(ctx, phone, 'reset', altcha, { userId: owner?.id ?? null, deliver: owner?.status === 1 });
}

/** A code proving a phone for the signed-in account; a phone another account verified is refused (409). */
export async function sendVerifyCode(ctx: AuthedCtx, phone: string, altcha: string) {
  const owner = await repo.userByVerifiedPhone(ctx.db, normalPhone(phone));
  if (owner?.id === ctx.actor.userId) throw conflict('该手机号已验证');
  if (owner) throw conflict(PHONE_TAKEN);
  await sendCode(ctx, phone, 'verify', altcha, { userId: ctx.actor.userId, deliver: true });
}

/**
 * Signs in by code: the account that verified the phone, or a new participant account for it (no password; one can be
 * set in the user centre). Answers the account and whether it was made now; a disabled account is refused.
 */
export async function phoneLogin(ctx: Ctx, phoneInput: string, code: string): Promise<{ userId: number; created: boolean }> {
  const phone = await takeCode(ctx, phoneInput, 'login', code);
  return signInOrMake(ctx, {
    find: () => repo.userByVerifiedPhone(ctx.db, phone),
    prefix: '手机用户_',
    phone,
    attach: (trx, userId, now) => repo.setVerifiedPhone(trx, userId, phone, now),
    action: 'user.registerByPhone',
  });
}

/** 忘记密码 by SMS: a new password for the account that verified the phone; every session and token of it ends. */
export async function resetPasswordByCode(ctx: Ctx, phoneInput: string, code: string, password: string) {
  const passwordHash = await hashPassword(password);
  const phone = await takeCode(ctx, phoneInput, 'reset', code);
  const owner = await repo.userByVerifiedPhone(ctx.db, phone);
  if (owner?.status !== 1) throw badRequest(SMS_CODE_WRONG, { code: SMS_CODE_WRONG });
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.setPasswordHash(trx, owner.id, passwordHash, now);
    await repo.deleteUserSessions(trx, owner.id);
    await repo.voidTokens(trx, owner.id, 'reset-password', now);
    await writeAudit(ctx, { action: 'user.resetPasswordBySms', entity: 'user', entityId: owner.id }, trx);
  });
  await tellPasswordChanged(ctx, owner.id, '通过短信验证码重置');
}

/** Proves the signed-in account's phone: it becomes the profile's phone, verified. */
export async function verifyPhone(ctx: AuthedCtx, phoneInput: string, code: string) {
  const phone = await takeCode(ctx, phoneInput, 'verify', code, ctx.actor.userId);
  const now = ctx.clock.now().toISOString();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.updateUser(trx, ctx.actor.userId, { phone, updatedAt: now });
      await repo.setVerifiedPhone(trx, ctx.actor.userId, phone, now);
      await writeAudit(ctx, { action: 'user.verifyPhone', entity: 'user', entityId: ctx.actor.userId }, trx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(PHONE_TAKEN);
    throw err;
  }
  return { phone };
}

/** The first password of an account made by an SMS code (one that has a password changes it with the old one). */
export async function setFirstPassword(ctx: AuthedCtx, password: string) {
  const passwordHash = await hashPassword(password);
  const now = ctx.clock.now().toISOString();
  if (!(await repo.setPasswordIfNone(ctx.db, ctx.actor.userId, passwordHash, now))) throw conflict('该账号已设置密码，请使用“修改密码”');
  await writeAudit(ctx, { action: 'user.setPassword', entity: 'user', entityId: ctx.actor.userId });
}
