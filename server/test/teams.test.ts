import { ID_CARD_MESSAGES, mainlandCheckDigit } from '@contest/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureScheduled } from '../src/jobs/schedule.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
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
} from './helpers.ts';

const idCard = (first17: string) => first17 + mainlandCheckDigit(first17);
const ID_A = idCard('11010519491231002');
const ID_B = idCard('44030419900101123');
const info = (name: string, id = ID_A) => ({ userName: name, idCardNo: id, tel: '13800138000', province: '广东省', city: '广州市' });

describe.each(DATABASES)('registration, teams and orders on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let orgA: Client;
  let orgB: Client;
  // Inside the registration window of `onlineCompetition` (2026-03-10 to 2026-04-10, Beijing time).
  const START = new Date('2026-03-20T00:00:00Z');
  let now = START;
  let seq = 0;

  beforeAll(async () => {
    // Sessions outlive the tests' trips past the registration deadline. Every account here registers from one address,
    // more than its throttle allows: this file is about teams, not registration.
    t = await createTestApp(kind, {
      clock: { now: () => now },
      env: { SESSION_TTL_HOURS: String(24 * 365), INVITATION_MAX_PER_USER: '6', REGISTER_MAX_PER_IP: '1000' },
    });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    orgA = await makeOrganiser(t, admin, 'orgA', '甲大学');
    orgB = await makeOrganiser(t, admin, 'orgB', '乙大学');
  });
  afterAll(() => t.close());
  // Every test starts inside the window, whatever the one before it did with the clock (or failed to put back).
  beforeEach(() => {
    now = START;
  });

  async function participant(prefix = 'player', extra: object = {}) {
    const username = `${prefix}${++seq}`;
    const user = await registerUser(t.app, username, 'Passw0rd1', extra);
    return Object.assign(await loggedIn(t.app, username), { id: user.id, username });
  }

  async function registered(competitionId: number, name = '数据先锋', id = ID_A) {
    const leader = await participant('lead');
    const res = await leader.post(`/api/team/register/${competitionId}`, { teamName: `${name}${seq}`, info: info('张三', id) });
    expect(res.statusCode, res.body).toBe(200);
    return { leader, ...(body(res).data as { teamId: number; registerId: number; orderId: number | null }) };
  }

  describe('the registration form', () => {
    it('is refused while REG_SET is disabled, before the window opens and after it closes', async () => {
      const id = await onlineCompetition(admin, orgA);
      const p = await participant();
      const presets = body(await orgA.get(`/api/competition/preset/public/list/${id}`)).data as { id: number; menuCode: string }[];
      const reg = presets.find((x) => x.menuCode === 'REG_SET')!;
      await orgA.put(`/api/competition/preset/${reg.id}`, { enable: false });
      const off = await p.post(`/api/team/register/${id}`, { teamName: '甲队', info: info('张三') });
      expect([off.statusCode, body(off).message]).toEqual([409, '该竞赛未开放报名']);
      await orgA.put(`/api/competition/preset/${reg.id}`, { enable: true });

      now = new Date('2026-03-01T00:00:00Z');
      const early = await p.post(`/api/team/register/${id}`, { teamName: '甲队', info: info('张三') });
      expect([early.statusCode, body(early).message]).toEqual([409, '报名尚未开始']);
      now = new Date('2026-04-11T00:00:00Z');
      const late = await p.post(`/api/team/register/${id}`, { teamName: '甲队', info: info('张三') });
      expect([late.statusCode, body(late).message]).toEqual([409, '报名已截止，队伍信息不能再修改']);
      now = new Date('2026-03-20T00:00:00Z');
      expect(body(await p.get(`/api/team/competition/${id}`)).data).toBeNull();
    });

    it('takes no registration and no new member once grading started or results are out, though the window is still open', async () => {
      const id = await onlineCompetition(admin, orgA);
      const { leader, teamId } = await registered(id);
      const code = body(await leader.get(`/api/team/competition/${id}`)).data.joinCode;
      // Works closed on 03-15, before the registration window's end (the walk's contest: a registration end left late).
      const works = (body(await orgA.get(`/api/competition/preset/public/list/${id}`)).data as { id: number; menuCode: string }[]).find(
        (x) => x.menuCode === 'SUBMIT_WORKS',
      )!;
      expect(
        (
          await orgA.put(`/api/competition/preset/${works.id}`, {
            enable: true,
            enableStartTime: '2026-03-10T00:00:00+08:00',
            enableEndTime: '2026-03-15T00:00:00+08:00',
          })
        ).statusCode,
      ).toBe(200);
      // A question of the competition whose grades are calculated, then confirmed (what the grade page does, in short).
      const questionId = body(await orgA.post(`/api/competition/question/${id}`, { title: '论文题', judging: 'review' })).data.id;
      const db = t.database.db;
      await db.updateTable('questions').set({ reviewed: 1 }).where('id', '=', questionId).execute();
      const stamp = now.toISOString();
      const criteria = JSON.stringify([{ id: 'x', name: '深度', description: null, maxScore: 100, weight: 1 }]);
      await db
        .insertInto('reviewRules')
        .values({
          questionId,
          criteriaJson: criteria,
          judgesPerWork: 1,
          aggregation: 'mean',
          reviewWeight: 100,
          testWeight: 0,
          blind: 1,
          disputeDays: 0,
          gradeState: 1,
          calculatedAt: stamp,
          updatedAt: stamp,
        })
        .execute();
      const late = await participant();
      const judged = await late.post(`/api/team/register/${id}`, { teamName: '迟到队', info: info('迟到') });
      expect([judged.statusCode, body(judged).message]).toEqual([409, '评审已开始，报名已结束']);
      await db.updateTable('reviewRules').set({ gradeState: 2, confirmedAt: stamp }).where('questionId', '=', questionId).execute();
      const published = await late.post(`/api/team/register/${id}`, { teamName: '迟到队', info: info('迟到') });
      expect([published.statusCode, body(published).message]).toEqual([409, '成绩已公布，报名已结束']);
      const joining = await late.post(`/api/team/member/agree/${teamId}?code=${code}`, { info: info('迟到', ID_B) });
      expect([joining.statusCode, body(joining).message]).toEqual([409, '成绩已公布，报名已结束']);
      expect(body(await late.get(`/api/team/competition/${id}`)).data).toBeNull();
      // The competition's page says why: its phase.
      expect(body(await late.get(`/api/competition/public/${id}`)).data.phase.code).toBe('published');
    });

    it('enforces the chosen fields with the shared validators and the spec’s ID card messages', async () => {
      const id = await onlineCompetition(admin, orgA);
      const p = await participant();
      const cases: [object, string, string][] = [
        [{ ...info('张三'), idCardNo: '' }, 'info.idCardNo', ID_CARD_MESSAGES.empty],
        [{ ...info('张三'), idCardNo: '12345' }, 'info.idCardNo', ID_CARD_MESSAGES.format],
        [{ ...info('张三'), idCardNo: idCard('99010519491231002') }, 'info.idCardNo', ID_CARD_MESSAGES.region],
        [{ ...info('张三'), idCardNo: idCard('11010519491331002') }, 'info.idCardNo', ID_CARD_MESSAGES.birth],
        [{ ...info('张三'), idCardNo: ID_A.slice(0, 17) + (ID_A.endsWith('0') ? '1' : '0') }, 'info.idCardNo', ID_CARD_MESSAGES.checksum],
        [{ ...info('张三'), userName: ' ' }, 'info.userName', '请填写姓名'],
        [{ ...info('张三'), tel: '12345' }, 'info.tel', '手机号格式不正确'],
        [{ ...info('张三'), province: '火星省' }, 'info.province', '请选择所在省份'],
        [{ ...info('张三'), city: '深圳市', province: '北京市' }, 'info.city', '请选择所在城市'],
      ];
      for (const [form, field, message] of cases) {
        const res = await p.post(`/api/team/register/${id}`, { teamName: '校验队', info: form });
        expect(res.statusCode, JSON.stringify(form)).toBe(400);
        expect(body(res).data.fields[field]).toBe(message);
      }
      const noName = await p.post(`/api/team/register/${id}`, { info: info('张三') });
      expect(body(noName).data.fields.teamName).toBe('请输入队伍名称');
      // Nothing was created by the refused attempts.
      expect(body(await p.get(`/api/team/competition/${id}`)).data).toBeNull();
      // Fields that were not chosen are dropped; an optional phone may stay empty.
      const res = await p.post(`/api/team/register/${id}`, { teamName: '校验队', info: { ...info('张三'), tel: '', email: 'x@y.cn', sex: 1 } });
      expect(res.statusCode, res.body).toBe(200);
      const team = body(await p.get(`/api/team/competition/${id}`)).data;
      expect(team.memberList[0].info).toEqual({
        userName: '张三',
        idCardNo: `${ID_A.slice(0, 3)}***********${ID_A.slice(-4)}`,
        tel: null,
        province: '广东省',
        city: '广州市',
      });
    });

    it('keeps the ID number encrypted at rest and only ever shows it masked', async () => {
      const id = await onlineCompetition(admin, orgA);
      const { leader, teamId, registerId } = await registered(id);
      const row = await t.database.db.selectFrom('teamMembers').selectAll().where('teamId', '=', teamId).executeTakeFirstOrThrow();
      expect(row.infoJson).not.toContain(ID_A);
      expect(row.idCardEnc).not.toContain(ID_A.slice(6, 14));
      expect(t.deps.cipher.decrypt(row.idCardEnc!)).toBe(ID_A);
      expect(row.idCardMask).toBe(`110***********${ID_A.slice(-4)}`);
      for (const res of [
        await leader.get(`/api/team/competition/${id}`),
        await orgA.get(`/api/team/register/${registerId}`),
        await orgA.get(`/api/team/${teamId}`),
      ]) {
        expect(res.statusCode).toBe(200);
        expect(res.body).not.toContain(ID_A);
        expect(res.body).toContain(row.idCardMask);
      }
    });

    it('allows one registration per user per competition, and individual entries only where allowed', async () => {
      const id = await onlineCompetition(admin, orgA, { allowIndividual: false });
      const p = await participant();
      expect((await p.post(`/api/team/register/${id}`, { teamName: '唯一队', info: info('李四') })).statusCode).toBe(200);
      const again = await p.post(`/api/team/register/${id}`, { teamName: '第二队', info: info('李四') });
      expect([again.statusCode, body(again).message]).toEqual([409, '您已报名该竞赛或已加入其中一支队伍']);
      const solo = await (await participant()).post(`/api/team/register/${id}`, { individual: true, info: info('王五') });
      expect(body(solo).data.fields.individual).toBe('该竞赛不允许个人参赛');
      const taken = await (await participant()).post(`/api/team/register/${id}`, { teamName: '唯一队', info: info('赵六') });
      expect([taken.statusCode, body(taken).message]).toEqual([409, '队伍名称已被使用，请换一个名称']);

      const open = await onlineCompetition(admin, orgA, { allowIndividual: true });
      const single = await participant();
      const res = await single.post(`/api/team/register/${open}`, { individual: true, info: info('王五') });
      expect(res.statusCode).toBe(200);
      const team = body(await single.get(`/api/team/competition/${open}`)).data;
      expect(team).toMatchObject({ individual: true, name: '王五（个人）', maxMembers: 1, joinCode: null });
      expect(team.teamNo).toMatch(/^\d{10}$/);
      const friend = await participant();
      const invite = await single.post('/api/team/member/invitation', { teamId: team.id, account: friend.username });
      expect([invite.statusCode, body(invite).message]).toEqual([409, '个人参赛不能邀请队员']);
    });
  });

  describe('teams', () => {
    it('invites by username or phone; the invitee agrees with their own form or refuses', async () => {
      const id = await onlineCompetition(admin, orgA, { maxMembers: 3 });
      const { leader, teamId } = await registered(id);
      const bob = await participant();
      const carol = await participant('carol', { phone: '13912345678' });
      const sent = body(await leader.post('/api/team/member/invitation', { teamId, account: bob.username.toUpperCase() }));
      expect([sent.status, sent.message, sent.data]).toEqual([200, '邀请已发出', { id: expect.any(Number), account: bob.username.toLowerCase() }]);
      expect((await leader.post('/api/team/member/invitation', { teamId, account: '13912345678' })).statusCode).toBe(200);
      const dup = await leader.post('/api/team/member/invitation', { teamId, account: bob.username });
      expect([dup.statusCode, body(dup).message]).toEqual([409, '已向该账号发出邀请，请等待对方回复']);
      // An account that does not exist reads as sent too (see 'answers every account alike'); the invitation goes nowhere.
      expect((await leader.post('/api/team/member/invitation', { teamId, account: 'no-such-user' })).statusCode).toBe(200);
      expect(body(await leader.post('/api/team/member/invitation', { teamId, account: leader.username })).data.fields.account).toBe('不能邀请自己');
      // Only the leader invites.
      expect((await bob.post('/api/team/member/invitation', { teamId, account: carol.username })).statusCode).toBe(404);

      const detail = body(await bob.get(`/api/team/competition/${id}/detail`)).data;
      expect(detail.team).toBeNull();
      expect(detail.invitations).toHaveLength(1);
      expect(body(await bob.get(`/api/team/team/${teamId}`)).data).toMatchObject({
        id: teamId,
        memberNum: 1,
        maxMembers: 3,
        invitationId: detail.invitations[0].id,
      });

      const bad = await bob.post(`/api/team/member/agree/${teamId}`, { info: { ...info('鲍勃', ID_B), idCardNo: '123' } });
      expect(body(bad).data.fields['info.idCardNo']).toBe(ID_CARD_MESSAGES.format);
      expect((await bob.post(`/api/team/member/agree/${teamId}`, { info: info('鲍勃', ID_B) })).statusCode).toBe(200);
      expect((await carol.put(`/api/team/member/refuse/${teamId}`)).statusCode).toBe(200);
      expect((await carol.post(`/api/team/member/agree/${teamId}`, { info: info('卡罗', ID_B) })).statusCode).toBe(404);

      const team = body(await leader.get(`/api/team/competition/${id}`)).data;
      expect(team.memberList.map((m: { name: string; leader: boolean }) => [m.name, m.leader])).toEqual([
        ['张三', true],
        ['鲍勃', false],
      ]);
      // Still pending: the account that reached nobody, shown as typed.
      expect(team.invitationList.map((i: { inviteeId: number | null; inviteeName: string }) => [i.inviteeId, i.inviteeName])).toEqual([[null, 'no-such-user']]);
      // Members see the team but not the join code; strangers see nothing.
      expect(body(await bob.get(`/api/team/competition/${id}`)).data).toMatchObject({ id: teamId, joinCode: null });
      expect((await carol.get(`/api/team/${teamId}`)).statusCode).toBe(404);
      expect((await orgB.get(`/api/team/${teamId}`)).statusCode).toBe(404);
    });

    it('answers every account alike, so that an invitation never tells who owns a phone number', async () => {
      const id = await onlineCompetition(admin, orgA, { maxMembers: 5 });
      const { leader, teamId } = await registered(id);
      const free = await participant('phoneowner', { phone: '13711110001' });
      const entered = await participant('entered', { phone: '13711110002' });
      expect((await entered.post(`/api/team/register/${id}`, { teamName: `另一队${seq}`, info: info('入队者', ID_B) })).statusCode).toBe(200);
      const disabled = await participant('disabled', { phone: '13711110003' });
      expect((await admin.put(`/api/system/user/${disabled.id}/status`, { status: 0 })).statusCode).toBe(200);
      // Can be invited; no such account; already in a team of the competition; disabled.
      const phones = ['13711110001', '13711110009', '13711110002', '13711110003'];
      const replies = [];
      for (const account of phones) {
        const res = await leader.post('/api/team/member/invitation', { teamId, account });
        const b = body(res);
        replies.push([res.statusCode, b.message, Object.keys(b.data).sort(), b.data.account === account]);
        for (const name of [free.username, entered.username, disabled.username]) expect(res.body).not.toContain(name);
      }
      expect(new Set(replies.map((r) => JSON.stringify(r))).size).toBe(1);
      expect(replies[0]).toEqual([200, '邀请已发出', ['account', 'id'], true]);
      // The leader's list names the numbers typed, and nobody behind them.
      const list = body(await leader.get(`/api/team/competition/${id}`)).data.invitationList as { inviteeId: number | null; inviteeName: string }[];
      expect(list.map((i) => [i.inviteeId, i.inviteeName]).sort()).toEqual(phones.map((p) => [null, p]).sort());
      const listed = JSON.stringify(list);
      for (const name of [free.username, entered.username, disabled.username]) expect(listed).not.toContain(name);
      // A second invitation of the same number is refused alike, whether or not it reached anyone.
      for (const account of ['13711110001', '13711110009']) {
        const again = await leader.post('/api/team/member/invitation', { teamId, account });
        expect([again.statusCode, body(again).message]).toEqual([409, '已向该账号发出邀请，请等待对方回复']);
      }
      // Only the one who can join was invited.
      expect(body(await free.get(`/api/team/competition/${id}/detail`)).data.invitations.map((i: { teamId: number }) => i.teamId)).toEqual([teamId]);
      expect(body(await entered.get('/api/team/member/invitation/mine')).data).toEqual([]);
      expect((await free.post(`/api/team/member/agree/${teamId}`, { info: info('持号人', ID_B) })).statusCode).toBe(200);
    });

    it('limits the invitations one user sends in a window, whatever the accounts', async () => {
      const id = await onlineCompetition(admin, orgA, { maxMembers: 5 });
      const { leader, teamId } = await registered(id);
      const target = await participant();
      // INVITATION_MAX_PER_USER is 6 in this file.
      for (let i = 0; i < 6; i++) expect((await leader.post('/api/team/member/invitation', { teamId, account: `1360000000${i}` })).statusCode).toBe(200);
      for (const account of ['13600000009', target.username]) {
        const res = await leader.post('/api/team/member/invitation', { teamId, account });
        expect([res.statusCode, body(res).message]).toEqual([429, '发送邀请过于频繁，请60分钟后再试']);
      }
      expect(body(await target.get('/api/team/member/invitation/mine')).data).toEqual([]);
      // Another leader is counted apart.
      const other = await registered(id, '别队');
      expect((await other.leader.post('/api/team/member/invitation', { teamId: other.teamId, account: target.username })).statusCode).toBe(200);
    });

    it('lets anyone with the join link’s code join, but not a guessed team number', async () => {
      const id = await onlineCompetition(admin, orgA);
      const { leader, teamId } = await registered(id);
      const code = body(await leader.get(`/api/team/competition/${id}`)).data.joinCode as string;
      expect(code).toHaveLength(16);
      const dan = await participant();
      expect((await dan.get(`/api/team/team/${teamId}`)).statusCode).toBe(404);
      expect((await dan.get(`/api/team/team/${teamId}?code=wrong`)).statusCode).toBe(404);
      expect((await dan.post(`/api/team/member/agree/${teamId}?code=wrong`, { info: info('丹') })).statusCode).toBe(404);
      const view = body(await dan.get(`/api/team/team/${teamId}?code=${code}`)).data;
      expect(view).toMatchObject({
        name: expect.stringContaining('数据先锋'),
        leaderName: 'lead' + view.leaderName.slice(4),
        member: false,
        invitationId: null,
      });
      expect(view.fieldList.map((f: { name: string }) => f.name)).toEqual(['userName', 'idCardNo', 'tel', 'region']);
      expect((await dan.post(`/api/team/member/agree/${teamId}?code=${code}`, { info: info('丹') })).statusCode).toBe(200);
      expect(body(await dan.get(`/api/team/competition/${id}`)).data.id).toBe(teamId);
    });

    it('keeps member and teacher counts within the team rules, and lets the leader remove and members leave', async () => {
      const id = await onlineCompetition(admin, orgA, { maxMembers: 2, maxTeachers: 1 });
      const { leader, teamId } = await registered(id);
      const code = body(await leader.get(`/api/team/competition/${id}`)).data.joinCode;
      const [e, f] = [await participant(), await participant()];
      expect((await e.post(`/api/team/member/agree/${teamId}?code=${code}`, { info: info('一') })).statusCode).toBe(200);
      const full = await f.post(`/api/team/member/agree/${teamId}?code=${code}`, { info: info('二') });
      expect([full.statusCode, body(full).message]).toEqual([409, '队伍人数已满']);
      expect(body(await leader.post('/api/team/member/invitation', { teamId, account: f.username })).message).toBe('队伍人数已满');

      const teacher = { name: '王老师', phone: '13800138000', organization: '甲大学', title: '副教授' };
      const two = await leader.put(`/api/team/updateTeacher/${teamId}`, { teacherList: [teacher, { ...teacher, name: '李老师' }] });
      expect(body(two).message).toBe('本竞赛每队最多1名指导老师');
      expect(
        body(await leader.put(`/api/team/updateTeacher/${teamId}`, { teacherList: [{ ...teacher, phone: '123' }] })).data.fields['teacherList.0.phone'],
      ).toBe('老师手机号格式不正确');
      expect((await e.put(`/api/team/updateTeacher/${teamId}`, { teacherList: [teacher] })).statusCode).toBe(403);
      expect((await leader.put(`/api/team/updateTeacher/${teamId}`, { teacherList: [teacher] })).statusCode).toBe(200);
      expect(body(await leader.get(`/api/team/${teamId}`)).data.teacherList).toEqual([{ id: expect.any(Number), ...teacher }]);

      // Leader edits members in bulk, all or nothing.
      const bulk = await leader.put('/api/team/member/batchUpdateMember', {
        teamId,
        memberList: [
          { userId: e.id, info: info('一号') },
          { userId: f.id, info: info('二号') },
        ],
      });
      expect(bulk.statusCode).toBe(400);
      expect(body(bulk).data.fields['memberList.1.userId']).toBe('该用户不在队伍中');
      expect((await leader.put('/api/team/member/batchUpdateMember', { teamId, memberList: [{ userId: e.id, info: info('一号') }] })).statusCode).toBe(200);
      expect(body(await e.get(`/api/team/member/${teamId}`)).data.map((m: { name: string }) => m.name)).toContain('一号');

      expect((await e.delete(`/api/team/member/${teamId}?userId=${leader.id}`)).statusCode).toBe(403);
      expect(body(await e.delete(`/api/team/member/${teamId}?userId=${e.id}`)).message).toBe('已退出队伍');
      expect((await f.post(`/api/team/member/agree/${teamId}?code=${code}`, { info: info('二') })).statusCode).toBe(200);
      expect(body(await leader.delete(`/api/team/member/${teamId}?userId=${f.id}`)).message).toBe('已移除队员');
      expect(body(await f.get(`/api/team/competition/${id}`)).data).toBeNull();
      expect(body(await leader.get(`/api/team/${teamId}`)).data.memberList).toHaveLength(1);
    });

    it('locks team changes once the registration window closes', async () => {
      const id = await onlineCompetition(admin, orgA);
      const { leader, teamId } = await registered(id);
      const code = body(await leader.get(`/api/team/competition/${id}`)).data.joinCode;
      const g = await participant();
      now = new Date('2026-04-11T00:00:00Z');
      try {
        const team = body(await leader.get(`/api/team/competition/${id}`)).data;
        expect(team.locked).toBe(true);
        for (const res of [
          await g.post(`/api/team/member/agree/${teamId}?code=${code}`, { info: info('晚到') }),
          await leader.put(`/api/team/update/${teamId}`, { teamName: '改名' }),
          await leader.put(`/api/team/updateTeacher/${teamId}`, { teacherList: [] }),
          await leader.post('/api/team/member/invitation', { teamId, account: g.username }),
        ]) {
          expect(res.statusCode).toBe(409);
          expect(body(res).message).toBe('报名已截止，队伍信息不能再修改');
        }
      } finally {
        now = new Date('2026-03-20T00:00:00Z');
      }
    });
  });

  describe('races closed in the database', () => {
    it('admits exactly one of 20 concurrent joins for the last seat', async () => {
      const id = await onlineCompetition(admin, orgA, { maxMembers: 2 });
      const { leader, teamId } = await registered(id);
      const code = body(await leader.get(`/api/team/competition/${id}`)).data.joinCode;
      const joiners = await Promise.all(Array.from({ length: 20 }, () => participant('race')));
      const results = await Promise.all(joiners.map((j) => j.post(`/api/team/member/agree/${teamId}?code=${code}`, { info: info('抢位') })));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 409).every((r) => body(r).message === '队伍人数已满')).toBe(true);
      const team = await t.database.db.selectFrom('teams').select('memberCount').where('id', '=', teamId).executeTakeFirstOrThrow();
      const members = await t.database.db.selectFrom('teamMembers').select('userId').where('teamId', '=', teamId).execute();
      expect([team.memberCount, members.length]).toEqual([2, 2]);
    });

    it('lets one user joining two teams at once end in exactly one', async () => {
      const id = await onlineCompetition(admin, orgA);
      const a = await registered(id, '甲');
      const b = await registered(id, '乙');
      const codeA = body(await a.leader.get(`/api/team/competition/${id}`)).data.joinCode;
      const codeB = body(await b.leader.get(`/api/team/competition/${id}`)).data.joinCode;
      const h = await participant();
      const results = await Promise.all([
        h.post(`/api/team/member/agree/${a.teamId}?code=${codeA}`, { info: info('两边') }),
        h.post(`/api/team/member/agree/${b.teamId}?code=${codeB}`, { info: info('两边') }),
        h.post(`/api/team/register/${id}`, { teamName: '自己的队', info: info('两边') }),
      ]);
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      const rows = await t.database.db.selectFrom('teamMembers').select('teamId').where('userId', '=', h.id).where('competitionId', '=', id).execute();
      expect(rows).toHaveLength(1);
      // Whichever won, every seat counter matches the members actually seated.
      const teams = await t.database.db.selectFrom('teams').select(['id', 'memberCount']).where('competitionId', '=', id).execute();
      const seated = await t.database.db.selectFrom('teamMembers').select('teamId').where('competitionId', '=', id).execute();
      for (const team of teams) expect(team.memberCount).toBe(seated.filter((m) => m.teamId === team.id).length);
      expect(seated).toHaveLength(3);
    });

    it('leaves one open order after 10 concurrent order creations', async () => {
      const id = await onlineCompetition(admin, orgA, { fee: 5000 });
      const { leader, teamId, orderId } = await registered(id);
      expect((await leader.put(`/api/order/close/${orderId}`)).statusCode).toBe(200);
      const results = await Promise.all(Array.from({ length: 10 }, () => leader.post(`/api/order/team/${teamId}`)));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => r.statusCode === 409)).toHaveLength(9);
      const open = await t.database.db.selectFrom('orders').select('id').where('teamId', '=', teamId).where('payStatus', '=', 0).execute();
      expect(open).toHaveLength(1);
    });
  });

  describe('registration review', () => {
    it('lists, filters and exports the organisation’s registrations; approves and rejects with a recorded flow', async () => {
      const id = await onlineCompetition(admin, orgA, { fee: 8800 });
      const r1 = await registered(id, '审核甲');
      const r2 = await registered(id, '审核乙');
      const other = await onlineCompetition(admin, orgB);
      await registered(other, '别家');

      const list = body(await orgA.get(`/api/team/register/list?competitionId=${id}`)).data;
      expect(list.total).toBe(2);
      expect(list.list[0]).toMatchObject({ competitionId: id, status: 0, payStatus: 0, memberNum: 1 });
      expect(body(await orgA.get('/api/team/register/list?limit=100')).data.list.every((r: { competitionId: number }) => r.competitionId !== other)).toBe(true);
      expect(body(await admin.get(`/api/team/register/list?competitionId=${other}`)).data.total).toBe(1);
      expect((await orgB.get(`/api/team/register/${r1.registerId}`)).statusCode).toBe(404);
      expect((await orgB.post(`/api/team/register/flow/${r1.registerId}`, { action: 'approve' })).statusCode).toBe(404);
      expect((await r1.leader.post(`/api/team/register/flow/${r1.registerId}`, { action: 'approve' })).statusCode).toBe(403);

      const noReason = await orgA.post(`/api/team/register/flow/${r2.registerId}`, { action: 'reject' });
      expect(body(noReason).data.fields.reason).toBe('请填写驳回原因');
      expect((await orgA.post(`/api/team/register/flow/${r1.registerId}`, { action: 'approve' })).statusCode).toBe(200);
      const twice = await orgA.post(`/api/team/register/flow/${r1.registerId}`, { action: 'reject', reason: '晚了' });
      expect([twice.statusCode, body(twice).message]).toEqual([409, '该报名已审核，不能重复审核']);
      expect((await orgA.post(`/api/team/register/flow/${r2.registerId}`, { action: 'reject', reason: '学校名称不完整' })).statusCode).toBe(200);

      expect(body(await orgA.get(`/api/team/register/list?competitionId=${id}&status=1`)).data.list.map((r: { id: number }) => r.id)).toEqual([r1.registerId]);
      // Keywords match whatever the case, on both databases.
      expect(body(await orgA.get(`/api/team/register/list?competitionId=${id}&keyword=LEAD`)).data.total).toBe(2);
      expect(body(await orgA.get(`/api/order/list?competitionId=${id}&keyword=LEAD`)).data.total).toBe(2);
      expect(body(await orgA.get(`/api/team/register/list?competitionId=${id}&keyword=%25`)).data.total).toBe(0);
      const mine = body(await r2.leader.get(`/api/team/register/item/${id}`)).data;
      expect(mine).toMatchObject({ status: 2, reason: '学校名称不完整' });
      // Correcting the form sends it back for review, and the flow shows every step.
      expect((await r2.leader.put(`/api/team/update/${r2.teamId}`, { teamName: '审核乙改', info: info('张三丰') })).statusCode).toBe(200);
      const after = body(await orgA.get(`/api/team/register/${r2.registerId}`)).data;
      expect(after).toMatchObject({ status: 0, reason: null, teamName: '审核乙改' });
      expect(after.flows.map((f: { action: string; toStatus: number }) => [f.action, f.toStatus])).toEqual([
        ['submit', 0],
        ['reject', 2],
        ['resubmit', 0],
      ]);
      const audit = await t.database.db.selectFrom('auditLog').select(['action', 'entityId']).where('entity', '=', 'register').execute();
      expect(audit).toEqual(
        expect.arrayContaining([
          { action: 'register.approve', entityId: String(r1.registerId) },
          { action: 'register.reject', entityId: String(r2.registerId) },
        ]),
      );

      const xlsx = await orgA.get(`/api/team/register/list?competitionId=${id}&export=xlsx`);
      expect(xlsx.headers['content-type']).toContain('spreadsheetml');
      expect(xlsx.headers['content-disposition']).toContain(encodeURIComponent('报名列表.xlsx'));
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const rows = book.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
      expect(rows).toHaveLength(3);
      expect(rows[0]!.slice(1, 4)).toEqual(['报名编号', '竞赛', '队伍编号']);
      expect(
        rows
          .slice(1)
          .map((r) => r[8])
          .sort(),
      ).toEqual(['审核通过', '待审核']);
    });

    it("takes the organiser's own fields (text, choice, file), checks every answer and shows the files only to the team and its organisers", async () => {
      const id = await onlineCompetition(admin, orgA);
      const reg = (body(await orgA.get(`/api/competition/preset/public/list/${id}`)).data as { id: number; menuCode: string }[]).find(
        (x) => x.menuCode === 'REG_SET',
      )!;
      const put = (fieldList: object[]) => orgA.put(`/api/competition/preset/${reg.id}`, { enable: true, fieldList });
      const base = [
        { label: '姓名', name: 'userName', otherParams: { required: true } },
        { label: '身份证号', name: 'idCardNo', otherParams: { required: true } },
        { label: '手机号', name: 'tel', otherParams: { required: false } },
        { label: '地区', name: 'region', otherParams: { required: true } },
      ];
      // A design the form could not be filled in with is refused, and changes nothing.
      const bad: [object, string][] = [
        [{ name: 'custom1', label: '学历', type: 'choice', options: ['本科'] }, '“学历”至少需要2个选项'],
        [{ name: 'custom1', label: '学历', type: 'choice', options: ['本科', '本科'] }, '“学历”的选项不能重复'],
        [{ name: 'custom1', label: '动机' }, '请选择“动机”的类型'],
        [{ name: 'custom21', label: '多余', type: 'text' }, '不支持的报名字段'],
        [{ name: 'tel', label: '手机', options: ['a', 'b'] }, '只有自定义单选字段可以设置选项'],
      ];
      for (const [field, message] of bad) {
        const res = await put([field]);
        expect([res.statusCode, body(res).message], JSON.stringify(field)).toEqual([400, message]);
      }
      const twice = await put([...base, { name: 'custom1', label: '地区', type: 'text' }]);
      expect([twice.statusCode, body(twice).message]).toEqual([400, '显示名称“地区”重复了，参赛者将分不清']);
      const fields = [
        ...base,
        { name: 'custom1', label: '参赛动机', type: 'text', description: '200字以内', otherParams: { required: true } },
        { name: 'custom2', label: '学历', type: 'choice', options: ['本科', '硕士', '博士'], otherParams: { required: true } },
        { name: 'custom3', label: '在读证明', type: 'file', otherParams: { required: false } },
      ];
      expect((await put(fields)).statusCode).toBe(200);
      const saved = (
        body(await orgA.get(`/api/competition/preset/public/list/${id}`)).data as { menuCode: string; fieldList: { name: string; options?: string[] }[] }[]
      ).find((x) => x.menuCode === 'REG_SET')!;
      expect(saved.fieldList.map((f) => f.name)).toEqual(['userName', 'idCardNo', 'tel', 'region', 'custom1', 'custom2', 'custom3']);
      expect(saved.fieldList[5]!.options).toEqual(['本科', '硕士', '博士']);

      const leader = await participant();
      const stranger = await participant();
      const upload = async (who: Client) =>
        body(await who.request({ method: 'POST', url: '/api/file/upload/document?purpose=attachment', ...multipart('证明.pdf', PDF, 'application/pdf') })).data
          .fileUri as string;
      const [mine, theirs] = [await upload(leader), await upload(stranger)];
      const tries: [object, string, string][] = [
        [{ custom2: '本科' }, 'info.extra.custom1', '请填写参赛动机'],
        [{ custom1: '   ', custom2: '本科' }, 'info.extra.custom1', '请填写参赛动机'],
        [{ custom1: '想', custom2: '专科' }, 'info.extra.custom2', '请从选项中选择学历'],
        [{ custom1: '想' }, 'info.extra.custom2', '请选择学历'],
        [{ custom1: 'x'.repeat(501), custom2: '本科' }, 'info.extra.custom1', '参赛动机不能超过500个字符'],
        [{ custom1: '想', custom2: '本科', custom3: theirs }, 'info.extra.custom3', '文件无效，请重新上传'],
        [{ custom1: '想', custom2: '本科', custom3: '../../etc/passwd' }, 'info.extra.custom3', '在读证明无效，请重新上传'],
      ];
      for (const [extra, field, message] of tries) {
        const res = await leader.post(`/api/team/register/${id}`, { teamName: '自定义队', info: { ...info('张三'), extra } });
        expect([res.statusCode, body(res).data?.fields?.[field]], JSON.stringify(extra)).toEqual([400, message]);
      }
      expect(body(await leader.get(`/api/team/competition/${id}`)).data).toBeNull();

      const res = await leader.post(`/api/team/register/${id}`, {
        teamName: '自定义队',
        info: { ...info('张三'), extra: { custom1: ' 学以致用 ', custom2: '硕士', custom3: mine, custom9: '不在表中' } },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { teamId, registerId } = body(res).data;
      const team = body(await orgA.get(`/api/team/register/${registerId}`)).data.team;
      expect(team.memberList[0].info.extra).toEqual({ custom1: '学以致用', custom2: '硕士', custom3: mine });

      // A member joins with a file of their own; the leader correcting the member's form keeps it, but cannot slip in another's.
      const code = body(await leader.get(`/api/team/competition/${id}`)).data.joinCode;
      const member = await participant();
      const memberFile = await upload(member);
      const joined = await member.post(`/api/team/member/agree/${teamId}?code=${code}`, {
        info: { ...info('李四', ID_B), extra: { custom1: '练手', custom2: '本科', custom3: memberFile } },
      });
      expect(joined.statusCode, joined.body).toBe(200);
      const kept = await leader.put('/api/team/member/batchUpdateMember', {
        teamId,
        memberList: [{ userId: member.id, info: { ...info('李四', ID_B), extra: { custom1: '练手！', custom2: '博士', custom3: memberFile } } }],
      });
      expect(kept.statusCode, kept.body).toBe(200);
      const slipped = await leader.put('/api/team/member/batchUpdateMember', {
        teamId,
        memberList: [{ userId: member.id, info: { ...info('李四', ID_B), extra: { custom1: '练手', custom2: '本科', custom3: theirs } } }],
      });
      expect(body(slipped).data.fields['memberList.0.info.extra.custom3']).toBe('文件无效，请重新上传');
      const members = body(await leader.get(`/api/team/member/${teamId}`)).data as { userId: number; info: { extra: Record<string, string> } }[];
      expect(members.find((m) => m.userId === member.id)!.info.extra).toEqual({ custom1: '练手！', custom2: '博士', custom3: memberFile });

      // The files of the form: the team's members and its organisers read them; another organisation and strangers do not.
      for (const file of [mine, memberFile]) {
        const url = `/api/file/common/download?fileUri=${encodeURIComponent(file)}`;
        expect((await orgA.get(url)).statusCode).toBe(200);
        expect((await leader.get(url)).statusCode).toBe(200);
        expect((await member.get(url)).statusCode).toBe(200);
        expect((await orgB.get(url)).statusCode).toBe(404);
        expect((await stranger.get(url)).statusCode).toBe(404);
      }
    });

    it('shows registration attachments to the organisers and the team, and nobody else', async () => {
      const id = await onlineCompetition(admin, orgA);
      const leader = await participant();
      const up = await leader.request({
        method: 'POST',
        url: '/api/file/upload/document?purpose=attachment',
        ...multipart('学生证.pdf', PDF, 'application/pdf'),
      });
      expect(up.statusCode, up.body).toBe(200);
      const fileUri = body(up).data.fileUri;
      const fake = await leader.request({
        method: 'POST',
        url: '/api/file/upload/document?purpose=attachment',
        ...multipart('x.pdf', Buffer.from('MZ not a pdf'), 'application/pdf'),
      });
      expect([fake.statusCode, body(fake).message]).toEqual([415, '只能上传PDF、PNG或JPEG格式的文件']);
      const stranger = await participant();
      const theirs = body(
        await stranger.request({ method: 'POST', url: '/api/file/upload/document?purpose=attachment', ...multipart('y.pdf', PDF, 'application/pdf') }),
      ).data.fileUri;
      const stolen = await leader.post(`/api/team/register/${id}`, { teamName: '附件队', info: info('附件'), attachments: [theirs] });
      expect(body(stolen).data.fields['attachments.0']).toBe('文件无效，请重新上传');

      const res = await leader.post(`/api/team/register/${id}`, { teamName: '附件队', info: info('附件'), attachments: [fileUri] });
      const teamId = body(res).data.teamId;
      const list = body(await orgA.get(`/api/team/register/${id}/attachments?teamId=${teamId}`)).data;
      expect(list).toEqual([
        { fileUri, name: '学生证.pdf', size: PDF.length, registerId: body(res).data.registerId, teamId, teamNo: expect.any(String), teamName: '附件队' },
      ]);
      expect((await orgB.get(`/api/team/register/${id}/attachments`)).statusCode).toBe(404);
      const url = `/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}`;
      expect((await orgA.get(url)).statusCode).toBe(200);
      expect((await leader.get(url)).statusCode).toBe(200);
      expect((await orgB.get(url)).statusCode).toBe(404);
      expect((await stranger.get(url)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    });
  });

  describe('orders', () => {
    it('opens an order for the fee at registration and lets members see, close and re-open it', async () => {
      const id = await onlineCompetition(admin, orgA, { fee: 12345 });
      const { leader, teamId, orderId } = await registered(id);
      expect(orderId).toEqual(expect.any(Number));
      const order = body(await leader.get(`/api/order/${orderId}`)).data;
      expect(order).toMatchObject({ amount: 12345, payStatus: 0, competitionVisible: false, teamId });
      expect(order.orderNo).toMatch(/^\d{20}$/);
      expect(body(await leader.get(`/api/team/register/item/${id}`)).data.orderId).toBe(orderId);
      expect(body(await leader.get(`/api/order/getOrderByTeamNo/${order.teamNo}`)).data.id).toBe(orderId);
      const page = body(await leader.get('/api/order/person/page')).data;
      expect(page.list.map((o: { id: number }) => o.id)).toContain(orderId);
      const stranger = await participant();
      expect((await stranger.get(`/api/order/${orderId}`)).statusCode).toBe(404);
      expect((await stranger.get(`/api/order/getOrderByTeamNo/${order.teamNo}`)).statusCode).toBe(404);
      expect(body(await stranger.get('/api/order/person/page')).data.total).toBe(0);

      const free = await onlineCompetition(admin, orgA, { fee: 0 });
      expect((await registered(free)).orderId).toBeNull();

      expect((await stranger.put(`/api/order/close/${orderId}`)).statusCode).toBe(404);
      // Finance reads the order but does not act as the team: only members close or pay it.
      expect((await orgA.get(`/api/order/${orderId}`)).statusCode).toBe(200);
      expect((await orgA.put(`/api/order/close/${orderId}`)).statusCode).toBe(404);
      expect((await leader.put(`/api/order/close/${orderId}`)).statusCode).toBe(200);
      expect(body(await leader.put(`/api/order/close/${orderId}`)).message).toBe('只有待支付的订单可以关闭');
      const reopened = body(await leader.post(`/api/order/team/${teamId}`)).data.id;
      expect(body(await leader.get(`/api/team/register/item/${id}`)).data.orderId).toBe(reopened);
    });

    it('closes unpaid orders after the configured timeout, by its scheduled sweep, but not those waiting for a voucher check', async () => {
      const id = await onlineCompetition(admin, orgA, { fee: 100 });
      const a = await registered(id, '超时');
      const b = await registered(id, '凭证');
      const voucher = body(
        await b.leader.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('回单.pdf', PDF, 'application/pdf') }),
      ).data.fileUri;
      expect((await b.leader.put(`/api/order/voucher/${b.orderId}`, { payMethod: 4, voucher })).statusCode).toBe(200);
      const later = new Date(now.getTime() + t.config.orderTimeoutMs + 1000);
      // The sweep is a scheduled job (issue 34): a starting worker queues it once, a run queues the next a minute on.
      await ensureScheduled(t.deps.db, t.deps.jobs.values(), later);
      await ensureScheduled(t.deps.db, t.deps.jobs.values(), later);
      while (await runDueJobs({ ...t.deps, clock: { now: () => later } }));
      const sweeps = await t.deps.db.selectFrom('jobs').select('runAt').where('type', '=', 'order.closeExpired').where('doneAt', 'is', null).execute();
      expect(sweeps.map((j) => Date.parse(j.runAt))).toEqual([later.getTime() + 60_000]);
      expect(body(await a.leader.get(`/api/order/${a.orderId}`)).data.payStatus).toBe(2);
      expect(body(await b.leader.get(`/api/order/${b.orderId}`)).data.payStatus).toBe(0);
      const titles = async (c: Client) => (body(await c.get('/api/message/notice/page/1?limit=50')).data.list as { title: string }[]).map((m) => m.title);
      expect(await titles(a.leader)).toContain('订单已关闭');
      expect(await titles(b.leader)).not.toContain('订单已关闭');
    });

    it('lets finance confirm a transfer, mark a batch paid, refund with a reason, list and export — within its organisation', async () => {
      const id = await onlineCompetition(admin, orgA, { fee: 20000 });
      const a = await registered(id, '转账');
      const b = await registered(id, '集体一');
      const c = await registered(id, '集体二');
      const upload = async (who: Client, name: string) =>
        body(await who.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart(name, PDF, 'application/pdf') })).data
          .fileUri as string;

      expect(body(await orgA.put(`/api/order/confirm/${a.orderId}`)).message).toBe('付款人尚未上传转账凭证');
      const va = await upload(a.leader, '转账回单.pdf');
      expect(body(await a.leader.put(`/api/order/voucher/${a.orderId}`, { payMethod: 2, voucher: va })).data.fields.payMethod).toBe('请选择转账方式');
      expect((await a.leader.put(`/api/order/voucher/${a.orderId}`, { payMethod: 4, voucher: va })).statusCode).toBe(200);
      expect((await orgA.get(`/api/file/common/download?fileUri=${encodeURIComponent(va)}`)).statusCode).toBe(200);
      expect((await orgB.get(`/api/file/common/download?fileUri=${encodeURIComponent(va)}`)).statusCode).toBe(404);
      expect((await orgB.put(`/api/order/confirm/${a.orderId}`)).statusCode).toBe(404);
      expect((await a.leader.put(`/api/order/confirm/${a.orderId}`)).statusCode).toBe(403);
      expect((await orgA.put(`/api/order/confirm/${a.orderId}`)).statusCode).toBe(200);
      expect(body(await a.leader.get(`/api/order/${a.orderId}`)).data).toMatchObject({ payStatus: 1, payMethod: 4, competitionVisible: true });

      const vb = await upload(orgA, '集体缴费.pdf');
      const batch = await orgA.put('/api/order/batch/payment', { ids: [b.orderId, c.orderId, a.orderId], payerOrg: '甲大学计算机学院', voucher: vb });
      expect(body(batch)).toMatchObject({ status: 200, data: { paid: [b.orderId, c.orderId], skipped: [a.orderId] } });
      expect(body(await c.leader.get(`/api/order/${c.orderId}`)).data).toMatchObject({ payStatus: 1, payMethod: 3, payerOrg: '甲大学计算机学院' });
      expect(body(await orgA.put('/api/order/batch/payment', { ids: [b.orderId], payerOrg: 'x' })).data.fields.voucher).toBe('请上传缴费凭证');

      expect(body(await orgA.put(`/api/order/refund/${b.orderId}`, { reason: ' ' })).data.fields.reason).toBe('请输入退款原因');
      expect((await orgA.put(`/api/order/refund/${b.orderId}`, { reason: '队伍退赛' })).statusCode).toBe(200);
      expect(body(await orgA.put(`/api/order/refund/${b.orderId}`, { reason: '队伍退赛' })).message).toBe('只有已支付的订单可以退款');
      expect(body(await b.leader.get(`/api/order/${b.orderId}`)).data).toMatchObject({ payStatus: 3, refundReason: '队伍退赛' });

      const list = body(await orgA.get(`/api/order/list?competitionId=${id}&payStatus=1`)).data;
      expect(list.list.map((o: { id: number }) => o.id).sort()).toEqual([a.orderId, c.orderId].sort());
      expect(body(await orgB.get(`/api/order/list?competitionId=${id}`)).data.total).toBe(0);
      const xlsx = await orgA.get(`/api/order/list?competitionId=${id}&export=xlsx`);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      expect(book.worksheets[0]!.rowCount).toBe(4);
      expect(book.worksheets[0]!.getRow(2).getCell(6).value).toBe('200.00');

      const audit = await t.database.db.selectFrom('auditLog').select('action').where('entity', '=', 'order').execute();
      expect(audit.map((x) => x.action).sort()).toEqual(['order.batchPayment', 'order.confirm', 'order.refund']);
    });
  });
});
