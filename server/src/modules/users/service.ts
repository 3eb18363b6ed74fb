import { ROLE_CODES, normalPhone, usernameKey, type CreateUserBody, type RegisterBody, type UserInfoUpdateBody, type UserListQuery } from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import { assertOwnImage } from '../files/index.ts';
import { hashPassword } from '../../crypto/passwords.ts';
import { tellPasswordChanged } from './account-notices.ts';
import { profileSchool } from '../schools/index.ts';
import * as repo from './repo.ts';

export { forgotPassword, resetForgottenPassword, sendEmailVerification, verifyEmail } from './account-links.ts';
export { resetPasswordByCode, sendResetCode, sendVerifyCode, setFirstPassword, verifyPhone } from './phone-codes.ts';
export { unbindWechat } from './wechat-accounts.ts';

export async function currentUser(ctx: Ctx) {
  return ctx.actor ? ((await repo.findUserInfo(ctx.db, ctx.actor.userId)) ?? null) : null;
}

export async function updateOwnProfile(ctx: AuthedCtx, body: UserInfoUpdateBody) {
  const userId = ctx.actor.userId;
  await assertOwnImage(ctx, 'faceImg', body.faceImg);
  if (body.userName !== undefined) {
    const me = await getUser(ctx, userId);
    if (me.realNameVerified && body.userName !== me.userName)
      throw badRequest('已完成实名认证，姓名不能修改；如需更改请联系平台客服', { userName: '已完成实名认证，姓名不能修改' });
  }
  const { atSchool, schoolId, organization, ...rest } = body;
  // A school picked from the list is named by it; one written in is linked to the record of the same name, if any.
  const school = schoolId !== undefined || organization !== undefined ? await profileSchool(ctx.db, schoolId, organization) : {};
  await repo.updateUser(ctx.db, userId, {
    ...rest,
    ...school,
    ...(atSchool === undefined ? {} : { atSchool: atSchool === null ? null : atSchool ? 1 : 0 }),
    updatedAt: ctx.clock.now().toISOString(),
  });
  // A new address is not proved by the old one's link.
  if (body.email !== undefined) await repo.dropStaleVerification(ctx.db, userId);
  // Nor is a new phone proved by the old one's code: signing in and resetting by SMS go to a proved phone only.
  if (body.phone !== undefined) await repo.dropStalePhone(ctx.db, userId, body.phone === null ? null : normalPhone(body.phone));
  return getUser(ctx, userId);
}

export async function getUser(ctx: Ctx, id: number) {
  const user = await repo.findUserInfo(ctx.db, id);
  if (!user) throw notFound('用户不存在');
  return user;
}

export const listUsers = (ctx: Ctx, q: UserListQuery) => repo.listUsers(ctx.db, q);

async function existing(ctx: Ctx, id: number) {
  const user = await repo.findUserBrief(ctx.db, id);
  if (!user) throw notFound('用户不存在');
  return user;
}

function assertNotSelf(ctx: AuthedCtx, id: number, message: string) {
  if (ctx.actor.userId === id) throw badRequest(message);
}

export async function setStatus(ctx: AuthedCtx, id: number, status: 0 | 1) {
  assertNotSelf(ctx, id, '不能停用自己的账号');
  const before = await existing(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, id, { status, updatedAt: ctx.clock.now().toISOString() });
    // A disabled account is signed out at once, everywhere.
    if (status === 0) await repo.deleteUserSessions(trx, id);
    await writeAudit(ctx, { action: status ? 'user.enable' : 'user.disable', entity: 'user', entityId: id, before, after: { ...before, status } }, trx);
  });
}

export async function resetPassword(ctx: Ctx, id: number, password: string) {
  await existing(ctx, id);
  const hash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.setPasswordHash(trx, id, hash, ctx.clock.now().toISOString());
    await repo.deleteUserSessions(trx, id);
    await writeAudit(ctx, { action: 'user.resetPassword', entity: 'user', entityId: id }, trx);
  });
  await tellPasswordChanged(ctx, id, '由平台管理员重置');
}

