import {
  RETURN_TO_MAX_LENGTH,
  SESSION_COOKIE,
  authConfigSchema,
  authSessionSchema,
  changePasswordBody,
  loginBody,
  registerBody,
  registeredSchema,
  revokedSchema,
  safeReturnTo,
  tokenReplySchema,
  userInfoSchema,
  altchaChallengeSchema,
  SMS_CODE_ANSWER,
  SMS_CODE_SENT,
  smsCodeBody,
  smsLoginBody,
  smsLoginReplySchema,
} from '@contest/shared';

import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import { publicOrigin, publicUrlMissing } from '../../http/origin.ts';
import { PUBLIC, USER } from '../../http/access.ts';
import type { App, Ctx, Deps } from '../../http/app-types.ts';
import { noDataReply, ok, redirectReply, replies } from '../../http/reply.ts';
import { SSO_COOKIE, clearSessionCookies, clearSsoCookie, setSessionCookies, setSsoCookie } from '../../http/cookies.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

export function authRoutes(app: App, deps: Deps) {
  app.get('/api/auth/config', { config: { rule: PUBLIC }, schema: { tags: ['auth'], response: replies(authConfigSchema) } }, async () =>
    ok({
      oidcEnabled: Boolean(deps.config.oidc),
      oidcName: deps.config.oidc?.name ?? '',
      mailEnabled: Boolean(deps.config.mail),
      smsEnabled: await service.smsEnabled(deps),
      wechatEnabled: service.wechatEnabled(deps),
      accountSecurityUrl: deps.config.accountSecurityUrl,
    }),
  );

  app.post(
    '/api/auth/register',
    { config: { rule: PUBLIC }, schema: { tags: ['auth'], body: registerBody, response: replies(registeredSchema) } },
    async (req) => {
      await service.throttleRegistration(req.ctx);
      return ok(await service.register(req.ctx, req.body), '注册成功');
    },
  );

  app.post(
    '/api/auth/login',
    { config: { rule: PUBLIC }, schema: { tags: ['auth'], body: loginBody, response: replies(userInfoSchema) } },
    async (req, reply) => {
      const { session, user } = await service.login(req.ctx, req.body, req.cookies[SESSION_COOKIE]);
      setSessionCookies(reply, deps.config, session);
      return ok(user, '登录成功');
    },
  );

  // ---- Codes sent by SMS (issue 35) ------------------------------------------------------------------------------
  app.get('/api/auth/altcha', { config: { rule: PUBLIC }, schema: { tags: ['auth'], response: replies(altchaChallengeSchema) } }, async (req, reply) => {
    // Each challenge is good once: never from a cache.
    reply.header('cache-control', 'no-store');
    await service.throttleIp(req.ctx, 'altcha', 120, (m) => `请求过于频繁，请${m}分钟后再试`);
    return ok(await service.altcha(req.ctx));
  });

  app.post('/api/auth/sms/code', { config: { rule: PUBLIC }, schema: { tags: ['auth'], body: smsCodeBody, response: noDataReply } }, async (req) => {
    await service.sendSmsCode(req.ctx, req.body);
    return ok(null, req.body.purpose === 'login' ? SMS_CODE_SENT : SMS_CODE_ANSWER);
  });

  app.post(
    '/api/auth/sms/login',
    { config: { rule: PUBLIC }, schema: { tags: ['auth'], body: smsLoginBody, response: replies(smsLoginReplySchema) } },
    async (req, reply) => {
      const { session, user, created } = await service.loginByPhone(req.ctx, req.body, req.cookies[SESSION_COOKIE]);
      setSessionCookies(reply, deps.config, session);
      return ok({ user, created }, created ? '已用该手机号注册并登录' : '登录成功');
    },
  );

  app.post(
    '/api/auth/token',
    { config: { rule: PUBLIC }, schema: { tags: ['auth'], body: loginBody.nullish(), response: replies(tokenReplySchema) } },
    async (req) => ok(await service.issueToken(req.ctx, req.body ?? undefined)),
  );

  app.post('/api/auth/logout', { config: { rule: PUBLIC }, schema: { tags: ['auth'], response: noDataReply } }, async (req, reply) => {
    await service.logout(req.ctx);
    clearSessionCookies(reply, deps.config);
    return ok(null, '已退出登录');
  });

  app.put('/api/auth/password', { config: { rule: USER }, schema: { tags: ['auth'], body: changePasswordBody, response: noDataReply } }, async (req) => {
    await service.changePassword(userCtx(req), req.body);
    return ok(null, '密码已修改，其他设备上的登录已退出');
  });

  app.get('/api/auth/sessions', { config: { rule: USER }, schema: { tags: ['auth'], response: replies(z.array(authSessionSchema)) } }, async (req) =>
    ok(await service.listSessions(userCtx(req))),
  );

  app.post('/api/auth/sessions/revokeOthers', { config: { rule: USER }, schema: { tags: ['auth'], response: replies(revokedSchema) } }, async (req) =>
    ok(await service.revokeOtherSessions(userCtx(req)), '其他设备上的登录已退出'),
  );
}

const WECHAT_COOKIE = 'contest_wx';
const WECHAT_PATH = '/api/auth/wechat';

