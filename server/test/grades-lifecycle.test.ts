import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  DATABASES,
  REG_INFO,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  setSubmissionDeadline,
  submitWork,
  type Client,
  type TestApp,
} from './helpers.ts';

/**
 * Issue 16 item 1: publishing results (confirming grades) while works or tests can still be submitted is refused with
 * the deadline named, and changes nothing; computing grades early stays possible (the page asks first).
 */
describe.each(DATABASES)('publishing results waits for submission to close on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let seq = 0;
  let now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'publishOrg', '公布大学');
  });
  afterAll(() => t.close());

  /**
   * An online competition (registration 03-10 .. 04-10, ends 06-30, Beijing time) with works and tests switched on and
   * the given preset deadlines, a stage if asked, a question whose one work has been scored by its one judge.
   */
  async function setup(ends: { works: string | null; test: string | null }, stage?: { name: string; startDate: string; endDate: string }) {
    now = new Date('2026-03-20T02:00:00Z');
    const n = ++seq;
    const competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    const id = (code: string) => presets.find((p) => p.menuCode === code)!.id;
    await org.put(`/api/competition/preset/${id('CHOICE_SET')}`, { enable: true });
    await org.put(`/api/competition/preset/${id('SUBMIT_WORKS')}`, { enable: true, enableEndTime: ends.works });
    await org.put(`/api/competition/preset/${id('SUBMIT_TEST')}`, { enable: true, enableEndTime: ends.test });
    if (stage) {
      // The stage is chosen as both submissions' deadline.
      const stageId = body(await org.post(`/api/competition/stages/${competitionId}`, { ...stage, sort: 1 })).data.id as number;
      for (const code of ['SUBMIT_WORKS', 'SUBMIT_TEST'])
        expect((await org.put(`/api/competition/preset/${id(code)}`, { enable: true, deadlineStageId: stageId })).statusCode).toBe(200);
    }
    const questionId = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: `公布题${n}`,
        evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
      }),
    ).data.id as number;
    await org.request({
      method: 'POST',
      url: `/api/competition/question/${questionId}/answer`,
      ...multipart('answer.csv', Buffer.from('id,y\na,1\nb,2\n'), 'text/csv'),
    });
    await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true });

    const username = `publish${n}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `公布队${n}`, info: REG_INFO })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    await submitWork(leader, questionId, Buffer.from(`works ${n}`));

    const judgeName = `publishJudge${n}`;
    const judgeId = (await registerUser(t.app, judgeName)).id;
    expect((await org.post('/api/review/expert', { username: judgeName, organization: '评审大学', speciality: '统计', title: '教授' })).statusCode).toBe(200);
    const rule = body(
      await org.put(`/api/review/rules/${questionId}`, {
        criteria: [{ name: '创新性', description: null, maxScore: 10 }],
        judgesPerWork: 1,
        aggregation: 'mean',
        reviewWeight: 100,
        testWeight: 0,
        blind: false,
        disputeDays: 3,
      }),
    ).data as { criteria: { id: string }[] };
    await org.post(`/api/review/judge/${questionId}`, { userIds: [judgeId] });
    expect(body(await org.post(`/api/review/works/${questionId}?early=1`)).data.created).toBe(1);
    const judge = await loggedIn(t.app, judgeName);
    const [work] = body(await judge.get(`/api/review/center/works?questionId=${questionId}`)).data as { id: number }[];
    const scored = await judge.put(`/api/review/works/${work!.id}`, {
      scores: [{ criterionId: rule.criteria[0]!.id, score: 8, comment: '好' }],
      comment: '总评',
      submit: true,
    });
    expect(scored.statusCode, scored.body).toBe(200);
    return { competitionId, questionId, leader, judge, criterionId: rule.criteria[0]!.id, assignmentId: work!.id };
  }

  const confirm = (questionId: number) => org.post(`/api/review/works/confirmFinalScore/${questionId}`);
  const summary = async (questionId: number) => body(await org.get(`/api/review/works/grade/summary/${questionId}`)).data;
  const grades = async (questionId: number) => body(await org.get(`/api/review/works/grade/${questionId}`)).data.list;
  const inbox = async (leader: Client) => (body(await leader.get('/api/message/notice/page/1')).data.list as { title: string }[]).map((m) => m.title);
  const confirmations = async (questionId: number) =>
    (await t.database.db.selectFrom('auditLog').select('id').where('action', '=', 'grade.confirm').where('entityId', '=', String(questionId)).execute()).length;

  /** Everything a refused confirmation must leave as it was. */
  async function state(questionId: number, leader: Client) {
    return { summary: await summary(questionId), grades: await grades(questionId), inbox: await inbox(leader), confirmations: await confirmations(questionId) };
  }

  it('computes early but refuses to publish while works can still be submitted, naming the deadline, changing nothing', async () => {
    // Works until 03-25 18:00, tests until 03-22 12:00 (Beijing time).
    const { questionId, leader } = await setup({ works: '2026-03-25T18:00:00+08:00', test: '2026-03-22T12:00:00+08:00' });
    const calculated = await org.post(`/api/review/works/calcFinalScore/${questionId}`);
    expect([calculated.statusCode, body(calculated).data.gradeState]).toEqual([200, 1]);
    const before = await state(questionId, leader);
    expect(before.summary).toMatchObject({
      gradeState: 1,
      confirmedAt: null,
      calculatedAt: '2026-03-20T02:00:00.000Z',
      submissionOpen: { kind: 'SUBMIT_WORKS' },
    });

    now = new Date('2026-03-21T02:00:00Z');
    const refused = await confirm(questionId);
    expect([refused.statusCode, body(refused).message]).toEqual([409, '提交作品将于 2026-03-25 18:00 截止，截止前不能公布成绩']);
    // Nothing moved: not the state, not the times (a confirmation recomputes and stamps them), no message, no log line.
    expect(await state(questionId, leader)).toEqual(before);
    expect(before.inbox).not.toContain('成绩已公布');
    expect(before.confirmations).toBe(0);

    // Tests have closed, works have not: still refused, with the works' deadline.
    now = new Date('2026-03-25T10:00:00Z');
    expect(body(await confirm(questionId)).message).toBe('提交作品将于 2026-03-25 18:00 截止，截止前不能公布成绩');
    expect(await state(questionId, leader)).toEqual(before);

    // The deadline minute has passed: results are published and the team is told.
    now = new Date('2026-03-25T10:00:01Z');
    const published = await confirm(questionId);
    expect(published.statusCode, published.body).toBe(200);
    expect(body(published).data).toMatchObject({ gradeState: 2, confirmedAt: '2026-03-25T10:00:01.000Z' });
    expect(await inbox(leader)).toContain('成绩已公布');
    expect(await confirmations(questionId)).toBe(1);
  });

  it('refuses while only test submission is still open, naming the tests’ deadline', async () => {
    const { questionId, leader } = await setup({ works: '2026-03-21T12:00:00+08:00', test: '2026-03-24T20:30:00+08:00' });
    now = new Date('2026-03-23T00:00:00Z');
    // Computing is still allowed once works have closed; publishing waits for the tests.
    expect((await org.post(`/api/review/works/calcFinalScore/${questionId}`)).statusCode).toBe(200);
    const before = await state(questionId, leader);
    const refused = await confirm(questionId);
    expect([refused.statusCode, body(refused).message]).toEqual([409, '提交测试将于 2026-03-24 20:30 截止，截止前不能公布成绩']);
    expect(await state(questionId, leader)).toEqual(before);
    expect(before.summary).toMatchObject({ gradeState: 1, confirmedAt: null });

    now = new Date('2026-03-24T12:31:00Z');
    expect((await confirm(questionId)).statusCode).toBe(200);
    expect((await summary(questionId)).gradeState).toBe(2);
    expect(await inbox(leader)).toContain('成绩已公布');
  });

  it('follows the deadline stage chosen when no preset end is set, and confirms without computing first', async () => {
    const { questionId, leader } = await setup(
      { works: null, test: null },
      { name: '复赛', startDate: '2026-03-16T00:00:00+08:00', endDate: '2026-03-28T20:00:00+08:00' },
    );
    // Tests take the same stage: both close at its end, which is named.
    now = new Date('2026-03-28T12:00:00Z');
    expect(body(await org.get(`/api/review/works/grade/summary/${questionId}`)).data.submissionOpen).toMatchObject({ end: '2026-03-28T12:00:00.000Z' });
    const refused = await confirm(questionId);
    expect([refused.statusCode, body(refused).message]).toEqual([409, '提交作品将于 2026-03-28 20:00 截止，截止前不能公布成绩']);
    expect((await summary(questionId)).gradeState).toBe(0);
    expect(await grades(questionId)).toEqual([]);
    expect(await inbox(leader)).not.toContain('成绩已公布');
    now = new Date('2026-03-28T12:00:01Z');
    expect(body(await confirm(questionId)).data).toMatchObject({ gradeState: 2 });
  });

  it('keeps submission closed when stages are renamed or moved after publication, reopening only on an explicit, audited confirmation', async () => {
    const stage = { name: '复赛提交', startDate: '2026-03-16T00:00:00+08:00', endDate: '2026-03-21T20:00:00+08:00' };
    const { competitionId, questionId, leader } = await setup({ works: null, test: null }, stage);
    now = new Date('2026-03-22T00:00:00Z');
    expect((await confirm(questionId)).statusCode).toBe(200);
    const stageId = body(await org.get(`/api/competition/stages/public/list/${competitionId}`)).data[0].id as number;
    const published = await state(questionId, leader);
    const testRefusal = '提交测试已于 2026-03-21 20:00 截止';
    const submitTest = () =>
      leader.request({ method: 'POST', url: `/api/review/test/${questionId}`, ...multipart('p.csv', Buffer.from('id,y\na,1\nb,2\n'), 'text/csv') });
    const stages = async () =>
      await t.database.db.selectFrom('competitionStages').select(['name', 'endDate']).where('id', '=', stageId).executeTakeFirstOrThrow();

    // Renaming the stage (复赛提交 -> 复赛) closes and opens nothing.
    expect((await org.put(`/api/competition/stages/${stageId}`, { ...stage, name: '复赛', sort: 1 })).statusCode).toBe(200);
    expect(body(await submitTest()).message).toBe(testRefusal);
    // Moving it earlier is no reopening either.
    expect((await org.put(`/api/competition/stages/${stageId}`, { ...stage, name: '复赛', endDate: '2026-03-21T19:00:00+08:00', sort: 1 })).statusCode).toBe(
      200,
    );

    // Moving its end past now would reopen both submissions and the choice that follows them: refused with what it does to the published results, nothing changed.
    const later = { ...stage, name: '复赛', endDate: '2026-03-25T20:00:00+08:00', sort: 1 };
    const refused = await org.put(`/api/competition/stages/${stageId}`, later);
    const warning =
      '成绩已公布，此修改将重新开放「选择赛题」（至 2026-03-25 20:00 截止）、「提交作品」（至 2026-03-25 20:00 截止）、「提交测试」（至 2026-03-25 20:00 截止）。已公布的成绩、获奖和证书不会随之改变；重新开放期间的新提交会进入排行榜，可能与已公布的结果不一致。确定重新开放吗？';
    expect([refused.statusCode, body(refused).message, body(refused).data.fields.reopen]).toEqual([409, warning, warning]);
    expect(await stages()).toEqual({ name: '复赛', endDate: '2026-03-21T11:00:00.000Z' });
    // Handing the tests back to the competition's end, or extending the competition, is the same reopening.
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    const testPreset = presets.find((p) => p.menuCode === 'SUBMIT_TEST')!.id;
    const toEnd = await org.put(`/api/competition/preset/${testPreset}`, { enable: true, deadlineStageId: null });
    expect([toEnd.statusCode, body(toEnd).data.fields.reopen]).toEqual([409, expect.stringContaining('「提交测试」（至 2026-06-30 00:00 截止）')]);
    expect(body(await submitTest()).message).toBe('提交测试已于 2026-03-21 19:00 截止');
    expect(await state(questionId, leader)).toEqual(published);

    // Confirmed, it is made and audited; the published grades stay as they were.
    expect((await org.put(`/api/competition/stages/${stageId}?reopen=1`, later)).statusCode).toBe(200);
    expect((await submitTest()).statusCode).toBe(200);
    const audit = await t.database.db
      .selectFrom('auditLog')
      .select('afterJson')
      .where('action', '=', 'competition.reopen')
      .where('entityId', '=', String(competitionId))
      .execute();
    expect(audit.map((a) => JSON.parse(a.afterJson!).reopened.map((w: { kind: string }) => w.kind))).toEqual([['CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST']]);
    expect((await summary(questionId)).gradeState).toBe(2);
    expect(await grades(questionId)).toEqual(published.grades);
  });

  it('gives a submitted score back to its judge when the team replaces the work before the deadline, and tells the organiser', async () => {
    const { questionId, leader, judge, criterionId, assignmentId } = await setup({ works: '2026-03-25T18:00:00+08:00', test: null });
    const row = async () =>
      t.database.db
        .selectFrom('reviewAssignments')
        .select(['status', 'workId', 'scoresJson', 'total'])
        .where('id', '=', assignmentId)
        .executeTakeFirstOrThrow();
    const versions = async () => t.database.db.selectFrom('works').select(['id', 'version']).where('questionId', '=', questionId).orderBy('version').execute();
    // The submitted score is for the version the team had then.
    const [v1] = await versions();
    expect(await row()).toMatchObject({ status: 2, workId: v1!.id, total: 8 });

    // Before the deadline the team uploads a second version: the score goes back to the judge as a draft, scores kept.
    now = new Date('2026-03-21T02:00:00Z');
    await submitWork(leader, questionId, Buffer.from('works, second version'));
    const [, v2] = await versions();
    expect(await row()).toMatchObject({ status: 1, workId: v1!.id, total: 8 });
    expect(JSON.parse((await row()).scoresJson)).toEqual([{ criterionId, score: 8, comment: '好' }]);
    expect(await inbox(judge)).toContain('作品已更新，请重新评审');
    const orgMessages = (body(await org.get('/api/message/notice/page/1')).data.list as { title: string; content: string }[]).filter(
      (m) => m.title === '作品在评分后更新',
    );
    expect(orgMessages).toHaveLength(1);
    expect(orgMessages[0]!.content).toMatch(
      /^<p>队伍“公布队\d+（\d+）”在专家评分后上传了赛题“公布题\d+”的新版本（第 2 版），1 位专家的评分已退回，需要重新评审。<\/p>$/,
    );
    // The organiser's list and the judge's page say which version was scored and which counts now.
    expect(body(await org.get(`/api/review/assign/page/${questionId}`)).data.list[0]).toMatchObject({ status: 1, scoredVersion: 1, currentVersion: 2 });
    expect(body(await judge.get(`/api/review/center/works/${assignmentId}`)).data).toMatchObject({ status: 1, workId: v2!.id, version: 2, scoredVersion: 1 });

    // A submission for the version the judge saw before is refused; for the one that counts, it stands.
    const stale = await judge.put(`/api/review/works/${assignmentId}`, {
      scores: [{ criterionId, score: 8, comment: '好' }],
      comment: '总评',
      submit: true,
      workId: v1!.id,
    });
    expect([stale.statusCode, body(stale).message]).toEqual([409, '队伍已上传新版本（第 2 版），请下载新版本查看后再提交评分']);
    expect((await row()).status).toBe(1);
    const fresh = await judge.put(`/api/review/works/${assignmentId}`, {
      scores: [{ criterionId, score: 9, comment: '更好' }],
      comment: '总评',
      submit: true,
      workId: v2!.id,
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(await row()).toMatchObject({ status: 2, workId: v2!.id, total: 9 });

    // After the deadline no version can replace it: the upload is refused and the score stays.
    now = new Date('2026-03-25T10:00:01Z');
    await expect(submitWork(leader, questionId, Buffer.from('too late'))).rejects.toThrow(/提交作品已于 2026-03-25 18:00 截止/);
    expect(await row()).toMatchObject({ status: 2, workId: v2!.id, total: 9 });
    expect(await versions()).toHaveLength(2);
  });

  it('does not wait for a submission that is switched off', async () => {
    const { competitionId, questionId } = await setup({ works: '2026-03-21T12:00:00+08:00', test: null });
    now = new Date('2026-03-22T00:00:00Z');
    // Tests run to the competition's end (06-30)...
    expect(body(await confirm(questionId)).message).toBe('提交测试将于 2026-06-30 00:00 截止，截止前不能公布成绩');
    // ...until the organiser switches them off: then only the works' past deadline counts.
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'SUBMIT_TEST')!.id}`, { enable: false });
    expect((await confirm(questionId)).statusCode).toBe(200);
  });

  it('publishes once the organiser brings the deadline forward and it passes', async () => {
    const { competitionId, questionId } = await setup({ works: null, test: null });
    expect(body(await confirm(questionId)).message).toBe('提交作品将于 2026-06-30 00:00 截止，截止前不能公布成绩');
    await setSubmissionDeadline(org, competitionId, '2026-03-20T12:00:00+08:00');
    expect(body(await confirm(questionId)).message).toBe('提交作品将于 2026-03-20 12:00 截止，截止前不能公布成绩');
    now = new Date('2026-03-20T04:00:01Z');
    expect((await confirm(questionId)).statusCode).toBe(200);
  });
});
