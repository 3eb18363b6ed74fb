import {
  SESSION_COOKIE,
  changePasswordBody,
  loginBody,
  registerBody,
  type AuthConfig,
} from '@contest/shared';
import { z } from 'zod';
import type { Deps } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { PUBLIC, USER } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { ok } from '../../http/reply.ts';
import { findUserInfo } from '../users/repo.ts';
import { clearSessionCookies, setSessionCookies } from './cookies.ts';
import { OidcClient } from './oidc.ts';
import * as service from './service.ts';

export function authRoutes(app: App, deps: Deps) {
  app.get('/api/auth/config', { config: { rule: PUBLIC }, schema: { tags: ['auth'] } }, async () =>
    ok<AuthConfig>({
      oidcEnabled: Boolean(deps.config.oidc),
      oidcName: deps.config.oidc?.name ?? '',
      accountSecurityUrl: deps.config.accountSecurityUrl,
    }),
  );

  app.post('/api/auth/register', { config: { rule: PUBLIC }, schema: { tags: ['auth'], body: registerBody } }, async (req) =>
    ok(await service.register(req.ctx, req.body), '注册成功'),
  );

  app.post('/api/auth/login', { config: { rule: PUBLIC }, schema: { tags: ['auth'], body: loginBody } }, async (req, reply) => {
    const { session, userId } = await service.login(req.ctx, req.body, req.cookies[SESSION_COOKIE]);
    setSessionCookies(reply, deps.config, session);
    return ok(await findUserInfo(deps.db, userId), '登录成功');
  });

  app.post(
    '/api/auth/token',
    { config: { rule: PUBLIC }, schema: { tags: ['auth'], body: loginBody.nullish() } },
    async (req) => ok(await service.issueToken(req.ctx, req.body ?? undefined)),
  );

  app.post('/api/auth/logout', { config: { rule: PUBLIC }, schema: { tags: ['auth'] } }, async (req, reply) => {
    await service.logout(req.ctx);
    clearSessionCookies(reply, deps.config);
    return ok(null, '已退出登录');
  });

  app.put('/api/auth/password', { config: { rule: USER }, schema: { tags: ['auth'], body: changePasswordBody } }, async (req) => {
    await service.changePassword(req.ctx, req.body);
    return ok(null, '密码已修改，其他设备上的登录已退出');
  });

  app.get('/api/auth/sessions', { config: { rule: USER }, schema: { tags: ['auth'] } }, async (req) =>
    ok(await service.listSessions(req.ctx)),
  );

  app.post('/api/auth/sessions/revokeOthers', { config: { rule: USER }, schema: { tags: ['auth'] } }, async (req) =>
    ok(await service.revokeOtherSessions(req.ctx), '其他设备上的登录已退出'),
  );
}

/** A path on this site to return to after single sign-on; anything else goes home. */
function safeReturnTo(value: unknown): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') && value.length < 500 ? value : '/';
}

export function oidcRoutes(app: App, deps: Deps) {
  const client = deps.config.oidc ? new OidcClient(deps.config.oidc) : undefined;
  const redirectUri = (req: { protocol: string; headers: { host?: string } }) =>
    `${deps.config.publicUrl ?? `${req.protocol}://${req.headers.host}`}/api/auth/oidc/callback`;
  const disabled = () => new AppError(404, '未启用统一身份认证');

  app.get(
    '/api/auth/oidc/login',
    { config: { rule: PUBLIC }, schema: { tags: ['auth'], querystring: z.object({ returnTo: z.string().max(500).optional() }) } },
    async (req, reply) => {
      if (!client) throw disabled();
      return reply.redirect(await client.authorizationUrl(req.ctx, redirectUri(req), safeReturnTo(req.query.returnTo)));
    },
  );

  app.get(
    '/api/auth/oidc/callback',
    {
      config: { rule: PUBLIC },
      schema: { tags: ['auth'], querystring: z.object({ code: z.string().max(2000).optional(), state: z.string().max(200).optional(), error: z.string().max(200).optional() }) },
    },
    async (req, reply) => {
      if (!client) throw disabled();
      const { code, state } = req.query;
      try {
        if (!code || !state) throw new AppError(400, '统一身份认证未通过，请重新登录');
        const { userId, returnTo } = await client.complete(req.ctx, { code, state }, redirectUri(req));
        const { session } = await service.startSession(req.ctx, userId, req.cookies[SESSION_COOKIE]);
        setSessionCookies(reply, deps.config, session);
        return reply.redirect(returnTo);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // The browser arrived here by redirect: show the reason on the login page rather than bare JSON.
        return reply.redirect(`/login?ssoError=${encodeURIComponent(err.message)}`);
      }
    },
  );
}
