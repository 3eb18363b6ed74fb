import { sql } from 'kysely';
import { PLATFORM_PERMISSION, normalPhone, type UserInfo, type UserListItem, type UserListQuery } from '@contest/shared';
import { usernameSkeleton } from '@contest/shared/skeleton';
import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import { contains } from '../../db/like.ts';
import { orderColumn, pageWindow, trigramFilter } from '../../db/search.ts';
import type { Updateable } from 'kysely';
import type { UsersTable } from '../../db/schema.ts';

export type NewUser = Pick<UsersTable, 'username' | 'usernameKey' | 'passwordHash' | 'phone' | 'email'> &
  Partial<Pick<UsersTable, 'orgId' | 'oidcIssuer' | 'oidcSubject' | 'userName' | 'verifiedPhone'>>;

/** Every account is created here, with the skeleton of its name that the unique index compares. */
export async function insertUser(db: Db, user: NewUser, roleCodes: string[], now: string): Promise<number> {
  const { id } = await db
    .insertInto('users')
    .values({ ...user, usernameSkeleton: usernameSkeleton(user.username), status: 1, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (roleCodes.length > 0) {
    await db
      .insertInto('userRoles')
      .columns(['userId', 'roleId'])
      .expression((eb) =>
        eb
          .selectFrom('roles')
          .select([eb.val(id).as('userId'), 'id as roleId'])
          .where('code', 'in', roleCodes),
      )
      .execute();
  }
  return id;
}

/** Why `username` cannot be registered: its key is taken, or it looks like a name that is; null when it is free. */
export async function usernameClash(db: Db, username: string, key: string): Promise<'taken' | 'lookalike' | null> {
  const rows = await db
    .selectFrom('users')
    .select('usernameKey')
    .where((eb) => eb.or([eb('usernameKey', '=', key), eb('usernameSkeleton', '=', usernameSkeleton(username))]))
    .limit(2)
    .execute();
  if (rows.some((r) => r.usernameKey === key)) return 'taken';
  return rows.length ? 'lookalike' : null;
}

export async function userRoles(db: Db, userIds: number[]) {
  if (userIds.length === 0) return new Map<number, { id: number; code: string; name: string }[]>();
  const rows = await db
    .selectFrom('userRoles')
    .innerJoin('roles', 'roles.id', 'userRoles.roleId')
    .select(['userRoles.userId', 'roles.id', 'roles.code', 'roles.name'])
    .where('userRoles.userId', 'in', userIds)
    .orderBy('roles.id')
    .execute();
  const byUser = new Map<number, { id: number; code: string; name: string }[]>();
  for (const r of rows) {
    const list = byUser.get(r.userId) ?? [];
    list.push({ id: r.id, code: r.code, name: r.name });
    byUser.set(r.userId, list);
  }
  return byUser;
}

export async function findUserInfo(db: Db, id: number): Promise<UserInfo | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('organisations', 'organisations.id', 'users.orgId')
    .selectAll('users')
    .select('organisations.name as orgName')
    .where('users.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const roles = (await userRoles(db, [id])).get(id) ?? [];
  const wechat = await wechatOf(db, id);
  const platform = await db
    .selectFrom('userRoles')
    .innerJoin('rolePermissions', 'rolePermissions.roleId', 'userRoles.roleId')
    .select('userRoles.userId')
    .where('userRoles.userId', '=', id)
    .where('rolePermissions.code', '=', PLATFORM_PERMISSION)
    .executeTakeFirst();
  return {
    id: row.id,
    userId: row.id,
    username: row.username,
    faceImg: row.faceImg,
    area: row.area,
    userName: row.userName,
    birthday: row.birthday,
    sex: row.sex === 0 || row.sex === 1 ? row.sex : null,
    education: row.education,
    admissionDate: row.admissionDate,
    atSchool: row.atSchool === null ? null : row.atSchool === 1,
    organization: row.organization,
    schoolId: row.schoolId,
    department: row.department,
    speciality: row.speciality,
    grade: row.grade,
    studentIdCard: row.studentIdCard,
    province: row.province,
    city: row.city,
    address: row.address,
    company: row.company,
    position: row.position,
    phone: row.phone,
    email: row.email,
    orgId: row.orgId,
    orgName: row.orgName,
    roles,
    platform: platform !== undefined,
    emailVerified: row.verifiedEmail !== null && row.email !== null && row.verifiedEmail === normalEmail(row.email),
    phoneVerified: row.verifiedPhone !== null && row.phone !== null && row.verifiedPhone === normalPhone(row.phone),
    hasPassword: row.passwordHash !== null,
    realNameVerified: row.verifiedName !== null,
    wechat: wechat ? (wechat.nickname ?? '微信用户') : null,
  };
}

/** An address as verification keeps it: trimmed and lower-cased. */
export const normalEmail = (email: string) => email.trim().toLowerCase();

// ---- Links sent by email -------------------------------------------------------------------------------------------

export type LinkPurpose = 'verify-email' | 'reset-password';

export async function insertToken(db: Db, v: { userId: number; purpose: LinkPurpose; tokenHash: string; email: string; expiresAt: string; now: string }) {
  await db
    .insertInto('accountTokens')
    .values({ userId: v.userId, purpose: v.purpose, tokenHash: v.tokenHash, email: v.email, expiresAt: v.expiresAt, createdAt: v.now })
    .execute();
}

/** Uses a link: marks it used if it is of this purpose, unused and unexpired, in one statement; undefined otherwise. */
export const consumeToken = (db: Db, tokenHash: string, purpose: LinkPurpose, now: string) =>
  db
    .updateTable('accountTokens')
    .set({ usedAt: now })
    .where('tokenHash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .returning(['userId', 'email'])
    .executeTakeFirst();

/** Ends every unused link of a purpose a user was sent (a reset makes the others void). */
export async function voidTokens(db: Db, userId: number, purpose: LinkPurpose, now: string) {
  await db.updateTable('accountTokens').set({ usedAt: now }).where('userId', '=', userId).where('purpose', '=', purpose).where('usedAt', 'is', null).execute();
}

/** The account that verified this address (lower-cased), if one did. */
export const userByVerifiedEmail = (db: Db, email: string) =>
  db.selectFrom('users').select(['id', 'status', 'email']).where('verifiedEmail', '=', email).executeTakeFirst();

/** Forgets a proved address the account no longer has (its email was changed or cleared). */
export async function dropStaleVerification(db: Db, userId: number) {
  await db
    .updateTable('users')
    .set({ verifiedEmail: null })
    .where('id', '=', userId)
    .where('verifiedEmail', 'is not', null)
    .where((eb) => eb.or([eb('email', 'is', null), eb(sql`lower(trim(email))`, '<>', eb.ref('verifiedEmail'))]))
    .execute();
}

/** Records the address the account proved; the unique index refuses one another account proved first. */
export async function setVerifiedEmail(db: Db, userId: number, email: string | null, now: string) {
  await db.updateTable('users').set({ verifiedEmail: email, updatedAt: now }).where('id', '=', userId).execute();
}

export async function updateUser(db: Db, id: number, values: Updateable<UsersTable>) {
  await db.updateTable('users').set(values).where('id', '=', id).execute();
}

/**
 * A page of users, newest first. The count reads `users` alone; the page's ids are read from the nearer end of the
 * list, then only those rows are joined to their organisation. A keyword of three or more characters is looked up in
 * the trigram index (see db/search.ts); shorter ones are compared row by row, with the same LIKE.
 */
export async function listUsers(db: Db, q: UserListQuery): Promise<{ list: UserListItem[]; total: number }> {
  let base = db.selectFrom('users');
  if (q.keyword) {
    const like = contains(q.keyword);
    const indexed = trigramFilter(db, 'users.id', 'users', ['username_key', 'user_name', 'phone', 'email'], q.keyword);
    if (indexed) base = base.where(indexed);
    base = base.where((eb) =>
      eb.or([
        eb('users.usernameKey', 'like', like),
        eb(sql`lower(coalesce(users.user_name, ''))`, 'like', like),
        eb('users.phone', 'like', like),
        eb(sql`lower(coalesce(users.email, ''))`, 'like', like),
      ]),
    );
  }
  if (q.status !== undefined) base = base.where('users.status', '=', q.status);
  if (q.orgId !== undefined) base = base.where('users.orgId', '=', q.orgId);
  if (q.roleId !== undefined) {
    const roleId = q.roleId;
    base = base.where('users.id', 'in', (eb) => eb.selectFrom('userRoles').select('userRoles.userId').where('userRoles.roleId', '=', roleId));
  }
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total);
  const window = pageWindow(total, q.page, q.limit);
  if (!window) return { list: [], total };
  const ids = (
    await base
      .select('users.id')
      .orderBy(orderColumn('users.id', q.keyword, total), window.reverse ? 'asc' : 'desc')
      .limit(window.limit)
      .offset(window.offset)
      .execute()
  ).map((r) => r.id);
  if (!ids.length) return { list: [], total };
  const rows = await db
    .selectFrom('users')
    .leftJoin('organisations', 'organisations.id', 'users.orgId')
    .select([
      'users.id',
      'users.username',
      'users.userName',
      'users.phone',
      'users.email',
      'users.status',
      'users.orgId',
      'organisations.name as orgName',
      'users.createdAt',
      'users.lastLoginAt',
    ])
    .where('users.id', 'in', ids)
    .orderBy('users.id', 'desc')
    .execute();
  const roles = await userRoles(db, ids);
  return { list: rows.map((r) => ({ ...r, roles: roles.get(r.id) ?? [] })), total };
}

export async function setUserRoles(db: Db, userId: number, roleIds: number[]) {
  await db.deleteFrom('userRoles').where('userId', '=', userId).execute();
  if (roleIds.length > 0) {
    await db
      .insertInto('userRoles')
      .values(roleIds.map((roleId) => ({ userId, roleId })))
      .execute();
  }
}

/** Users and enabled accounts of the caller's scope (an account of no organisation: none). */
export async function countUsers(db: Db, scope: OrgScope) {
  const row = await db
    .selectFrom('users')
    .select((eb) => [eb.fn.countAll<number>().as('users'), eb.fn.sum<number>(eb.case().when('status', '=', 1).then(1).else(0).end()).as('activeUsers')])
    .where(inOrgScope('orgId', scope))
    .executeTakeFirstOrThrow();
  return { users: Number(row.users), activeUsers: Number(row.activeUsers ?? 0) };
}

export const findUserBrief = (db: Db, id: number) =>
  db.selectFrom('users').select(['id', 'username', 'status', 'orgId']).where('id', '=', id).executeTakeFirst();

export const rolesByIds = (db: Db, ids: number[]) => db.selectFrom('roles').select(['id', 'code']).where('id', 'in', ids).execute();

export const roleByCode = (db: Db, code: string) => db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirst();

export const organisationExists = async (db: Db, id: number) =>
  Boolean(await db.selectFrom('organisations').select('id').where('id', '=', id).executeTakeFirst());

/** Ends every session of a user (disabled, or given a new password by an administrator). */
export async function deleteUserSessions(db: Db, userId: number) {
  await db.deleteFrom('sessions').where('userId', '=', userId).execute();
}

export async function setPasswordHash(db: Db, userId: number, passwordHash: string, now: string) {
  await db.updateTable('users').set({ passwordHash, updatedAt: now }).where('id', '=', userId).execute();
}

// ---- Codes sent by SMS, and verified phones ---------------------------------------------------------------------

/** The account that verified this phone (normalised by `normalPhone`), if one did. */
export const userByVerifiedPhone = (db: Db, phone: string) =>
  db.selectFrom('users').select(['id', 'status']).where('verifiedPhone', '=', phone).executeTakeFirst();

/** Records the phone the account proved; the unique index refuses one another account proved first. */
export async function setVerifiedPhone(db: Db, userId: number, phone: string | null, now: string) {
  await db.updateTable('users').set({ verifiedPhone: phone, updatedAt: now }).where('id', '=', userId).execute();
}

/** Forgets a proved phone the account no longer has (its phone was changed or cleared in the profile). */
export async function dropStalePhone(db: Db, userId: number, phone: string | null) {
  await db
    .updateTable('users')
    .set({ verifiedPhone: null })
    .where('id', '=', userId)
    .where('verifiedPhone', 'is not', null)
    .$if(phone !== null, (q) => q.where('verifiedPhone', '<>', phone!))
    .execute();
}

export async function insertPhoneCode(
  db: Db,
  v: { phone: string; purpose: string; userId: number | null; codeHash: string; expiresAt: string; createdAt: string },
) {
  const row = await db.insertInto('phoneCodes').values(v).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Ends the unused codes of a phone and purpose (a new one was sent). */
export async function voidPhoneCodes(db: Db, phone: string, purpose: string, now: string) {
  await db.updateTable('phoneCodes').set({ usedAt: now }).where('phone', '=', phone).where('purpose', '=', purpose).where('usedAt', 'is', null).execute();
}

/** The newest unused, unexpired code of a phone and purpose (for `verify`, the one the same account asked for). */
export const livePhoneCode = (db: Db, phone: string, purpose: string, now: string, userId: number | null) =>
  db
    .selectFrom('phoneCodes')
    .select(['id', 'codeHash', 'tries'])
    .where('phone', '=', phone)
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .$if(userId !== null, (q) => q.where('userId', '=', userId))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/** Counts one try of a code if it has tries left, in one statement; the tries spent, or undefined when none were left. */
export async function spendCodeTry(db: Db, id: number, maxTries: number) {
  const row = await db
    .updateTable('phoneCodes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .where('tries', '<', maxTries)
    .returning('tries')
    .executeTakeFirst();
  return row?.tries;
}

/** Uses a code: only one caller marks it used. */
export async function usePhoneCode(db: Db, id: number, now: string) {
  const res = await db.updateTable('phoneCodes').set({ usedAt: now }).where('id', '=', id).where('usedAt', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Sets a password on an account that has none; false when it has one. */
export async function setPasswordIfNone(db: Db, userId: number, passwordHash: string, now: string) {
  const res = await db.updateTable('users').set({ passwordHash, updatedAt: now }).where('id', '=', userId).where('passwordHash', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

// ---- WeChat identities ---------------------------------------------------------------------------------------------

export const userByUnionid = (db: Db, unionid: string) =>
  db.selectFrom('userWechat as w').innerJoin('users as u', 'u.id', 'w.userId').select(['u.id', 'u.status']).where('w.unionid', '=', unionid).executeTakeFirst();

export const wechatOf = (db: Db, userId: number) =>
  db.selectFrom('userWechat').select(['nickname', 'createdAt']).where('userId', '=', userId).executeTakeFirst();

/** Binds a WeChat identity; the unique keys refuse a second WeChat for the account or the WeChat for a second account. */
export async function bindWechat(db: Db, v: { userId: number; unionid: string; openid: string; nickname: string | null; now: string }) {
  await db.insertInto('userWechat').values({ userId: v.userId, unionid: v.unionid, openid: v.openid, nickname: v.nickname, createdAt: v.now }).execute();
}

export async function unbindWechat(db: Db, userId: number) {
  const res = await db.deleteFrom('userWechat').where('userId', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Whether an account can sign in without WeChat: a password, a proved phone, or single sign-on. */
export const otherSignIn = async (db: Db, userId: number) => {
  const u = await db.selectFrom('users').select(['passwordHash', 'verifiedPhone', 'oidcSubject']).where('id', '=', userId).executeTakeFirst();
  return Boolean(u && (u.passwordHash || u.verifiedPhone || u.oidcSubject));
};
