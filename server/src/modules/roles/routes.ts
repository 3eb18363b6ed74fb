import { ACTION_CODES, ADMIN_MENU_CODES, createdIdSchema, idParam, roleBody, roleRefSchema, roleSchema, roleUpdateBody } from '@contest/shared';
import { z } from 'zod';
import { perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { noDataReply, ok, replies } from '../../http/reply.ts';
import * as service from './service.ts';

const LIST = perm(ADMIN_MENU_CODES.role);
const EDIT = perm(ACTION_CODES.roleEdit);

export function roleRoutes(app: App) {
  app.get('/api/system/role/list', { config: { rule: LIST }, schema: { tags: ['system'], response: replies(z.array(roleSchema)) } }, async (req) =>
    ok(await service.listRoles(req.ctx)),
  );
  // The user page needs role names and ids to assign them.
  app.get(
    '/api/system/role/options',
    { config: { rule: perm(ADMIN_MENU_CODES.user) }, schema: { tags: ['system'], response: replies(z.array(roleRefSchema)) } },
    async (req) => ok((await service.listRoles(req.ctx)).map(({ id, code, name }) => ({ id, code, name }))),
  );
  app.post('/api/system/role', { config: { rule: EDIT }, schema: { tags: ['system'], body: roleBody, response: replies(createdIdSchema) } }, async (req) =>
    ok(await service.createRole(req.ctx, req.body), '角色已创建'),
  );
  app.put(
    '/api/system/role/:id',
    { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, body: roleUpdateBody, response: noDataReply } },
    async (req) => {
      await service.updateRole(req.ctx, req.params.id, req.body);
      return ok(null, '角色已保存');
    },
  );
  app.delete('/api/system/role/:id', { config: { rule: EDIT }, schema: { tags: ['system'], params: idParam, response: noDataReply } }, async (req) => {
    await service.deleteRole(req.ctx, req.params.id);
    return ok(null, '角色已删除');
  });
}
