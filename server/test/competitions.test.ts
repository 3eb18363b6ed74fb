import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, loggedIn, makeOrganiser as organiser, registerUser, type Client, type TestApp } from './helpers.ts';

describe.each(DATABASES)('competitions on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let orgA: Client;
  let orgB: Client;
  let visitor: Client;
  let brandId: number;
  let now = new Date('2026-03-01T00:00:00Z');
  const base = () => ({
    name: '2026年数据分析大赛',
    brandId,
    summary: '面向高校学生的数据分析竞赛',
    introduce: '<p>欢迎参赛<script>alert("x")</script><img src="https://example.com/a.png" onerror="alert(1)"></p>',
    regStartTime: '2026-03-10T00:00:00+08:00',
    regEndTime: '2026-04-10T00:00:00+08:00',
    endTime: '2026-06-30T00:00:00+08:00',
    minMembers: 1,
    maxMembers: 3,
    maxTeachers: 1,
    fee: 10050,
  });

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    orgA = await organiser(t, admin, 'orgA', '甲大学');
    orgB = await organiser(t, admin, 'orgB', '乙大学');
    await registerUser(t.app, 'visitor1');
    visitor = await loggedIn(t.app, 'visitor1');
    brandId = body(await admin.post('/api/competition/brand/', { name: '数据分析品牌', shortName: '数析' })).data.id;
  });
  afterAll(() => t.close());

  async function createOnline(client: Client, overrides: object = {}) {
    const id = body(await client.post('/api/competition/', { ...base(), ...overrides })).data.id as number;
    await client.put(`/api/competition/publish/${id}`);
    expect((await admin.put(`/api/competition/audit/${id}`)).statusCode).toBe(200);
    return id;
  }

  it('creates a draft in the organiser’s organisation with its ten presets, sanitising rich text', async () => {
    const res = await orgA.post('/api/competition/', base());
    expect(res.statusCode).toBe(200);
    const id = body(res).data.id;
    const detail = body(await orgA.get(`/api/competition/public/${id}`)).data;
    expect(detail).toMatchObject({ orgName: '甲大学', auditStatus: 0, fee: 10050, regStartTime: '2026-03-09T16:00:00.000Z' });
    expect(detail.introduce).not.toContain('<script');
    expect(detail.introduce).toContain('&lt;script&gt;');
    expect(detail.introduce).not.toContain('onerror');
    expect(detail.introduce).toContain('<img src="https://example.com/a.png" />');
    const presets = body(await orgA.get(`/api/competition/preset/public/list/${id}`)).data;
    expect(presets.map((p: { menuCode: string }) => p.menuCode)).toEqual([
      'REG_SET',
      'QUES_AND_DATA',
      'COMP_INFO',
      'BEFORE_GUIDE',
      'TRAINING_PLATFORM',
      'CHOICE_SET',
      'SUBMIT_WORKS',
      'SUBMIT_TEST',
      'GRADE_SET',
      'CERTIFICATE_SET',
    ]);
    // Registration, questions and data, and information start on; the rest wait for the organiser.
    expect(presets.filter((p: { enable: boolean }) => p.enable).map((p: { menuCode: string }) => p.menuCode)).toEqual([
      'REG_SET',
      'QUES_AND_DATA',
      'COMP_INFO',
    ]);
    expect(presets.every((p: { enableStartTime: string | null; enableEndTime: string | null }) => !p.enableStartTime && !p.enableEndTime)).toBe(true);
    // Not online yet: the public cannot see it.
    expect((await visitor.get(`/api/competition/public/${id}`)).statusCode).toBe(404);
    expect((await orgB.get(`/api/competition/public/${id}`)).statusCode).toBe(404);
  });

  it.each([
    [{ regEndTime: '2026-03-01T00:00:00+08:00' }, 'regEndTime'],
    [{ endTime: '2026-04-01T00:00:00+08:00' }, 'endTime'],
    [{ minMembers: 4 }, 'maxMembers'],
    [{ fee: -1 }, 'fee'],
    [{ fee: 12.5 }, 'fee'],
    [{ name: '' }, 'name'],
    [{ regStartTime: 'tomorrow' }, 'regStartTime'],
    [{ trainingUrl: 'javascript:alert(1)' }, 'trainingUrl'],
  ])('refuses %j with a field message', async (patch, field) => {
    const res = await orgA.post('/api/competition/', { ...base(), ...patch });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(body(res).data.fields)).toContain(field);
  });

  it('refuses a participant and an organiser without an organisation', async () => {
    expect((await visitor.post('/api/competition/', base())).statusCode).toBe(403);
    await registerUser(t.app, 'loneorg');
    const lone = await loggedIn(t.app, 'loneorg');
    const roles = body(await admin.get('/api/system/role/options')).data as { id: number; code: string }[];
    const loneId = body(await lone.get('/api/team/userinfo/')).data.id;
    await admin.put(`/api/system/user/${loneId}/roles`, { roleIds: roles.filter((r) => r.code === 'organiser').map((r) => r.id) });
    const res = await lone.post('/api/competition/', base());
    expect(res.statusCode).toBe(403);
    expect(body(res).message).toBe('您的账号尚未关联组织，不能创建竞赛');
  });

  it('walks the audit workflow, refusing every step from the wrong state with 409', async () => {
    const id = body(await orgA.post('/api/competition/', base())).data.id;
    expect((await admin.put(`/api/competition/audit/${id}`)).statusCode).toBe(409);
    expect((await orgA.put(`/api/competition/audit/${id}`)).statusCode).toBe(403);
    expect((await orgA.put(`/api/competition/publish/${id}`)).statusCode).toBe(200);
    const again = await orgA.put(`/api/competition/publish/${id}`);
    expect(again.statusCode).toBe(409);
    expect(body(again).message).toBe('竞赛当前状态为“待审核”，不能执行此操作');
    expect((await orgA.put(`/api/competition/${id}`, base())).statusCode).toBe(409);
    expect((await orgA.delete(`/api/competition/${id}`)).statusCode).toBe(409);
    expect((await admin.put(`/api/competition/audit/reply/${id}?reply=`)).statusCode).toBe(400);
    expect((await admin.put(`/api/competition/audit/reply/${id}?reply=${encodeURIComponent('封面不清晰')}`)).statusCode).toBe(200);
    expect(body(await orgA.get(`/api/competition/public/${id}`)).data).toMatchObject({ auditStatus: 2, auditReply: '封面不清晰' });
    expect((await orgA.put(`/api/competition/${id}`, { ...base(), name: '改过的名字' })).statusCode).toBe(200);
    expect((await orgA.put(`/api/competition/publish/${id}`)).statusCode).toBe(200);
    expect((await admin.put(`/api/competition/audit/${id}`)).statusCode).toBe(200);
    expect((await admin.put(`/api/competition/audit/${id}`)).statusCode).toBe(409);
    const online = await visitor.get(`/api/competition/public/${id}`);
    expect(body(online).data).toMatchObject({ name: '改过的名字', auditStatus: 3 });
    // Served from the cache as JSON text, it is still JSON to the browser.
    expect(online.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(body(await visitor.get(`/api/competition/public/${id}`))).toEqual(body(online));
    // Online: content may change, the rules participants registered under may not.
    expect((await orgA.put(`/api/competition/${id}`, { ...base(), name: '改过的名字', summary: '新的简介' })).statusCode).toBe(200);
    expect((await orgA.put(`/api/competition/${id}`, { ...base(), name: '改过的名字', fee: 0 })).statusCode).toBe(409);
    expect((await orgA.delete(`/api/competition/${id}`)).statusCode).toBe(409);
    expect((await orgA.post(`/api/competition/${id}/on`)).statusCode).toBe(409);
    expect((await orgA.post(`/api/competition/${id}/off`)).statusCode).toBe(200);
    expect((await visitor.get(`/api/competition/public/${id}`)).statusCode).toBe(404);
    expect((await orgA.post(`/api/competition/${id}/on`)).statusCode).toBe(200);
    const audit = await t.database.db
      .selectFrom('auditLog')
      .select('action')
      .where('entity', '=', 'competition')
      .where('entityId', '=', String(id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'competition.create',
      'competition.publish',
      'competition.auditReply',
      'competition.update',
      'competition.publish',
      'competition.audit',
      'competition.update',
      'competition.off',
      'competition.on',
    ]);
  });

  it('lets two simultaneous approvals succeed only once', async () => {
    const id = body(await orgA.post('/api/competition/', base())).data.id;
    await orgA.put(`/api/competition/publish/${id}`);
    const results = await Promise.all([admin.put(`/api/competition/audit/${id}`), admin.put(`/api/competition/audit/${id}`)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('deletes only drafts and rejected competitions', async () => {
    const id = body(await orgA.post('/api/competition/', base())).data.id;
    expect((await orgB.delete(`/api/competition/${id}`)).statusCode).toBe(404);
    expect((await orgA.delete(`/api/competition/${id}`)).statusCode).toBe(200);
    expect((await orgA.get(`/api/competition/public/${id}`)).statusCode).toBe(404);
  });

  it('shows an organiser only its organisation’s competitions, and the administrator all', async () => {
    const bId = body(await orgB.post('/api/competition/', { ...base(), name: '乙大学的比赛' })).data.id;
    const forA = body(await orgA.get('/api/competition/listAuth?limit=100')).data;
    const forB = body(await orgB.get('/api/competition/listAuth')).data;
    const forAdmin = body(await admin.get('/api/competition/listAuth?limit=100')).data;
    expect(forA.list.every((c: { orgName: string }) => c.orgName === '甲大学')).toBe(true);
    expect(forB.list.map((c: { id: number }) => c.id)).toEqual([bId]);
    expect(forAdmin.total).toBe(forA.total + forB.total);
    expect((await orgA.put(`/api/competition/${bId}`, base())).statusCode).toBe(404);
    expect((await orgA.put(`/api/competition/publish/${bId}`)).statusCode).toBe(404);
    expect((await orgA.get('/api/competition/list')).statusCode).toBe(403);
    expect(body(await admin.get('/api/competition/list?auditStatus=1')).data.list.every((c: { auditStatus: number }) => c.auditStatus === 1)).toBe(true);
  });

  it('lists online competitions publicly by brand and by status, from the server clock', async () => {
    const otherBrand = body(await admin.post('/api/competition/brand/', { name: '另一个品牌', shortName: '另一' })).data.id;
    const open = await createOnline(orgA, {
      name: '报名中的比赛',
      regStartTime: '2026-02-01T00:00:00Z',
      regEndTime: '2026-03-20T00:00:00Z',
      endTime: '2026-05-01T00:00:00Z',
    });
    const running = await createOnline(orgA, {
      name: '进行中的比赛',
      brandId: otherBrand,
      regStartTime: '2026-01-01T00:00:00Z',
      regEndTime: '2026-02-01T00:00:00Z',
      endTime: '2026-05-01T00:00:00Z',
    });
    const ended = await createOnline(orgA, {
      name: '已结束的比赛',
      regStartTime: '2025-01-01T00:00:00Z',
      regEndTime: '2025-02-01T00:00:00Z',
      endTime: '2025-05-01T00:00:00Z',
    });
    const ids = async (query: string) =>
      body(await t.app.inject({ method: 'GET', url: `/api/competition/public/list?limit=100${query}` })).data.list.map((c: { id: number }) => c.id);
    expect(await ids('&status=2')).toContain(open);
    expect(await ids('&status=2')).not.toContain(running);
    expect(await ids('&status=3')).toEqual([running]);
    expect(await ids('&status=4')).toEqual([ended]);
    expect(await ids(`&brandId=${otherBrand}`)).toEqual([running]);
    const all = body(await t.app.inject({ method: 'GET', url: '/api/competition/public/list?status=' })).data;
    expect(all.list.every((c: { auditStatus: number }) => c.auditStatus === 3)).toBe(true);
    expect(all.list.find((c: { id: number }) => c.id === open)).toMatchObject({ status: 2, teamNum: 0, brandShortName: '数析' });
    now = new Date('2026-03-25T00:00:00Z');
    expect(await ids('&status=3')).toEqual(expect.arrayContaining([open, running]));
    expect((await t.app.inject({ method: 'GET', url: '/api/competition/public/list?status=9' })).statusCode).toBe(400);
    expect(body(await t.app.inject({ method: 'GET', url: `/api/team/statistics/public/statisticsTeamNum/${open}` })).data).toBe(0);
    expect(body(await t.app.inject({ method: 'GET', url: `/api/team/statistics/public/statisticsMemberNum/${open}` })).data).toBe(0);
    now = new Date('2026-03-01T00:00:00Z');
  });

  it('keeps stages and computes the active stage from the server clock', async () => {
    const id = await createOnline(orgA, { name: '有阶段的比赛' });
    const add = (name: string, startDate: string, endDate?: string) => orgA.post(`/api/competition/stages/${id}`, { name, startDate, endDate });
    const first = body(await add('初赛', '2026-04-11T00:00:00+08:00', '2026-05-10T00:00:00+08:00')).data.id;
    const second = body(await add('复赛', '2026-05-11T00:00:00+08:00')).data.id;
    expect((await add('坏阶段', '2026-05-11T00:00:00+08:00', '2026-05-01T00:00:00+08:00')).statusCode).toBe(400);
    expect((await orgB.post(`/api/competition/stages/${id}`, { name: 'x', startDate: '2026-05-11T00:00:00+08:00' })).statusCode).toBe(404);
    const stages = body(await t.app.inject({ method: 'GET', url: `/api/competition/stages/public/list/${id}` })).data;
    expect(stages.map((s: { name: string }) => s.name)).toEqual(['初赛', '复赛']);
    expect(body(await visitor.get(`/api/competition/public/${id}`)).data.activeStageId).toBe(0);
    now = new Date('2026-04-20T00:00:00Z');
    expect(body(await visitor.get(`/api/competition/public/${id}`)).data.activeStageId).toBe(first);
    now = new Date('2026-06-01T00:00:00Z');
    expect(body(await visitor.get(`/api/competition/public/${id}`)).data.activeStageId).toBe(second);
    now = new Date('2026-03-01T00:00:00Z');
    expect((await orgA.put(`/api/competition/stages/${second}`, { name: '决赛', startDate: '2026-05-11T00:00:00+08:00' })).statusCode).toBe(200);
    expect((await orgB.delete(`/api/competition/stages/${second}`)).statusCode).toBe(404);
    expect((await orgA.delete(`/api/competition/stages/${second}`)).statusCode).toBe(200);
    expect(body(await t.app.inject({ method: 'GET', url: `/api/competition/stages/public/list/${id}` })).data).toHaveLength(1);
  });

  it('edits presets: the REG_SET field list and enable windows', async () => {
    const id = await createOnline(orgA, { name: '有菜单的比赛' });
    const presets = body(await t.app.inject({ method: 'GET', url: `/api/competition/preset/public/list/${id}` })).data as { id: number; menuCode: string }[];
    const reg = presets.find((p) => p.menuCode === 'REG_SET')!;
    const fieldList = [
      { label: '姓名', name: 'userName', otherParams: { required: true } },
      { label: '身份证号', name: 'idCardNo', otherParams: { required: true }, description: '用于开具证书' },
      { label: '地区', name: 'region' },
    ];
    const res = await orgA.put(`/api/competition/preset/${reg.id}`, {
      enable: true,
      enableStartTime: '2026-03-10T00:00:00+08:00',
      enableEndTime: '2026-04-10T00:00:00+08:00',
      fieldList,
    });
    expect(res.statusCode).toBe(200);
    const saved = body(await t.app.inject({ method: 'GET', url: `/api/competition/preset/public/${reg.id}` })).data;
    expect(saved).toMatchObject({ enable: true, enableStartTime: '2026-03-09T16:00:00.000Z' });
    expect(saved.fieldList.map((f: { name: string }) => f.name)).toEqual(['userName', 'idCardNo', 'region']);
    expect(saved.fieldList[2].otherParams).toEqual({ required: false });
    expect((await orgA.put(`/api/competition/preset/${reg.id}`, { enable: true, fieldList: [{ label: 'x', name: 'password' }] })).statusCode).toBe(400);
    expect(
      (
        await orgA.put(`/api/competition/preset/${reg.id}`, {
          enable: true,
          fieldList: [
            { label: 'a', name: 'tel' },
            { label: 'b', name: 'tel' },
          ],
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await orgA.put(`/api/competition/preset/${reg.id}`, { enable: true, enableStartTime: '2026-04-10T00:00:00Z', enableEndTime: '2026-04-01T00:00:00Z' }))
        .statusCode,
    ).toBe(400);
    const info = presets.find((p) => p.menuCode === 'COMP_INFO')!;
    expect((await orgA.put(`/api/competition/preset/${info.id}`, { enable: true, fieldList })).statusCode).toBe(400);
    expect((await orgB.put(`/api/competition/preset/${info.id}`, { enable: true })).statusCode).toBe(404);
    expect((await orgA.post(`/api/competition/preset/${id}`, { menuCode: 'COMP_INFO', enable: true })).statusCode).toBe(200);
    expect(body(await t.app.inject({ method: 'GET', url: `/api/competition/preset/public/${info.id}` })).data.enable).toBe(true);
  });

  describe('saving the menus of one form together', () => {
    type SavedPreset = {
      id: number;
      menuCode: string;
      enable: boolean;
      enableStartTime: string | null;
      enableEndTime: string | null;
      fieldList: { name: string }[];
    };
    const list = async (id: number) => body(await orgA.get(`/api/competition/preset/public/list/${id}`)).data as SavedPreset[];
    const of = (presets: SavedPreset[], code: string) => presets.find((p) => p.menuCode === code)!;

    it('stores every preset of the batch in one request and leaves the others as they were', async () => {
      const id = body(await orgA.post('/api/competition/', { ...base(), name: '批量菜单竞赛' })).data.id as number;
      const res = await orgA.put(`/api/competition/preset/batch/${id}`, {
        presets: {
          CHOICE_SET: { enable: true },
          SUBMIT_WORKS: { enable: true, enableStartTime: '2026-04-11T00:00:00+08:00', enableEndTime: '2026-05-10T18:00:00+08:00' },
          COMP_INFO: { enable: false },
          REG_SET: {
            enable: true,
            fieldList: [
              { label: '姓名', name: 'userName', otherParams: { required: true } },
              { label: '学校', name: 'organization' },
            ],
          },
        },
      });
      expect(res.statusCode).toBe(200);
      expect(body(res).message).toBe('菜单设置已保存');
      // The answer is the competition's presets as now saved, as a reload would read them.
      const saved = await list(id);
      expect(body(res).data).toEqual(saved);
      expect(saved.filter((p) => p.enable).map((p) => p.menuCode)).toEqual(['REG_SET', 'QUES_AND_DATA', 'CHOICE_SET', 'SUBMIT_WORKS']);
      expect(of(saved, 'SUBMIT_WORKS')).toMatchObject({ enableStartTime: '2026-04-10T16:00:00.000Z', enableEndTime: '2026-05-10T10:00:00.000Z' });
      expect(of(saved, 'REG_SET').fieldList.map((f) => f.name)).toEqual(['userName', 'organization']);
      // The per-preset call still works beside it.
      expect((await orgA.put(`/api/competition/preset/${of(saved, 'GRADE_SET').id}`, { enable: true })).statusCode).toBe(200);
      expect(of(await list(id), 'GRADE_SET').enable).toBe(true);
    });

    it('refuses the whole batch when one preset is wrong, with the error under that preset, and changes nothing', async () => {
      const id = body(await orgA.post('/api/competition/', { ...base(), name: '批量菜单出错竞赛' })).data.id as number;
      const before = await list(id);
      const wrongWindow = await orgA.put(`/api/competition/preset/batch/${id}`, {
        presets: {
          CHOICE_SET: { enable: true },
          SUBMIT_TEST: { enable: true, enableStartTime: '2026-05-10T00:00:00+08:00', enableEndTime: '2026-05-01T00:00:00+08:00' },
          GRADE_SET: { enable: true, fieldList: [{ label: '姓名', name: 'userName' }] },
        },
      });
      expect(wrongWindow.statusCode).toBe(400);
      expect(body(wrongWindow).data.fields).toEqual({
        'presets.SUBMIT_TEST.enableEndTime': '结束时间须晚于开始时间',
        'presets.GRADE_SET.fieldList': '只有报名设置可以配置报名字段',
      });
      const wrongField = await orgA.put(`/api/competition/preset/batch/${id}`, {
        presets: { CHOICE_SET: { enable: true }, REG_SET: { enable: true, fieldList: [{ label: '', name: 'tel' }] } },
      });
      expect(wrongField.statusCode).toBe(400);
      expect(Object.keys(body(wrongField).data.fields)).toEqual(['presets.REG_SET.fieldList.0.label']);
      const unknownCode = await orgA.put(`/api/competition/preset/batch/${id}`, { presets: { CHOICE_SET: { enable: true }, PASSWORD: { enable: true } } });
      expect(unknownCode.statusCode).toBe(400);
      expect((await orgA.put(`/api/competition/preset/batch/${id}`, { presets: {} })).statusCode).toBe(400);
      expect(await list(id)).toEqual(before);
    });

    it('answers another organisation’s competition as missing and refuses callers without the edit code', async () => {
      const id = body(await orgA.post('/api/competition/', { ...base(), name: '别人的菜单竞赛' })).data.id as number;
      const before = await list(id);
      const batch = { presets: { CHOICE_SET: { enable: true }, COMP_INFO: { enable: false } } };
      expect((await orgB.put(`/api/competition/preset/batch/${id}`, batch)).statusCode).toBe(404);
      expect((await orgB.put('/api/competition/preset/batch/999999', batch)).statusCode).toBe(404);
      expect((await visitor.put(`/api/competition/preset/batch/${id}`, batch)).statusCode).toBe(403);
      expect(await list(id)).toEqual(before);
      // The platform administrator manages every organisation's competitions.
      expect((await admin.put(`/api/competition/preset/batch/${id}`, batch)).statusCode).toBe(200);
      expect(of(await list(id), 'CHOICE_SET').enable).toBe(true);
    });
  });

  it('refuses to delete a brand that still has competitions', async () => {
    const own = body(await admin.post('/api/competition/brand/', { name: '有竞赛的品牌', shortName: '有赛' })).data.id;
    expect((await orgA.post('/api/competition/', { ...base(), brandId: own })).statusCode).toBe(200);
    const res = await admin.delete(`/api/competition/brand/${own}`);
    expect(res.statusCode).toBe(409);
    expect(body(res).message).toMatch(/^该品牌下还有\d+个竞赛，不能删除/);
  });
});