/** 微信扫码登录 (issue 35): start a sign-in or a binding, and WeChat's callback. */
export function wechatRoutes(app: App, deps: Deps) {
  const origin = (req: FastifyRequest) => {
    const o = publicOrigin(deps.config, req);
    if (!o) throw publicUrlMissing('使用微信登录');
    return o;
  };
  const start = (purpose: 'login' | 'bind') => async (req: FastifyRequest<{ Querystring: { returnTo?: string } }>, reply: FastifyReply) => {
    await service.throttleIp(req.ctx, 'wechat:start', deps.config.publicWrites.ssoPerIp, (m) => `微信登录请求过于频繁，请${m}分钟后再试`);
    const { url, cookie, maxAgeMs } = await service.startWechat(req.ctx, purpose, req.query.returnTo ?? '/', origin(req));
    reply.setCookie(WECHAT_COOKIE, cookie, {
      path: WECHAT_PATH,
      sameSite: 'lax',
      secure: deps.config.cookieSecure,
      httpOnly: true,
      maxAge: Math.floor(maxAgeMs / 1000),
    });
    return reply.redirect(url);
  };
  const query = z.object({ returnTo: z.string().max(RETURN_TO_MAX_LENGTH).optional() });
  app.get('/api/auth/wechat/login', { config: { rule: PUBLIC }, schema: { tags: ['auth'], querystring: query, response: redirectReply } }, start('login'));
  app.get('/api/auth/wechat/bind', { config: { rule: USER }, schema: { tags: ['auth'], querystring: query, response: redirectReply } }, start('bind'));
  app.get(
    '/api/auth/wechat/callback',
    {
      config: { rule: PUBLIC },
      schema: {
        tags: ['auth'],
        querystring: z.object({ code: z.string().max(200).optional(), state: z.string().max(200).optional() }),
        response: redirectReply,
      },
    },
    async (req, reply) => {
      reply.clearCookie(WECHAT_COOKIE, { path: WECHAT_PATH, sameSite: 'lax', secure: deps.config.cookieSecure, httpOnly: true });
      try {
        if (!req.query.code || !req.query.state) throw new AppError(400, '微信登录未完成：您取消了授权，请重新扫码');
        const done = await service.finishWechat(
          req.ctx,
          { code: req.query.code, state: req.query.state },
          req.cookies[WECHAT_COOKIE],
          origin(req),
          req.cookies[SESSION_COOKIE],
        );
        if (done.session) setSessionCookies(reply, deps.config, done.session);
        return reply.redirect(done.returnTo);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // A binding's failure shows on the account page; a sign-in's on the login page.
        const back = req.ctx.actor ? '/userCenter/accountSet?wechatError=' : '/login?ssoError=';
        return reply.redirect(`${back}${encodeURIComponent(err.message)}`);
      }
    },
  );
}

export function oidcRoutes(app: App, deps: Deps) {
  // Told to the provider and compared by it at the callback: PUBLIC_URL's, never one a request's Host header chose.
  const redirectUri = (req: FastifyRequest) => {
    const origin = publicOrigin(deps.config, req);
    if (!origin) throw publicUrlMissing('使用统一身份认证');
    return `${origin}/api/auth/oidc/callback`;
  };
  const throttle = (ctx: Ctx, step: string) =>
    service.throttleIp(ctx, `sso:${step}`, deps.config.publicWrites.ssoPerIp, (m) => `统一身份认证请求过于频繁，请${m}分钟后再试`);

  app.get(
    '/api/auth/oidc/login',
    {
      config: { rule: PUBLIC },
      schema: { tags: ['auth'], querystring: z.object({ returnTo: z.string().max(RETURN_TO_MAX_LENGTH).optional() }), response: redirectReply },
    },
    async (req, reply) => {
      service.assertSsoEnabled(req.ctx);
      await throttle(req.ctx, 'start');
      const { url, browserSecret, maxAgeMs } = await service.startSso(req.ctx, redirectUri(req), safeReturnTo(req.query.returnTo));
      setSsoCookie(reply, deps.config, browserSecret, maxAgeMs);
      return reply.redirect(url);
    },
  );

  app.get(
    '/api/auth/oidc/callback',
    {
      config: { rule: PUBLIC },
      schema: {
        tags: ['auth'],
        querystring: z.object({ code: z.string().max(2000).optional(), state: z.string().max(200).optional(), error: z.string().max(200).optional() }),
        response: redirectReply,
      },
    },
    async (req, reply) => {
      service.assertSsoEnabled(req.ctx);
      await throttle(req.ctx, 'callback');
      const { code, state } = req.query;
      const browserSecret = req.cookies[SSO_COOKIE];
      try {
        if (!code || !state) throw new AppError(400, '统一身份认证未通过，请重新登录');
        const { session, returnTo } = await service.completeSso(req.ctx, { code, state }, redirectUri(req), browserSecret, req.cookies[SESSION_COOKIE]);
        clearSsoCookie(reply, deps.config);
        setSessionCookies(reply, deps.config, session);
        // Checked again on the way out: a sign-in started before an upgrade was stored under older rules.
        return reply.redirect(safeReturnTo(returnTo));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // This browser's own sign-in is over (its state used, expired or refused); a cookie of another sign-in stays.
        if (state && service.ssoOfBrowser(state, browserSecret)) clearSsoCookie(reply, deps.config);
        // The browser arrived here by redirect: show the reason on the login page rather than bare JSON.
        return reply.redirect(`/login?ssoError=${encodeURIComponent(err.message)}`);
      }
    },
  );
}
