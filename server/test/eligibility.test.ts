import {
  CHOOSE_GROUP_TEXT,
  NO_GROUP_TEXT,
  SAME_SCHOOL_TEXT,
  TEACHER_PHONE_TEXT,
  mainlandCheckDigit,
  schoolFullText,
  teacherFullText,
  teacherSchoolText,
} from '@contest/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDueJobs } from '../src/jobs/runner.ts';
import { ranksByGroup } from '../src/modules/grades/service.ts';
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
} from './helpers.ts';
import { MAE_ANSWER, MAE_EVALUATION, maePrediction } from './factories.ts';

/**
 * Issue 36, item 3: eligibility rules per competition. Members (and teachers) of one school, at most N teams per
 * school and per teacher, groups set by the members' highest degree or chosen; enforced on every path that changes a
 * team, each group ranked on its own, and the places counted in the database so that racing registrations for a
 * school's last place let exactly one through.
 */
const ID = '11010519491231002' + mainlandCheckDigit('11010519491231002');
const FIELDS = [
  { label: '姓名', name: 'userName', otherParams: { required: true } },
  { label: '身份证号', name: 'idCardNo', otherParams: { required: true } },
];
const info = (organization: string, extra: object = {}) => ({ userName: '张三', idCardNo: ID, organization, ...extra });
const NONE = { sameSchool: false, schoolAudit: false, maxTeamsPerSchool: null, maxTeamsPerTeacher: null, groupMode: 'none', groupList: [] };
const BY_DEGREE = {
  groupMode: 'degree',
  groupList: [
    { name: '本科组', degrees: ['高职（专科）', '本科'] },
    { name: '研究生组', degrees: ['硕士研究生', '博士研究生'] },
  ],
};

