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

const COMPANY = {
  kind: 'company',
  name: '某某科技有限公司',
  taxNo: '91440101MA5CXXXX0X'.replace(/X/g, '1'),
  bank: '工商银行广州分行',
  bankAccount: '3602000000000000000',
  address: '广州市天河区',
  phone: '020-12345678',
};

describe.each(DATABASES)('invoices on %s', (kind) => {
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
    orgA = await makeOrganiser(t, admin, 'invA', '发票甲大学');
    orgB = await makeOrganiser(t, admin, 'invB', '发票乙大学');
    competitionId = await onlineCompetition(admin, orgA, { fee: 30000 });
    const cfg = await admin.put('/api/invoice/config', {
      enable: true,
      issuerName: '发票甲大学',
      issuerTaxNo: COMPANY.taxNo,
      allowedTypes: ['normal', 'special'],
      notice: '电子发票将发送至邮箱',
    });
    expect(cfg.statusCode, cfg.body).toBe(200);
  });
  afterAll(() => t.close());

  const upload = async (who: Client, purpose: string, name = 'file.pdf') =>
    body(await who.request({ method: 'POST', url: `/api/file/upload/document?purpose=${purpose}`, ...multipart(name, PDF, 'application/pdf') })).data
      .fileUri as string;

  /** A participant whose team's order finance has confirmed as paid. */
  async function paidOrder() {
    const username = `inv${++seq}x`;
    await registerUser(t.app, username);
    const p = await loggedIn(t.app, username);
    const res = await p.post(`/api/team/register/${competitionId}`, { teamName: `发票队${seq}`, info });
    const orderId = body(res).data.orderId as number;
    await p.put(`/api/order/voucher/${orderId}`, { payMethod: 4, voucher: await upload(p, 'voucher') });
    expect((await orgA.put(`/api/order/confirm/${orderId}`)).statusCode).toBe(200);
    return { p, orderId };
  }

  it('keeps invoice titles per user, and checks the tax number of a company title', async () => {
    const { p } = await paidOrder();
    const noTax = await p.post('/api/invoice/title', { ...COMPANY, taxNo: '' });
    expect(body(noTax).data.fields.taxNo).toBe('单位抬头须填写纳税人识别号');
    expect(body(await p.post('/api/invoice/title', { ...COMPANY, taxNo: '12345' })).data.fields.taxNo).toBe('纳税人识别号须为18位统一社会信用代码');
    const id = body(await p.post('/api/invoice/title', COMPANY)).data.id;
    expect((await p.post('/api/invoice/title', { kind: 'personal', name: '张三' })).statusCode).toBe(200);
    expect(body(await p.get('/api/invoice/title/list')).data.map((x: { name: string }) => x.name)).toEqual(['张三', '某某科技有限公司']);
    const { p: other } = await paidOrder();
    expect(body(await other.get('/api/invoice/title/list')).data).toEqual([]);
    expect((await other.put(`/api/invoice/title/${id}`, COMPANY)).statusCode).toBe(404);
    expect((await other.delete(`/api/invoice/title/${id}`)).statusCode).toBe(404);
    expect((await p.put(`/api/invoice/title/${id}`, { ...COMPANY, name: '某某科技股份有限公司' })).statusCode).toBe(200);
  });

  it('lets a member apply once per paid order, with a snapshot of the title', async () => {
    const { p, orderId } = await paidOrder();
    const titleId = body(await p.post('/api/invoice/title', COMPANY)).data.id;
    const personal = body(await p.post('/api/invoice/title', { kind: 'personal', name: '张三' })).data.id;
    const special = await p.post('/api/invoice/apply', { orderId, titleId: personal, type: 'special' });
    expect(body(special).data.fields.titleId).toMatch(/^专用发票须使用/);
    const stranger = (await paidOrder()).p;
    expect((await stranger.post('/api/invoice/apply', { orderId, titleId, type: 'normal' })).statusCode).toBe(404);
    const financeTitle = body(await orgA.post('/api/invoice/title', { kind: 'personal', name: '财务' })).data.id;
    expect((await orgA.post('/api/invoice/apply', { orderId, titleId: financeTitle, type: 'normal' })).statusCode).toBe(404);

    const results = await Promise.all(Array.from({ length: 10 }, () => p.post('/api/invoice/apply', { orderId, titleId, type: 'special', email: 'a@b.cn' })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409).every((r) => body(r).message === '该订单已申请过发票')).toBe(true);
    // The organisation's finance is told what waits for it, once (issue 33).
    const told = (body(await orgA.get('/api/message/notice/page/1?limit=50')).data.list as { title: string; content: string }[]).filter(
      (m) => m.title === '新的发票申请' && m.content.includes('增值税专用发票'),
    );
    expect(told).toHaveLength(1);
    await p.put(`/api/invoice/title/${titleId}`, { ...COMPANY, name: '改过的名字' });
    const mine = body(await p.get('/api/invoice/person/page')).data;
    expect(mine.total).toBe(1);
    expect(mine.list[0]).toMatchObject({
      orderId,
      amount: 30000,
      type: 'special',
      status: 0,
      email: 'a@b.cn',
      title: { name: '某某科技有限公司', taxNo: COMPANY.taxNo },
    });
  });

  it('refuses unpaid orders, closed windows and types the configuration does not allow', async () => {
    const username = `inv${++seq}u`;
    await registerUser(t.app, username);
    const p = await loggedIn(t.app, username);
    const unpaid = body(await p.post(`/api/team/register/${competitionId}`, { teamName: `未付队${seq}`, info })).data.orderId;
    const titleId = body(await p.post('/api/invoice/title', { kind: 'personal', name: '李四' })).data.id;
    expect(body(await p.post('/api/invoice/apply', { orderId: unpaid, titleId, type: 'normal' })).message).toBe('只有已支付的订单可以申请发票');

    const { p: q, orderId } = await paidOrder();
    const qTitle = body(await q.post('/api/invoice/title', { kind: 'personal', name: '王五' })).data.id;
    const base = { enable: true, issuerName: '发票甲大学', issuerTaxNo: COMPANY.taxNo, allowedTypes: ['normal'] };
    expect((await orgA.put('/api/invoice/config', base)).statusCode).toBe(403);
    expect(body(await admin.put('/api/invoice/config', { ...base, allowedTypes: [] })).data.fields.allowedTypes).toBe('请至少选择一种发票类型');
    await admin.put('/api/invoice/config', base);
    expect(body(await q.post('/api/invoice/apply', { orderId, titleId: qTitle, type: 'special' })).message).toBe('暂不支持开具增值税专用发票');
    await admin.put('/api/invoice/config', { ...base, applyEnd: '2026-03-01T00:00:00+08:00' });
    expect(body(await q.post('/api/invoice/apply', { orderId, titleId: qTitle, type: 'normal' })).message).toBe('不在发票申请时间内');
    await admin.put('/api/invoice/config', { ...base, enable: false });
    expect(body(await q.post('/api/invoice/apply', { orderId, titleId: qTitle, type: 'normal' })).message).toBe('暂未开放发票申请');
    await admin.put('/api/invoice/config', { ...base, allowedTypes: ['normal', 'special'] });
    expect(body(await q.get('/api/invoice/config/public')).data).toMatchObject({ enable: true, allowedTypes: ['normal', 'special'] });
  });

  it('takes applications only for a competition whose organiser opened invoices, which readiness says', async () => {
    const closedId = await onlineCompetition(admin, orgA, { fee: 12000, invoiceEnable: false });
    const username = `inv${++seq}c`;
    await registerUser(t.app, username);
    const p = await loggedIn(t.app, username);
    const orderId = body(await p.post(`/api/team/register/${closedId}`, { teamName: `关票队${seq}`, info })).data.orderId as number;
    await p.put(`/api/order/voucher/${orderId}`, { payMethod: 4, voucher: await upload(p, 'voucher') });
    expect((await orgA.put(`/api/order/confirm/${orderId}`)).statusCode).toBe(200);
    const titleId = body(await p.post('/api/invoice/title', { kind: 'personal', name: '钱七' })).data.id;

    // The team's order says so before it applies, and an application is refused with the competition named.
    const detail = body(await p.get(`/api/competition/public/${closedId}`)).data;
    expect(detail.invoiceEnable).toBe(false);
    expect(body(await p.get('/api/order/person/page')).data.list.find((o: { id: number }) => o.id === orderId)).toMatchObject({
      invoiceEnable: false,
      payStatus: 1,
    });
    const refused = await p.post('/api/invoice/apply', { orderId, titleId, type: 'normal' });
    expect([refused.statusCode, body(refused).message]).toEqual([409, `竞赛“${detail.name}”未开放发票申请，如需发票请联系主办方`]);
    expect(body(await p.get('/api/invoice/person/page')).data.total).toBe(0);
    const readiness = body(await orgA.get(`/api/competition/readiness/${closedId}`)).data.items.find((i: { key: string }) => i.key === 'invoice');
    expect(readiness).toMatchObject({
      ok: false,
      level: 'advisory',
      detail: '未开放发票申请：缴费的参赛者不能在平台上为报名费申请发票（学校报销通常需要发票）',
    });

    // The organiser opens them (the fee and team rules unchanged, as an online competition requires): the same application passes.
    const { id: _id, stages: _s, activeStageId: _a, phase: _p, ...rest } = detail;
    const edit = {
      name: rest.name,
      brandId: rest.brandId,
      regStartTime: rest.regStartTime,
      regEndTime: rest.regEndTime,
      endTime: rest.endTime,
      minMembers: rest.minMembers,
      maxMembers: rest.maxMembers,
      maxTeachers: rest.maxTeachers,
      allowIndividual: rest.allowIndividual,
      fee: rest.fee,
      invoiceEnable: true,
    };
    expect((await orgB.put(`/api/competition/${closedId}`, edit)).statusCode).toBe(404);
    const opened = await orgA.put(`/api/competition/${closedId}`, edit);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(body(await orgA.get(`/api/competition/readiness/${closedId}`)).data.items.find((i: { key: string }) => i.key === 'invoice')).toMatchObject({
      ok: true,
    });
    expect((await p.post('/api/invoice/apply', { orderId, titleId, type: 'normal' })).statusCode).toBe(200);
    expect(body(await orgA.get(`/api/invoice/list?competitionId=${closedId}`)).data.total).toBe(1);
  });

  it('lets finance of the organisation issue with a PDF or reject with a reason, and the applicant see and download it', async () => {
    const { p, orderId } = await paidOrder();
    const titleId = body(await p.post('/api/invoice/title', { kind: 'personal', name: '赵六' })).data.id;
    const first = body(await p.post('/api/invoice/apply', { orderId, titleId, type: 'normal' })).data.id;
    expect((await orgB.put(`/api/invoice/reject/${first}`, { reason: '抬头有误' })).statusCode).toBe(404);
    expect(body(await orgB.get('/api/invoice/list')).data.list.some((i: { id: number }) => i.id === first)).toBe(false);
    expect((await p.put(`/api/invoice/reject/${first}`, { reason: 'x' })).statusCode).toBe(403);
    expect(body(await orgA.put(`/api/invoice/reject/${first}`, { reason: '' })).data.fields.reason).toBe('请输入驳回原因');
    expect((await orgA.put(`/api/invoice/reject/${first}`, { reason: '抬头有误，请重新申请' })).statusCode).toBe(200);
    expect(body(await p.get('/api/invoice/person/page')).data.list[0]).toMatchObject({ status: 2, reason: '抬头有误，请重新申请' });

    // A rejected application may be made again; this one is issued.
    const second = body(await p.post('/api/invoice/apply', { orderId, titleId, type: 'normal' })).data.id;
    const pdf = await upload(orgA, 'invoice', '电子发票.pdf');
    const theirs = await upload(p, 'invoice', 'fake.pdf');
    expect(body(await orgA.put(`/api/invoice/issue/${second}`, { invoiceNo: '0123456789', fileUri: theirs })).data.fields.fileUri).toBe('文件无效，请重新上传');
    expect((await orgA.put(`/api/invoice/issue/${second}`, { invoiceNo: '0123456789', fileUri: pdf })).statusCode).toBe(200);
    // The applicant is told, in the personal message box.
    expect(body(await p.get('/api/message/notice/page/1')).data.list[0]).toMatchObject({ title: '发票已开具', read: false });
    expect(body(await orgA.put(`/api/invoice/issue/${second}`, { invoiceNo: '0123456789', fileUri: pdf })).message).toBe('该发票申请已处理');
    expect(body(await p.post('/api/invoice/apply', { orderId, titleId, type: 'normal' })).message).toBe('该订单已申请过发票');

    const mine = body(await p.get('/api/invoice/person/page?status=1')).data.list[0];
    expect(mine).toMatchObject({ id: second, status: 1, invoiceNo: '0123456789', fileUri: pdf });
    const url = `/api/file/common/download?fileUri=${encodeURIComponent(pdf)}`;
    expect((await p.get(url)).statusCode).toBe(200);
    expect((await (await paidOrder()).p.get(url)).statusCode).toBe(404);
    expect((await orgB.get(url)).statusCode).toBe(404);

    const list = body(await orgA.get('/api/invoice/list?status=1')).data;
    expect(list.list.map((i: { id: number }) => i.id)).toContain(second);
    const xlsx = await orgA.get('/api/invoice/list?export=xlsx');
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const audit = await t.database.db.selectFrom('auditLog').select('action').where('entity', '=', 'invoice').execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['invoice.issue', 'invoice.reject']);
  });
});
