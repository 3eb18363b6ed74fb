import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, loggedIn, makeOrganiser, registerUser, type Client, type TestApp } from './helpers.ts';

/**
 * Issue 20 item 11b: the back-office home's counters. The platform sees the platform; an organiser sees its own
 * organisation — its users, the roles those users hold, and their live sessions — as every other organiser view does.
 */
describe.each(DATABASES)('the home dashboard counts on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let orgA: Client;
  let orgAId: number;
  let memberId: number;
  const now = new Date('2026-03-20T02:00:00Z');

  const userId = async (username: string) =>
    await t.database.db.selectFrom('users').select(['id', 'orgId']).where('username', '=', username).executeTakeFirstOrThrow();
  /** Live sessions of the users of an organisation, read from the table (the oracle the answer must match). */
  const liveSessionsOf = async (orgId: number) =>
    Number(
      (
        await t.database.db
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.userId')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('users.orgId', '=', orgId)
          .where('sessions.expiresAt', '>', now.toISOString())
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    orgA = await makeOrganiser(t, admin, 'dashOrgA', '甲大学');
    await makeOrganiser(t, admin, 'dashOrgB', '乙大学');
    orgAId = (await userId('dashOrgA')).orgId!;
    // A second user of A, a judge; and users of no organisation, who are the platform's only.
    memberId = (await registerUser(t.app, 'dashMemberA')).id;
    expect((await admin.put(`/api/system/user/${memberId}/org`, { orgId: orgAId })).statusCode).toBe(200);
    const roles = body(await admin.get('/api/system/role/options')).data as { id: number; code: string }[];
    const judge = roles.find((r) => r.code === 'judge')!.id;
    const participant = roles.find((r) => r.code === 'participant')!.id;
    expect((await admin.put(`/api/system/user/${memberId}/roles`, { roleIds: [judge, participant] })).statusCode).toBe(200);
    await loggedIn(t.app, 'dashMemberA');
    for (const name of ['dashLoner1', 'dashLoner2']) {
      await registerUser(t.app, name);
      await loggedIn(t.app, name);
    }
  });
  afterAll(() => t.close());

  it('gives the platform administrator the platform-wide numbers', async () => {
    const d = body(await admin.get('/api/system/dashboard')).data;
    const users = Number(
      (
        await t.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    // Counted, not assumed: the organisation's test may have disabled an account before this one runs.
    const activeUsers = Number(
      (
        await t.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 1)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const roles = Number(
      (
        await t.database.db
          .selectFrom('roles')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(activeUsers).toBeGreaterThan(0);
    expect(d).toMatchObject({ scope: 'platform', users, activeUsers, roles, organisations: 2 });
    expect(d.sessions).toBeGreaterThan(await liveSessionsOf(orgAId));
  });

  it('limits an organiser to its organisation: its users, the roles they hold and their live sessions', async () => {
    const roleCodes = (
      await t.database.db
        .selectFrom('userRoles')
        .innerJoin('users', 'users.id', 'userRoles.userId')
        .innerJoin('roles', 'roles.id', 'userRoles.roleId')
        .select('roles.code')
        .distinct()
        .where('users.orgId', '=', orgAId)
        .execute()
    ).map((r) => r.code);
    expect(roleCodes).toEqual(expect.arrayContaining(['organiser', 'judge', 'participant']));
    const d = body(await orgA.get('/api/system/dashboard')).data;
    expect(d).toEqual({
      scope: 'organisation',
      users: 2,
      activeUsers: 2,
      roles: roleCodes.length,
      organisations: null,
      sessions: await liveSessionsOf(orgAId),
    });
    expect(d.sessions).toBeGreaterThan(0);
    // A disabled account of the organisation is still its user, no longer an active one.
    expect((await admin.put(`/api/system/user/${memberId}/status`, { status: 0 })).statusCode).toBe(200);
    expect(body(await orgA.get('/api/system/dashboard')).data).toMatchObject({ users: 2, activeUsers: 1 });
  });
});
