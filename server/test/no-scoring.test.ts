import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
  REG_INFO as info,
} from './helpers.ts';

/**
 * Issue 20 item 11a: an approved question whose automatic scoring the organiser removed. The test tab's answers say
 * that the question has no scoring — not a quota of "0 / " and a 404 "赛题不存在" for a question that exists.
 */
describe.each(DATABASES)('a question whose scoring was removed after approval on %s', (kind) => {
  let t: TestApp;
  let org: Client;
  let leader: Client;
  let questionId: number;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => new Date('2026-03-20T02:00:00Z') } });
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'noScoreOrg', '无评分大学');
    const competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
    const evaluation = { metric: 'rmse', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 };
    questionId = body(await org.post(`/api/competition/question/${competitionId}`, { title: '开放题', evaluation })).data.id;
    expect((await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true })).statusCode).toBe(200);
    await registerUser(t.app, 'noScoreLeader');
    leader = await loggedIn(t.app, 'noScoreLeader');
    const reg = await leader.post(`/api/team/register/${competitionId}`, { teamName: '开放队', info });
    expect(reg.statusCode, reg.body).toBe(200);
    const r = body(reg).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    // The organiser removes the evaluation of the approved question (possible while no answer file is uploaded).
    expect((await org.put(`/api/competition/question/${questionId}`, { title: '开放题', sort: 0, evaluation: null })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('lists no format and no daily limit, and refuses files and boards saying the question has no automatic scoring', async () => {
    expect(body(await leader.get(`/api/review/test/list/${questionId}`)).data).toEqual({
      list: [],
      dailyLimit: null,
      usedToday: 0,
      format: null,
      leaderboardPublished: false,
      disqualified: null,
      realNameRefusal: null,
    });
    for (const board of ['public', 'private']) {
      const res = await leader.get(`/api/review/test/leaderboard/${questionId}?board=${board}`);
      expect([res.statusCode, body(res).message]).toEqual([404, '该赛题没有自动评分，没有排行榜']);
    }
    const res = await leader.request({
      method: 'POST',
      url: `/api/review/test/${questionId}`,
      ...multipart('pred.csv', Buffer.from('id,y\nu0,1\n'), 'text/csv'),
    });
    expect([res.statusCode, body(res).message]).toEqual([409, '该赛题没有自动评分，不接受测试文件']);
  });
});
