import { CSRF_COOKIE, SESSION_COOKIE } from '@contest/shared';
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';

/** A session as its holder keeps it: its secret, the CSRF token the page echoes, and when both expire. */
export interface IssuedSession {
  /** The secret the client holds (cookie value or bearer token). */
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export function setSessionCookies(reply: FastifyReply, config: Config, session: IssuedSession) {
  const base = { path: '/', sameSite: 'lax' as const, secure: config.cookieSecure, expires: session.expiresAt };
  reply.setCookie(SESSION_COOKIE, session.token, { ...base, httpOnly: true });
  // Readable by the page so that it can echo the value in the CSRF header of every write.
  reply.setCookie(CSRF_COOKIE, session.csrfToken, { ...base, httpOnly: false });
}

export function clearSessionCookies(reply: FastifyReply, config: Config) {
  const base = { path: '/', sameSite: 'lax' as const, secure: config.cookieSecure };
  reply.clearCookie(SESSION_COOKIE, base);
  reply.clearCookie(CSRF_COOKIE, base);
}

/** The secret binding a single sign-on in progress to the browser that started it (see oidc.ts); only sent back to its callback. */
export const SSO_COOKIE = 'contest_sso';
const SSO_PATH = '/api/auth/oidc';

export function setSsoCookie(reply: FastifyReply, config: Config, secret: string, maxAgeMs: number) {
  reply.setCookie(SSO_COOKIE, secret, { path: SSO_PATH, sameSite: 'lax', secure: config.cookieSecure, httpOnly: true, maxAge: Math.floor(maxAgeMs / 1000) });
}

export function clearSsoCookie(reply: FastifyReply, config: Config) {
  reply.clearCookie(SSO_COOKIE, { path: SSO_PATH, sameSite: 'lax', secure: config.cookieSecure, httpOnly: true });
}
