import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERT_BUILTIN_FIELDS, embedBoardSchema, publicResultsSchema, resultLineSchema } from '@contest/shared';
import { runDueJobs } from '../src/jobs/runner.ts';
import { boardCsv as boardCsvOf, boardHtml, resultsHtml } from '../src/modules/publicity/embed-html.ts';
import {
  ADMIN_PASSWORD,
  Client,
  DATABASES,
  PDF,
  REG_FIELD_LIST,
  REG_INFO,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  registerUser,
  type TestApp,
} from './helpers.ts';
import {
  MAE_ANSWER,
  MAE_EVALUATION,
  SCHOOL_FIELD,
  assignWorks,
  assignmentsOf,
  confirmGrades,
  expert,
  judgesOnQuestion,
  maePrediction,
  ok,
  reviewRule,
  reviewedQuestion,
  submitScores,
  teamWithWork,
  unique,
} from './factories.ts';

/**
 * Issue 38 items 3 and 4: a competition's results published for everyone (公示), objections by verified users during
 * the 公示期 only, the final list with certificate numbers after it; and the pages other sites frame, with their
 * headers (who may frame them, no cookie) and no personal data.
 */
const PERSONAL = ['张三', REG_INFO.idCardNo, REG_INFO.tel, '@', 'username', 'phone', 'email', 'idCard', 'userName'];

