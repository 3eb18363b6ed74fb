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
  type Client,
  type TestApp,
} from './helpers.ts';
import { MAE_ANSWER as ANSWER, MAE_DEADLINE as DEADLINE, MAE_EVALUATION as MAE, maePrediction as prediction } from './factories.ts';

/**
 * Issue 33, item 5: the organiser's view of a question's test submissions, and 取消成绩 / 恢复 of a submission or a
 * team, with a reason, audited, the team told and the boards (and so the grades) recomputed.
 */

type Entry = { teamId: number; score: number; submissions: number };
type Sub = {
  id: number;
  teamId: number;
  teamName: string;
  fileName: string;
  fileUri: string | null;
  publicScore: number | null;
  privateScore: number | null;
  cancelReason: string | null;
};

describe.each(DATABASES)('the organiser’s view of test submissions and 取消成绩 on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let other: Client;
  let now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'dqOrg', '取消大学');
    other = await makeOrganiser(t, admin, 'dqOther', '别的大学');
  });
  afterAll(() => t.close());

  const drain = async () => {
    while (await runDueJobs(t.deps));
  };
  const submit = (who: Client, questionId: number, text: string, name = 'pred.csv') =>
    who.request({ method: 'POST', url: `/api/review/test/${questionId}`, ...multipart(name, Buffer.from(text), 'text/csv') });
  const board = async (who: Client, q: number, which: 'public' | 'private') =>
    (body(await who.get(`/api/review/test/leaderboard/${q}?board=${which}&page=1&limit=50`)).data.entries as Entry[]).map((e) => [
      e.teamId,
      e.score,
      e.submissions,
    ]);
  const submissions = async (q: number, query = '') =>
    body(await org.get(`/api/review/test/submissions/${q}${query}`)).data as {
      list: Sub[];
      total: number;
      disqualified: { teamId: number; reason: string; username: string }[];
      locked: boolean;
    };
  const inbox = async (who: Client) => body(await who.get('/api/message/notice/page/1')).data.list as { title: string; content: string }[];
  const audits = (action: string) => t.database.db.selectFrom('auditLog').select(['entityId', 'afterJson']).where('action', '=', action).execute();

  it('shows every submission, lets it be downloaded, and cancels and restores a submission or a team with the boards and grades following', async () => {
    const c = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${c}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST', 'GRADE_SET'])
      expect((await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true })).statusCode).toBe(200);
    await setSubmissionDeadline(org, c, DEADLINE);
    const q = body(await org.post(`/api/competition/question/${c}`, { title: '预测题', judging: 'auto', evaluation: MAE })).data.id as number;
    expect(
      (await org.request({ method: 'POST', url: `/api/competition/question/${q}/answer`, ...multipart('answer.csv', Buffer.from(ANSWER), 'text/csv') }))
        .statusCode,
    ).toBe(200);
    expect((await admin.put(`/api/competition/question/review/${q}`, { reviewed: true })).statusCode).toBe(200);
    const teams: { leader: Client; teamId: number; name: string }[] = [];
    for (const name of ['甲队', '乙队', '丙队']) {
      const username = `dq${kind}${teams.length}`;
      await registerUser(t.app, username);
      const leader = await loggedIn(t.app, username);
      const r = body(await leader.post(`/api/team/register/${c}`, { teamName: name, info: REG_INFO })).data;
      await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
      expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId: q })).statusCode).toBe(200);
      teams.push({ leader, teamId: r.teamId, name });
    }
    const [a, b, cc] = teams as [(typeof teams)[0], (typeof teams)[0], (typeof teams)[0]];
    // 甲 sends a good file (off by 1) and a worse one (off by 5); 乙 off by 2; 丙 off by 3.
    expect((await submit(a.leader, q, prediction(1), 'best.csv')).statusCode).toBe(200);
    expect((await submit(a.leader, q, prediction(5), 'worse.csv')).statusCode).toBe(200);
    expect((await submit(b.leader, q, prediction(2))).statusCode).toBe(200);
    expect((await submit(cc.leader, q, prediction(3))).statusCode).toBe(200);
    await drain();
    expect(await board(org, q, 'public')).toEqual([
      [a.teamId, 1, 2],
      [b.teamId, 2, 1],
      [cc.teamId, 3, 1],
    ]);

    // The organiser sees every team's files, with the private scores the teams do not see yet.
    const all = await submissions(q);
    expect(all.total).toBe(4);
    expect(all.list.map((s) => [s.teamName, s.fileName, s.publicScore, s.privateScore])).toEqual([
      ['丙队', 'pred.csv', 3, 3],
      ['乙队', 'pred.csv', 2, 2],
      ['甲队', 'worse.csv', 5, 5],
      ['甲队', 'best.csv', 1, 1],
    ]);
    expect((await submissions(q, '?keyword=甲')).list.map((s) => s.fileName)).toEqual(['worse.csv', 'best.csv']);
    expect((await submissions(q, `?teamId=${b.teamId}`)).total).toBe(1);
    // Another organisation's organiser sees nothing of it, and cannot act on it.
    expect((await other.get(`/api/review/test/submissions/${q}`)).statusCode).toBe(404);
    const best = all.list.find((s) => s.fileName === 'best.csv')!;
    expect((await other.put(`/api/review/test/cancel/${best.id}`, { cancelled: true, reason: '抄袭' })).statusCode).toBe(404);
    expect((await other.put(`/api/review/test/disqualify/${q}`, { teamId: b.teamId, disqualified: true, reason: '抄袭' })).statusCode).toBe(404);
    // Any file can be downloaded by the organiser, not by another organiser or another team.
    const file = await org.get(`/api/file/common/download?fileUri=${encodeURIComponent(best.fileUri!)}`);
    expect([file.statusCode, file.body]).toEqual([200, prediction(1)]);
    expect((await other.get(`/api/file/common/download?fileUri=${encodeURIComponent(best.fileUri!)}`)).statusCode).toBe(404);
    expect((await b.leader.get(`/api/file/common/download?fileUri=${encodeURIComponent(best.fileUri!)}`)).statusCode).toBe(404);

    // Cancelling needs a reason; without one nothing changes.
    const bare = await org.put(`/api/review/test/cancel/${best.id}`, { cancelled: true, reason: '  ' });
    expect([bare.statusCode, body(bare).message]).toEqual([400, '请填写取消成绩的原因']);
    expect((await board(org, q, 'public'))[0]).toEqual([a.teamId, 1, 2]);

    // Cancelled: 甲's best file counts no more; its other file (5) puts it last, on both boards.
    const cancel = await org.put(`/api/review/test/cancel/${best.id}`, { cancelled: true, reason: '使用了测试集标签' });
    expect([cancel.statusCode, body(cancel).message]).toEqual([200, '已取消该提交的成绩']);
    expect(await board(org, q, 'public')).toEqual([
      [b.teamId, 2, 1],
      [cc.teamId, 3, 1],
      [a.teamId, 5, 1],
    ]);
    expect((await board(org, q, 'private')).map(([team]) => team)).toEqual([b.teamId, cc.teamId, a.teamId]);
    // The team is told, sees the reason on its file, and cannot choose it as a final submission.
    expect((await inbox(a.leader))[0]).toMatchObject({ title: '测试提交的成绩已被取消' });
    expect((await inbox(a.leader))[0]!.content).toContain('使用了测试集标签');
    const mine = body(await a.leader.get(`/api/review/test/list/${q}`)).data as { list: { id: number; cancelReason: string | null }[] };
    expect(mine.list.find((s) => s.id === best.id)!.cancelReason).toBe('使用了测试集标签');
    const pick = await a.leader.put(`/api/review/test/select/${best.id}`, { selected: true });
    expect([pick.statusCode, body(pick).message]).toEqual([409, '该提交的成绩已被主办方取消，不能作为最终结果']);
    expect((await audits('test.cancel')).map((r) => r.entityId)).toEqual([String(best.id)]);
    expect((await submissions(q, '?cancelled=1')).list.map((s) => s.id)).toEqual([best.id]);

    // Restored: the board is as it was.
    expect((await org.put(`/api/review/test/cancel/${best.id}`, { cancelled: false })).statusCode).toBe(200);
    expect((await board(org, q, 'public'))[0]).toEqual([a.teamId, 1, 2]);
    expect((await inbox(a.leader))[0]).toMatchObject({ title: '测试提交的成绩已恢复' });
    expect((await audits('test.restore')).length).toBe(1);

    // A team disqualified is off both boards, told why, and cannot submit any more.
    const dq = await org.put(`/api/review/test/disqualify/${q}`, { teamId: b.teamId, disqualified: true, reason: '一人多号' });
    expect([dq.statusCode, body(dq).message]).toEqual([200, '已取消该队伍的成绩']);
    expect((await board(org, q, 'public')).map(([team]) => team)).toEqual([a.teamId, cc.teamId]);
    expect((await board(org, q, 'private')).map(([team]) => team)).toEqual([a.teamId, cc.teamId]);
    expect((await submissions(q)).disqualified).toMatchObject([{ teamId: b.teamId, reason: '一人多号', username: 'dqOrg' }]);
    expect(body(await b.leader.get(`/api/review/test/list/${q}`)).data.disqualified).toMatchObject({ reason: '一人多号' });
    const refused = await submit(b.leader, q, prediction(0));
    expect([refused.statusCode, body(refused).message]).toEqual([409, '你的队伍在该赛题的成绩已被主办方取消（原因：一人多号），不能再提交测试文件']);
    expect((await inbox(b.leader))[0]).toMatchObject({ title: '队伍成绩已被取消' });
    expect((await audits('team.disqualify')).length).toBe(1);
    // A team that did not choose the question cannot be disqualified from it.
    expect((await org.put(`/api/review/test/disqualify/${q}`, { teamId: 999999, disqualified: true, reason: '抄袭' })).statusCode).toBe(404);

    // Restored, then 丙 disqualified before the grades: the grades rank 甲 and 乙 only.
    expect((await org.put(`/api/review/test/disqualify/${q}`, { teamId: b.teamId, disqualified: false })).statusCode).toBe(200);
    expect((await board(org, q, 'public')).map(([team]) => team)).toEqual([a.teamId, b.teamId, cc.teamId]);
    expect((await org.put(`/api/review/test/disqualify/${q}`, { teamId: cc.teamId, disqualified: true, reason: '代码抄袭' })).statusCode).toBe(200);
    now = new Date('2026-05-01T00:00:00Z');
    const confirmed = await org.post(`/api/review/works/confirmFinalScore/${q}`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const graded = body(await org.get(`/api/review/works/grade/${q}?limit=50`)).data.list as { teamId: number; rank: number }[];
    expect(graded.map((g) => [g.teamId, g.rank]).sort((x, y) => x[1]! - y[1]!)).toEqual([
      [a.teamId, 1],
      [b.teamId, 2],
    ]);
    // Once the results are out they stand.
    const late = await org.put(`/api/review/test/cancel/${best.id}`, { cancelled: true, reason: '抄袭' });
    expect([late.statusCode, body(late).message]).toEqual([409, '该赛题的成绩已确认公布，不能再取消或恢复成绩']);
    expect((await submissions(q)).locked).toBe(true);
  });
});
