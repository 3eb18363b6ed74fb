import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
} from './helpers.ts';

type Expert = { userId: number; username: string; organization: string; platform: boolean; canEdit: boolean };

describe.each(DATABASES)('the expert pool kept apart per organisation on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let orgA: Client;
  let orgB: Client;
  const id: Record<string, number> = {};

  /** Registers `username` and adds it to the pool of `by` (the platform's when `by` is the administrator). */
  async function expert(by: Client, username: string, organization: string) {
    id[username] = (await registerUser(t.app, username)).id;
    const res = await by.post('/api/review/expert', { username, organization, speciality: '统计', title: '教授' });
    expect(res.statusCode, res.body).toBe(200);
  }
  const row = (username: string) =>
    t.database.db
      .selectFrom('experts')
      .innerJoin('users', 'users.id', 'experts.userId')
      .select(['experts.organization', 'experts.title'])
      .where('users.username', '=', username)
      .executeTakeFirst();
  const judgeRoles = (username: string) =>
    t.database.db
      .selectFrom('userRoles')
      .innerJoin('roles', 'roles.id', 'userRoles.roleId')
      .innerJoin('users', 'users.id', 'userRoles.userId')
      .select('roles.code')
      .where('users.username', '=', username)
      .where('roles.code', '=', 'judge')
      .execute();
  /**
   * The pool as `c` sees it. Other tests add experts of their own (named `pool3…`); what a test checks of the pool is
   * the experts made in beforeAll, and that nothing of the other organisation shows at all.
   */
  const SHARED_WORLD = ['poolOfA', 'poolOfB', 'poolShared'];
  const everyone = async (c: Client) =>
    (body(await c.get('/api/review/expert/page?limit=100')).data.list as Expert[]).map((e) => [e.username, e.platform, e.canEdit] as const);
  const pool = async (c: Client) => (await everyone(c)).filter(([u]) => SHARED_WORLD.includes(u)).sort();

  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    orgA = await makeOrganiser(t, admin, 'poolOrgA', '池甲大学');
    orgB = await makeOrganiser(t, admin, 'poolOrgB', '池乙大学');
    await expert(admin, 'poolShared', '平台评审中心');
    await expert(orgA, 'poolOfA', '甲评审中心');
    await expert(orgB, 'poolOfB', '乙评审中心');
  });
  afterAll(() => t.close());

  it('shows an organiser its own experts and the platform’s, and says which it may change', async () => {
    expect(await pool(orgA)).toEqual([
      ['poolOfA', false, true],
      ['poolShared', true, false],
    ]);
    expect(await pool(orgB)).toEqual([
      ['poolOfB', false, true],
      ['poolShared', true, false],
    ]);
    expect(await pool(admin)).toEqual([
      ['poolOfA', false, true],
      ['poolOfB', false, true],
      ['poolShared', true, true],
    ]);
    expect((await everyone(orgA)).filter(([u]) => u.includes('OfB'))).toEqual([]);
    expect((await everyone(orgB)).filter(([u]) => u.includes('OfA'))).toEqual([]);
  });

  it('refuses another organisation’s expert to an organiser: no edit, no removal, the organisation unchanged', async () => {
    const edit = await orgB.put(`/api/review/expert/${id.poolOfA}`, { organization: '池乙大学', speciality: null, title: null });
    expect([edit.statusCode, body(edit).message]).toEqual([404, '专家不存在']);
    const remove = await orgB.delete(`/api/review/expert/${id.poolOfA}`);
    expect([remove.statusCode, body(remove).message]).toEqual([404, '专家不存在']);
    expect(await row('poolOfA')).toEqual({ organization: '甲评审中心', title: '教授' });
    expect(await judgeRoles('poolOfA')).toHaveLength(1);
  });

  it('lets organisers use the platform’s experts but leaves changing them to the platform', async () => {
    for (const res of [
      await orgB.put(`/api/review/expert/${id.poolShared}`, { organization: '池乙大学', speciality: null, title: null }),
      await orgB.delete(`/api/review/expert/${id.poolShared}`),
      await orgA.put(`/api/review/expert/${id.poolShared}`, { organization: '池甲大学', speciality: null, title: null }),
    ]) {
      expect([res.statusCode, body(res).message]).toEqual([403, '平台专家库中的专家只能由平台管理员修改或移除']);
    }
    expect(await row('poolShared')).toEqual({ organization: '平台评审中心', title: '教授' });
    expect(await judgeRoles('poolShared')).toHaveLength(1);

    // B's question may have the platform's expert and B's own, never A's.
    const competition = await onlineCompetition(admin, orgB);
    const question = body(await orgB.post(`/api/competition/question/${competition}`, { title: '池题' })).data.id as number;
    const candidates = body(await orgB.get(`/api/review/judge/candidates/${question}`)).data as Expert[];
    expect(
      candidates
        .map((e) => e.username)
        .filter((u) => SHARED_WORLD.includes(u))
        .sort(),
    ).toEqual(['poolOfB', 'poolShared']);
    expect(candidates.filter((e) => e.username.includes('OfA'))).toEqual([]);
    const foreign = await orgB.post(`/api/review/judge/${question}`, { userIds: [id.poolOfA] });
    expect([foreign.statusCode, body(foreign).data.fields.userIds]).toEqual([400, '只能选择专家库中的专家']);
    const judges = body(await orgB.post(`/api/review/judge/${question}`, { userIds: [id.poolShared, id.poolOfB] })).data as Expert[];
    expect(judges.map((j) => j.username).sort()).toEqual(['poolOfB', 'poolShared']);
  });

  it('lets an organiser change and remove its own experts, and the platform any', async () => {
    // Experts of this test's own: those of beforeAll, which the other tests read, stay as they were.
    await expert(admin, 'pool3Shared', '平台评审中心');
    await expert(orgA, 'pool3OfA', '甲评审中心');
    await expert(orgB, 'pool3OfB', '乙评审中心');
    const own = await orgA.put(`/api/review/expert/${id.pool3OfA}`, { organization: '甲大学附属医院', speciality: '影像', title: '主任医师' });
    expect(own.statusCode, own.body).toBe(200);
    expect(body(own).data).toMatchObject({ organization: '甲大学附属医院', platform: false, canEdit: true });
    for (const username of ['pool3OfA', 'pool3OfB', 'pool3Shared']) {
      const res = await admin.put(`/api/review/expert/${id[username]}`, { organization: `${username}单位`, speciality: null, title: null });
      expect(res.statusCode, res.body).toBe(200);
      expect(await row(username)).toEqual({ organization: `${username}单位`, title: null });
    }
    expect((await orgA.delete(`/api/review/expert/${id.pool3OfA}`)).statusCode).toBe(200);
    expect(await row('pool3OfA')).toBeUndefined();
    expect(await judgeRoles('pool3OfA')).toEqual([]);
  });
});
