import { ROLE_CODES, type RoleBody, type RoleUpdateBody } from '@contest/shared';
import type { Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as repo from './repo.ts';

export const listRoles = (ctx: Ctx) => repo.listRoles(ctx.db);

async function existing(ctx: Ctx, id: number) {
  const role = await repo.findRole(ctx.db, id);
  if (!role) throw notFound('角色不存在');
  return { ...role, permissions: await repo.rolePermissions(ctx.db, id) };
}

export async function createRole(ctx: Ctx, body: RoleBody) {
  const codes = [...new Set(body.permissions)];
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const id = await repo.insertRole(trx, { code: body.code, name: body.name, description: body.description ?? null, builtin: 0 });
      await repo.setRolePermissions(trx, id, codes);
      await writeAudit(ctx, { action: 'role.create', entity: 'role', entityId: id, after: { ...body, permissions: codes } }, trx);
      return { id };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, '角色编码已存在', { code: '角色编码已存在' });
    throw err;
  }
}

export async function updateRole(ctx: Ctx, id: number, body: RoleUpdateBody) {
  const before = await existing(ctx, id);
  const codes = [...new Set(body.permissions)];
  if (before.code === ROLE_CODES.admin && codes.length < before.permissions.length) {
    throw badRequest('平台管理员角色拥有全部权限，不能移除');
  }
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateRole(trx, id, { name: body.name, description: body.description ?? null });
    await repo.setRolePermissions(trx, id, codes);
    await writeAudit(ctx, { action: 'role.update', entity: 'role', entityId: id, before, after: { ...before, ...body, permissions: codes } }, trx);
  });
}

export async function deleteRole(ctx: Ctx, id: number) {
  const before = await existing(ctx, id);
  if (before.builtin) throw conflict('内置角色不能删除');
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteRole(trx, id);
    await writeAudit(ctx, { action: 'role.delete', entity: 'role', entityId: id, before }, trx);
  });
}
