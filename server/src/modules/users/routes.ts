import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  idParam,
  resetPasswordBody,
  userInfoUpdateBody,
  userListQuery,
  userOrgBody,
  userRolesBody,
  userStatusBody,
} from '@contest/shared';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { ok, page } from '../../http/reply.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const LIST = perm(ADMIN_MENU_CODES.user);
const EDIT = perm(ACTION_CODES.userEdit);

export function userRoutes(app: App) {
  // Anonymous callers get `data: null`, not a 401: every public page asks who is logged in.
  app.get('/api/team/userinfo/', { config: { rule: PUBLIC }, schema: { tags: ['userinfo'] } }, async (req) =>
    ok(await service.currentUser(req.ctx)),
  );

  app.put('/api/team/userinfo/', { config: { rule: USER }, schema: { tags: ['userinfo'], body: userInfoUpdateBody } }, async (req) =>
    ok(await service.updateOwnProfile(userCtx(req), req.body), '个人信息已保存'),
  );

  app.get('/api/team/userinfo/permission', { config: { rule: PUBLIC }, schema: { tags: ['userinfo'] } }, async (req) =>
    ok([...(req.ctx.actor?.permissions ?? [])].sort()),
  );

  app.get('/api/team/userinfo/list', { config: { rule: LIST }, schema: { tags: ['userinfo'], querystring: userListQuery } }, async (req) => {
    const { list, total } = await service.listUsers(req.ctx, req.query);
    return page(list, total, req.query);
  });

  app.get('/api/team/userinfo/:id', { config: { rule: LIST }, schema: { tags: ['userinfo'], params: idParam } }, async (req) =>
    ok(await service.getUser(req.ctx, req.params.id)),
  );

  app.put('/api/system/user/:id/status', { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, body: userStatusBody } }, async (req) => {
    await service.setStatus(userCtx(req), req.params.id, req.body.status);
    return ok(null, req.body.status ? '账号已启用' : '账号已停用');
  });

  app.put('/api/system/user/:id/password', { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, body: resetPasswordBody } }, async (req) => {
    await service.resetPassword(req.ctx, req.params.id, req.body.password);
    return ok(null, '密码已重置，该用户需重新登录');
  });

  app.put('/api/system/user/:id/roles', { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, body: userRolesBody } }, async (req) => {
    await service.setRoles(userCtx(req), req.params.id, req.body.roleIds);
    return ok(null, '角色已保存');
  });

  app.put('/api/system/user/:id/org', { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, body: userOrgBody } }, async (req) => {
    await service.setOrganisation(req.ctx, req.params.id, req.body.orgId);
    return ok(null, '所属组织已保存');
  });
}
