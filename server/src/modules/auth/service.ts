import {
  ROLE_CODES,
  usernameKey,
  type ChangePasswordBody,
  type LoginBody,
  type RegisterBody,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, forbidden, tooMany, unauthorized } from '../../http/errors.ts';
import { retryMinutes } from '../../limits/rate-limiter.ts';
import * as users from '../users/index.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import * as repo from './repo.ts';
import { createSession, sessionId } from './sessions.ts';

export const USERNAME_TAKEN = '用户名已被注册';
export const USERNAME_LOOKALIKE = '该用户名与已有用户名过于相似，请换一个';
export const LOGIN_FAILED = '用户名或密码错误';
export const ACCOUNT_DISABLED = '账号已被停用，请联系管理员';

export const register = (ctx: Ctx, body: RegisterBody) => createAccount(ctx, body, [ROLE_CODES.participant]);

/**
 * A new account with the roles of `roleCodes`, its name normalised; a name taken, or looking like one that is, is
 * refused in `fields.username`. Sign-up and the administrator's 新增用户 both make accounts this way.
 */
export async function createAccount(ctx: Ctx, body: RegisterBody & { userName?: string | null }, roleCodes: string[]) {
  const now = ctx.clock.now().toISOString();
  const username = body.username.normalize('NFKC').trim();
  const passwordHash = await hashPassword(body.password);
  try {
    const id = await ctx.db.transaction().execute((trx) =>
      users.insertUser(
        trx,
        {
          username,
          usernameKey: usernameKey(username),
          passwordHash,
          phone: body.phone ?? null,
          email: body.email ?? null,
          ...(body.userName && { userName: body.userName }),
        },
        roleCodes,
        now,
      ),
    );
    return { id, username };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Lost to the name's key or to its skeleton (a look-alike): both unique in the database, so a race cannot pass.
    const message = (await users.usernameClash(ctx.db, username, usernameKey(username))) === 'lookalike' ? USERNAME_LOOKALIKE : USERNAME_TAKEN;
    throw new AppError(409, message, { username: message });
  }
}

/**
 * Counts one write of a kind that anyone may send without logging in, per calling address; past the limit of the
 * window it is refused with a 429 and `message` (given the minutes to wait).
 */
export async function throttleIp(ctx: Ctx, kind: string, limit: number, message: (minutes: number) => string) {
  const hit = await ctx.limiter.hit(`${kind}:ip:${ctx.ip}`, limit, ctx.config.publicWrites.windowMs);
  if (!hit.allowed) throw tooMany(message(retryMinutes(hit.retryAfterMs)));
}

/** Registrations per address: generous, since a school's students may all register from one address. */
export const throttleRegistration = (ctx: Ctx) =>
  throttleIp(ctx, 'register', ctx.config.publicWrites.registerPerIp, (m) => `注册过于频繁，请${m}分钟后再试`);

/** One throttle of login failures: attempts reserved or failed (`held`), and failures alone (`failed`). */
interface LoginThrottle {
  held: string;
  failed: string;
  limit: number;
  locked: (minutes: number) => string;
}

/** How many times an attempt waits for others' attempts still being checked before it is refused. */
const LOGIN_WAITS = 200;
const pause = () => new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));

/**
 * Reserves a failure on both throttles before the password is looked at: `held` counts failures and attempts being
 * checked, so however many attempts arrive at once, no more than the limit are ever evaluated. An attempt that does
 * not get through gives its reservations back; it is refused at once when the failures alone reach a limit, and
 * otherwise (a limit is full of attempts still being checked, such as a class logging in at once behind one address)
 * waits for them to finish and tries again.
 */
async function reserveLoginAttempt(ctx: Ctx, throttles: LoginThrottle[]) {
  const { limiter } = ctx;
  const { windowMs } = ctx.config.login;
  for (let wait = 0; ; wait++) {
    const hits = await Promise.all(throttles.map((t) => limiter.hit(t.held, t.limit, windowMs)));
    // Failures are read too: the two counters' windows need not start together.
    const failures = await Promise.all(throttles.map((t) => limiter.peek(t.failed, t.limit)));
    const locked = throttles.findIndex((_, i) => !failures[i]!.allowed);
    if (locked < 0 && hits.every((h) => h.allowed)) return;
    await Promise.all(throttles.map((t) => limiter.release(t.held)));
    if (locked >= 0) throw tooMany(throttles[locked]!.locked(retryMinutes(failures[locked]!.retryAfterMs)));
    if (wait >= LOGIN_WAITS) throw tooMany('登录的人较多，请稍后再试');
    await pause();
  }
}

/**
 * Checks the password under two throttles of failed attempts: per IP (so one client cannot spray many accounts) and
 * per account (so one account cannot be guessed). A wrong password keeps its reservations, as the failure counted;
 * a right one gives them back (and clears the account's failures).
 */
