import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type Client, DATABASES, PNG, body, createTestApp, loggedIn, makeOrganiser, multipart, registerUser, type TestApp } from './helpers.ts';

describe.each(DATABASES)('types, brands, navigation and organisations on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let participant: Client;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    await registerUser(t.app, 'player1');
    participant = await loggedIn(t.app, 'player1');
  });
  afterAll(() => t.close());

  it('creates, renames and deletes competition types; names are unique', async () => {
    const created = await admin.post('/api/competition/type/?name=' + encodeURIComponent('数据挖掘') + '&sort=2');
    expect(created.statusCode).toBe(200);
    const id = body(created).data.id;
    expect((await admin.post('/api/competition/type/?name=' + encodeURIComponent('数据挖掘'))).statusCode).toBe(409);
    expect((await admin.post('/api/competition/type/?name=')).statusCode).toBe(400);
    expect((await participant.post('/api/competition/type/?name=x')).statusCode).toBe(403);
    expect((await admin.put(`/api/competition/type/${id}`, { name: '机器学习', sort: 1 })).statusCode).toBe(200);
    const list = body(await t.app.inject({ method: 'GET', url: '/api/competition/type/public/list' })).data;
    expect(list).toEqual([{ id, name: '机器学习', sort: 1 }]);
    const paged = body(await t.app.inject({ method: 'GET', url: '/api/competition/type/public/page?limit=10' })).data;
    expect(paged).toMatchObject({ total: 1, page: 1, limit: 10 });
    expect((await admin.delete(`/api/competition/type/${id}`)).statusCode).toBe(200);
    expect((await admin.delete(`/api/competition/type/${id}`)).statusCode).toBe(404);
  });

  it('creates brands with an uploaded logo, lists them and toggles the recommendation', async () => {
    const logo = body(await admin.request({ method: 'POST', url: '/api/file/upload/image?purpose=logo', ...multipart('logo.png', PNG) })).data.fileUri;
    const res = await admin.post('/api/competition/brand/', { name: '泰迪杯数据挖掘挑战赛', shortName: '泰迪杯', logo, sort: 1 });
    expect(res.statusCode).toBe(200);
    const id = body(res).data.id;
    expect((await admin.post('/api/competition/brand/', { name: '泰迪杯数据挖掘挑战赛', shortName: '重复' })).statusCode).toBe(409);
    expect((await admin.post('/api/competition/brand/', { name: '无简称' })).statusCode).toBe(400);
    // A participant's upload cannot become a brand logo.
    const theirs = body(await participant.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('a.png', PNG) })).data.fileUri;
    const stolen = await admin.post('/api/competition/brand/', { name: '别人的图', shortName: '图', logo: theirs });
    expect(stolen.statusCode).toBe(400);
    expect(body(stolen).data.fields.logo).toBe('图片无效，请重新上传');

    for (let i = 0; i < 7; i++) {
      const b = body(await admin.post('/api/competition/brand/', { name: `品牌${i}`, shortName: `B${i}`, sort: 10 + i })).data.id;
      await admin.put(`/api/competition/brand/recommend/${b}?recommend=1`);
    }
    const toggled = await admin.put(`/api/competition/brand/recommend/${id}`);
    expect(body(toggled).data.recommend).toBe(true);
    const recommended = body(await t.app.inject({ method: 'GET', url: '/api/competition/brand/public/page?recommend=1&limit=6' })).data;
    expect(recommended.total).toBe(8);
    expect(recommended.list).toHaveLength(6);
    expect(recommended.list[0]).toMatchObject({ id, shortName: '泰迪杯', recommend: true, competitionNum: 0 });
    expect((await participant.put(`/api/competition/brand/recommend/${id}`)).statusCode).toBe(403);
    expect(body(await admin.get('/api/competition/brand/list?keyword=%E6%B3%B0%E8%BF%AA')).data.total).toBe(1);
  });

  it('saves a brand navigation with same- and new-window links and serves it publicly', async () => {
    const brandId = body(await admin.post('/api/competition/brand/', { name: '导航品牌', shortName: '导航' })).data.id;
    expect(body(await t.app.inject({ method: 'GET', url: `/api/competition/brand/nav/public/nav?brandId=${brandId}` })).data).toBeNull();
    const nav = {
      brandId,
      navList: [
        { name: '首页', url: `/competitionList/${brandId}`, type: 0, children: [] },
        { name: '官网', url: 'https://www.tipdm.org', type: 1, children: [{ name: '往届', url: 'https://www.tipdm.org/history', type: 1 }] },
      ],
      sublinksList: [{ name: '联系我们', url: '/contact', type: 0 }],
      frendlinksList: [{ name: '合作伙伴', url: 'https://example.com', type: 1 }],
      copyright: '© 2026 泰迪杯组委会',
    };
    const created = await admin.post('/api/competition/brand/nav/', nav);
    expect(created.statusCode).toBe(200);
    expect((await admin.post('/api/competition/brand/nav/', nav)).statusCode).toBe(409);
    const pub = body(await t.app.inject({ method: 'GET', url: `/api/competition/brand/nav/public/nav?brandId=${brandId}` })).data;
    expect(pub.navList[1]).toMatchObject({ name: '官网', type: 1 });
    expect(pub.copyright).toBe('© 2026 泰迪杯组委会');
    const bad = await admin.put(`/api/competition/brand/nav/${body(created).data.id}`, {
      ...nav,
      navList: [{ name: 'x', url: 'javascript:alert(1)', type: 0 }],
    });
    expect(bad.statusCode).toBe(400);
    const badType = await admin.put(`/api/competition/brand/nav/${body(created).data.id}`, { ...nav, sublinksList: [{ name: 'x', url: '/a', type: 2 }] });
    expect(badType.statusCode).toBe(400);
    expect(body(await admin.get(`/api/competition/brand/nav/byBrandId/${brandId}`)).data.sublinksList).toEqual([
      { name: '联系我们', url: '/contact', type: 0 },
    ]);
  });

  it('turns an approved partner application into an organiser of a new organisation', async () => {
    await registerUser(t.app, 'teacher1');
    const teacher = await loggedIn(t.app, 'teacher1');
    const application = { name: '华南理工大学', kind: 'school', contactName: '陈老师', contactPhone: '13800138000', description: '举办校内数据分析竞赛' };
    const applied = await teacher.post('/api/competition/partner/apply', application);
    expect(applied.statusCode).toBe(200);
    expect((await teacher.post('/api/competition/partner/apply', application)).statusCode).toBe(409);
    expect((await teacher.get('/api/competition/partner/page')).statusCode).toBe(403);
    const id = body(applied).data.id;
    const pending = body(await admin.get('/api/competition/partner/page?status=0')).data;
    expect(pending.list.map((a: { id: number }) => a.id)).toContain(id);
    expect((await admin.put(`/api/competition/partner/audit/${id}`, { approve: false })).statusCode).toBe(400);
    expect((await admin.put(`/api/competition/partner/audit/${id}`, { approve: true })).statusCode).toBe(200);
    expect((await admin.put(`/api/competition/partner/audit/${id}`, { approve: false, reason: '重复' })).statusCode).toBe(409);
    const me = body(await teacher.get('/api/team/userinfo/')).data;
    expect(me.orgName).toBe('华南理工大学');
    expect(me.roles.map((r: { code: string }) => r.code)).toContain('organiser');
    expect(body(await teacher.get('/api/team/userinfo/permission')).data).toContain('competition:competition:edit');
    const mine = body(await teacher.get('/api/competition/partner/mine')).data;
    expect(mine.list[0]).toMatchObject({ status: 1, orgName: '华南理工大学' });
  });

  it('rejects an application with a reason the applicant reads, and lets them apply again', async () => {
    await registerUser(t.app, 'teacher2');
    const teacher = await loggedIn(t.app, 'teacher2');
    const id = body(await teacher.post('/api/competition/partner/apply', { name: '某公司', kind: 'company', contactName: '李', contactPhone: '13800138001' }))
      .data.id;
    expect((await admin.put(`/api/competition/partner/audit/${id}`, { approve: false, reason: '材料不全' })).statusCode).toBe(200);
    expect(body(await teacher.get('/api/competition/partner/mine')).data.list[0]).toMatchObject({ status: 2, reason: '材料不全' });
    expect(
      (await teacher.post('/api/competition/partner/apply', { name: '某公司', kind: 'company', contactName: '李', contactPhone: '13800138001' })).statusCode,
    ).toBe(200);
  });

  it('manages organisations and refuses to delete one that still has members', async () => {
    // An organisation with one member: its organiser, approved through the partner workflow.
    await makeOrganiser(t, admin, 'orgMember1', '华东示例大学');
    const created = await admin.post('/api/competition/organization/', { name: '示例科技公司', kind: 'company' });
    expect(created.statusCode).toBe(200);
    expect((await admin.post('/api/competition/organization/', { name: '示例科技公司', kind: 'company' })).statusCode).toBe(409);
    expect((await admin.post('/api/competition/organization/', { name: 'x', kind: 'club' })).statusCode).toBe(400);
    const badContact = await admin.post('/api/competition/organization/', { name: 'y', kind: 'school', contactEmail: 'not-mail', contactPhone: 'call me' });
    expect(Object.keys(body(badContact).data.fields).sort()).toEqual(['contactEmail', 'contactPhone']);
    expect((await admin.post('/api/competition/organization/', { name: '有座机的学校', kind: 'school', contactPhone: '020-8711 0000' })).statusCode).toBe(200);
    const list = body(await admin.get(`/api/competition/organization/page?keyword=${encodeURIComponent('华东')}`)).data;
    expect(list.list[0]).toMatchObject({ name: '华东示例大学', memberNum: 1 });
    expect((await admin.delete(`/api/competition/organization/${list.list[0].id}`)).statusCode).toBe(409);
    expect((await admin.delete(`/api/competition/organization/${body(created).data.id}`)).statusCode).toBe(200);
  });
});