describe.each(DATABASES)('eligibility rules on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let now = new Date('2026-03-20T02:00:00Z');
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      clock: { now: () => now },
      env: { SESSION_TTL_HOURS: String(24 * 365), REGISTER_MAX_PER_IP: '10000' },
    });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'eligOrg', '资格大学');
  });
  afterAll(() => t.close());
  beforeEach(() => {
    now = new Date('2026-03-20T02:00:00Z');
  });

  const competition = (eligibility: object, extra: object = {}) =>
    onlineCompetition(admin, org, { maxMembers: 3, eligibility: { ...NONE, ...eligibility }, ...extra }, FIELDS);
  async function person() {
    const username = `elig${kind}${++seq}`;
    const { id } = await registerUser(t.app, username);
    return Object.assign(await loggedIn(t.app, username), { id });
  }
  async function registered(competitionId: number, organization: string, extra: object = {}, groupName?: string) {
    const leader = await person();
    const res = await leader.post(`/api/team/register/${competitionId}`, { teamName: `资格队${seq}`, info: info(organization, extra), groupName });
    expect(res.statusCode, res.body).toBe(200);
    const teamId = body(res).data.teamId as number;
    const joinCode = body(await leader.get(`/api/team/competition/${competitionId}`)).data.joinCode as string;
    return { leader, teamId, joinCode };
  }
  const team = async (who: Client, competitionId: number) => body(await who.get(`/api/team/competition/${competitionId}`)).data;
  const join = async (teamId: number, code: string, organization: string, extra: object = {}) => {
    const p = await person();
    return { p, res: await p.post(`/api/team/member/agree/${teamId}?code=${code}`, { info: info(organization, extra) }) };
  };

  it('are set in the editor, checked, shown with the competition, and fixed once it is online', async () => {
    const id = await competition({ sameSchool: true, maxTeamsPerSchool: 5, maxTeamsPerTeacher: 4, ...BY_DEGREE });
    const bad = await org.post('/api/competition/', {
      name: '分组不全',
      brandId: body(await admin.get('/api/competition/brand/public/page?limit=1')).data.list[0].id,
      regStartTime: '2026-03-10T00:00:00+08:00',
      regEndTime: '2026-04-10T00:00:00+08:00',
      endTime: '2026-06-30T00:00:00+08:00',
      eligibility: {
        ...NONE,
        groupMode: 'degree',
        groupList: [
          { name: '本科组', degrees: ['本科'] },
          { name: '研究生组', degrees: ['本科', '硕士研究生'] },
          { name: '本科组', degrees: ['博士研究生'] },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(body(bad).data.fields).toMatchObject({
      'eligibility.groupList.2.name': '组别“本科组”重复了',
      'eligibility.groupList.1.degrees': '学历“本科”已属于“本科组”',
    });
    const detail = body(await t.app.inject({ method: 'GET', url: `/api/competition/public/${id}` })).data;
    expect(detail.eligibility).toEqual({ sameSchool: true, schoolAudit: false, maxTeamsPerSchool: 5, maxTeamsPerTeacher: 4, ...BY_DEGREE });
    const current = detail;
    const changed = await org.put(`/api/competition/${id}`, {
      name: current.name,
      brandId: current.brandId,
      regStartTime: current.regStartTime,
      regEndTime: current.regEndTime,
      endTime: current.endTime,
      minMembers: current.minMembers,
      maxMembers: current.maxMembers,
      maxTeachers: current.maxTeachers,
      eligibility: { ...current.eligibility, maxTeamsPerSchool: 6 },
    });
    expect([changed.statusCode, body(changed).message]).toEqual([409, '竞赛上线后不能修改参赛资格规则']);
  });

  it('keeps a team to one school: members who join, teachers, and the leader changing school', async () => {
    const id = await competition({ sameSchool: true });
    // 学校 is asked for by the rule even though the organiser's form did not ask for it.
    const noSchool = await (await person()).post(`/api/team/register/${id}`, { teamName: '无校队', info: { userName: '张三', idCardNo: ID } });
    expect([noSchool.statusCode, body(noSchool).data.fields['info.organization']]).toEqual([400, '请填写学校']);
    const { leader, teamId, joinCode } = await registered(id, '甲大学');
    const other = await join(teamId, joinCode, '乙大学');
    expect([other.res.statusCode, body(other.res).data.fields['info.organization']]).toEqual([400, SAME_SCHOOL_TEXT]);
    // Written a little differently, the same school.
    const same = await join(teamId, joinCode, ' 甲大学 ');
    expect(same.res.statusCode, same.res.body).toBe(200);
    expect((await team(leader, id)).memberList).toHaveLength(2);
    // A member cannot move to another school, nor the leader away from the members.
    const moved = await same.p.put(`/api/team/member/${teamId}`, { info: info('乙大学') });
    expect([moved.statusCode, body(moved).message]).toEqual([400, SAME_SCHOOL_TEXT]);
    const leaderMoved = await leader.put(`/api/team/update/${teamId}`, { info: info('乙大学') });
    expect([leaderMoved.statusCode, body(leaderMoved).message]).toEqual([400, SAME_SCHOOL_TEXT]);
    // Teachers too.
    const teacher = (organization: string) => ({ name: '李老师', phone: '13900001111', organization, title: '教授' });
    const foreign = await leader.put(`/api/team/updateTeacher/${teamId}`, { teacherList: [teacher('乙大学')] });
    expect([foreign.statusCode, body(foreign).message]).toEqual([409, teacherSchoolText('李老师')]);
    expect((await team(leader, id)).teacherList).toEqual([]);
    expect((await leader.put(`/api/team/updateTeacher/${teamId}`, { teacherList: [teacher('甲大学')] })).statusCode).toBe(200);
    const t2 = await team(leader, id);
    expect([t2.teacherList.length, t2.schoolName, t2.memberList.map((m: { info: { organization: string } }) => m.info.organization)]).toEqual([
      1,
      '甲大学',
      ['甲大学', '甲大学'],
    ]);
  });

  it('counts each school’s teams, and moves the place when a team’s school changes', async () => {
    const id = await competition({ maxTeamsPerSchool: 2 });
    await registered(id, '丙大学');
    const second = await registered(id, '丙大学');
    const third = await (await person()).post(`/api/team/register/${id}`, { teamName: '第三队', info: info('丙大学') });
    expect([third.statusCode, body(third).message]).toEqual([409, schoolFullText(2)]);
    // Refused, nothing of it stays: no team, no place.
    expect(await t.database.db.selectFrom('teams').select('id').where('name', '=', '第三队').execute()).toEqual([]);
    // Another school is not counted with it.
    await registered(id, '丁大学');
    // The second team's leader moves to 丁大学: a place of 丙大学 comes free, one of 丁大学 is taken.
    expect((await second.leader.put(`/api/team/update/${second.teamId}`, { info: info('丁大学') })).statusCode).toBe(200);
    await registered(id, '丙大学');
    const fullAgain = await second.leader.put(`/api/team/update/${second.teamId}`, { info: info('丙大学') });
    expect([fullAgain.statusCode, body(fullAgain).message]).toEqual([409, schoolFullText(2)]);
    const quota = await t.database.db.selectFrom('eligibilityQuota').select(['key', 'used']).where('competitionId', '=', id).orderBy('key').execute();
    expect(quota.map((q) => q.used).sort()).toEqual([2, 2]);

    // A refused registration gives its school's place back: a team made only to hold one keeps nobody out. Sent
    // again, it takes one again, or waits while the school is full.
    const holder = await registered(id, '戊大学');
    const other = await registered(id, '戊大学');
    const full = await (await person()).post(`/api/team/register/${id}`, { teamName: '戊三队', info: info('戊大学') });
    expect([full.statusCode, body(full).message]).toEqual([409, schoolFullText(2)]);
    const holderReg = body(await holder.leader.get(`/api/team/competition/${id}`)).data.register.id as number;
    expect((await org.post(`/api/team/register/flow/${holderReg}`, { action: 'reject', reason: '不是本校学生' })).statusCode).toBe(200);
    // Refused twice at once gives back one place, not two.
    expect((await org.post(`/api/team/register/flow/${holderReg}`, { action: 'reject', reason: '再次' })).statusCode).toBe(409);
    expect((await (await person()).post(`/api/team/register/${id}`, { teamName: '戊三队', info: info('戊大学') })).statusCode).toBe(200);
    const again = await holder.leader.put(`/api/team/update/${holder.teamId}`, { info: info('戊大学') });
    expect([again.statusCode, body(again).message]).toEqual([409, schoolFullText(2)]);
    expect(body(await holder.leader.get(`/api/team/competition/${id}`)).data.register.status).toBe(2);
    void other;
  });

  it('counts each teacher’s teams by phone number, and gives a place back when a teacher leaves a team', async () => {
    const id = await competition({ maxTeamsPerTeacher: 1 });
    const a = await registered(id, '戊大学');
    const b = await registered(id, '戊大学');
    const wang = { name: '王老师', phone: '13700002222', organization: '戊大学', title: '讲师' };
    const noPhone = await a.leader.put(`/api/team/updateTeacher/${a.teamId}`, { teacherList: [{ ...wang, phone: null }] });
    expect([noPhone.statusCode, body(noPhone).data.fields['teacherList.0.phone']]).toEqual([400, TEACHER_PHONE_TEXT]);
    expect((await a.leader.put(`/api/team/updateTeacher/${a.teamId}`, { teacherList: [wang] })).statusCode).toBe(200);
    // Saving the same list again keeps the place it holds.
    expect((await a.leader.put(`/api/team/updateTeacher/${a.teamId}`, { teacherList: [{ ...wang, title: '副教授' }] })).statusCode).toBe(200);
    const taken = await b.leader.put(`/api/team/updateTeacher/${b.teamId}`, { teacherList: [{ ...wang, name: '王老师（另写）' }] });
    expect([taken.statusCode, body(taken).message]).toEqual([409, teacherFullText('王老师（另写）', 1)]);
    expect((await a.leader.put(`/api/team/updateTeacher/${a.teamId}`, { teacherList: [] })).statusCode).toBe(200);
    expect((await b.leader.put(`/api/team/updateTeacher/${b.teamId}`, { teacherList: [wang] })).statusCode).toBe(200);
  });

  it('puts a team in the group of its highest degree as members come and go, or in the group it chose', async () => {
    const id = await competition(BY_DEGREE);
    const noDegree = await (await person()).post(`/api/team/register/${id}`, { teamName: '无学历', info: info('甲大学') });
    expect([noDegree.statusCode, body(noDegree).data.fields['info.education']]).toEqual([400, '请选择学历']);
    const { leader, teamId, joinCode } = await registered(id, '甲大学', { education: '本科' });
    expect((await team(leader, id)).groupName).toBe('本科组');
    const school = await join(teamId, joinCode, '甲大学', { education: '中学' });
    expect([school.res.statusCode, body(school.res).data.fields['info.education']]).toEqual([400, NO_GROUP_TEXT]);
    const master = await join(teamId, joinCode, '甲大学', { education: '硕士研究生' });
    expect(master.res.statusCode).toBe(200);
    expect((await team(leader, id)).groupName).toBe('研究生组');
    expect((await master.p.delete(`/api/team/member/${teamId}?userId=${master.p.id}`)).statusCode).toBe(200);
    expect((await team(leader, id)).groupName).toBe('本科组');
    // The leader's own degree changes it too.
    expect((await leader.put(`/api/team/update/${teamId}`, { info: info('甲大学', { education: '博士研究生' }) })).statusCode).toBe(200);
    expect((await team(leader, id)).groupName).toBe('研究生组');

    const chosen = await competition({ groupMode: 'choice', groupList: [{ name: 'A组' }, { name: 'B组' }] });
    const none = await (await person()).post(`/api/team/register/${chosen}`, { teamName: '未选组', info: info('甲大学') });
    expect([none.statusCode, body(none).data.fields.groupName]).toEqual([400, CHOOSE_GROUP_TEXT]);
    const wrong = await (await person()).post(`/api/team/register/${chosen}`, { teamName: '错组', info: info('甲大学'), groupName: 'C组' });
    expect([wrong.statusCode, body(wrong).message]).toEqual([400, CHOOSE_GROUP_TEXT]);
    const b = await registered(chosen, '甲大学', {}, 'B组');
    expect((await team(b.leader, chosen)).groupName).toBe('B组');
    expect((await b.leader.put(`/api/team/update/${b.teamId}`, { groupName: 'A组' })).statusCode).toBe(200);
    expect((await team(b.leader, chosen)).groupName).toBe('A组');
  });

  it('lets exactly one of 100 simultaneous registrations take a school’s last place', { timeout: 240_000 }, async () => {
    const id = await competition({ maxTeamsPerSchool: 3 });
    await registered(id, '己大学');
    await registered(id, '己大学');
    const people: Awaited<ReturnType<typeof person>>[] = [];
    for (let i = 0; i < 100; i++) people.push(await person());
    const results = await Promise.all(
      people.map((p, i) => p.post(`/api/team/register/${id}`, { teamName: `抢位队${kind}${i}`, info: info(i % 2 ? '己大学' : '己 大学') })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode !== 200).every((r) => r.statusCode === 409 && body(r).message === schoolFullText(3))).toBe(true);
    const teams = await t.database.db.selectFrom('teams').select('id').where('competitionId', '=', id).execute();
    const quota = await t.database.db.selectFrom('eligibilityQuota').select('used').where('competitionId', '=', id).executeTakeFirstOrThrow();
    expect([teams.length, quota.used]).toEqual([3, 3]);
  });

  it('lets exactly one of 20 teams adding one teacher at once have the teacher’s last place', { timeout: 240_000 }, async () => {
    const id = await competition({ maxTeamsPerTeacher: 1 });
    const teams: Awaited<ReturnType<typeof registered>>[] = [];
    for (let i = 0; i < 20; i++) teams.push(await registered(id, '庚大学'));
    const zhao = { name: '赵老师', phone: '13600003333', organization: '庚大学', title: '教授' };
    const results = await Promise.all(teams.map((tm) => tm.leader.put(`/api/team/updateTeacher/${tm.teamId}`, { teacherList: [zhao] })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const rows = await t.database.db
      .selectFrom('teamTeachers as tt')
      .innerJoin('teams as tm', 'tm.id', 'tt.teamId')
      .select('tt.id')
      .where('tm.competitionId', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('ranks each group on its own: boards, grades, awards and the count a team sees', async () => {
    const id = await competition({ ...BY_DEGREE, maxTeamsPerSchool: 100 });
    const presets = body(await org.get(`/api/competition/preset/public/list/${id}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST', 'GRADE_SET'])
      expect((await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true })).statusCode).toBe(200);
    const q = body(await org.post(`/api/competition/question/${id}`, { title: '分组预测', judging: 'auto', evaluation: MAE_EVALUATION })).data.id as number;
    await org.request({ method: 'POST', url: `/api/competition/question/${q}/answer`, ...multipart('answer.csv', Buffer.from(MAE_ANSWER), 'text/csv') });
    expect((await admin.put(`/api/competition/question/review/${q}`, { reviewed: true })).statusCode).toBe(200);
    // Errors 1 and 4 among undergraduates, 2 and 3 among postgraduates (MAE: lower is better).
    const plan = [
      ['本科', 1],
      ['硕士研究生', 2],
      ['博士研究生', 3],
      ['本科', 4],
    ] as const;
    const teams: Awaited<ReturnType<typeof registered>>[] = [];
    for (const [degree, off] of plan) {
      // The last team is of another school: the results grouped by school below.
      const tm = await registered(id, off === 4 ? '乙大学' : '甲大学', { education: degree });
      const reg = body(await tm.leader.get(`/api/team/competition/${id}`)).data.register.id as number;
      expect((await org.post(`/api/team/register/flow/${reg}`, { action: 'approve' })).statusCode).toBe(200);
      expect((await tm.leader.put(`/api/team/choiceQuestion/${tm.teamId}`, { questionId: q })).statusCode).toBe(200);
      const sent = await tm.leader.request({
        method: 'POST',
        url: `/api/review/test/${q}`,
        ...multipart('p.csv', Buffer.from(maePrediction(off)), 'text/csv'),
      });
      expect(sent.statusCode, sent.body).toBe(200);
      teams.push(tm);
    }
    while (await runDueJobs(t.deps));
    const board = async (who: Client, group?: string) =>
      body(await who.get(`/api/review/test/leaderboard/${q}?board=public${group ? `&group=${encodeURIComponent(group)}` : ''}`)).data;
    const grad = await board(teams[2]!.leader, '研究生组');
    expect(grad.entries.map((e: { teamId: number; rank: number; groupName: string }) => [e.teamId, e.rank, e.groupName])).toEqual([
      [teams[1]!.teamId, 1, '研究生组'],
      [teams[2]!.teamId, 2, '研究生组'],
    ]);
    expect([grad.total, grad.mine.rank]).toEqual([2, 2]);
    expect((await board(teams[3]!.leader, '本科组')).mine.rank).toBe(2);
    // The whole board still ranks everyone together.
    expect((await board(teams[3]!.leader)).mine.rank).toBe(4);

    now = new Date('2026-07-01T00:00:00Z');
    expect((await org.post(`/api/review/works/confirmFinalScore/${q}`)).statusCode).toBe(200);
    expect((await org.put(`/api/review/works/awards/${q}`, { levels: [{ name: '一等奖', rankFrom: 1, rankTo: 1 }] })).statusCode).toBe(200);
    expect((await org.post(`/api/review/works/awards/apply/${q}`)).statusCode).toBe(200);
    const grades = body(await org.get(`/api/review/works/grade/${q}?limit=50`)).data.list as {
      teamId: number;
      rank: number;
      groupName: string;
      awardName: string | null;
    }[];
    const of = (i: number) => grades.find((g) => g.teamId === teams[i]!.teamId)!;
    expect([0, 1, 2, 3].map((i) => [of(i).groupName, of(i).rank, of(i).awardName])).toEqual([
      ['本科组', 1, '一等奖'],
      ['研究生组', 1, '一等奖'],
      ['研究生组', 2, null],
      ['本科组', 2, null],
    ]);
    const onlyGrad = body(await org.get(`/api/review/works/grade/${q}?limit=50&groupName=${encodeURIComponent('研究生组')}`)).data;
    expect(onlyGrad.total).toBe(2);
    const mine = body(await teams[2]!.leader.get(`/api/review/works/myGrade/${id}`)).data[0];
    expect(mine).toMatchObject({ rank: 2, teams: 2, groupName: '研究生组' });
    // The results grouped by school, most awarded first; only the organisation reads them.
    expect(body(await org.get(`/api/review/works/grade/schools/${q}`)).data).toEqual([
      { schoolName: '甲大学', teams: 3, awarded: 2, bestRank: 1, awards: [{ awardName: '一等奖', count: 2 }] },
      { schoolName: '乙大学', teams: 1, awarded: 0, bestRank: 2, awards: [] },
    ]);
    expect((await teams[0]!.leader.get(`/api/review/works/grade/schools/${q}`)).statusCode).toBe(403);

    // The exports carry the group (and the registrations' the school): the organiser sorts the lists by them.
    const sheetOf = async (url: string) => {
      const res = await org.get(url);
      expect(res.statusCode, url).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      const header = (sheet.getRow(1).values as unknown[]).map(String);
      return {
        header,
        rows: Array.from({ length: sheet.rowCount - 1 }, (_, i) => Array.from(sheet.getRow(i + 2).values as unknown[], (v) => String(v ?? ''))),
      };
    };
    const gradeSheet = await sheetOf(`/api/review/works/exportGrade/${q}`);
    const g = gradeSheet.header.indexOf('组别（名次按组别分别排列）');
    expect(gradeSheet.rows.map((r) => r[g]).sort()).toEqual(['本科组', '本科组', '研究生组', '研究生组']);
    const regSheet = await sheetOf(`/api/team/register/list?competitionId=${id}&export=xlsx`);
    const [school, group] = [regSheet.header.indexOf('学校'), regSheet.header.indexOf('组别')];
    expect(regSheet.rows.map((r) => `${r[school]} ${r[group]}`).sort()).toEqual(['乙大学 本科组', '甲大学 本科组', '甲大学 研究生组', '甲大学 研究生组']);
  });

  it('ranks within groups with ties sharing a rank', () => {
    const groups = new Map<number, string | null>([
      [1, 'A'],
      [2, 'B'],
      [3, 'A'],
      [4, 'A'],
      [5, 'B'],
    ]);
    const ranks = ranksByGroup(
      [
        { teamId: 1, score: 9 },
        { teamId: 2, score: 9 },
        { teamId: 3, score: 8 },
        { teamId: 4, score: 8 },
        { teamId: 5, score: 7 },
      ],
      groups,
    );
    expect([...ranks.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 2],
      [5, 2],
    ]);
  });
});
