import { SCHOOL_FIRST_TEXT, SCHOOL_NOT_LISTED_TEXT, SCHOOL_STATUS, mainlandCheckDigit } from '@contest/shared';
import ExcelJS from 'exceljs';
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
} from './helpers.ts';

/**
 * Issue 36, item 2: school coordinators (院校负责人). Organisers (and the platform) appoint a user for one school of the
 * list; a competition with 两级审核 has its registrations reviewed by the school first, then by the organiser, each side
 * told; the coordinator sees the school's teams on a dashboard. A coordinator of one school sees nothing of another's.
 */
const ID = '11010519491231002' + mainlandCheckDigit('11010519491231002');
const FIELDS = [{ label: '姓名', name: 'userName', otherParams: { required: true } }];
const RULES = { sameSchool: true, schoolAudit: true, maxTeamsPerSchool: null, maxTeamsPerTeacher: null, groupMode: 'none', groupList: [] };

describe.each(DATABASES)('school coordinators on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let otherOrg: Client;
  let seq = 0;
  const schools: Record<'A' | 'B', { id: number; name: string }> = {} as never;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      clock: { now: () => new Date('2026-03-20T02:00:00Z') },
      env: { SESSION_TTL_HOURS: String(24 * 365), REGISTER_MAX_PER_IP: '10000' },
    });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'coordOrg', '协调大学');
    otherOrg = await makeOrganiser(t, admin, 'coordOther', '别家大学');
    for (const [key, name] of [
      ['A', `甲师范大学${kind}`],
      ['B', `乙理工大学${kind}`],
    ] as const) {
      const res = await admin.post('/api/system/school', { name, kind: 'undergraduate' });
      expect(res.statusCode, res.body).toBe(200);
      schools[key] = { id: body(res).data.id, name };
    }
  });
  afterAll(() => t.close());

  async function person(prefix = 'co') {
    const username = `${prefix}${kind}${++seq}`;
    const { id } = await registerUser(t.app, username);
    return Object.assign(await loggedIn(t.app, username), { id, username });
  }
  const inbox = async (who: Client) => body(await who.get('/api/message/notice/page/1')).data.list as { title: string; content: string }[];
  const appoint = (who: Client, competitionId: number, account: string, schoolId: number, scope = 'competition') =>
    who.post(`/api/competition/coordinator/${competitionId}`, { account, schoolId, scope });

  it('runs 两级审核: the school first, then the organiser, each with a reason on refusal and each side told', async () => {
    const id = await onlineCompetition(admin, org, { eligibility: RULES }, FIELDS);
    const coordA = await person('coordA');
    const coordB = await person('coordB');
    // Appointing: a real account, a school of the list, a scope the caller may give.
    expect(body(await appoint(org, id, 'nobody-here', schools.A.id)).data.fields.account).toBe('没有该用户名或手机号的可用账号，请对方先注册');
    expect((await appoint(org, id, coordA.username, 999_999)).statusCode).toBe(400);
    const platformWide = await appoint(org, id, coordA.username, schools.A.id, 'platform');
    expect([platformWide.statusCode, body(platformWide).data.fields.scope]).toEqual([400, '只有平台管理员可以指定平台所有竞赛的院校负责人']);
    expect((await appoint(org, id, coordA.username, schools.A.id)).statusCode).toBe(200);
    expect((await appoint(org, id, coordA.username, schools.A.id)).statusCode).toBe(409);
    // For every competition of the organisation.
    expect((await appoint(org, id, coordB.username, schools.B.id, 'org')).statusCode).toBe(200);
    expect((await inbox(coordA))[0]).toMatchObject({ title: '您已被指定为院校负责人' });
    // (An appointment by the platform for every competition, another test's, may be listed too: not removable here.)
    const listed = (body(await org.get(`/api/competition/coordinator/${id}`)).data as { username: string; scope: string; removable: boolean }[]).filter(
      (c) => c.scope !== 'platform',
    );
    expect(listed.map((c) => [c.username, c.scope, c.removable]).sort()).toEqual(
      [
        [coordA.username, 'competition', true],
        [coordB.username, 'org', true],
      ].sort(),
    );
    // Another organisation's organiser sees none of it.
    expect((await otherOrg.get(`/api/competition/coordinator/${id}`)).statusCode).toBe(404);

    const leader = await person('lead');
    // Only the list's schools: a coordinator reviews a school of the list.
    const freeText = await leader.post(`/api/team/register/${id}`, { teamName: '自由队', info: { userName: '张三', organization: '不在名单学院' } });
    expect([freeText.statusCode, body(freeText).data.fields['info.organization']]).toEqual([400, SCHOOL_NOT_LISTED_TEXT]);
    const reg = await leader.post(`/api/team/register/${id}`, { teamName: '两级队', info: { userName: '张三', idCardNo: ID, organization: schools.A.name } });
    expect(reg.statusCode, reg.body).toBe(200);
    const { registerId, teamId } = body(reg).data as { registerId: number; teamId: number };
    expect((await inbox(coordA))[0]).toMatchObject({ title: '新的报名待学校审核' });
    expect((await inbox(coordB))[0]?.title).not.toBe('新的报名待学校审核');

    // The organiser waits for the school, alone and in a batch.
    const early = await org.post(`/api/team/register/flow/${registerId}`, { action: 'approve' });
    expect([early.statusCode, body(early).message]).toEqual([409, SCHOOL_FIRST_TEXT]);
    const batch = body(await org.post('/api/team/register/flow/batch', { ids: [registerId], action: 'approve' })).data;
    expect(batch).toMatchObject({ skippedWhy: '待学校审核', skippedNames: [expect.stringContaining('两级队')] });

    // The other school's coordinator sees nothing of it.
    expect((await coordB.get(`/api/school/coordinator/teams/${id}?schoolId=${schools.A.id}`)).statusCode).toBe(404);
    expect((await coordB.post(`/api/school/coordinator/audit/${registerId}`, { action: 'approve' })).statusCode).toBe(404);
    expect((await leader.post(`/api/school/coordinator/audit/${registerId}`, { action: 'approve' })).statusCode).toBe(404);
    const bView = body(await coordB.get(`/api/school/coordinator/teams/${id}?schoolId=${schools.B.id}`)).data;
    expect(bView.teams).toEqual([]);

    // The school refuses with a reason; the team is told, corrects, and sends it again to the school.
    const noReason = await coordA.post(`/api/school/coordinator/audit/${registerId}`, { action: 'reject' });
    expect(body(noReason).data.fields.reason).toBe('请填写驳回原因');
    expect((await coordA.post(`/api/school/coordinator/audit/${registerId}`, { action: 'reject', reason: '缺少学生证' })).statusCode).toBe(200);
    const refused = body(await leader.get(`/api/team/competition/${id}`)).data.register;
    expect(refused).toMatchObject({ status: 2, schoolStatus: SCHOOL_STATUS.rejected, reason: '学校审核驳回：缺少学生证' });
    expect((await inbox(leader))[0]).toMatchObject({ title: '报名未通过学校审核' });
    expect((await leader.put(`/api/team/update/${teamId}`, { info: { userName: '张三', organization: schools.A.name } })).statusCode).toBe(200);
    expect(body(await leader.get(`/api/team/competition/${id}`)).data.register).toMatchObject({ status: 0, schoolStatus: SCHOOL_STATUS.pending });

    // Passed by the school (twice at once: decided once), then by the organiser.
    const both = await Promise.all([1, 2].map(() => coordA.post(`/api/school/coordinator/audit/${registerId}`, { action: 'approve' })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await inbox(leader))[0]).toMatchObject({ title: '学校审核通过' });
    expect((await inbox(org)).some((m) => m.title === '新的报名待审核' && m.content.includes('已通过学校审核'))).toBe(true);
    expect((await org.post(`/api/team/register/flow/${registerId}`, { action: 'approve' })).statusCode).toBe(200);
    const detail = body(await org.get(`/api/team/register/${registerId}`)).data;
    expect(detail.flows.map((f: { action: string }) => f.action)).toEqual(['submit', 'schoolReject', 'resubmit', 'schoolApprove', 'approve']);

    // The dashboard: the school's team, its state and the counts.
    const mine = body(await coordA.get('/api/school/coordinator/mine')).data;
    expect(mine).toEqual([
      { schoolId: schools.A.id, schoolName: schools.A.name, competitions: [expect.objectContaining({ id, schoolAudit: true, teams: 1 })] },
    ]);
    const dash = body(await coordA.get(`/api/school/coordinator/teams/${id}?schoolId=${schools.A.id}`)).data;
    expect(dash.teams).toEqual([
      expect.objectContaining({ teamId, teamName: '两级队', members: ['张三'], status: 1, schoolStatus: SCHOOL_STATUS.approved, payStatus: null, works: 0 }),
    ]);
    expect(dash.summary).toEqual({ teams: 1, waitingForSchool: 0, approved: 1, paid: 0, withWorks: 0, awarded: 0, certificates: 0 });
    // Anyone without an appointment has no schools.
    expect(body(await leader.get('/api/school/coordinator/mine')).data).toEqual([]);
  });

  it('lets only the organisation (or the platform) take an appointment back, and ends the coordinator’s access with it', async () => {
    const id = await onlineCompetition(admin, org, { eligibility: RULES }, FIELDS);
    const coord = await person('coordC');
    const made = body(await appoint(org, id, coord.username, schools.B.id)).data.id as number;
    expect((await coord.get(`/api/school/coordinator/teams/${id}?schoolId=${schools.B.id}`)).statusCode).toBe(200);
    expect((await otherOrg.delete(`/api/competition/coordinator/item/${made}`)).statusCode).toBe(404);
    expect((await org.delete(`/api/competition/coordinator/item/${made}`)).statusCode).toBe(200);
    expect((await coord.get(`/api/school/coordinator/teams/${id}?schoolId=${schools.B.id}`)).statusCode).toBe(404);
    // The platform appoints for every competition.
    const platform = await appoint(admin, id, coord.username, schools.B.id, 'platform');
    expect(platform.statusCode, platform.body).toBe(200);
    const elsewhere = await onlineCompetition(admin, otherOrg, {}, FIELDS);
    expect((await coord.get(`/api/school/coordinator/teams/${elsewhere}?schoolId=${schools.B.id}`)).statusCode).toBe(200);
    expect((await coord.get(`/api/school/coordinator/teams/${elsewhere}?schoolId=${schools.A.id}`)).statusCode).toBe(404);
  });

  it('imports 300 students with 5 bad rows: the bad rows named, then nothing or every good team in, as the coordinator chooses', {
    timeout: 240_000,
  }, async () => {
    const id = await onlineCompetition(admin, org, { eligibility: { ...RULES, maxTeamsPerSchool: 500 }, maxMembers: 3, fee: 5000 }, [
      ...FIELDS,
      { label: '身份证号', name: 'idCardNo', otherParams: { required: false } },
    ]);
    const coord = await person('coordImp');
    expect((await appoint(org, id, coord.username, schools.A.id)).statusCode).toBe(200);
    // One student already has an account (matched by phone, not created again).
    const base = 13900000000 + (kind === 'sqlite' ? 0 : 50000);
    const known = await registerUser(t.app, `known${kind}`, 'Passw0rd1', { phone: String(base + 7) });
    // It proved its number (an SMS code, as 账号设置 does).
    await t.database.db
      .updateTable('users')
      .set({ verifiedPhone: String(base + 7) })
      .where('id', '=', known.id)
      .execute();
    // Another account merely wrote a student's number in its profile: it is not that student.
    const squatter = await registerUser(t.app, `squat${kind}`, 'Passw0rd1', { phone: String(base + 8) });
    const rows: string[][] = [];
    for (let team = 0; team < 100; team++)
      for (let m = 0; m < 3; m++) rows.push([`导入队${team}`, m === 0 ? '队长' : '队员', `学生${team}-${m}`, String(base + team * 3 + m), '', '本科']);
    // Five bad rows (spreadsheet rows are these indexes + 2, under the header): five teams hold one each.
    rows[10]![3] = '1234';
    rows[40]![2] = '';
    rows[100]![3] = rows[99]![3]!;
    rows[200]![4] = '110105194912310021';
    rows[250]![1] = '老师';
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('名单');
    sheet.addRow(['队伍名称', '角色', '姓名', '手机号', '身份证号', '学历']);
    for (const r of rows) sheet.addRow(r);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    const send = (who: Client, mode: string) =>
      who.request({
        method: 'POST',
        url: `/api/school/coordinator/import/${id}?schoolId=${schools.A.id}&mode=${mode}`,
        ...multipart('名单.xlsx', file, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
      });
    // Someone else's school: nothing.
    expect((await send(await person('stranger'), 'valid')).statusCode).toBe(404);

    const none = await send(coord, 'all');
    expect(none.statusCode, none.body).toBe(200);
    const refused = body(none).data;
    expect(refused.imported).toBe(false);
    expect(refused.errors.map((e: { row: number }) => e.row)).toEqual([12, 42, 102, 202, 252]);
    expect(refused.errors.map((e: { message: string }) => e.message)).toEqual([
      '手机号“1234”格式不正确',
      '缺少姓名',
      `手机号与第101行重复`,
      expect.stringContaining('身份证'),
      '角色“老师”应为队长或队员',
    ]);
    expect(body(none).message).toBe('未导入：5行有错误，请修改后重新导入');
    const teamsNow = async () => (await t.database.db.selectFrom('teams').select('id').where('competitionId', '=', id).execute()).length;
    expect(await teamsNow()).toBe(0);

    const some = await send(coord, 'valid');
    const done = body(some).data;
    expect([done.imported, done.teams, done.members, done.accountsCreated]).toEqual([true, 95, 285, 284]);
    expect(done.skippedTeams.sort()).toEqual(['导入队3', '导入队13', '导入队33', '导入队66', '导入队83'].sort());
    expect(await teamsNow()).toBe(95);
    // Each imported team is registered, passed at the school's level, with its order; the known account is a leader.
    const regs = await t.database.db.selectFrom('registers').select(['status', 'schoolStatus', 'orderId']).where('competitionId', '=', id).execute();
    expect(regs.every((r) => r.status === 0 && r.schoolStatus === SCHOOL_STATUS.approved && r.orderId !== null)).toBe(true);
    const knownTeam = await t.database.db
      .selectFrom('teamMembers')
      .select(['leader'])
      .where('userId', '=', known.id)
      .where('competitionId', '=', id)
      .executeTakeFirst();
    expect(knownTeam).toEqual({ leader: 0 });
    expect(await t.database.db.selectFrom('teamMembers').select('teamId').where('userId', '=', squatter.id).execute()).toEqual([]);
    // The new accounts sign in by an SMS code to their number.
    const made = await t.database.db
      .selectFrom('users')
      .select(['verifiedPhone', 'passwordHash'])
      .where('phone', '=', String(base + 6))
      .execute();
    expect(made).toEqual([{ verifiedPhone: String(base + 6), passwordHash: null }]);
    const dash = body(await coord.get(`/api/school/coordinator/teams/${id}?schoolId=${schools.A.id}`)).data;
    expect(dash.summary.teams).toBe(95);
    // Importing the same file again: every team's name is taken now.
    const again = body(await send(coord, 'valid')).data;
    expect([again.imported, again.teams]).toEqual([false, 0]);

    // The same small roster sent twice at once: one import takes it, the other is told, and nobody is in two teams.
    const twice = new ExcelJS.Workbook();
    const sh = twice.addWorksheet('名单');
    sh.addRow(['队伍名称', '角色', '姓名', '手机号', '身份证号', '学历']);
    for (let team = 0; team < 4; team++)
      for (let m = 0; m < 2; m++) sh.addRow([`并发队${team}`, m ? '队员' : '队长', `并发${team}-${m}`, String(base + 20000 + team * 2 + m), '', '']);
    const twiceFile = Buffer.from(await twice.xlsx.writeBuffer());
    const sendTwice = () =>
      coord.request({
        method: 'POST',
        url: `/api/school/coordinator/import/${id}?schoolId=${schools.A.id}&mode=all`,
        ...multipart('并发.xlsx', twiceFile, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
      });
    const both = await Promise.all([sendTwice(), sendTwice()]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both.map((r) => body(r).data.imported).sort()).toEqual([false, true]);
    const seated = await t.database.db.selectFrom('teams').select('id').where('competitionId', '=', id).where('name', 'like', '并发队%').execute();
    expect(seated).toHaveLength(4);
  });
});
