import { CSRF_COOKIE, SESSION_COOKIE } from '@contest/shared';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { IssuedSession } from './sessions.ts';

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
