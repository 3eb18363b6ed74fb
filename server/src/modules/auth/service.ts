import {
  ROLE_CODES,
  usernameKey,
  type ChangePasswordBody,
  type LoginBody,
  type RegisterBody,
} from '@contest/shared';
import type { Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, forbidden, tooMany, unauthorized } from '../../http/errors.ts';
import * as users from '../users/repo.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import * as repo from './repo.ts';
import { createSession, sessionId } from './sessions.ts';

export const USERNAME_TAKEN = '用户名已被注册';
export const LOGIN_FAILED = '用户名或密码错误';
export const ACCOUNT_DISABLED = '账号已被停用，请联系管理员';

export async function register(ctx: Ctx, body: RegisterBody) {
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
        },
        [ROLE_CODES.participant],
        now,
      ),
    );
    return { id, username };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, USERNAME_TAKEN, { username: USERNAME_TAKEN });
    throw err;
  }
}

function minutes(ms: number) {
  return Math.max(1, Math.ceil(ms / 60_000));
}

/**
 * Checks the password under two throttles of failed attempts: per account (so one account cannot be
 * guessed) and per IP (so one client cannot spray many accounts).
 */
export async function authenticate(ctx: Ctx, body: LoginBody) {
  const { login } = ctx.config;
  const key = usernameKey(body.username);
  const ipKey = `login:ip:${ctx.ip}`;
  const accountKey = `login:account:${key}`;
  const ipState = await ctx.limiter.peek(ipKey, login.maxFailuresPerIp);
  if (!ipState.allowed) {
    throw tooMany(`登录尝试过于频繁，请${minutes(ipState.retryAfterMs)}分钟后再试`);
  }
  const accountState = await ctx.limiter.peek(accountKey, login.maxFailuresPerAccount);
  if (!accountState.allowed) {
    throw tooMany(`该账号登录失败次数过多，请${minutes(accountState.retryAfterMs)}分钟后再试`);
  }
  const user = await repo.findUserForLogin(ctx.db, key);
  const ok = await verifyPassword(user?.passwordHash, body.password);
  if (!user || !ok) {
    await ctx.limiter.hit(accountKey, login.maxFailuresPerAccount, login.windowMs);
    await ctx.limiter.hit(ipKey, login.maxFailuresPerIp, login.windowMs);
    throw unauthorizedLogin();
  }
  if (user.status !== 1) throw forbidden(ACCOUNT_DISABLED);
  await ctx.limiter.reset(accountKey);
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

export async function changePassword(ctx: Ctx, body: ChangePasswordBody) {
  const actor = ctx.actor!;
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

export async function listSessions(ctx: Ctx) {
  const actor = ctx.actor!;
  const rows = await repo.listUserSessions(ctx.db, actor.userId, ctx.clock.now().toISOString());
  return rows.map(({ id, ...rest }) => ({ ...rest, current: id === actor.sessionId }));
}

export async function revokeOtherSessions(ctx: Ctx) {
  const actor = ctx.actor!;
  return { revoked: await repo.deleteOtherSessions(ctx.db, actor.userId, actor.sessionId) };
}

