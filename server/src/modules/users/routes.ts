import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  createUserBody,
  emailVerifyBody,
  passwordForgotBody,
  passwordResetBody,
  idParam,
  registeredSchema,
  resetPasswordBody,
  userInfoUpdateBody,
  userListQuery,
  userOrgBody,
  userRolesBody,
  userStatusBody,
  pageOf,
  phoneCodeBody,
  phoneVerifyBody,
  setPasswordBody,
  SMS_CODE_SENT,
  smsResetBody,
  userInfoSchema,
  userListItemSchema,
} from '@contest/shared';
import { z } from 'zod';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { noDataReply, ok, page, replies } from '../../http/reply.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';
import { publicOrigin, publicUrlMissing } from '../../http/origin.ts';

const LIST = perm(ADMIN_MENU_CODES.user);
const EDIT = perm(ACTION_CODES.userEdit);

/** Where links sent by email point: PUBLIC_URL (or, outside production, the request's own origin). */
function linkOrigin(req: Parameters<typeof userCtx>[0]) {
  const origin = publicOrigin(req.ctx.config, req);
  if (!origin) throw publicUrlMissing('发送邮件链接');
  return origin;
}

export function userRoutes(app: App) {
  // ---- Links sent by email (issue 35): proving an address, resetting a forgotten password ------------------------
  app.post(
    '/api/account/email/verification',
    { config: { rule: USER }, schema: { tags: ['userinfo'], response: replies(z.object({ email: z.string() })) } },
    async (req) => ok(await service.sendEmailVerification(userCtx(req), linkOrigin(req)), '验证邮件已发送，请到邮箱中点击链接完成验证'),
  );
  app.post(
    '/api/account/email/verify',
    { config: { rule: PUBLIC }, schema: { tags: ['userinfo'], body: emailVerifyBody, response: replies(z.object({ email: z.string() })) } },
    async (req) => ok(await service.verifyEmail(req.ctx, req.body.token), '邮箱验证成功'),
  );
  app.post(
    '/api/account/password/forgot',
    { config: { rule: PUBLIC }, schema: { tags: ['userinfo'], body: passwordForgotBody, response: noDataReply } },
    async (req) => ok(null, (await service.forgotPassword(req.ctx, req.body.email, linkOrigin(req))).message),
  );
  app.post(
    '/api/account/password/reset',
    { config: { rule: PUBLIC }, schema: { tags: ['userinfo'], body: passwordResetBody, response: noDataReply } },
    async (req) => {
      await service.resetForgottenPassword(req.ctx, req.body.token, req.body.password);
      return ok(null, '密码已重置，所有设备上的登录均已退出，请用新密码登录');
    },
  );

  // ---- Codes sent by SMS (issue 35): 忘记密码 by code, proving the account's phone, a first password ---------------
  app.post(
    '/api/account/password/reset/sms',
    { config: { rule: PUBLIC }, schema: { tags: ['userinfo'], body: smsResetBody, response: noDataReply } },
    async (req) => {
      await service.resetPasswordByCode(req.ctx, req.body.phone, req.body.code, req.body.password);
      return ok(null, '密码已重置，所有设备上的登录均已退出，请用新密码登录');
    },
  );
  app.post('/api/account/phone/code', { config: { rule: USER }, schema: { tags: ['userinfo'], body: phoneCodeBody, response: noDataReply } }, async (req) => {
    await service.sendVerifyCode(userCtx(req), req.body.phone, req.body.altcha);
    return ok(null, SMS_CODE_SENT);
  });
  app.post(
    '/api/account/phone/verify',
    { config: { rule: USER }, schema: { tags: ['userinfo'], body: phoneVerifyBody, response: replies(z.object({ phone: z.string() })) } },
    async (req) => ok(await service.verifyPhone(userCtx(req), req.body.phone, req.body.code), '手机号验证成功'),
  );
  app.post(
    '/api/account/password/set',
    { config: { rule: USER }, schema: { tags: ['userinfo'], body: setPasswordBody, response: noDataReply } },
    async (req) => {
      await service.setFirstPassword(userCtx(req), req.body.password);
      return ok(null, '密码已设置，以后也可以用用户名和密码登录');
    },
  );

  app.delete('/api/account/wechat', { config: { rule: USER }, schema: { tags: ['userinfo'], response: noDataReply } }, async (req) => {
    await service.unbindWechat(userCtx(req));
    return ok(null, '已解绑微信');
  });

  // Anonymous callers get `data: null`, not a 401: every public page asks who is logged in.
  app.get('/api/team/userinfo/', { config: { rule: PUBLIC }, schema: { tags: ['userinfo'], response: replies(userInfoSchema.nullable()) } }, async (req) =>
    ok(await service.currentUser(req.ctx)),
  );

  app.put(
    '/api/team/userinfo/',
    { config: { rule: USER }, schema: { tags: ['userinfo'], body: userInfoUpdateBody, response: replies(userInfoSchema) } },
    async (req) => ok(await service.updateOwnProfile(userCtx(req), req.body), '个人信息已保存'),
  );

  app.get('/api/team/userinfo/permission', { config: { rule: PUBLIC }, schema: { tags: ['userinfo'], response: replies(z.array(z.string())) } }, async (req) =>
    ok([...(req.ctx.actor?.permissions ?? [])].sort()),
  );

  app.get(
    '/api/team/userinfo/list',
    { config: { rule: LIST }, schema: { tags: ['userinfo'], querystring: userListQuery, response: replies(pageOf(userListItemSchema)) } },
    async (req) => {
      const { list, total } = await service.listUsers(req.ctx, req.query);
      return page(list, total, req.query);
    },
  );

  app.get(
    '/api/team/userinfo/:id',
    { config: { rule: LIST }, schema: { tags: ['userinfo'], params: idParam, response: replies(userInfoSchema) } },
    async (req) => ok(await service.getUser(req.ctx, req.params.id)),
  );

  app.post(
    '/api/system/user',
    { config: { rule: EDIT }, schema: { tags: ['system'], body: createUserBody, response: replies(registeredSchema) } },
    async (req) => ok(await service.createUser(userCtx(req), req.body), '用户已创建'),
  );

  app.put(
    '/api/system/user/:id/status',
    { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, body: userStatusBody, response: noDataReply } },
    async (req) => {
      await service.setStatus(userCtx(req), req.params.id, req.body.status);
      return ok(null, req.body.status ? '账号已启用' : '账号已停用');
    },
  );

  app.put(
    '/api/system/user/:id/password',
    { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, body: resetPasswordBody, response: noDataReply } },
    async (req) => {
      await service.resetPassword(req.ctx, req.params.id, req.body.password);
      return ok(null, '密码已重置，该用户需重新登录');
    },
  );

  app.put(
    '/api/system/user/:id/roles',
    { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, body: userRolesBody, response: noDataReply } },
    async (req) => {
      await service.setRoles(userCtx(req), req.params.id, req.body.roleIds);
      return ok(null, '角色已保存');
    },
  );

  app.put(
    '/api/system/user/:id/org',
    { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, body: userOrgBody, response: noDataReply } },
    async (req) => {
      await service.setOrganisation(req.ctx, req.params.id, req.body.orgId);
      return ok(null, '所属组织已保存');
    },
  );
}