export async function setRoles(ctx: AuthedCtx, id: number, roleIds: number[]) {
  const before = await existing(ctx, id);
  const unique = [...new Set(roleIds)];
  if (unique.length > 0) {
    const found = await repo.rolesByIds(ctx.db, unique);
    if (found.length !== unique.length) throw badRequest('所选角色不存在', { roleIds: '所选角色不存在' });
  }
  const beforeRoles = ((await repo.userRoles(ctx.db, [id])).get(id) ?? []).map((r) => r.id);
  if (ctx.actor.userId === id) {
    // An administrator cannot lock themselves out by removing their own admin role.
    const adminRole = await repo.roleByCode(ctx.db, 'admin');
    if (adminRole && beforeRoles.includes(adminRole.id) && !unique.includes(adminRole.id)) {
      throw badRequest('不能移除自己的平台管理员角色');
    }
  }
  await ctx.db.transaction().execute(async (trx) => {
    await repo.setUserRoles(trx, id, unique);
    await writeAudit(
      ctx,
      { action: 'user.setRoles', entity: 'user', entityId: id, before: { ...before, roleIds: beforeRoles }, after: { ...before, roleIds: unique } },
      trx,
    );
  });
}

/**
 * 新增用户: an account made by the administrator, as sign-up makes one, with its real name, organisation and roles
 * (the participant's when none is chosen). What it names is checked first, so nothing is made half.
 */
export async function createUser(ctx: AuthedCtx, body: CreateUserBody) {
  const { orgId, roleIds, ...account } = body;
  if (orgId && !(await repo.organisationExists(ctx.db, orgId))) throw badRequest('所选组织不存在', { orgId: '所选组织不存在' });
  const roles = [...new Set(roleIds ?? [])];
  if (roles.length && (await repo.rolesByIds(ctx.db, roles)).length !== roles.length) throw badRequest('所选角色不存在', { roleIds: '所选角色不存在' });
  const { id, username } = await createAccount(ctx, account, roles.length ? [] : [ROLE_CODES.participant]);
  await ctx.db.transaction().execute(async (trx) => {
    if (roles.length) await repo.setUserRoles(trx, id, roles);
    if (orgId) await repo.updateUser(trx, id, { orgId, updatedAt: ctx.clock.now().toISOString() });
    await writeAudit(
      ctx,
      { action: 'user.create', entity: 'user', entityId: id, after: { username, userName: account.userName ?? null, orgId: orgId ?? null, roleIds: roles } },
      trx,
    );
  });
  return { id, username };
}

export async function setOrganisation(ctx: Ctx, id: number, orgId: number | null) {
  const before = await existing(ctx, id);
  if (orgId !== null) {
    if (!(await repo.organisationExists(ctx.db, orgId))) throw badRequest('所选组织不存在', { orgId: '所选组织不存在' });
  }
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateUser(trx, id, { orgId, updatedAt: ctx.clock.now().toISOString() });
    await writeAudit(ctx, { action: 'user.setOrganisation', entity: 'user', entityId: id, before, after: { ...before, orgId } }, trx);
  });
}

export const USERNAME_TAKEN = '用户名已被注册';
export const USERNAME_LOOKALIKE = '该用户名与已有用户名过于相似，请换一个';

/**
 * A new account with the roles of `roleCodes`, its name normalised; a name taken, or looking like one that is, is
 * refused in `fields.username`. Sign-up and the administrator's 新增用户 both make accounts this way.
 */
export async function createAccount(ctx: Ctx, body: RegisterBody & { userName?: string | null }, roleCodes: string[]) {
  const now = ctx.clock.now().toISOString();
  const username = body.username.normalize('NFKC').trim();
  const passwordHash = await hashPassword(body.password);
  try {
    const id = await ctx.db.transaction().execute((trx) =>
      repo.insertUser(
        trx,
        {
          username,
          usernameKey: usernameKey(username),
          passwordHash,
          phone: body.phone ?? null,
          email: body.email ?? null,
          ...(body.userName && { userName: body.userName }),
        },
        roleCodes,
        now,
      ),
    );
    return { id, username };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Lost to the name's key or to its skeleton (a look-alike): both unique in the database, so a race cannot pass.
    const message = (await repo.usernameClash(ctx.db, username, usernameKey(username))) === 'lookalike' ? USERNAME_LOOKALIKE : USERNAME_TAKEN;
    throw new AppError(409, message, { username: message });
  }
}
