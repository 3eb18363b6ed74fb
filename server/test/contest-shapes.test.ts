import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../src/jobs/runner.ts';
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
import { MAE_ANSWER as ANSWER, MAE_DEADLINE as DEADLINE, MAE_EVALUATION as MAE, maePrediction as prediction } from './factories.ts';

/**
 * Issue 33, item 1: every contest shape, first-class. A question is judged by experts (paper-only), scored
 * automatically (prediction-only) or both, as its organiser says; readiness, the audit, works and tests, grades and
 * awards follow that choice.
 */

describe.each(DATABASES)('paper-only, prediction-only and mixed questions on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let now = new Date('2026-03-20T02:00:00Z');
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'shapeOrg', '形态大学');
  });
  afterAll(() => t.close());

  /** An online competition with choice, works, tests and grades menus on, submission closing at DEADLINE. */
  async function competition() {
    now = new Date('2026-03-20T02:00:00Z');
    const id = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${id}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST', 'GRADE_SET'])
      expect((await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true })).statusCode).toBe(200);
    await setSubmissionDeadline(org, id, DEADLINE);
    return id;
  }
  async function question(competitionId: number, body_: object) {
    const res = await org.post(`/api/competition/question/${competitionId}`, body_);
    expect(res.statusCode, res.body).toBe(200);
    return body(res).data.id as number;
  }
  const approve = (questionId: number) => admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true });
  async function team(competitionId: number, questionId: number) {
    const username = `shape${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `形态队${seq}`, info: REG_INFO })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    return { leader, teamId: r.teamId as number, name: `形态队${seq}` };
  }
  async function judge(name: string) {
    const id = (await registerUser(t.app, name)).id;
    expect((await org.post('/api/review/expert', { username: name, organization: `${name}的大学`, speciality: '统计', title: '教授' })).statusCode).toBe(200);
    return { id, client: await loggedIn(t.app, name) };
  }
  const drain = async () => {
    while (await runDueJobs(t.deps));
  };
  const submit = (who: Client, questionId: number, text: string) =>
    who.request({ method: 'POST', url: `/api/review/test/${questionId}`, ...multipart('pred.csv', Buffer.from(text), 'text/csv') });
  const grades = async (questionId: number) =>
    body(await org.get(`/api/review/works/grade/${questionId}?limit=50`)).data.list as {
      teamId: number;
      reviewScore: number | null;
      testScore: number | null;
      testPoints: number | null;
      finalScore: number | null;
      rank: number | null;
      awardName: string | null;
    }[];
  const myGrade = async (who: Client, competitionId: number) => body(await who.get(`/api/review/works/myGrade/${competitionId}`)).data[0];
  const readinessItem = async (competitionId: number, key: string) =>
    (body(await org.get(`/api/competition/readiness/${competitionId}`)).data.items as { key: string; ok: boolean; detail: string }[]).find(
      (i) => i.key === key,
    );
  const awards = async (questionId: number) => {
    expect(
      (
        await org.put(`/api/review/works/awards/${questionId}`, {
          levels: [
            { name: '一等奖', rankFrom: 1, rankTo: 1 },
            { name: '二等奖', rankFrom: 2, rankTo: 3 },
          ],
        })
      ).statusCode,
    ).toBe(200);
    const applied = await org.post(`/api/review/works/awards/apply/${questionId}`);
    expect(applied.statusCode, applied.body).toBe(200);
  };

  it('says which judging a question has, and refuses an evaluation that does not fit it', async () => {
    const c = await competition();
    const bad = await org.post(`/api/competition/question/${c}`, { title: '论文却有指标', judging: 'review', evaluation: MAE });
    expect([bad.statusCode, body(bad).data.fields.judging]).toEqual([
      400,
      '评判方式为专家评审的赛题不设自动评分：请关闭自动评分，或将评判方式改为自动评分或两者结合',
    ]);
    const none = await org.post(`/api/competition/question/${c}`, { title: '预测却无指标', judging: 'auto' });
    expect([none.statusCode, body(none).data.fields.evaluation]).toEqual([400, '该评判方式需要自动评分：请设置评分指标']);
    // Left out, the judging follows the evaluation: none is a paper question, one is both (as before).
    const paper = await question(c, { title: '论文' });
    const mixed = await question(c, { title: '混合', evaluation: MAE });
    const check = async (id: number) => body(await org.get(`/api/competition/question/check/${id}`)).data.judging;
    expect([await check(paper), await check(mixed)]).toEqual(['review', 'both']);
    // An auto question stays auto when saved again without saying so.
    const auto = await question(c, { title: '预测', judging: 'auto', evaluation: MAE });
    expect((await org.put(`/api/competition/question/${auto}`, { title: '预测（改）', evaluation: { ...MAE, dailyLimit: 3 } })).statusCode).toBe(200);
    expect(await check(auto)).toBe('auto');
    // Participants read it with the question.
    await approve(paper);
    const listed = body(await t.app.inject({ method: 'GET', url: `/api/competition/question/public/list/${c}` })).data as { title: string; judging: string }[];
    expect(listed.map((q) => [q.title, q.judging])).toEqual([['论文', 'review']]);
  });

  it('runs a paper-only question: no evaluation to approve it, works judged by two experts, grades, ranks and awards', async () => {
    const c = await competition();
    const q = await question(c, { title: '论文题', judging: 'review' });
    // Ready as it is: a paper question needs no metric or answer file.
    expect(await readinessItem(c, `question:${q}`)).toMatchObject({ ok: true, detail: expect.stringContaining('专家评审（提交作品）') });
    expect((await approve(q)).statusCode).toBe(200);
    const teams = [await team(c, q), await team(c, q), await team(c, q)];
    // No tests for it, works for all.
    const refused = await submit(teams[0]!.leader, q, prediction(0));
    expect([refused.statusCode, body(refused).message]).toEqual([409, '该赛题没有自动评分，不接受测试文件']);
    for (const [i, tm] of teams.entries()) await submitWork(tm.leader, q, Buffer.from(`论文 ${i}`));

    const rule = body(
      await org.put(`/api/review/rules/${q}`, {
        criteria: [
          { name: '论证', description: null, maxScore: 50 },
          { name: '表达', description: null, maxScore: 50 },
        ],
        judgesPerWork: 2,
        aggregation: 'mean',
        reviewWeight: 100,
        testWeight: 0,
        blind: true,
        disputeDays: 3,
      }),
    ).data as { criteria: { id: string }[] };
    const judges = [await judge(`paperJudgeA${kind}`), await judge(`paperJudgeB${kind}`)];
    expect((await org.post(`/api/review/judge/${q}`, { userIds: judges.map((j) => j.id) })).statusCode).toBe(200);
    expect(body(await org.post(`/api/review/works/${q}?early=1`)).data.created).toBe(6);
    // Each judge scores each work: team 0 best, then team 2, then team 1.
    const points = [
      [45, 40],
      [30, 25],
      [40, 30],
    ];
    for (const j of judges) {
      const works = body(await j.client.get(`/api/review/center/works?questionId=${q}`)).data as { id: number }[];
      expect(works).toHaveLength(3);
      for (const w of works) {
        // The review is blind: which team a work is comes from the assignment's row.
        const [a, b] = points[await teamIndexOf(w.id)]!;
        const res = await j.client.put(`/api/review/works/${w.id}`, {
          scores: [
            { criterionId: rule.criteria[0]!.id, score: a, comment: '' },
            { criterionId: rule.criteria[1]!.id, score: b, comment: '' },
          ],
          comment: '评语',
          submit: true,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    now = new Date('2026-05-01T00:00:00Z');
    expect((await org.post(`/api/review/works/confirmFinalScore/${q}`)).statusCode).toBe(200);
    await awards(q);
    const byTeam = new Map((await grades(q)).map((g) => [g.teamId, g]));
    expect(teams.map((tm) => [byTeam.get(tm.teamId)!.finalScore, byTeam.get(tm.teamId)!.rank, byTeam.get(tm.teamId)!.awardName])).toEqual([
      [85, 1, '一等奖'],
      [55, 3, '二等奖'],
      [70, 2, '二等奖'],
    ]);
    expect(teams.every((tm) => byTeam.get(tm.teamId)!.testScore === null)).toBe(true);
    const mine = await myGrade(teams[0]!.leader, c);
    expect(mine).toMatchObject({ judging: 'review', reviewScore: 85, testScore: null, finalScore: 85, rank: 1, teams: 3, awardName: '一等奖' });
    expect(mine.formula).toBe('最终成绩 = 评审成绩；评审成绩 = 各评委总分 ÷ 满分 × 100 的平均');

    async function teamIndexOf(assignmentId: number) {
      const row = await t.database.db.selectFrom('reviewAssignments').select('teamId').where('id', '=', assignmentId).executeTakeFirstOrThrow();
      return teams.findIndex((tm) => tm.teamId === row.teamId);
    }
  });

  it('runs a prediction-only question: no works, no judges, its private board is the result, ranked its way, with awards', async () => {
    const c = await competition();
    const q = await question(c, { title: '预测题', judging: 'auto', evaluation: MAE });
    expect(await readinessItem(c, `question:${q}`)).toMatchObject({ ok: false });
    expect(
      (await org.request({ method: 'POST', url: `/api/competition/question/${q}/answer`, ...multipart('answer.csv', Buffer.from(ANSWER), 'text/csv') }))
        .statusCode,
    ).toBe(200);
    expect(await readinessItem(c, `question:${q}`)).toMatchObject({ ok: true, detail: '自动评分（提交测试）：评分指标 平均绝对误差（MAE），答案文件 40 行' });
    expect((await approve(q)).statusCode).toBe(200);
    const teams = [await team(c, q), await team(c, q), await team(c, q), await team(c, q)];
    // No works, no rule, no judges for it: each refusal says why.
    const works = await teams[0]!.leader.request({
      method: 'POST',
      url: '/api/review/works/upload',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': '5',
        'upload-metadata': `questionId ${Buffer.from(String(q)).toString('base64')},filename ${Buffer.from('w.zip').toString('base64')}`,
      },
    });
    expect([works.statusCode, body(works).message]).toEqual([409, '该赛题按自动评分的私榜排名，不需要提交作品']);
    const notJudged = '该赛题的评判方式为自动评分，按私榜排名，不需要评审规则和评审专家；如需专家评审，请先在赛题中修改评判方式';
    const rule = await org.put(`/api/review/rules/${q}`, {
      criteria: [{ name: '论证', description: null, maxScore: 10 }],
      judgesPerWork: 1,
      aggregation: 'mean',
      reviewWeight: 100,
      testWeight: 0,
      blind: true,
      disputeDays: 3,
    });
    expect([rule.statusCode, body(rule).message]).toEqual([409, notJudged]);
    expect(body(await org.post(`/api/review/works/${q}`)).message).toBe(notJudged);

    // Errors of 1, 3, 2 and 3 (MAE, lower is better): the last two tie.
    for (const [i, off] of [1, 3, 2, 3].entries()) expect((await submit(teams[i]!.leader, q, prediction(off))).statusCode).toBe(200);
    await drain();
    // Before results, the private board is the organisers' alone.
    const board = async () => body(await teams[0]!.leader.get(`/api/review/test/leaderboard/${q}?board=private&page=1&limit=20`)).data;
    expect(await board()).toMatchObject({ published: false, entries: [] });

    now = new Date('2026-05-01T00:00:00Z');
    const confirmed = await org.post(`/api/review/works/confirmFinalScore/${q}`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await awards(q);
    const byTeam = new Map((await grades(q)).map((g) => [g.teamId, g]));
    expect(teams.map((tm) => [byTeam.get(tm.teamId)!.finalScore, byTeam.get(tm.teamId)!.rank, byTeam.get(tm.teamId)!.awardName])).toEqual([
      [1, 1, '一等奖'],
      [3, 3, '二等奖'],
      [2, 2, '二等奖'],
      [3, 3, '二等奖'],
    ]);
    // Published in one step: the private board with the grades, and each team's grade with its part.
    expect((await board()).published).toBe(true);
    const mine = await myGrade(teams[2]!.leader, c);
    expect(mine).toMatchObject({ judging: 'auto', reviewScore: null, testScore: 2, finalScore: 2, rank: 2, teams: 4, awardName: '二等奖' });
    expect(mine.formula).toContain('最终成绩 = 私榜得分');
    // Its judging is part of the confirmed result: it cannot change now.
    const change = await org.put(`/api/competition/question/${q}`, { title: '预测题', judging: 'both', evaluation: MAE });
    expect([change.statusCode, body(change).message]).toEqual([409, '该赛题的成绩已确认，不能再修改评判方式']);
  });

  it('combines both in a mixed question and shows the formula and the parts to the team', async () => {
    const c = await competition();
    const q = await question(c, { title: '混合题', judging: 'both', evaluation: MAE });
    await org.request({ method: 'POST', url: `/api/competition/question/${q}/answer`, ...multipart('answer.csv', Buffer.from(ANSWER), 'text/csv') });
    await approve(q);
    const tm = await team(c, q);
    expect((await submit(tm.leader, q, prediction(2))).statusCode).toBe(200);
    await drain();
    await submitWork(tm.leader, q, Buffer.from('作品'));
    const rule = body(
      await org.put(`/api/review/rules/${q}`, {
        criteria: [{ name: '论证', description: null, maxScore: 10 }],
        judgesPerWork: 1,
        aggregation: 'mean',
        reviewWeight: 60,
        testWeight: 40,
        blind: true,
        disputeDays: 3,
      }),
    ).data as { criteria: { id: string }[] };
    const j = await judge(`mixedJudge${kind}`);
    await org.post(`/api/review/judge/${q}`, { userIds: [j.id] });
    await org.post(`/api/review/works/${q}?early=1`);
    const [w] = body(await j.client.get(`/api/review/center/works?questionId=${q}`)).data as { id: number }[];
    await j.client.put(`/api/review/works/${w!.id}`, { scores: [{ criterionId: rule.criteria[0]!.id, score: 8, comment: '' }], comment: '', submit: true });
    now = new Date('2026-05-01T00:00:00Z');
    expect((await org.post(`/api/review/works/confirmFinalScore/${q}`)).statusCode).toBe(200);
    const mine = await myGrade(tm.leader, c);
    // The only team is the best: 100 test points; 80 × 60% + 100 × 40%.
    expect(mine).toMatchObject({ judging: 'both', reviewScore: 80, testScore: 2, testPoints: 100, finalScore: 88 });
    expect(mine.formula).toBe(
      '最终成绩 = 评审成绩 × 60% + 测试得分 × 40%；评审成绩 = 各评委总分 ÷ 满分 × 100 的平均；测试得分 = 私榜得分相对私榜第一名折算的百分制（第一名为100）',
    );
  });
});
