import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_NOT_LISTED_TEXT } from '@contest/shared';
import {
  ADMIN_PASSWORD,
  Client,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  type TestApp,
} from './helpers.ts';

/**
 * Issue 36, item 1: schools are records. The administrator imports the Ministry of Education's list (an .xlsx with a
 * title row, then 学校名称, 学校标识码, 主管部门, 所在地, 办学层次), edits it, and profiles pick a school from it by name
 * or pinyin initials; free-text schools equal after normalisation are linked to their record.
 */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function moeList(rows: (string | number | null)[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('名单');
  ws.addRow(['全国普通高等学校名单']);
  ws.addRow(['序号', '学校名称', '学校标识码', '主管部门', '所在地', '办学层次', '备注']);
  rows.forEach((r, i) => ws.addRow([i + 1, ...r]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe.each(DATABASES)('schools on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let seq = 0;
  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => new Date('2026-03-20T02:00:00Z') }, env: { REGISTER_MAX_PER_IP: '1000' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t.close());

  const importList = (who: Client, file: Buffer) => who.request({ method: 'POST', url: '/api/system/school/import', ...multipart('名单.xlsx', file, XLSX) });
  async function person(organization?: string) {
    const username = `sch${kind}${++seq}`;
    const user = await registerUser(t.app, username);
    const client = await loggedIn(t.app, username);
    if (organization) expect((await client.put('/api/team/userinfo/', { organization })).statusCode).toBe(200);
    return { client, id: user.id };
  }

  it('imports the Ministry’s list, reports the rows it cannot take, links free-text schools, and finds schools by pinyin initials', async () => {
    // Written before the list existed, with a stray space and full-width brackets.
    const early = await person(' 中国科学技术大学（研究生院） ');
    const other = await person('某某培训学校');
    const file = await moeList([
      ['北京大学', '4111010001', '教育部', '北京市', '本科', null],
      ['重庆大学', '4150010611', '教育部', '重庆市', '本科', null],
      ['中国科学技术大学(研究生院)', '4134010358', '中国科学院', '安徽省', '本科', null],
      ['深圳职业技术大学', '4144011113', '深圳市', '广东省', '专科', null],
      ['坏标识码大学', '41X', '教育部', '北京市', '本科', null],
      ['北京大学', '4111010001', '教育部', '北京市', '本科', '重复'],
      [null, '4111099999', '教育部', '北京市', '本科', null],
    ]);
    const res = await importList(admin, file);
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).data).toEqual({
      added: 4,
      updated: 0,
      unchanged: 0,
      linked: 1,
      errors: [
        { row: 7, message: '学校标识码“41X”应为10位数字' },
        { row: 8, message: '与第3行重复' },
        { row: 9, message: '缺少学校名称' },
      ],
    });
    expect(body(res).message).toBe('导入完成：新增4所，更新0所，3行未导入');

    const pku = body(await admin.get('/api/system/school/page?keyword=bjdx')).data.list;
    expect(pku).toEqual([
      {
        id: expect.any(Number),
        name: '北京大学',
        code: '4111010001',
        province: '北京市',
        department: '教育部',
        kind: 'undergraduate',
        initials: 'bjdx',
        users: 0,
      },
    ]);
    expect(body(await admin.get('/api/system/school/page?kind=vocational')).data.list.map((s: { name: string }) => s.name)).toEqual(['深圳职业技术大学']);
    // A participant's picker: by name, by initials (重庆 is cq), by code.
    const { client } = await person();
    const pick = async (keyword: string) =>
      body(await client.get(`/api/school/options?keyword=${encodeURIComponent(keyword)}`)).data.map((s: { name: string }) => s.name);
    expect(await pick('cqdx')).toEqual(['重庆大学']);
    expect(await pick('科学技术')).toEqual(['中国科学技术大学(研究生院)']);
    expect(await pick('4111010001')).toEqual(['北京大学']);
    expect((await new Client(t.app).get('/api/school/options?keyword=bj')).statusCode).toBe(401);

    // The free-text school equal after normalisation is linked; another stays as text.
    const ustc = body(await early.client.get('/api/team/userinfo/')).data;
    expect([ustc.schoolId, ustc.organization]).toEqual([expect.any(Number), ' 中国科学技术大学（研究生院） '.trim()]);
    expect(body(await other.client.get('/api/team/userinfo/')).data.schoolId).toBeNull();

    // The same list again changes nothing; a corrected row updates its school (by its code).
    const again = body(await importList(admin, file)).data;
    expect([again.added, again.updated, again.unchanged]).toEqual([0, 0, 4]);
    const corrected = await moeList([['重庆大学', '4150010611', '教育部', '重庆市沙坪坝区', '本科', null]]);
    expect(body(await importList(admin, corrected)).data).toMatchObject({ added: 0, updated: 1, errors: [] });
    expect(body(await admin.get('/api/system/school/page?keyword=重庆')).data.list[0].province).toBe('重庆市沙坪坝区');

    // Not a spreadsheet, or one without the name column.
    const junk = await importList(admin, Buffer.from('not a spreadsheet'));
    expect([junk.statusCode, body(junk).message]).toEqual([400, '无法读取该文件，请上传Excel（.xlsx）文件']);
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('x').addRow(['省份', '城市']);
    const headless = await importList(admin, Buffer.from(await wb.xlsx.writeBuffer()));
    expect(body(headless).data.fields.file).toBe('没有找到“学校名称”列');
  });

  it('lets a profile pick a school from the list, links one written in, and keeps one not listed as text', async () => {
    const created = await admin.post('/api/system/school', { name: `清华大学${kind}`, code: null, province: '北京市', kind: 'undergraduate' });
    expect(created.statusCode, created.body).toBe(200);
    const id = body(created).data.id as number;
    const dup = await admin.post('/api/system/school', { name: ` 清华大学${kind} `, kind: 'undergraduate' });
    expect([dup.statusCode, body(dup).data.fields.name]).toEqual([400, '名单中已有同名学校']);

    const a = await person();
    const picked = body(await a.client.put('/api/team/userinfo/', { schoolId: id })).data;
    expect([picked.schoolId, picked.organization]).toEqual([id, `清华大学${kind}`]);
    const b = await person(`清华大学${kind}`);
    expect(body(await b.client.get('/api/team/userinfo/')).data.schoolId).toBe(id);
    const c = await person('社区学习中心');
    expect(body(await c.client.get('/api/team/userinfo/')).data).toMatchObject({ schoolId: null, organization: '社区学习中心' });
    const unknown = await c.client.put('/api/team/userinfo/', { schoolId: 999999 });
    expect([unknown.statusCode, body(unknown).data.fields.schoolId]).toEqual([400, '请从名单中选择学校']);

    // Renamed, the profiles that chose it follow; while chosen, it is not deleted.
    expect((await admin.put(`/api/system/school/${id}`, { name: `清华大学（${kind}）`, province: '北京市', kind: 'undergraduate' })).statusCode).toBe(200);
    expect(body(await a.client.get('/api/team/userinfo/')).data.organization).toBe(`清华大学（${kind}）`);
    const removal = await admin.delete(`/api/system/school/${id}`);
    expect([removal.statusCode, body(removal).message]).toEqual([409, `已有2个账号选择了“清华大学（${kind}）”，不能删除；可以修改它的名称或信息`]);
  });

  it('lets a competition take only the schools of the list on its registration form', async () => {
    const org = await makeOrganiser(t, admin, `schreg${kind}org`, `报名学校大学${kind}`);
    await admin.post('/api/system/school', { name: `复旦大学${kind}`, code: null, province: '上海市', kind: 'undergraduate' });
    const wrong = [{ label: '姓名', name: 'userName', otherParams: { required: true, schoolList: true } }];
    const competitionId = await onlineCompetition(admin, org, {}, [
      { label: '姓名', name: 'userName', otherParams: { required: true } },
      { label: '学校', name: 'organization', otherParams: { required: true, schoolList: true } },
    ]);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string; fieldList: object[] }[];
    const reg = presets.find((p) => p.menuCode === 'REG_SET')!;
    expect(reg.fieldList[1]).toMatchObject({ name: 'organization', otherParams: { required: true, schoolList: true } });
    const refused = await org.put(`/api/competition/preset/${reg.id}`, { enable: true, fieldList: wrong });
    expect(body(refused).message).toBe('只有学校字段可以限定为学校名单');

    const { client } = await person();
    const outside = await client.post(`/api/team/register/${competitionId}`, {
      teamName: `名单外队${kind}`,
      info: { userName: '张三', organization: '某某培训学校' },
    });
    expect([outside.statusCode, body(outside).data.fields['info.organization']]).toEqual([400, SCHOOL_NOT_LISTED_TEXT]);
    // Written with a space and full-width letters, the list's school is recognised and kept under the list's name.
    const inside = await client.post(`/api/team/register/${competitionId}`, {
      teamName: `名单内队${kind}`,
      info: { userName: '张三', organization: ` 复旦大学${kind} ` },
    });
    expect(inside.statusCode, inside.body).toBe(200);
    const team = body(await client.get(`/api/team/competition/${competitionId}`)).data;
    const fudan = body(await admin.get(`/api/system/school/page?keyword=${encodeURIComponent(`复旦大学${kind}`)}`)).data.list[0].id;
    expect(team.memberList[0].info).toMatchObject({ organization: `复旦大学${kind}`, schoolId: fudan });

    // Where the competition takes any school, one of the list is still kept with its record, another as text alone;
    // a schoolId sent by the form is not taken.
    const open = await onlineCompetition(admin, org, {}, [{ label: '学校', name: 'organization', otherParams: { required: true } }]);
    const listed = await person();
    await listed.client.post(`/api/team/register/${open}`, { teamName: `任意队甲${kind}`, info: { organization: `复旦大学${kind}`, schoolId: 1 } });
    expect(body(await listed.client.get(`/api/team/competition/${open}`)).data.memberList[0].info).toMatchObject({ schoolId: fudan });
    const unlisted = await person();
    const other = await unlisted.client.post(`/api/team/register/${open}`, {
      teamName: `任意队乙${kind}`,
      info: { organization: '社区学习中心', schoolId: fudan },
    });
    expect(other.statusCode, other.body).toBe(200);
    const info = body(await unlisted.client.get(`/api/team/competition/${open}`)).data.memberList[0].info;
    expect([info.organization, info.schoolId ?? null]).toEqual(['社区学习中心', null]);
  });

  it('keeps the list to the platform', async () => {
    const org = await makeOrganiser(t, admin, `sch${kind}org`, `学校名单大学${kind}`);
    const { client } = await person();
    for (const who of [org, client]) {
      expect((await who.get('/api/system/school/page')).statusCode).toBe(403);
      expect((await who.post('/api/system/school', { name: '越权大学', kind: 'other' })).statusCode).toBe(403);
      expect((await importList(who, await moeList([['越权大学', null, null, null, '本科', null]]))).statusCode).toBe(403);
    }
  });
});