export async function authenticate(ctx: Ctx, body: LoginBody) {
  const { login } = ctx.config;
  const key = usernameKey(body.username);
  const ip: LoginThrottle = {
    held: `login:ip:${ctx.ip}`,
    failed: `login:ip-failed:${ctx.ip}`,
    limit: login.maxFailuresPerIp,
    locked: (m) => `登录尝试过于频繁，请${m}分钟后再试`,
  };
  const account: LoginThrottle = {
    held: `login:account:${key}`,
    failed: `login:account-failed:${key}`,
    limit: login.maxFailuresPerAccount,
    locked: (m) => `该账号登录失败次数过多，请${m}分钟后再试`,
  };
  await reserveLoginAttempt(ctx, [ip, account]);
  let user: Awaited<ReturnType<typeof repo.findUserForLogin>>;
  let ok: boolean;
  try {
    user = await repo.findUserForLogin(ctx.db, key);
    ok = await verifyPassword(user?.passwordHash, body.password);
  } catch (err) {
    // The password was never judged (the database failed, say): nothing to count.
    await Promise.all([ctx.limiter.release(ip.held), ctx.limiter.release(account.held)]).catch(() => {});
    throw err;
  }
  if (!user || !ok) {
    await Promise.all([ctx.limiter.hit(ip.failed, ip.limit, login.windowMs), ctx.limiter.hit(account.failed, account.limit, login.windowMs)]);
    throw unauthorizedLogin();
  }
  await Promise.all([ctx.limiter.release(ip.held), ctx.limiter.reset(account.held), ctx.limiter.reset(account.failed)]);
  if (user.status !== 1) throw forbidden(ACCOUNT_DISABLED);
  return user;
}

// A wrong password is a 400 with a field message, not a 401: 401 means "your session expired" to the client.
function unauthorizedLogin() {
  return badRequest(LOGIN_FAILED, { password: LOGIN_FAILED });
}

/** Logs in with a new session id; the session the browser held before, if any, is ended. */
export async function login(ctx: Ctx, body: LoginBody, previousToken: string | undefined) {
  const user = await authenticate(ctx, body);
  return startSession(ctx, user.id, previousToken);
}

export async function startSession(ctx: Ctx, userId: number, previousToken: string | undefined) {
  if (previousToken) await repo.deleteSession(ctx.db, sessionId(previousToken));
  const session = await createSession(ctx, userId, 'browser');
  await repo.setLastLogin(ctx.db, userId, ctx.clock.now().toISOString());
  return { session, userId };
}

/** A bearer token for the desktop client, from credentials or from the caller's live session. */
export async function issueToken(ctx: Ctx, body: LoginBody | undefined) {
  let userId: number;
  if (body) {
    userId = (await authenticate(ctx, body)).id;
    await repo.setLastLogin(ctx.db, userId, ctx.clock.now().toISOString());
  } else if (ctx.actor) {
    userId = ctx.actor.userId;
  } else {
    throw unauthorized();
  }
  const session = await createSession(ctx, userId, 'token');
  return { token: session.token, expiresAt: session.expiresAt.toISOString() };
}

export async function logout(ctx: Ctx) {
  if (ctx.actor) await repo.deleteSession(ctx.db, ctx.actor.sessionId);
}

export async function changePassword(ctx: AuthedCtx, body: ChangePasswordBody) {
  const { actor } = ctx;
  const user = await repo.findUserPassword(ctx.db, actor.userId);
  if (!user?.passwordHash) {
    throw badRequest('该账号通过统一身份认证登录，不能在此修改密码');
  }
  if (!(await verifyPassword(user.passwordHash, body.oldPassword))) {
    throw badRequest('原密码不正确', { oldPassword: '原密码不正确' });
  }
  if (body.oldPassword === body.newPassword) {
    throw badRequest('新密码不能与原密码相同', { newPassword: '新密码不能与原密码相同' });
  }
  const now = ctx.clock.now().toISOString();
  await repo.setPasswordHash(ctx.db, actor.userId, await hashPassword(body.newPassword), now);
  // Whoever knew the old password is signed out everywhere else.
  await repo.deleteOtherSessions(ctx.db, actor.userId, actor.sessionId);
}

export async function listSessions(ctx: AuthedCtx) {
  const { actor } = ctx;
  const rows = await repo.listUserSessions(ctx.db, actor.userId, ctx.clock.now().toISOString());
  return rows.map(({ id, ...rest }) => ({ ...rest, current: id === actor.sessionId }));
}

export async function revokeOtherSessions(ctx: AuthedCtx) {
  const { actor } = ctx;
  return { revoked: await repo.deleteOtherSessions(ctx.db, actor.userId, actor.sessionId) };
}

