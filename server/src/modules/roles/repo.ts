import { PLATFORM_PERMISSION, USER_STATUS, type Role } from '@contest/shared';
import type { OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';

export async function listRoles(db: Db): Promise<Role[]> {
  const roles = await db
    .selectFrom('roles')
    .select((eb) => [
      'roles.id',
      'roles.code',
      'roles.name',
      'roles.description',
      'roles.builtin',
      eb.selectFrom('userRoles').select(eb.fn.countAll<number>().as('n')).whereRef('userRoles.roleId', '=', 'roles.id').as('userCount'),
    ])
    .orderBy('roles.id')
    .execute();
  const perms = await db.selectFrom('rolePermissions').select(['roleId', 'code']).orderBy('code').execute();
  return roles.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    description: r.description,
    builtin: r.builtin === 1,
    userCount: Number(r.userCount ?? 0),
    permissions: perms.filter((p) => p.roleId === r.id).map((p) => p.code),
  }));
}

export async function findRole(db: Db, id: number) {
  return db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function rolePermissions(db: Db, roleId: number) {
  const rows = await db.selectFrom('rolePermissions').select('code').where('roleId', '=', roleId).orderBy('code').execute();
  return rows.map((r) => r.code);
}

export async function insertRole(db: Db, role: { code: string; name: string; description: string | null; builtin: number }) {
  const { id } = await db.insertInto('roles').values(role).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateRole(db: Db, id: number, values: { name: string; description: string | null }) {
  await db.updateTable('roles').set(values).where('id', '=', id).execute();
}

export async function setRolePermissions(db: Db, roleId: number, codes: string[]) {
  await db.deleteFrom('rolePermissions').where('roleId', '=', roleId).execute();
  if (codes.length > 0) {
    await db
      .insertInto('rolePermissions')
      .values(codes.map((code) => ({ roleId, code })))
      .execute();
  }
}

export async function deleteRole(db: Db, id: number) {
  await db.deleteFrom('roles').where('id', '=', id).execute();
}

/** Every role (the platform's scope), or the distinct roles an organisation's users hold (none without one). */
export async function countRoles(db: Db, scope: OrgScope) {
  if (!scope.all) {
    const { orgId } = scope;
    if (orgId === null) return 0;
    const held = await db
      .selectFrom('userRoles')
      .innerJoin('users', 'users.id', 'userRoles.userId')
      .select((eb) => eb.fn.count<number>('userRoles.roleId').distinct().as('n'))
      .where('users.orgId', '=', orgId)
      .executeTakeFirstOrThrow();
    return Number(held.n);
  }
  const row = await db
    .selectFrom('roles')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The active users whose roles hold `code`, narrowed by the caller. */
const activeHolders = (db: Db, code: string) =>
  db
    .selectFrom('users as u')
    .innerJoin('userRoles as ur', 'ur.userId', 'u.id')
    .innerJoin('rolePermissions as rp', 'rp.roleId', 'ur.roleId')
    .select('u.id')
    .distinct()
    .where('u.status', '=', USER_STATUS.active)
    .where('rp.code', '=', code);

/** The active users of an organisation whose roles hold `code`: who a message about work waiting for that code goes to. */
export const holdersOf = async (db: Db, code: string, orgId: number): Promise<number[]> =>
  (await activeHolders(db, code).where('u.orgId', '=', orgId).execute()).map((r) => r.id);

/**
 * The active users who may act with `code` on the organisation's objects: its own staff holding the code, and the
 * platform's (holders of the competition audit, who act for every organisation) holding it.
 */
export async function holdersActingFor(db: Db, code: string, orgId: number): Promise<number[]> {
  const platform = db
    .selectFrom('userRoles as pr')
    .innerJoin('rolePermissions as pp', 'pp.roleId', 'pr.roleId')
    .select('pr.userId')
    .where('pp.code', '=', PLATFORM_PERMISSION);
  const rows = await activeHolders(db, code)
    .where((eb) => eb.or([eb('u.orgId', '=', orgId), eb('u.id', 'in', platform)]))
    .execute();
  return rows.map((r) => r.id);
}
