import { ROLE_CODES, isPermissionCode, usernameKey, type ChangePasswordBody, type LoginBody, type RegisterBody, type SmsCodeBody } from '@contest/shared';
import { altchaChallenge } from '../../crypto/altcha.ts';
import { completeWechat } from './wechat.ts';
export { startWechat, wechatEnabled } from './wechat.ts';
export { smsEnabled } from '../sms/index.ts';
import type { Actor, AuthedCtx, Ctx, Deps } from '../../context.ts';
import { AppError, badRequest, forbidden, notFound, tooMany, unauthorized } from '../../http/errors.ts';
import { retryMinutes } from '../../limits/rate-limiter.ts';
import * as users from '../users/index.ts';
import { hashPassword, verifyPassword } from '../../crypto/passwords.ts';
import * as repo from './repo.ts';
import { createSession, sessionId } from './sessions.ts';
import { OidcClient, STATE_TTL_MS, belongsTo } from './oidc.ts';
import type { Config } from '../../config.ts';

export const LOGIN_FAILED = '用户名或密码错误';
export const ACCOUNT_DISABLED = '账号已被停用，请联系管理员';

export const register = (ctx: Ctx, body: RegisterBody) => users.createAccount(ctx, body, [ROLE_CODES.participant]);

/**
 * Counts one write of a kind that anyone may send without logging in, per calling address; past the limit of the
 * window it is refused with a 429 and `message` (given the minutes to wait).
 */
export async function throttleIp(ctx: Ctx, kind: string, limit: number, message: (minutes: number) => string) {
  const hit = await ctx.limiter.hit(`${kind}:ip:${ctx.ip}`, limit, ctx.config.publicWrites.windowMs);
  if (!hit.allowed) throw tooMany(message(retryMinutes(hit.retryAfterMs)));
}

/** Registrations per address: generous, since a school's students may all register from one address. */
export const throttleRegistration = (ctx: Ctx) => throttleIp(ctx, 'register', ctx.config.publicWrites.registerPerIp, (m) => `注册过于频繁，请${m}分钟后再试`);

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
  const { id } = await authenticate(ctx, body);
  const { session } = await startSession(ctx, id, previousToken);
  const user = await users.findUserInfo(ctx.db, id);
  // Found by authenticate() a moment ago: only an account deleted in between is missing.
  if (!user) throw notFound('用户不存在');
  return { session, user };
}

/** 微信扫码登录: the sign-in or binding a callback completes, and the session of a sign-in. */
export async function finishWechat(
  ctx: Ctx,
  params: { code: string; state: string },
  cookie: string | undefined,
  origin: string,
  previousToken: string | undefined,
): Promise<{ returnTo: string; session?: Awaited<ReturnType<typeof startSession>>['session'] }> {
  const done = await completeWechat(ctx, params, cookie, origin);
  if (done.purpose === 'bind') {
    // Bound to the account that started it, signed in still.
    if (!ctx.actor || ctx.actor.userId !== done.startedBy) throw new AppError(400, '请先登录要绑定微信的账号，再重新扫码');
    await users.bindWechat(ctx as AuthedCtx, done.who);
    return { returnTo: '/userCenter/accountSet?wechat=bound' };
  }
  const { userId } = await users.wechatLogin(ctx, done.who);
  const { session } = await startSession(ctx, userId, previousToken);
  return { returnTo: done.returnTo, session };
}

/** A proof-of-work challenge to solve before asking for an SMS code. */
export const altcha = (ctx: Ctx) => altchaChallenge(ctx);

/** A code by SMS: for signing in (any phone), or for 忘记密码 (a proved phone only; the answer is the same). */
export async function sendSmsCode(ctx: Ctx, body: SmsCodeBody) {
  if (body.purpose === 'login') await users.sendLoginCode(ctx, body.phone, body.altcha);
  else await users.sendResetCode(ctx, body.phone, body.altcha);
}

