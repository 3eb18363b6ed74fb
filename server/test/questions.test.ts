import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  DATABASES,
  PDF,
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

const EVAL = { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 30, dailyLimit: 5 };
const ANSWER = ['id,label', ...Array.from({ length: 50 }, (_, i) => `u${i},${i % 2}`)].join('\n');

describe.each(DATABASES)('questions and question choice on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let orgA: Client;
  let orgB: Client;
  let competitionId: number;
  let seq = 0;
  const now = new Date('2026-03-20T00:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    orgA = await makeOrganiser(t, admin, 'qOrgA', '赛题甲大学');
    orgB = await makeOrganiser(t, admin, 'qOrgB', '赛题乙大学');
    competitionId = await onlineCompetition(admin, orgA, { fee: 1000 });
  });
  afterAll(() => t.close());

  const answer = (who: Client, id: number, text: string) =>
    who.request({ method: 'POST', url: `/api/competition/question/${id}/answer`, ...multipart('answer.csv', Buffer.from(text), 'text/csv') });
  const newQuestion = async (extra: object = {}) =>
    body(
      await orgA.post(`/api/competition/question/${competitionId}`, { title: `赛题${++seq}`, content: '<p>预测用户是否流失</p>', evaluation: EVAL, ...extra }),
    ).data.id as number;

  it('lets the organiser manage questions of its own competitions only', async () => {
    const res = await orgA.post(`/api/competition/question/${competitionId}`, { title: 'A题', content: '<p>x<script>1</script></p>', evaluation: EVAL });
    expect(res.statusCode, res.body).toBe(200);
    const id = body(res).data.id;
    const bad = await orgA.post(`/api/competition/question/${competitionId}`, { title: '', evaluation: { ...EVAL, publicPercent: 0, metric: 'f2' } });
    expect(body(bad).data.fields).toMatchObject({ title: '请输入赛题名称', 'evaluation.publicPercent': '公榜比例至少为1%' });
    expect((await orgB.post(`/api/competition/question/${competitionId}`, { title: 'B题' })).statusCode).toBe(404);
    expect((await orgB.get(`/api/competition/question/check/${id}`)).statusCode).toBe(404);
    expect((await orgB.put(`/api/competition/question/${id}`, { title: '改' })).statusCode).toBe(404);
    const participant = await loggedIn(t.app, (await registerUser(t.app, `qp${++seq}x`)).username);
    expect((await participant.get(`/api/competition/question/check/${id}`)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/competition/question/check/${id}` })).statusCode).toBe(401);

    const checked = body(await orgA.get(`/api/competition/question/check/${id}`)).data;
    expect(checked).toMatchObject({ title: 'A题', reviewed: false, creatorName: 'qOrgA', evaluation: EVAL, answerRows: null });
    expect(checked.content).not.toContain('<script');
    expect(body(await orgA.get(`/api/competition/question/page?competitionId=${competitionId}`)).data.total).toBeGreaterThanOrEqual(1);
    expect(body(await orgB.get(`/api/competition/question/page?competitionId=${competitionId}`)).data.total).toBe(0);
    expect(body(await orgA.get(`/api/competition/question/list/${competitionId}`)).data.map((q: { id: number }) => q.id)).toContain(id);
    const erin = await registerUser(t.app, `qc${++seq}x`);
    expect((await orgA.put(`/api/competition/question/${id}/creator`, { creatorId: erin.id })).statusCode).toBe(200);
    expect(body(await orgA.get(`/api/competition/question/check/${id}`)).data.creatorName).toBe(erin.username);
  });

  it('shows a question publicly only after the platform reviews it', async () => {
    const id = await newQuestion();
    // A question without an evaluation is judged by experts alone (issue 33): it is reviewed like any other.
    const paper = await newQuestion({ evaluation: null });
    const visible = async () =>
      body(await t.app.inject({ method: 'GET', url: `/api/competition/question/public/list/${competitionId}` })).data.map((q: { id: number }) => q.id);
    expect(await visible()).not.toContain(id);
    expect((await orgA.put(`/api/competition/question/review/${id}`, { reviewed: true })).statusCode).toBe(403);
    expect((await admin.put(`/api/competition/question/review/${id}`, { reviewed: true })).statusCode).toBe(200);
    expect(await visible()).toContain(id);
    expect((await t.app.inject({ method: 'GET', url: `/api/competition/question/public/${id}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/competition/question/public/${paper}` })).statusCode).toBe(404);
    expect((await admin.put(`/api/competition/question/review/${paper}`, { reviewed: true })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/competition/question/public/${paper}` })).statusCode).toBe(200);
  });

  it('checks the answer file against the evaluation and never hands it out', async () => {
    const id = await newQuestion({ evaluation: null });
    expect(body(await answer(orgA, id, ANSWER)).message).toBe('请先保存评分设置，再上传答案文件');
    await orgA.put(`/api/competition/question/${id}`, { title: '带答案', evaluation: EVAL });
    const wrong = await answer(orgA, id, 'id,label\nu1,1\nu2,3\n');
    expect(wrong.statusCode).toBe(400);
    expect(body(wrong).message).toBe('答案文件有误：第3行：真实值须为0或1');
    expect((await answer(orgB, id, ANSWER)).statusCode).toBe(404);
    const res = await answer(orgA, id, ANSWER);
    expect([res.statusCode, body(res).data]).toEqual([200, { rows: 50 }]);
    expect(body(await orgA.get(`/api/competition/question/check/${id}`)).data.answerRows).toBe(50);

    const row = await t.database.db.selectFrom('questions').select(['answerKey', 'salt']).where('id', '=', id).executeTakeFirstOrThrow();
    for (const res of [
      await orgA.get(`/api/competition/question/check/${id}`),
      await orgA.get(`/api/competition/question/page?limit=100`),
      await admin.get(`/api/competition/question/list/${competitionId}`),
    ]) {
      expect(res.body).not.toContain(row.answerKey!);
      expect(res.body).not.toContain(row.salt!);
    }
    for (const who of [orgA, admin]) expect((await who.get(`/api/file/common/download?fileUri=${encodeURIComponent(row.answerKey!)}`)).statusCode).toBe(404);

    // A new setting must still fit the stored answers; one that does not is refused and changes nothing.
    const misfit = await orgA.put(`/api/competition/question/${id}`, { title: '带答案', evaluation: { ...EVAL, targetColumn: 'y' } });
    expect(body(misfit).message).toBe('答案文件有误：第1行：表头须包含“id”和“y”两列');
    expect(body(await orgA.get(`/api/competition/question/check/${id}`)).data.evaluation.targetColumn).toBe('label');
    expect(
      (await orgA.put(`/api/competition/question/${id}`, { title: '带答案', evaluation: { ...EVAL, metric: 'accuracy', dailyLimit: 3 } })).statusCode,
    ).toBe(200);

    // A second upload replaces the first, whose file is gone.
    expect(body(await answer(orgA, id, 'id,label\nv1,1\n')).data).toEqual({ rows: 1 });
    expect(await t.database.db.selectFrom('files').select('key').where('key', '=', row.answerKey!).executeTakeFirst()).toBeUndefined();
    expect(
      (await orgA.request({ method: 'POST', url: `/api/competition/question/${id}/answer`, ...multipart('x.pdf', PDF, 'application/pdf') })).statusCode,
    ).toBe(400);
  });

  describe('question choice', () => {
    async function team() {
      const username = `qt${++seq}x`;
      await registerUser(t.app, username);
      const leader = await loggedIn(t.app, username);
      const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `选题队${seq}`, info })).data;
      return { leader, ...(r as { teamId: number; registerId: number; orderId: number }) };
    }
    async function openChoice(enable: boolean, window: { enableStartTime?: string; enableEndTime?: string } = {}) {
      const presets = body(await orgA.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
      await orgA.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'CHOICE_SET')!.id}`, { enable, ...window });
    }

    it('lets an approved, paid team’s leader choose and change a reviewed question while the window is open', async () => {
      const q1 = await newQuestion();
      const q2 = await newQuestion();
      const hidden = await newQuestion();
      await admin.put(`/api/competition/question/review/${q1}`, { reviewed: true });
      await admin.put(`/api/competition/question/review/${q2}`, { reviewed: true });
      const { leader, teamId, registerId, orderId } = await team();

      await openChoice(false);
      expect(body(await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 })).message).toBe('不在选择赛题的时间内');
      await openChoice(true);
      expect(body(await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 })).message).toBe('报名审核通过后才能选题');
      await orgA.post(`/api/team/register/flow/${registerId}`, { action: 'approve' });
      expect(body(await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 })).message).toBe('请先完成缴费再选题');
      const voucher = body(
        await leader.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('v.pdf', PDF, 'application/pdf') }),
      ).data.fileUri;
      await leader.put(`/api/order/voucher/${orderId}`, { payMethod: 4, voucher });
      await orgA.put(`/api/order/confirm/${orderId}`);

      expect(body(await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: hidden })).data.fields.questionId).toBe('赛题不存在');
      expect((await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 })).statusCode).toBe(200);
      expect(body(await leader.get(`/api/team/${teamId}`)).data.choiceQuestionList).toEqual([{ questionId: q1, title: expect.any(String), judging: 'both' }]);
      expect((await leader.put(`/api/team/choiceQuestion/${teamId}/${q2}`)).statusCode).toBe(200);
      expect(body(await leader.get(`/api/team/${teamId}`)).data.choiceQuestionList.map((c: { questionId: number }) => c.questionId)).toEqual([q2]);

      const other = await team();
      expect((await other.leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 })).statusCode).toBe(404);
      expect(body(await orgA.delete(`/api/competition/question/${q2}`)).message).toBe('已有队伍选择该赛题，不能删除');
      expect((await orgA.delete(`/api/competition/question/${hidden}`)).statusCode).toBe(200);
      await openChoice(false);
      expect(body(await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 })).message).toBe('不在选择赛题的时间内');
      // A window that has closed, or not yet opened, is named with its time (Beijing).
      await openChoice(true, { enableStartTime: '2026-03-01T00:00:00Z', enableEndTime: '2026-03-19T04:00:00Z' });
      expect(body(await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 })).message).toBe('选择赛题已于 2026-03-19 12:00 截止');
      await openChoice(true, { enableStartTime: '2026-03-21T01:30:00Z', enableEndTime: '2026-03-30T00:00:00Z' });
      expect(body(await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 })).message).toBe('选择赛题将于 2026-03-21 09:30 开始');
      // Without times of its own, the choice closes with the stage chosen as the works' deadline: choosing after it is refused by name.
      await openChoice(true, { enableStartTime: undefined, enableEndTime: undefined });
      expect((await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 })).statusCode).toBe(200);
      const stage = body(
        await orgA.post(`/api/competition/stages/${competitionId}`, {
          name: '初赛',
          startDate: '2026-03-01T00:00:00Z',
          endDate: '2026-03-19T04:00:00Z',
          sort: 1,
        }),
      ).data.id;
      expect((await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q2 })).statusCode).toBe(200);
      const presets = body(await orgA.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
      expect(
        (await orgA.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'SUBMIT_WORKS')!.id}`, { enable: true, deadlineStageId: stage }))
          .statusCode,
      ).toBe(200);
      const refused = await leader.put(`/api/team/choiceQuestion/${teamId}`, { questionId: q1 });
      expect([refused.statusCode, body(refused).message]).toEqual([409, '选择赛题已于 2026-03-19 12:00 截止']);
      expect(body(await leader.get(`/api/team/${teamId}`)).data.choiceQuestionList.map((c: { questionId: number }) => c.questionId)).toEqual([q2]);
    });
  });
});
