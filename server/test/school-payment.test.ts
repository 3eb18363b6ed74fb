import net from 'node:net';
import { schoolPaysText } from '@contest/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alipayNotification, simulatorKeys, type SimulatorKeys } from '../src/payments/simulator.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  PDF,
  PNG,
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
 * Issue 36, item 2: 统一缴费. A school's coordinator pays for many of its teams with one order (online through a
 * gateway, or by a transfer finance confirms), every team's order paid with it in one transaction, and asks for one
 * invoice of the whole amount; the teams neither pay, close nor invoice their part. A coordinator of another school
 * can do none of it.
 */
const FIELDS = [{ label: '姓名', name: 'userName', otherParams: { required: true } }];
const RULES = { sameSchool: true, schoolAudit: true, maxTeamsPerSchool: null, maxTeamsPerTeacher: null, groupMode: 'none', groupList: [] };
const COMPANY = {
  kind: 'company',
  name: '甲师范大学财务处',
  taxNo: '12100000400000000A'.replace('A', '1'),
  bank: '工商银行',
  bankAccount: '3602000000000000001',
  address: '北京市海淀区',
  phone: '010-12345678',
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

type SchoolOrder = {
  id: number;
  orderNo: string;
  amount: number;
  teamCount: number;
  payStatus: number;
  payMethod: number | null;
  invoiceStatus: number | null;
};
type SchoolTeam = { teamId: number; teamName: string; payStatus: number | null; payable: boolean; schoolOrderNo: string | null };

describe.each(DATABASES)('统一缴费 on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let keys: SimulatorKeys;
  let admin: Client;
  let org: Client;
  let otherOrg: Client;
  let competitionId: number;
  let seq = 0;
  const schools: Record<'A' | 'B', { id: number; name: string }> = {} as never;
  const coords = {} as Record<'A' | 'B', Client & { username: string }>;
  const phones = 13700000000 + (kind === 'sqlite' ? 0 : 50000);

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp(kind, {
      clock: { now: () => new Date('2026-03-20T02:00:00Z') },
      env: { PAYMENT_SIMULATOR: '1', PUBLIC_URL: base, SESSION_TTL_HOURS: String(24 * 365), REGISTER_MAX_PER_IP: '10000' },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    keys = simulatorKeys(t.config.dataDir);
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'payOrgS', '统一缴费大学');
    otherOrg = await makeOrganiser(t, admin, 'payOrgT', '别的主办方');
    expect((await admin.post('/api/payment/simulator/configure/2')).statusCode).toBe(200);
    const offline = await admin.put('/api/payment/config/6', {
      enable: true,
      accounts: [{ name: '对公转账', accountName: '统一缴费大学', accountNo: '6222000000000001', bankName: '工商银行' }],
    });
    expect(offline.statusCode, offline.body).toBe(200);
    expect(
      (await admin.put('/api/invoice/config', { enable: true, issuerName: '统一缴费大学', issuerTaxNo: COMPANY.taxNo, allowedTypes: ['normal', 'special'] }))
        .statusCode,
    ).toBe(200);
    for (const [key, name] of [
      ['A', `甲师范大学${kind}`],
      ['B', `乙理工大学${kind}`],
    ] as const) {
      schools[key] = { id: body(await admin.post('/api/system/school', { name, kind: 'undergraduate' })).data.id, name };
    }
    for (const key of ['A', 'B'] as const) {
      const username = `payco${key}${kind}`;
      await registerUser(t.app, username);
      coords[key] = Object.assign(await loggedIn(t.app, username), { username });
    }
  });
  afterAll(() => t.close());

  /**
   * Each test has a competition of its own (the tests run in any order), both schools' coordinators appointed for it:
   * the helpers below act on it.
   */
  async function freshCompetition() {
    competitionId = await onlineCompetition(admin, org, { eligibility: { ...RULES, maxTeamsPerSchool: 100 }, fee: 5000 }, FIELDS);
    for (const key of ['A', 'B'] as const) {
      const res = await org.post(`/api/competition/coordinator/${competitionId}`, {
        account: coords[key].username,
        schoolId: schools[key].id,
        scope: 'competition',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  }

  /** Imports `n` one-person teams for the school; returns their leaders' phone numbers by team name. */
  async function importTeams(key: 'A' | 'B', n: number, prefix: string) {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('名单');
    sheet.addRow(['队伍名称', '角色', '姓名', '手机号', '身份证号', '学历']);
    const phoneOf = new Map<string, string>();
    for (let i = 0; i < n; i++) {
      const phone = String(phones + ++seq);
      phoneOf.set(`${prefix}${i}`, phone);
      sheet.addRow([`${prefix}${i}`, '队长', `学生${prefix}${i}`, phone, '', '本科']);
    }
    const res = await coords[key].request({
      method: 'POST',
      url: `/api/school/coordinator/import/${competitionId}?schoolId=${schools[key].id}&mode=all`,
      ...multipart('名单.xlsx', Buffer.from(await book.xlsx.writeBuffer()), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).data.teams).toBe(n);
    return phoneOf;
  }
  const teamsOf = async (key: 'A' | 'B') =>
    (body(await coords[key].get(`/api/school/coordinator/teams/${competitionId}?schoolId=${schools[key].id}`)).data.teams as SchoolTeam[]).sort((a, b) =>
      a.teamName.localeCompare(b.teamName, 'en', { numeric: true }),
    );
  const ordersOf = async (key: 'A' | 'B') =>
    body(await coords[key].get(`/api/school/coordinator/orders/${competitionId}?schoolId=${schools[key].id}`)).data as SchoolOrder[];
  const open = (who: Client, key: 'A' | 'B', teamIds: number[]) =>
    who.post(`/api/school/coordinator/order/${competitionId}?schoolId=${schools[key].id}`, { teamIds });
  /** A team's leader, signed in by the phone number the import proved for the account. */
  async function leader(phone: string) {
    const row = await t.database.db.selectFrom('users').select('username').where('verifiedPhone', '=', phone).executeTakeFirstOrThrow();
    await t.database.db
      .updateTable('users')
      .set({
        passwordHash: (await t.database.db.selectFrom('users').select('passwordHash').where('username', '=', coords.A.username).executeTakeFirstOrThrow())
          .passwordHash,
      })
      .where('username', '=', row.username)
      .execute();
    return loggedIn(t.app, row.username);
  }
  const teamOrder = async (who: Client) => {
    const list = body(await who.get('/api/order/person/page?limit=10')).data.list as {
      id: number;
      payStatus: number;
      payerOrg: string | null;
      schoolOrderNo: string | null;
    }[];
    return list[0]!;
  };
  const postAlipay = (payload: string) =>
    fetch(`${base}/api/payment/notify/alipay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: payload }).then((r) =>
      r.text(),
    );

  it('pays for 30 teams with one order through the gateway, once, and asks for one invoice of it', { timeout: 180_000 }, async () => {
    await freshCompetition();
    const phoneOf = await importTeams('A', 30, '甲队');
    const teams = await teamsOf('A');
    expect(teams).toHaveLength(30);
    expect(teams.every((x) => x.payable && x.payStatus === 0)).toBe(true);
    const ids = teams.map((x) => x.teamId);

    // Another school's coordinator, and another organiser, cannot open or see it.
    expect((await open(coords.B, 'A', ids)).statusCode).toBe(404);
    expect((await coords.B.get(`/api/school/coordinator/orders/${competitionId}?schoolId=${schools.A.id}`)).statusCode).toBe(404);
    // A team of another school is refused, and nothing is opened.
    await importTeams('B', 1, '乙散队');
    const bTeam = (await teamsOf('B'))[0]!.teamId;
    const mixed = await open(coords.A, 'A', [...ids, bTeam]);
    expect([mixed.statusCode, body(mixed).message]).toEqual([409, expect.stringContaining('有1支队伍不能统一缴费')]);
    expect(await ordersOf('A')).toEqual([]);

    const made = await open(coords.A, 'A', ids);
    expect(made.statusCode, made.body).toBe(200);
    const [order] = await ordersOf('A');
    expect(order).toMatchObject({ amount: 30 * 5000, teamCount: 30, payStatus: 0 });
    expect(order!.orderNo).toMatch(/^S\d{20}$/);
    expect((await teamsOf('A')).every((x) => !x.payable && x.schoolOrderNo === order!.orderNo)).toBe(true);
    // The same team cannot be in two school orders.
    expect((await open(coords.A, 'A', [ids[0]!])).statusCode).toBe(409);

    // A team no longer pays, closes or sends a transfer for its part.
    const first = await leader(phoneOf.get('甲队0')!);
    const mine = await teamOrder(first);
    expect(mine.schoolOrderNo).toBe(order!.orderNo);
    for (const res of [await first.post(`/api/payment/pay/${mine.id}`, { method: 2 }), await first.put(`/api/order/close/${mine.id}`)])
      expect([res.statusCode, body(res).message]).toEqual([409, schoolPaysText(order!.orderNo)]);

    // Another school's coordinator cannot pay, close or invoice it.
    expect((await coords.B.post(`/api/school/coordinator/order/pay/${order!.id}`, { method: 2 })).statusCode).toBe(404);
    expect((await coords.B.put(`/api/school/coordinator/order/close/${order!.id}`)).statusCode).toBe(404);

    // The coordinator pays online: a signed code for the whole amount; the gateway's notice pays every team's order.
    const pay = await coords.A.post(`/api/school/coordinator/order/pay/${order!.id}`, { method: 2 });
    expect(pay.statusCode, pay.body).toBe(200);
    expect(await (await fetch(body(pay).data.codeUrl)).text()).toContain('¥1500.00');
    // A notice for the wrong amount pays nothing.
    expect(await postAlipay(alipayNotification(keys, { orderNo: order!.orderNo, tradeNo: 'S-WRONG', amount: 5000 }, new Date()))).not.toBe('success');
    expect((await ordersOf('A'))[0]!.payStatus).toBe(0);
    // The same notice five times at once pays once.
    const notice = alipayNotification(keys, { orderNo: order!.orderNo, tradeNo: `S-TRADE-${kind}`, amount: order!.amount }, new Date());
    expect(await Promise.all(Array.from({ length: 5 }, () => postAlipay(notice)))).toEqual(Array(5).fill('success'));
    const outcomes = await t.database.db.selectFrom('paymentNotifications').select('outcome').where('orderNo', '=', order!.orderNo).execute();
    expect(outcomes.filter((o) => o.outcome === 'paid')).toHaveLength(1);
    expect((await ordersOf('A'))[0]).toMatchObject({ payStatus: 1, payMethod: 2 });
    const paid = await t.database.db.selectFrom('orders').select(['payStatus', 'payerOrg']).where('teamId', 'in', ids).execute();
    expect(paid).toHaveLength(30);
    expect(paid.every((o) => o.payStatus === 1 && o.payerOrg === schools.A.name)).toBe(true);
    expect((await teamsOf('A')).every((x) => x.payStatus === 1)).toBe(true);
    const told = body(await first.get('/api/message/notice/page/1')).data.list as { title: string }[];
    expect(told.some((m) => m.title === '订单已支付')).toBe(true);

    // One invoice for the school: a team cannot invoice its part; the coordinator applies once.
    const title = body(await coords.A.post('/api/invoice/title', COMPANY)).data.id as number;
    const teamTitle = body(await first.post('/api/invoice/title', { kind: 'personal', name: '学生甲' })).data.id as number;
    const teamApply = await first.post('/api/invoice/apply', { orderId: mine.id, titleId: teamTitle, type: 'normal' });
    expect([teamApply.statusCode, body(teamApply).message]).toEqual([409, `该订单由学校统一缴费（订单号 ${order!.orderNo}），发票由学校院校负责人统一申请`]);
    expect((await coords.B.post(`/api/school/coordinator/order/invoice/${order!.id}`, { titleId: title, type: 'special' })).statusCode).toBe(404);
    const applied = await coords.A.post(`/api/school/coordinator/order/invoice/${order!.id}`, { titleId: title, type: 'special', email: 'cw@example.edu.cn' });
    expect(applied.statusCode, applied.body).toBe(200);
    expect((await coords.A.post(`/api/school/coordinator/order/invoice/${order!.id}`, { titleId: title, type: 'special' })).statusCode).toBe(409);
    expect((await ordersOf('A'))[0]!.invoiceStatus).toBe(0);
    const invoices = await t.database.db.selectFrom('invoices').selectAll().where('competitionId', '=', competitionId).execute();
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amount: 150000, orderId: null, schoolOrderId: order!.id });

    // Finance reads it as the school's, with the order's number, and issues it; the coordinator reads it issued.
    const listed = body(await org.get(`/api/invoice/list?competitionId=${competitionId}`)).data.list as {
      id: number;
      orderNo: string;
      teamName: string;
      amount: number;
    }[];
    expect(listed).toEqual([expect.objectContaining({ orderNo: order!.orderNo, teamName: `${schools.A.name}（统一缴费30支队伍）`, amount: 150000 })]);
    expect(body(await org.get(`/api/invoice/list?keyword=${order!.orderNo}`)).data.total).toBe(1);
    const pdf = body(await org.request({ method: 'POST', url: '/api/file/upload/document?purpose=invoice', ...multipart('发票.pdf', PDF, 'application/pdf') }))
      .data.fileUri;
    expect((await org.put(`/api/invoice/issue/${listed[0]!.id}`, { invoiceNo: '26110000000000000001', fileUri: pdf })).statusCode).toBe(200);
    const theirs = body(await coords.A.get('/api/invoice/person/page')).data.list as { status: number; orderNo: string; fileUri: string }[];
    expect(theirs[0]).toMatchObject({ status: 1, orderNo: order!.orderNo });
    expect((await coords.A.get(`/api/file/common/download?fileUri=${encodeURIComponent(theirs[0]!.fileUri)}`)).statusCode).toBe(200);
  });

  it('pays by transfer: closed orders give the teams back; finance of the organiser alone confirms, paying every team', { timeout: 120_000 }, async () => {
    await freshCompetition();
    await importTeams('B', 4, '乙队');
    const teams = (await teamsOf('B')).filter((x) => x.payable);
    expect(teams).toHaveLength(4);
    const ids = teams.map((x) => x.teamId);
    expect((await open(coords.B, 'B', ids)).statusCode).toBe(200);
    const [first] = await ordersOf('B');
    // Closed, its teams' orders are theirs again, and may go into a new school order.
    expect((await coords.B.put(`/api/school/coordinator/order/close/${first!.id}`)).statusCode).toBe(200);
    expect((await coords.B.put(`/api/school/coordinator/order/close/${first!.id}`)).statusCode).toBe(409);
    expect((await teamsOf('B')).every((x) => x.payable && x.schoolOrderNo === null)).toBe(true);
    expect((await open(coords.B, 'B', ids)).statusCode).toBe(200);
    const [order] = await ordersOf('B');
    expect(order).toMatchObject({ teamCount: 4, amount: 20000, payStatus: 0 });

    const voucher = body(
      await coords.B.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('回单.png', PNG, 'image/png') }),
    ).data.fileUri as string;
    // Finance cannot confirm before the transfer's voucher is sent.
    expect(body(await org.put(`/api/order/school/confirm/${order!.id}`)).message).toBe('付款人尚未上传转账凭证');
    expect((await coords.A.put(`/api/school/coordinator/order/voucher/${order!.id}`, { payMethod: 6, voucher })).statusCode).toBe(404);
    expect((await coords.B.put(`/api/school/coordinator/order/voucher/${order!.id}`, { payMethod: 6, voucher })).statusCode).toBe(200);
    // Waiting for finance, it can no longer be closed (its teams cannot slip out from under the transfer).
    const closing = await coords.B.put(`/api/school/coordinator/order/close/${order!.id}`);
    expect([closing.statusCode, body(closing).message]).toEqual([409, '转账凭证已提交，等待财务确认收款，不能关闭订单']);
    // Finance lists the school's order with its teams and reads the voucher; another organiser sees nothing.
    const list = body(await org.get(`/api/order/school/list?competitionId=${competitionId}&payStatus=0`)).data;
    expect(list.list).toEqual([expect.objectContaining({ orderNo: order!.orderNo, schoolName: schools.B.name, voucher, teams: expect.any(Array) })]);
    expect(list.list[0].teams).toHaveLength(4);
    expect((await org.get(`/api/file/common/download?fileUri=${encodeURIComponent(voucher)}`)).statusCode).toBe(200);
    expect(body(await otherOrg.get('/api/order/school/list')).data.total).toBe(0);
    expect((await otherOrg.get(`/api/file/common/download?fileUri=${encodeURIComponent(voucher)}`)).statusCode).toBe(404);
    expect((await otherOrg.put(`/api/order/school/confirm/${order!.id}`)).statusCode).toBe(404);
    // Two confirmations at once pay once.
    const confirms = await Promise.all([org.put(`/api/order/school/confirm/${order!.id}`), org.put(`/api/order/school/confirm/${order!.id}`)]);
    expect(confirms.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await ordersOf('B'))[0]).toMatchObject({ payStatus: 1, payMethod: 6 });
    expect((await teamsOf('B')).every((x) => x.payStatus === 1)).toBe(true);
    // Finance of the organiser alone refunds it: the school order and every team order in it, once.
    expect((await otherOrg.put(`/api/order/school/refund/${order!.id}`, { reason: '停赛' })).statusCode).toBe(404);
    expect((await org.put(`/api/order/school/refund/${order!.id}`, { reason: '赛事取消，全额退还' })).statusCode).toBe(200);
    expect((await org.put(`/api/order/school/refund/${order!.id}`, { reason: '赛事取消，全额退还' })).statusCode).toBe(409);
    expect((await ordersOf('B'))[0]).toMatchObject({ payStatus: 3, refundReason: '赛事取消，全额退还' });
    const refunded = await t.database.db.selectFrom('orders').select(['payStatus', 'refundReason']).where('teamId', 'in', ids).execute();
    expect(refunded.every((o) => o.payStatus === 3 && o.refundReason === '赛事取消，全额退还')).toBe(true);
    const audits = await t.database.db
      .selectFrom('auditLog')
      .select('action')
      .where('entity', '=', 'schoolOrder')
      .where('entityId', '=', String(order!.id))
      .execute();
    expect(audits.map((a) => a.action).sort()).toEqual(['order.schoolOpen', 'order.schoolPaid', 'order.schoolRefund']);
  });

  it('keeps its teams’ orders past their own timeout, and closes itself unpaid after its own, giving them back', async () => {
    await freshCompetition();
    await importTeams('A', 1, '甲迟队');
    const late = (await teamsOf('A')).find((x) => x.teamName === '甲迟队0')!;
    expect((await open(coords.A, 'A', [late.teamId])).statusCode).toBe(200);
    const { closeExpiredOrders } = await import('../src/modules/orders/index.ts');
    const at = (iso: string) => ({ ...t.deps, clock: { now: () => new Date(iso) } });
    // Two hours on: a team's own order would have closed (30 minutes); one its school pays for waits.
    await closeExpiredOrders(at('2026-03-20T04:00:00Z'));
    expect((await teamsOf('A')).find((x) => x.teamId === late.teamId)).toMatchObject({ payStatus: 0, schoolOrderNo: expect.stringMatching(/^S/) });
    // Four days on, past SCHOOL_ORDER_TIMEOUT_HOURS (72): the school order closes, the team's order is its own again.
    await closeExpiredOrders(at('2026-03-24T02:00:00Z'));
    expect((await teamsOf('A')).find((x) => x.teamId === late.teamId)).toMatchObject({ payStatus: 0, schoolOrderNo: null, payable: true });
    const told = body(await coords.A.get('/api/message/notice/page/1')).data.list as { title: string }[];
    expect(told.some((m) => m.title === '统一缴费订单已关闭')).toBe(true);
  });
});
