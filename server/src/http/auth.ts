import { CSRF_HEADER, SESSION_COOKIE } from '@contest/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isAuthed, requestCtx, type Actor, type AuthedCtx, type Deps } from '../context.ts';
import { describeRule, type AccessRule } from './access.ts';
import { AppError, forbidden, unauthorized } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who holds a presented credential: the actor of its live session, or null (unknown, expired or revoked). */
export type ResolveActor = (deps: Deps, presented: { token: string; bearer: boolean }) => Promise<Actor | null>;

function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header);
  return match?.[1];
}

/** The credential the caller presents: a bearer token (desktop client) or the session cookie (browser). */
function presentedToken(req: FastifyRequest): { token: string; bearer: boolean } | null {
  const bearer = bearerToken(req);
  const token = bearer ?? req.cookies[SESSION_COOKIE];
  if (!token || token.length > 200) return null;
  return { token, bearer: bearer !== undefined };
}

function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * Resolves who is calling (through `resolveActor`, the auth module's sessions), then enforces the route's declared rule
 * and CSRF protection before any body is parsed: a caller without access learns nothing about the route's input.
 */
export function registerAuth(app: FastifyInstance, deps: Deps, resolveActor: ResolveActor) {
  app.decorateRequest('ctx', null as never);
  // A callback hook, not an async one: most requests are anonymous reads, and they are settled without a promise.
  app.addHook('onRequest', (req, _reply, done) => {
    // Read once: Fastify builds `routeOptions` afresh on every access, and this runs on every request.
    const { config } = req.routeOptions;
    const presented = config.foreign ? null : presentedToken(req);
    if (!presented) {
      req.ctx = requestCtx(deps, null, req);
      done(config.foreign ? undefined : check(req, config.rule, null));
      return;
    }
    resolveActor(deps, presented).then(
      (actor) => {
        req.ctx = requestCtx(deps, actor, req);
        done(check(req, config.rule, actor));
      },
      (err: Error) => done(err),
    );
  });
}

/** The refusal owed to this caller on this route (CSRF protection, then the route's rule), or nothing. */
function check(req: FastifyRequest, rule: AccessRule | undefined, actor: Actor | null): Error | undefined {
  if (!SAFE_METHODS.has(req.method)) {
    if (!sameOrigin(req)) return forbidden('请求来源不被允许');
    if (actor?.via === 'cookie' && req.headers[CSRF_HEADER] !== actor.csrfToken) {
      return new AppError(403, '页面已过期，请刷新页面后重试');
    }
  }
  if (!rule || ('access' in rule && rule.access === 'public')) return undefined;
  if (!actor) return unauthorized();
  if ('permission' in rule && !actor.permissions.has(rule.permission)) {
    req.log.info({ rule: describeRule(rule), userId: actor.userId }, 'access denied');
    return forbidden();
  }
  return undefined;
}

/**
 * The context of a USER or permission route, typed with its actor: the access hook has already refused anonymous
 * callers there (401), so services taking an `AuthedCtx` need no `actor!`. On a public route it answers 401 too.
 */
export function userCtx(req: FastifyRequest): AuthedCtx {
  if (!isAuthed(req.ctx)) throw unauthorized();
  return req.ctx;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: import('../context.ts').Ctx;
  }
}
