import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import type { OidcStatesTable, SessionsTable } from '../../db/schema.ts';

export async function findUserForLogin(db: Db, usernameKey: string) {
  return db.selectFrom('users').select(['id', 'username', 'passwordHash', 'status']).where('usernameKey', '=', usernameKey).executeTakeFirst();
}

export async function findUserPassword(db: Db, userId: number) {
  return db.selectFrom('users').select(['id', 'passwordHash']).where('id', '=', userId).executeTakeFirst();
}

export async function insertSession(db: Db, session: SessionsTable) {
  await db.insertInto('sessions').values(session).execute();
}

/** The live session with its active user, or undefined when expired, revoked or the user is disabled. */
export async function findLiveSession(db: Db, id: string, now: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .select([
      'sessions.id',
      'sessions.userId',
      'sessions.kind',
      'sessions.csrfToken',
      'sessions.expiresAt',
      'sessions.lastSeenAt',
      'users.username',
      'users.orgId',
    ])
    .where('sessions.id', '=', id)
    .where('sessions.expiresAt', '>', now)
    .where('users.status', '=', 1)
    .executeTakeFirst();
}

export async function permissionCodes(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('userRoles')
    .innerJoin('rolePermissions', 'rolePermissions.roleId', 'userRoles.roleId')
    .select('rolePermissions.code')
    .distinct()
    .where('userRoles.userId', '=', userId)
    .execute();
  return rows.map((r) => r.code);
}

export async function touchSession(db: Db, id: string, lastSeenAt: string, expiresAt: string) {
  await db.updateTable('sessions').set({ lastSeenAt, expiresAt }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteOtherSessions(db: Db, userId: number, keepId: string) {
  const result = await db.deleteFrom('sessions').where('userId', '=', userId).where('id', '!=', keepId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listUserSessions(db: Db, userId: number, now: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'kind', 'ip', 'userAgent', 'createdAt', 'lastSeenAt', 'expiresAt'])
    .where('userId', '=', userId)
    .where('expiresAt', '>', now)
    .orderBy('lastSeenAt', 'desc')
    .execute();
}

export async function deleteExpiredSessions(db: Db, now: string) {
  await db.deleteFrom('sessions').where('expiresAt', '<=', now).execute();
}

export async function setLastLogin(db: Db, userId: number, now: string) {
  await db.updateTable('users').set({ lastLoginAt: now }).where('id', '=', userId).execute();
}

/** Keeps a sign-in's state for the identity provider's callback, dropping those older than `expiredBefore`. */
export async function saveOidcState(db: Db, v: OidcStatesTable, expiredBefore: string) {
  await db.deleteFrom('oidcStates').where('createdAt', '<', expiredBefore).execute();
  await db.insertInto('oidcStates').values(v).execute();
}

/** Takes a sign-in's state once: a second callback with it finds nothing. */
export const takeOidcState = (db: Db, state: string) => db.deleteFrom('oidcStates').where('state', '=', state).returningAll().executeTakeFirst();

export const findOidcUser = (db: Db, issuer: string, subject: string) =>
  db.selectFrom('users').select(['id', 'status']).where('oidcIssuer', '=', issuer).where('oidcSubject', '=', subject).executeTakeFirst();

/** Sessions not expired of the users in the caller's scope. */
export const countLiveSessions = async (db: Db, now: string, scope: OrgScope) => {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('expiresAt', '>', now)
    .$if(!scope.all, (q) => q.where('userId', 'in', db.selectFrom('users').select('id').where(inOrgScope('orgId', scope))))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};