/** 短信验证码登录: the phone's account (made now if no account verified the phone) signed in with a new session. */
export async function loginByPhone(ctx: Ctx, body: { phone: string; code: string }, previousToken: string | undefined) {
  // Generous like registrations (a class signs in from one address); each code has its own five tries besides.
  await throttleIp(ctx, 'sms-login', ctx.config.publicWrites.registerPerIp, (m) => `登录尝试过于频繁，请${m}分钟后再试`);
  const { userId, created } = await users.phoneLogin(ctx, body.phone, body.code);
  const { session } = await startSession(ctx, userId, previousToken);
  const user = await users.findUserInfo(ctx.db, userId);
  if (!user) throw notFound('用户不存在');
  return { session, user, created };
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
  await users.setPasswordHash(ctx.db, actor.userId, await hashPassword(body.newPassword), now);
  // Whoever knew the old password is signed out everywhere else.
  await repo.deleteOtherSessions(ctx.db, actor.userId, actor.sessionId);
  await users.tellPasswordChanged(ctx, actor.userId, '在账号设置中修改');
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

/**
 * Single sign-on (OpenID Connect) as the routes see it: start a sign-in, complete it into a session. One client per
 * configured provider, so its discovered metadata and keys are fetched once.
 */
const clients = new WeakMap<NonNullable<Config['oidc']>, OidcClient>();

/** Refuses (404) when single sign-on is not configured. */
export function assertSsoEnabled(ctx: Ctx) {
  if (!ctx.config.oidc) throw new AppError(404, '未启用统一身份认证');
  return ctx.config.oidc;
}

function client(ctx: Ctx): OidcClient {
  const settings = assertSsoEnabled(ctx);
  let found = clients.get(settings);
  if (!found) clients.set(settings, (found = new OidcClient(settings)));
  return found;
}

/** The provider's address to send the browser to, and the secret its cookie keeps for as long as the sign-in may take. */
export async function startSso(ctx: Ctx, redirectUri: string, returnTo: string) {
  const { url, browserSecret } = await client(ctx).authorizationUrl(ctx, redirectUri, returnTo);
  return { url, browserSecret, maxAgeMs: STATE_TTL_MS };
}

/** The provider's answer checked against this browser's sign-in, and a session started for the account it names. */
export async function completeSso(
  ctx: Ctx,
  params: { code: string; state: string },
  redirectUri: string,
  browserSecret: string | undefined,
  previousToken: string | undefined,
) {
  const { userId, returnTo } = await client(ctx).complete(ctx, params, redirectUri, browserSecret);
  const { session } = await startSession(ctx, userId, previousToken);
  return { session, returnTo };
}

/** Whether `state` is the sign-in this browser started (so that its cookie may go once the sign-in is over). */
export const ssoOfBrowser = (state: string, browserSecret: string | undefined) => belongsTo(state, browserSecret);

/** A session's last-seen time is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

/** The actor of a presented session cookie or bearer token: the request's authentication asks here (http/auth.ts). */
export async function resolveActor(deps: Deps, presented: { token: string; bearer: boolean }): Promise<Actor | null> {
  const now = deps.clock.now();
  const session = await repo.findLiveSession(deps.db, sessionId(presented.token), now.toISOString());
  if (!session) return null;
  if (now.getTime() - Date.parse(session.lastSeenAt) > TOUCH_INTERVAL_MS) {
    // Browser sessions slide: activity pushes the expiry out again; desktop tokens keep theirs.
    const ttl = session.kind === 'browser' ? deps.config.sessionTtlMs : undefined;
    const expiresAt = ttl ? new Date(now.getTime() + ttl).toISOString() : session.expiresAt;
    await repo.touchSession(deps.db, session.id, now.toISOString(), expiresAt);
  }
  // A code no longer in the tables (a role saved before a code was retired) grants nothing.
  const permissions = new Set((await repo.permissionCodes(deps.db, session.userId)).filter(isPermissionCode));
  return {
    userId: session.userId,
    username: session.username,
    orgId: session.orgId,
    permissions,
    sessionId: session.id,
    via: presented.bearer ? 'bearer' : 'cookie',
    csrfToken: session.csrfToken,
  };
}
