import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, loggedIn, makeOrganiser, multipart, registerUser, type Client, type TestApp } from './helpers.ts';

const EVAL = { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 5 };
const ANSWER = ['id,y', ...Array.from({ length: 10 }, (_, i) => `r${i},${i}`)].join('\n');

interface Item {
  key: string;
  label: string;
  ok: boolean;
  level: 'blocking' | 'advisory';
  detail: string;
  fix: { tab: string; text: string };
}

describe.each(DATABASES)('readiness before audit on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let orgA: Client;
  let orgB: Client;
  /** A second organiser of A, a plain user of A without the edit code, and a second platform auditor. */
  let colleague: Client;
  let plainOfA: Client;
  let auditor: Client;
  let brandId: number;
  let seq = 0;
  const now = new Date('2026-03-01T00:00:00Z');

  const draft = async (client: Client = orgA, overrides: object = {}) => {
    const res = await client.post('/api/competition/', {
      name: `准备检查赛${++seq}`,
      brandId,
      regStartTime: '2026-03-10T00:00:00+08:00',
      regEndTime: '2026-04-10T00:00:00+08:00',
      endTime: '2026-06-30T00:00:00+08:00',
      fee: 5000,
      ...overrides,
    });
    expect(res.statusCode, res.body).toBe(200);
    return body(res).data.id as number;
  };
  const readiness = async (id: number, who: Client = orgA) => body(await who.get(`/api/competition/readiness/${id}`)).data as { ready: boolean; items: Item[] };
  const item = (items: Item[], key: string) => items.find((i) => i.key === key)!;
  const detail = async (id: number) => body(await orgA.get(`/api/competition/public/${id}`)).data;
  const presets = async (id: number) =>
    body(await orgA.get(`/api/competition/preset/public/list/${id}`)).data as { id: number; menuCode: string; enable: boolean }[];
  const stages = async (id: number) => body(await orgA.get(`/api/competition/stages/public/list/${id}`)).data as { id: number; name: string }[];
  const question = async (id: number, title: string, evaluation: object | null = EVAL) => {
    const res = await orgA.post(`/api/competition/question/${id}`, { title, evaluation });
    expect(res.statusCode, res.body).toBe(200);
    return body(res).data.id as number;
  };
  const answer = async (questionId: number) =>
    expect(
      (
        await orgA.request({
          method: 'POST',
          url: `/api/competition/question/${questionId}/answer`,
          ...multipart('answer.csv', Buffer.from(ANSWER), 'text/csv'),
        })
      ).statusCode,
    ).toBe(200);
  /** The titles of a user's personal messages, newest first. */
  const box = async (who: Client) => body(await who.get('/api/message/notice/page/1?limit=100')).data.list as { title: string; content: string }[];
  const titles = async (who: Client) => (await box(who)).map((m) => m.title);
  const auditLog = async (id: number) =>
    (
      await t.database.db.selectFrom('auditLog').select('action').where('entity', '=', 'competition').where('entityId', '=', String(id)).orderBy('id').execute()
    ).map((a) => a.action);

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    orgA = await makeOrganiser(t, admin, 'rdOrgA', '准备甲大学');
    orgB = await makeOrganiser(t, admin, 'rdOrgB', '准备乙大学');
    brandId = body(await admin.post('/api/competition/brand/', { name: '准备检查品牌', shortName: '准备' })).data.id;
    const roles = body(await admin.get('/api/system/role/options')).data as { id: number; code: string }[];
    const role = (code: string) => roles.filter((r) => r.code === code).map((r) => r.id);
    const orgAId = (body(await admin.get('/api/competition/organization/page?limit=100')).data.list as { id: number; name: string }[]).find(
      (o) => o.name === '准备甲大学',
    )!.id;
    const member = async (username: string, roleCode: string, orgId: number | null) => {
      const { id } = await registerUser(t.app, username);
      expect((await admin.put(`/api/system/user/${id}/roles`, { roleIds: role(roleCode) })).statusCode).toBe(200);
      if (orgId) expect((await admin.put(`/api/system/user/${id}/org`, { orgId })).statusCode).toBe(200);
      return loggedIn(t.app, username);
    };
    colleague = await member('rdColleague', 'organiser', orgAId);
    plainOfA = await member('rdPlain', 'participant', orgAId);
    auditor = await member('rdAuditor', 'admin', null);
  });
  afterAll(() => t.close());

  it('lists what a new draft lacks: blocking items met, questions, stages and payment said as advice', async () => {
    const id = await draft();
    const r = await readiness(id);
    expect(r.ready).toBe(true);
    expect(item(r.items, 'dates')).toMatchObject({
      ok: true,
      level: 'blocking',
      detail: '报名 2026-03-10 00:00 至 2026-04-10 00:00，竞赛 2026-06-30 00:00 结束',
      fix: { tab: 'basic' },
    });
    expect(item(r.items, 'regForm')).toMatchObject({ ok: true, level: 'blocking', detail: '报名表填写姓名、身份证号、手机号共 3 项', fix: { tab: 'presets' } });
    expect(item(r.items, 'questions')).toMatchObject({ ok: false, level: 'advisory', fix: { tab: 'questions' } });
    expect(item(r.items, 'questions').detail).toContain('赛题可在上线后添加');
    expect(item(r.items, 'stages')).toMatchObject({ ok: false, level: 'advisory', fix: { tab: 'stages' } });
    // No payment method on this platform: the fee is payable only offline, which is said without refusing.
    expect(item(r.items, 'fee')).toMatchObject({ ok: false, level: 'advisory' });
    expect(item(r.items, 'fee').detail).toContain('平台尚未开通任何支付方式');
    // The platform administrator reads it too; another organisation's organiser finds nothing, a participant may not ask.
    expect((await readiness(id, admin)).ready).toBe(true);
    expect((await orgB.get(`/api/competition/readiness/${id}`)).statusCode).toBe(404);
    expect((await plainOfA.get(`/api/competition/readiness/${id}`)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/competition/readiness/${id}` })).statusCode).toBe(401);
    expect((await orgA.get('/api/competition/readiness/999999')).statusCode).toBe(404);
  });

  it('names the payment methods once the platform opens one', async () => {
    const id = await draft();
    const account = { name: '对公账户', accountName: '准备平台', accountNo: '6222020000000000001', bankName: '工商银行', instructions: '备注队伍编号' };
    expect((await admin.put('/api/payment/config/4', { enable: true, accounts: [account] })).statusCode).toBe(200);
    expect(item((await readiness(id)).items, 'fee')).toMatchObject({ ok: true, detail: '报名费 50.00 元，参赛者可用工商银行支付' });
    expect((await admin.put('/api/payment/config/4', { enable: false, accounts: [account] })).statusCode).toBe(200);
    expect(item((await readiness(id)).items, 'fee').ok).toBe(false);
  });

  it('refuses a submission with blocking gaps with the whole list, changing nothing, and accepts it once they are fixed', async () => {
    const id = await draft();
    const reg = (await presets(id)).find((p) => p.menuCode === 'REG_SET')!;
    expect((await orgA.put(`/api/competition/preset/batch/${id}`, { presets: { REG_SET: { enable: false } } })).statusCode).toBe(200);
    // A question without an evaluation is judged by experts alone: nothing is missing for it (issue 33).
    const paper = await question(id, '没有评分的题', null);
    const noAnswer = await question(id, '没有答案的题');
    const late = body(await orgA.post(`/api/competition/stages/${id}`, { name: '颁奖', startDate: '2026-07-01T00:00:00+08:00' })).data.id as number;
    const adminBefore = await titles(admin);

    const refused = await orgA.put(`/api/competition/publish/${id}`);
    expect(refused.statusCode).toBe(409);
    const { message, data } = body(refused);
    expect(message).toMatch(/^还有 3 项必须补齐才能提交审核：/);
    for (const words of ['报名表：「报名设置」未启用', '赛题「没有答案的题」：已设置评分指标', '竞赛阶段：阶段「颁奖」开始于'])
      expect(message).toContain(words);
    expect(message).not.toContain('没有评分的题');
    expect(Object.keys(data.fields).sort()).toEqual(['question:' + noAnswer, 'regForm', 'stages'].sort());
    expect(item((await readiness(id)).items, `question:${paper}`)).toMatchObject({ ok: true, detail: expect.stringContaining('专家评审（提交作品）') });
    expect((await readiness(id)).ready).toBe(false);
    // Nothing changed: still a draft, no audit entry, nobody told.
    expect(await detail(id)).toMatchObject({ auditStatus: 0 });
    expect(await auditLog(id)).toEqual(['competition.create']);
    expect(await titles(admin)).toEqual(adminBefore);

    // The organiser fixes each gap where the checklist says.
    expect(
      (await orgA.put(`/api/competition/preset/${reg.id}`, { enable: true, fieldList: [{ label: '姓名', name: 'userName', otherParams: { required: true } }] }))
        .statusCode,
    ).toBe(200);
    await answer(noAnswer);
    expect((await orgA.put(`/api/competition/stages/${late}`, { name: '颁奖', startDate: '2026-06-20T00:00:00+08:00' })).statusCode).toBe(200);
    const r = await readiness(id);
    expect(r.ready).toBe(true);
    expect(item(r.items, `question:${noAnswer}`)).toMatchObject({ ok: true, detail: '专家评审 + 自动评分：评分指标 平均绝对误差（MAE），答案文件 10 行' });
    expect((await orgA.put(`/api/competition/publish/${id}`)).statusCode).toBe(200);
    expect(await detail(id)).toMatchObject({ auditStatus: 1 });
  });

  it('never leaves a competition in audit without the registration form when a menu change races the submission', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await draft();
      const [submitted, changed] = await Promise.all([
        orgA.put(`/api/competition/publish/${id}`),
        orgA.put(`/api/competition/preset/batch/${id}`, { presets: { REG_SET: { enable: false } } }),
      ]);
      const reg = (await presets(id)).find((p) => p.menuCode === 'REG_SET')!;
      const { auditStatus } = await detail(id);
      // Either the change went first and the submission was refused for it, or the submission went first and the change was refused.
      if (submitted.statusCode === 200) {
        expect(changed.statusCode).toBe(409);
        expect(auditStatus).toBe(1);
        expect(reg.enable).toBe(true);
      } else {
        expect(submitted.statusCode).toBe(409);
        expect(Object.keys(body(submitted).data.fields)).toEqual(['regForm']);
        expect(changed.statusCode).toBe(200);
        expect(auditStatus).toBe(0);
        expect(reg.enable).toBe(false);
      }
    }
  });

  it('refuses menu and stage changes while the competition is in audit, and allows them again once it is decided', async () => {
    const id = await draft();
    const stage = body(
      await orgA.post(`/api/competition/stages/${id}`, { name: '初赛', startDate: '2026-04-11T00:00:00+08:00', endDate: '2026-05-10T00:00:00+08:00' }),
    ).data.id as number;
    expect((await orgA.put(`/api/competition/publish/${id}`)).statusCode).toBe(200);
    const before = await presets(id);
    const grade = before.find((p) => p.menuCode === 'GRADE_SET')!;
    const refusals = [
      await orgA.put(`/api/competition/preset/${grade.id}`, { enable: true }),
      await orgA.post(`/api/competition/preset/${id}`, { menuCode: 'GRADE_SET', enable: true }),
      await orgA.put(`/api/competition/preset/batch/${id}`, { presets: { GRADE_SET: { enable: true }, CHOICE_SET: { enable: true } } }),
      await admin.put(`/api/competition/preset/batch/${id}`, { presets: { GRADE_SET: { enable: true } } }),
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(409);
      expect(body(res).message).toBe('竞赛正在审核中，不能修改菜单设置；如需修改请等待审核结果');
    }
    const stageRefusals = [
      await orgA.post(`/api/competition/stages/${id}`, { name: '复赛', startDate: '2026-05-11T00:00:00+08:00' }),
      await orgA.put(`/api/competition/stages/${stage}`, { name: '改名', startDate: '2026-04-11T00:00:00+08:00' }),
      await orgA.delete(`/api/competition/stages/${stage}`),
    ];
    for (const res of stageRefusals) {
      expect(res.statusCode).toBe(409);
      expect(body(res).message).toBe('竞赛正在审核中，不能修改竞赛阶段；如需修改请等待审核结果');
    }
    expect(await presets(id)).toEqual(before);
    expect((await stages(id)).map((s) => s.name)).toEqual(['初赛']);
    // Another organisation still finds nothing there, in audit or not.
    expect((await orgB.put(`/api/competition/preset/${grade.id}`, { enable: true })).statusCode).toBe(404);

    expect((await admin.put(`/api/competition/audit/reply/${id}?reply=${encodeURIComponent('请补充阶段')}`)).statusCode).toBe(200);
    expect((await orgA.put(`/api/competition/preset/${grade.id}`, { enable: true })).statusCode).toBe(200);
    expect((await orgA.post(`/api/competition/stages/${id}`, { name: '复赛', startDate: '2026-05-11T00:00:00+08:00' })).statusCode).toBe(200);
  });

  it('approves the competition and its scorable questions in one step; a question added later keeps its own review', async () => {
    const id = await draft();
    const first = await question(id, '第一题');
    const second = await question(id, '第二题');
    await answer(first);
    await answer(second);
    expect((await orgA.put(`/api/competition/publish/${id}`)).statusCode).toBe(200);
    // Added while in audit, without its answer file: it cannot be scored, so it waits.
    const late = await question(id, '后加的题');
    const visible = async () =>
      (body(await t.app.inject({ method: 'GET', url: `/api/competition/question/public/list/${id}` })).data as { id: number }[]).map((q) => q.id);

    const approved = await admin.put(`/api/competition/audit/${id}`);
    expect(approved.statusCode).toBe(200);
    expect(body(approved).message).toBe('审核通过，竞赛已上线，2 道赛题一并审核通过');
    expect(body(approved).data).toEqual({ questionsApproved: [first, second].sort((a, b) => a - b), questionsWaiting: [late] });
    expect(await visible()).toEqual([first, second]);
    const reviewed = await t.database.db.selectFrom('questions').select(['id', 'reviewed']).where('competitionId', '=', id).orderBy('id').execute();
    expect(reviewed.map((q) => [q.id, q.reviewed])).toEqual([
      [first, 1],
      [second, 1],
      [late, 0],
    ]);
    const questionAudit = await t.database.db
      .selectFrom('auditLog')
      .select('entityId')
      .where('action', '=', 'question.review')
      .where('entityId', 'in', [String(first), String(second), String(late)])
      .execute();
    expect(questionAudit.map((a) => Number(a.entityId)).sort((a, b) => a - b)).toEqual([first, second].sort((a, b) => a - b));
    expect(item((await readiness(id)).items, `question:${late}`)).toMatchObject({ ok: false, level: 'blocking' });

    // The later question, once it has its answer, is approved on its own.
    await answer(late);
    expect((await admin.put(`/api/competition/question/review/${late}`, { reviewed: true })).statusCode).toBe(200);
    expect(await visible()).toEqual([first, second, late]);
    // A second approval changes nothing.
    expect((await admin.put(`/api/competition/audit/${id}`)).statusCode).toBe(409);
  });

  it('tells the auditors of each submission and the organisers of each outcome, and nobody of another organisation', async () => {
    const id = await draft(orgA, { name: '消息检查赛' });
    const name = '消息检查赛';
    const watched = { admin, auditor, orgA, colleague, plainOfA, orgB };
    const before = Object.fromEntries(await Promise.all(Object.entries(watched).map(async ([k, c]) => [k, (await titles(c)).length] as const)));
    const fresh = async (k: keyof typeof watched) => (await box(watched[k])).slice(0, (await titles(watched[k])).length - before[k]!);

    expect((await orgA.put(`/api/competition/publish/${id}`)).statusCode).toBe(200);
    for (const k of ['admin', 'auditor'] as const) {
      const [m] = await fresh(k);
      expect(m?.title).toBe(`竞赛待审核：${name}`);
      expect(m?.content).toContain('准备甲大学提交了竞赛“消息检查赛”');
      expect(m?.content).toContain(`/backadmin.html#/competition/view/${id}`);
    }
    for (const k of ['orgA', 'colleague', 'plainOfA', 'orgB'] as const) expect(await fresh(k)).toEqual([]);

    expect((await admin.put(`/api/competition/audit/reply/${id}?reply=${encodeURIComponent('封面不清晰')}`)).statusCode).toBe(200);
    for (const k of ['orgA', 'colleague'] as const) {
      const [m] = await fresh(k);
      expect(m?.title).toBe(`竞赛审核未通过：${name}`);
      expect(m?.content).toContain('驳回原因：封面不清晰');
      expect(m?.content).toContain(`/backadmin.html#/competition/edit/${id}`);
    }
    for (const k of ['plainOfA', 'orgB'] as const) expect(await fresh(k)).toEqual([]);
    // The auditor who rejected is not told of their own decision; the other auditor is not told either.
    expect((await fresh('admin')).map((m) => m.title)).toEqual([`竞赛待审核：${name}`]);
    expect((await fresh('auditor')).map((m) => m.title)).toEqual([`竞赛待审核：${name}`]);

    expect((await colleague.put(`/api/competition/publish/${id}`)).statusCode).toBe(200);
    expect((await fresh('admin')).map((m) => m.title)).toEqual([`竞赛待审核：${name}`, `竞赛待审核：${name}`]);
    expect((await auditor.put(`/api/competition/audit/${id}`)).statusCode).toBe(200);
    for (const k of ['orgA', 'colleague'] as const) {
      const [m] = await fresh(k);
      expect(m?.title).toBe(`竞赛审核通过：${name}`);
      expect(m?.content).toContain('已审核通过并上线');
    }
    for (const k of ['plainOfA', 'orgB'] as const) expect(await fresh(k)).toEqual([]);
  });
});