describe.each(DATABASES)('公示 and embeds on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let orgB: Client;
  const START = new Date('2026-03-20T02:00:00Z');
  let now = START;
  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { REGISTER_MAX_PER_IP: '100000' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'pubOrg', '公示主办方');
    orgB = await makeOrganiser(t, admin, 'pubOrgB', '别的主办方');
  });
  afterAll(() => t.close());

  /** A question judged and scored, two teams graded, awarded and certified; the clock just after the deadline. */
  async function awardedCompetition() {
    now = START;
    const n = unique();
    const q = await reviewedQuestion(admin, org, {
      title: `公示题${n}`,
      fieldList: [...REG_FIELD_LIST, SCHOOL_FIELD],
      evaluation: MAE_EVALUATION,
      answer: MAE_ANSWER,
    });
    const teams = [];
    for (const [i, school] of ['北京大学', '重庆大学'].entries()) {
      teams.push(
        await teamWithWork(t, org, q, {
          username: `pub${kind}${n}t${i}`,
          name: `公示队${n}-${i}`,
          info: { ...REG_INFO, organization: school },
          prediction: maePrediction(i),
        }),
      );
    }
    await runDueJobs(t.deps);
    const judge = await expert(t, org, `pubJudge${kind}${n}`, '评审大学');
    const rule = await reviewRule(org, q.questionId, {
      criteria: [{ name: '创新性', description: null, maxScore: 100 }],
      judgesPerWork: 1,
      aggregation: 'mean',
      reviewWeight: 100,
      testWeight: 0,
      blind: false,
      disputeDays: 0,
    });
    await judgesOnQuestion(org, q.questionId, [judge]);
    await assignWorks(org, q.questionId);
    for (const a of await assignmentsOf(org, q.questionId)) await submitScores(judge, rule, a.id, [a.teamId === teams[0]!.teamId ? 95 : 80]);
    await confirmGrades(org, q, '2026-03-20T11:00:00+08:00', () => {
      now = new Date('2026-03-20T03:00:01Z');
    });
    ok(
      await org.put(`/api/review/works/awards/${q.questionId}`, {
        levels: [
          { name: '一等奖', rankFrom: 1, rankTo: 1 },
          { name: '二等奖', rankFrom: 2, rankTo: 2 },
        ],
      }),
      'awards',
    );
    ok(await org.post(`/api/review/works/awards/apply/${q.questionId}`), 'apply awards');
    const template = ok<{ id: number }>(
      await org.post(`/api/review/certificate/${q.competitionId}`, {
        name: '获奖证书',
        backgroundUri: 'builtin:landscape',
        fields: CERT_BUILTIN_FIELDS.landscape,
      }),
      'template',
    );
    ok(await org.post(`/api/review/certificate/relation/${q.questionId}`, { templateId: template.id }), 'relation');
    ok(await org.post(`/api/review/certificate/cert/push/${q.questionId}`), 'push');
    await runDueJobs(t.deps);
    return { ...q, teams, n };
  }

  async function verifiedUser(name: string) {
    const username = `obj${kind}${unique()}`;
    const { id } = await registerUser(t.app, username);
    await t.database.db.updateTable('users').set({ verifiedName: name, userName: name }).where('id', '=', id).execute();
    return { client: await loggedIn(t.app, username), id, username };
  }
  const results = async (competitionId: number, who: Client = new Client(t.app)) => {
    const res = await who.get(`/api/competition/results/public/${competitionId}`);
    expect(res.statusCode, res.body).toBe(200);
    return publicResultsSchema.parse(body(res).data);
  };
  const hours = (h: number) => new Date(now.getTime() + h * 3600_000).toISOString();

  it('publishes the award list in its 公示期 for objections by verified users, then the final list with certificate numbers', async () => {
    const q = await awardedCompetition();
    const anon = new Client(t.app);
    expect(await results(q.competitionId)).toMatchObject({ state: 'none', questions: [] });

    // The 公示期 set by the organiser (and refused with the reason when wrong), starting in an hour.
    const settings = (payload: object) => org.put(`/api/competition/publicity/${q.competitionId}`, payload);
    const wrong = await settings({ start: hours(2), end: hours(1), embedOrigins: [] });
    expect([wrong.statusCode, body(wrong).message]).toEqual([400, '公示结束时间须晚于开始时间']);
    const badOrigin = await settings({ start: hours(1), end: hours(73), embedOrigins: ['https://school.example.cn/results'] });
    expect(badOrigin.statusCode).toBe(400);
    expect(body(badOrigin).message).toContain('不含路径');
    expect((await orgB.put(`/api/competition/publicity/${q.competitionId}`, { start: hours(1), end: hours(73), embedOrigins: [] })).statusCode).toBe(404);
    const saved = await settings({ start: hours(1), end: hours(73), embedOrigins: [] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(body(saved).data).toMatchObject({ state: 'before' });
    expect(await results(q.competitionId)).toMatchObject({ state: 'before', questions: [] });

    const objector = await verifiedUser('李四');
    const objection = (who: Client, payload: object) => who.post(`/api/competition/results/objection/${q.competitionId}`, payload);
    const line = { questionId: q.questionId, teamId: q.teams[0]!.teamId, reason: '该队作品与往届获奖作品雷同' };
    const early = await objection(objector.client, line);
    expect([early.statusCode, body(early).message]).toEqual([409, '成绩尚未公示，不能提出异议']);

    // In the window: the provisional list, by award, with schools, and no person in it.
    now = new Date(now.getTime() + 2 * 3600_000);
    const open = await results(q.competitionId);
    expect(open.state).toBe('open');
    expect(open.questions).toHaveLength(1);
    const lines = open.questions[0]!.groups[0]!.lines;
    expect(lines.map((l) => [l.teamName, l.schoolName, l.awardName, l.certNos])).toEqual([
      [q.teams[0]!.name, '北京大学', '一等奖', []],
      [q.teams[1]!.name, '重庆大学', '二等奖', []],
    ]);
    const text = JSON.stringify(open);
    for (const p of PERSONAL) expect(text).not.toContain(p);
    // The reply's schema names no personal field at all.
    expect(Object.keys(resultLineSchema.shape).sort()).toEqual(['awardName', 'certNos', 'questionId', 'rank', 'schoolName', 'teamId', 'teamName', 'teamNo']);

    // Objections: a login, a real name, a line on the list; once per person and line.
    expect((await objection(anon, line)).statusCode).toBe(401);
    const { client: unverified } = await (async () => {
      const username = `unv${kind}${unique()}`;
      await registerUser(t.app, username);
      return { client: await loggedIn(t.app, username) };
    })();
    const refused = await objection(unverified, line);
    expect([refused.statusCode, body(refused).message]).toEqual([403, '提出异议须实名：请先在个人中心完成实名认证']);
    expect((await objection(objector.client, { ...line, teamId: 999_999 })).statusCode).toBe(404);
    expect((await objection(objector.client, { ...line, reason: ' ' })).statusCode).toBe(400);
    const evidence = ok<{ fileUri: string }>(
      await objector.client.request({ method: 'POST', url: '/api/file/upload/document?purpose=objection', ...multipart('证据.pdf', PDF, 'application/pdf') }),
      'evidence',
    );
    const othersFile = ok<{ fileUri: string }>(
      await q.teams[1]!.leader.request({ method: 'POST', url: '/api/file/upload/document?purpose=objection', ...multipart('x.pdf', PDF, 'application/pdf') }),
      'other',
    );
    expect((await objection(objector.client, { ...line, attachment: othersFile.fileUri })).statusCode).toBe(400);
    const filed = await objection(objector.client, { ...line, attachment: evidence.fileUri });
    expect(filed.statusCode, filed.body).toBe(200);
    const again = await objection(objector.client, line);
    expect([again.statusCode, body(again).message]).toEqual([409, '您已对该条目提出过异议，请等待答复']);

    // It lands in the question's dispute queue, with the objector's real name and the evidence the staff may read.
    const queue = ok<{ list: { id: number; kind: string; objectorName: string; teamId: number; attachment: string }[] }>(
      await org.get(`/api/review/works/dispute/page/${q.questionId}?status=0`),
      'queue',
    ).list;
    expect(queue).toEqual([expect.objectContaining({ kind: 'objection', objectorName: '李四', teamId: q.teams[0]!.teamId, attachment: evidence.fileUri })]);
    expect((await org.get(`/api/file/common/download?fileUri=${encodeURIComponent(evidence.fileUri)}`)).statusCode).toBe(200);
    expect((await orgB.get(`/api/file/common/download?fileUri=${encodeURIComponent(evidence.fileUri)}`)).statusCode).not.toBe(200);
    // The team's own grade page does not take it for the team's dispute.
    const mine = ok<{ dispute: unknown }[]>(await q.teams[0]!.leader.get(`/api/review/works/myGrade/${q.competitionId}`), 'my grade');
    expect(mine.every((g) => g.dispute === null)).toBe(true);
    // Answered, the objector is told.
    ok(await org.put(`/api/review/works/dispute/${queue[0]!.id}`, { answer: '经复核，作品不雷同，维持原结果' }), 'answer');
    const told = await t.database.db
      .selectFrom('noticeRecipients as r')
      .innerJoin('notices as n', 'n.id', 'r.noticeId')
      .select('n.title')
      .where('r.userId', '=', objector.id)
      .execute();
    expect(told.map((x) => x.title)).toContain('公示异议已答复');

    // After the window: no more objections; the final list, each line with its certificate numbers.
    now = new Date(now.getTime() + 80 * 3600_000);
    const late = await objection(objector.client, { ...line, teamId: q.teams[1]!.teamId });
    expect([late.statusCode, body(late).message]).toEqual([409, '公示期已结束，不能再提出异议']);
    const final = await results(q.competitionId);
    expect(final.state).toBe('closed');
    const finalLines = final.questions[0]!.groups[0]!.lines;
    const certs = await t.database.db.selectFrom('certificates').select(['teamId', 'certNo', 'verifyCode']).where('questionId', '=', q.questionId).execute();
    expect(certs.length).toBeGreaterThan(0);
    for (const l of finalLines)
      expect(l.certNos.sort()).toEqual(
        certs
          .filter((c) => c.teamId === l.teamId)
          .map((c) => c.certNo)
          .sort(),
      );
    // The verification code stays on the paper.
    for (const c of certs) expect(JSON.stringify(final)).not.toContain(c.verifyCode);
  });

  it('serves the results and the board to other sites: framed by the listed origins only, no cookie, JSON and CSV without personal data', async () => {
    const q = await awardedCompetition();
    ok(
      await org.put(`/api/competition/publicity/${q.competitionId}`, {
        start: hours(-1),
        end: hours(48),
        embedOrigins: ['https://school.example.cn', 'http://127.0.0.1:8081/'],
      }),
      'settings',
    );
    const session = (await loggedIn(t.app, `pub${kind}${q.n}t0`)).token!;

    for (const url of [`/embed/results/${q.competitionId}`, `/embed/leaderboard/${q.questionId}`]) {
      // A visitor's session cookie is neither read nor renewed.
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: `contest_token=${session}`, origin: 'https://school.example.cn' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self' https://school.example.cn http://127.0.0.1:8081");
      expect(res.headers['content-security-policy']).toContain("script-src 'sha256-");
      expect(res.headers['access-control-allow-origin']).toBe('https://school.example.cn');
      expect(res.body).toContain('contest-embed-height');
      for (const p of PERSONAL.filter((x) => x !== '@' && x !== 'username')) expect(res.body).not.toContain(p);
      // Another origin is not told it may read it, and the platform's own pages still refuse framing.
      const other = await t.app.inject({ method: 'GET', url, headers: { origin: 'https://evil.example.com' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    }
    const home = await t.app.inject({ method: 'GET', url: `/api/competition/results/public/${q.competitionId}` });
    expect(home.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(home.headers['content-security-policy']).not.toContain('school.example.cn');

    // The same data as JSON (the public page's reply; the board without team ids) and CSV.
    const json = await t.app.inject({ method: 'GET', url: `/embed/results/${q.competitionId}?format=json` });
    const data = publicResultsSchema.parse(json.json());
    expect(data.questions[0]!.groups[0]!.lines.map((l) => l.awardName)).toEqual(['一等奖', '二等奖']);
    const board = embedBoardSchema.parse((await t.app.inject({ method: 'GET', url: `/embed/leaderboard/${q.questionId}?format=json` })).json());
    // Grades confirmed: the private board is published, and the embed shows it.
    expect(board).toMatchObject({ board: 'private', total: 2 });
    expect(board.rows.map((r) => r.teamName).sort()).toEqual(q.teams.map((x) => x.name).sort());
    expect(JSON.stringify(board)).not.toContain('teamId');
    const csv = await t.app.inject({ method: 'GET', url: `/embed/results/${q.competitionId}?format=csv` });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('\uFEFF赛题,组别,奖项,名次,队伍编号,队伍,学校,证书编号');
    expect(csv.body).toContain(`${q.teams[0]!.name},北京大学`);
    const boardCsv = await t.app.inject({ method: 'GET', url: `/embed/leaderboard/${q.questionId}?format=csv` });
    expect(boardCsv.body.split('\r\n')).toHaveLength(4);

    // Without the platform's address (production without PUBLIC_URL) the pages render without their footer link.
    expect(resultsHtml(data, '')).not.toContain('数据来自');
    expect(boardHtml(board, '')).toContain('<table>');
    // A negative score stays a number in the CSV; a team name a spreadsheet would run as a formula does not.
    const csvOf = boardCsvOf({ ...board, rows: [{ ...board.rows[0]!, score: -0.125, teamName: '=HYPERLINK("x")' }] });
    expect(csvOf.split('\r\n')[1]).toMatch(/^1,"'=HYPERLINK\(""x""\)",,-0\.125,/);
    // A competition without listed origins may be framed by the platform alone; an unknown one answers as a page.
    ok(await org.put(`/api/competition/publicity/${q.competitionId}`, { start: hours(-1), end: hours(48), embedOrigins: [] }), 'settings');
    const own = await t.app.inject({ method: 'GET', url: `/embed/results/${q.competitionId}` });
    expect(own.headers['content-security-policy']).toMatch(/frame-ancestors 'self'$/);
    const missing = await t.app.inject({ method: 'GET', url: '/embed/leaderboard/999999', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('text/html');
    expect(missing.body).toContain('赛题不存在');
    // A program asking for it reads the refusal in the API's envelope.
    expect((await t.app.inject({ method: 'GET', url: '/embed/leaderboard/999999?format=json' })).json()).toEqual({
      status: 404,
      message: '赛题不存在',
      data: null,
    });
  });
});
