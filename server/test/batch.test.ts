import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  DATABASES,
  PDF,
  REG_INFO,
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

describe.each(DATABASES)('batch work on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let orgA: Client;
  let orgB: Client;
  // Inside the registration window of `onlineCompetition`.
  const now = new Date('2026-03-20T00:00:00Z');
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365), REGISTER_MAX_PER_IP: '1000' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    orgA = await makeOrganiser(t, admin, 'borgA', '甲大学');
    orgB = await makeOrganiser(t, admin, 'borgB', '乙大学');
  }, 60_000);
  afterAll(() => t.close());

  /** `n` participants, each registered alone in the competition; their registration ids and usernames. */
  async function registrations(competitionId: number, n: number) {
    const out: { id: number; username: string; leader: Client; orderId: number | null }[] = [];
    for (let i = 0; i < n; i++) {
      const username = `bplayer${++seq}`;
      await registerUser(t.app, username);
      const leader = await loggedIn(t.app, username);
      const res = await leader.post(`/api/team/register/${competitionId}`, { teamName: `批量队${seq}`, info: REG_INFO });
      expect(res.statusCode, res.body).toBe(200);
      out.push({ id: body(res).data.registerId as number, username, leader, orderId: body(res).data.orderId });
    }
    return out;
  }

  /** How many automatic messages of `source` each of `usernames` received. */
  async function messages(source: string, usernames: string[]) {
    const rows = await t.database.db.selectFrom('notices').select('targetJson').where('source', '=', source).execute();
    const targets = rows.map((r) => (JSON.parse(r.targetJson) as { usernames: string[] }).usernames);
    return usernames.map((u) => targets.filter((list) => list.includes(u)).length);
  }

  /** The data rows of an xlsx export (the header row left out). */
  async function sheetRows(res: { rawPayload: Buffer }) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: string[][] = [];
    book.worksheets[0]!.eachRow((row, n) => n > 1 && rows.push((row.values as unknown[]).slice(1).map(String)));
    return rows;
  }

  const statuses = async (ids: number[]) =>
    (await t.database.db.selectFrom('registers').select(['id', 'status']).where('id', 'in', ids).orderBy('id').execute()).map((r) => r.status);

  describe('registration review', () => {
    it('approves 30 registrations in one batch, counting those already decided and other organisations’ as such', async () => {
      const id = await onlineCompetition(admin, orgA);
      const regs = await registrations(id, 30);
      const other = await registrations(await onlineCompetition(admin, orgB), 2);
      expect((await orgA.post(`/api/team/register/flow/${regs[0].id}`, { action: 'approve' })).statusCode).toBe(200);
      expect((await orgA.post(`/api/team/register/flow/${regs[1].id}`, { action: 'reject', reason: '材料不全' })).statusCode).toBe(200);

      const res = await orgA.post('/api/team/register/flow/batch', { ids: [...regs, ...other].map((r) => r.id), action: 'approve' });
      expect(res.statusCode, res.body).toBe(200);
      const { data, message } = body(res);
      expect(message).toBe('已通过 28 条，2 条已被处理，2 条不存在');
      expect([data.done, data.decided, data.skipped, data.notFound]).toEqual([28, 2, 0, 2]);
      expect(data.results.filter((r: { outcome: string }) => r.outcome === 'notFound').map((r: { id: number }) => r.id)).toEqual(other.map((r) => r.id));
      expect(await statuses(regs.map((r) => r.id))).toEqual([1, 2, ...Array(28).fill(1)]);
      // Another organisation's registrations are untouched.
      expect(await statuses(other.map((r) => r.id))).toEqual([0, 0]);
      // Each team was told once, with the same message as a single approval, and each step is in the flow.
      expect(
        await messages(
          'register.approved',
          regs.map((r) => r.username),
        ),
      ).toEqual([1, 0, ...Array(28).fill(1)]);
      const flows = await t.database.db
        .selectFrom('registerFlows')
        .select('registerId')
        .where('action', '=', 'approve')
        .where(
          'registerId',
          'in',
          regs.map((r) => r.id),
        )
        .execute();
      expect(flows).toHaveLength(29);
      // The participant's own view says approved.
      expect(body(await regs[5].leader.get(`/api/team/register/item/${id}`)).data.status).toBe(1);
      // A selection with nothing of the caller's is refused outright.
      const foreign = await orgA.post('/api/team/register/flow/batch', { ids: other.map((r) => r.id), action: 'approve' });
      expect([foreign.statusCode, body(foreign).message]).toEqual([404, '报名不存在']);
      expect(await statuses(other.map((r) => r.id))).toEqual([0, 0]);
      // The platform administrator may act on every organisation's registrations.
      const byAdmin = body(await admin.post('/api/team/register/flow/batch', { ids: other.map((r) => r.id), action: 'approve' }));
      expect(byAdmin.message).toBe('已通过 2 条');
    });

    it('approves and notifies each registration once when two batches and single approvals race', async () => {
      const id = await onlineCompetition(admin, orgA);
      const regs = await registrations(id, 8);
      const ids = regs.map((r) => r.id);
      const results = await Promise.all([
        orgA.post('/api/team/register/flow/batch', { ids, action: 'approve' }),
        orgA.post('/api/team/register/flow/batch', { ids: [...ids].reverse(), action: 'approve' }),
        admin.post('/api/team/register/flow/batch', { ids, action: 'reject', reason: '重复' }),
        ...ids.slice(0, 4).map((i) => orgA.post(`/api/team/register/flow/${i}`, { action: 'approve' })),
      ]);
      const batches = results.slice(0, 3).map((r) => body(r).data);
      const singles = results.slice(3);
      for (const r of results) expect([200, 409]).toContain(r.statusCode);
      const decidedBySingles = singles.filter((r) => r.statusCode === 200).length;
      // Every registration was decided exactly once, by whichever request came first.
      expect(batches.reduce((n, b) => n + b.done, 0) + decidedBySingles).toBe(8);
      for (const b of batches) expect(b.done + b.decided).toBe(8);
      const flows = await t.database.db
        .selectFrom('registerFlows')
        .select('registerId')
        .where('action', 'in', ['approve', 'reject'])
        .where('registerId', 'in', ids)
        .execute();
      expect(flows.map((f) => f.registerId).sort()).toEqual([...ids].sort());
      const approved = await messages(
        'register.approved',
        regs.map((r) => r.username),
      );
      const rejected = await messages(
        'register.rejected',
        regs.map((r) => r.username),
      );
      expect(approved.map((n, i) => n + rejected[i])).toEqual(Array(8).fill(1));
    });

    it('skips and names the unpaid registrations of a batch approval, which a single approval still takes', async () => {
      const id = await onlineCompetition(admin, orgA, { fee: 5000 });
      const regs = await registrations(id, 4);
      // Two teams paid (the organiser confirmed their transfers), two did not.
      for (const r of regs.slice(0, 2)) {
        const voucher = body(
          await r.leader.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('回单.pdf', PDF, 'application/pdf') }),
        ).data.fileUri;
        expect((await r.leader.put(`/api/order/voucher/${r.orderId}`, { payMethod: 4, voucher })).statusCode).toBe(200);
        expect((await orgA.put(`/api/order/confirm/${r.orderId}`)).statusCode).toBe(200);
      }
      const teams = await t.database.db
        .selectFrom('registers as r')
        .innerJoin('teams as t', 't.id', 'r.teamId')
        .select(['r.id', 't.name', 't.teamNo'])
        .where(
          'r.id',
          'in',
          regs.map((r) => r.id),
        )
        .orderBy('r.id')
        .execute();
      const res = await orgA.post('/api/team/register/flow/batch', { ids: regs.map((r) => r.id), action: 'approve' });
      expect(res.statusCode, res.body).toBe(200);
      const { data, message } = body(res);
      const unpaid = teams.slice(2).map((t) => `${t.name}（${t.teamNo}）`);
      expect(message).toBe(`已通过 2 条，2 条尚未缴费，已跳过：${unpaid.join('、')}`);
      expect([data.done, data.skipped, data.skippedNames]).toEqual([2, 2, unpaid]);
      expect(data.results.filter((r: { outcome: string }) => r.outcome === 'skipped').map((r: { id: number }) => r.id)).toEqual(regs.slice(2).map((r) => r.id));
      expect(await statuses(regs.map((r) => r.id))).toEqual([1, 1, 0, 0]);
      expect(
        await messages(
          'register.approved',
          regs.map((r) => r.username),
        ),
      ).toEqual([1, 1, 0, 0]);
      // Rejecting is not held back by payment, and the organiser may approve an unpaid team on its own.
      expect(body(await orgA.post('/api/team/register/flow/batch', { ids: [regs[2].id], action: 'reject', reason: '材料不全' })).message).toBe('已驳回 1 条');
      expect((await orgA.post(`/api/team/register/flow/${regs[3].id}`, { action: 'approve' })).statusCode).toBe(200);
      expect(await statuses(regs.map((r) => r.id))).toEqual([1, 1, 2, 1]);
    });

    it('requires one reason to reject, refuses participants, and exports the selection', async () => {
      const id = await onlineCompetition(admin, orgA);
      const regs = await registrations(id, 3);
      const ids = regs.map((r) => r.id);
      const noReason = await orgA.post('/api/team/register/flow/batch', { ids, action: 'reject', reason: '  ' });
      expect([noReason.statusCode, body(noReason).data.fields.reason]).toEqual([400, '请填写驳回原因']);
      expect(body(await orgA.post('/api/team/register/flow/batch', { ids: [], action: 'approve' })).data.fields.ids).toBe('请选择报名');
      expect((await regs[0].leader.post('/api/team/register/flow/batch', { ids, action: 'approve' })).statusCode).toBe(403);
      expect(await statuses(ids)).toEqual([0, 0, 0]);

      // 「待审核」 lists what waits; export takes the selection only.
      expect(body(await orgA.get(`/api/team/register/list?competitionId=${id}&status=0`)).data.total).toBe(3);
      const xlsx = await orgA.get(`/api/team/register/list?competitionId=${id}&ids=${ids[0]},${ids[2]}&export=xlsx`);
      expect(xlsx.headers['content-type']).toContain('spreadsheetml');
      expect(
        body(await orgA.get(`/api/team/register/list?ids=${ids[0]},${ids[2]}`))
          .data.list.map((r: { id: number }) => r.id)
          .sort(),
      ).toEqual([ids[0], ids[2]].sort());

      const res = body(await orgA.post('/api/team/register/flow/batch', { ids: ids.slice(0, 2), action: 'reject', reason: '学校名称不完整' }));
      expect(res.message).toBe('已驳回 2 条');
      expect(await statuses(ids)).toEqual([2, 2, 0]);
      expect(body(await regs[0].leader.get(`/api/team/register/item/${id}`)).data).toMatchObject({ status: 2, reason: '学校名称不完整' });
      expect(
        await messages(
          'register.rejected',
          regs.map((r) => r.username),
        ),
      ).toEqual([1, 1, 0]);
      expect(body(await orgA.get(`/api/team/register/list?competitionId=${id}&status=0`)).data.total).toBe(1);
    });
  });

  describe('transfers to confirm', () => {
    /** Registrations with a fee whose leaders uploaded a transfer voucher (all but the last `without`). */
    async function transfers(organiser: Client, n: number, without = 0) {
      const regs = await registrations(await onlineCompetition(admin, organiser, { fee: 5000 }), n);
      for (const r of regs.slice(0, n - without)) {
        const voucher = body(
          await r.leader.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('回单.pdf', PDF, 'application/pdf') }),
        ).data.fileUri;
        expect((await r.leader.put(`/api/order/voucher/${r.orderId}`, { payMethod: 4, voucher })).statusCode).toBe(200);
      }
      return regs;
    }
    const payStatuses = async (ids: number[]) =>
      (await t.database.db.selectFrom('orders').select(['id', 'payStatus']).where('id', 'in', ids).orderBy('id').execute()).map((r) => r.payStatus);

    it('lists the transfers waiting, confirms the selected ones, and says what was skipped', async () => {
      const regs = await transfers(orgA, 5, 1);
      const other = await transfers(orgB, 1);
      const ids = regs.map((r) => r.orderId!);
      const competitionId = body(await orgA.get(`/api/order/${ids[0]}`)).data.competitionId;
      const waiting = body(await orgA.get(`/api/order/list?competitionId=${competitionId}&waiting=1`)).data;
      expect(waiting.list.map((o: { id: number }) => o.id).sort()).toEqual(ids.slice(0, 4).sort());
      expect((await orgA.put(`/api/order/confirm/${ids[0]}`)).statusCode).toBe(200);

      const res = await orgA.put('/api/order/confirm/batch', { ids: [...ids, other[0].orderId] });
      expect(res.statusCode, res.body).toBe(200);
      expect(body(res).message).toBe('已确认收款 3 条，1 条已被处理，1 条不符合条件，已跳过，1 条不存在');
      expect(await payStatuses(ids)).toEqual([1, 1, 1, 1, 0]);
      expect(await payStatuses([other[0].orderId!])).toEqual([0]);
      expect(
        await messages(
          'order.paid',
          regs.map((r) => r.username),
        ),
      ).toEqual([1, 1, 1, 1, 0]);
      expect(body(await orgA.get(`/api/order/list?competitionId=${competitionId}&waiting=1`)).data.total).toBe(0);
      const foreign = await orgA.put('/api/order/confirm/batch', { ids: [other[0].orderId] });
      expect([foreign.statusCode, body(foreign).message]).toEqual([404, '订单不存在']);
      expect((await regs[0].leader.put('/api/order/confirm/batch', { ids })).statusCode).toBe(403);
    });

    it('exports only the selected orders, never another organisation’s', async () => {
      const regs = await transfers(orgA, 3);
      const other = await transfers(orgB, 1);
      const ids = regs.map((r) => r.orderId!);
      const orderNos = async (q: string) =>
        body(await orgA.get(`/api/order/list?${q}`))
          .data.list.map((o: { orderNo: string }) => o.orderNo)
          .sort();
      const chosen = await orderNos(`ids=${ids[0]},${ids[2]},${other[0].orderId}`);
      expect(chosen).toHaveLength(2);
      const rows = await sheetRows(await orgA.get(`/api/order/list?ids=${ids[0]},${ids[2]},${other[0].orderId}&export=xlsx`));
      expect(rows.map((r) => r[0]).sort()).toEqual(chosen);
      const bad = await orgA.get('/api/order/list?ids=1,,2');
      expect([bad.statusCode, body(bad).data.fields.ids]).toEqual([400, '订单编号格式不正确']);
    });

    it('confirms and notifies each transfer once when batches and single confirmations race', async () => {
      const regs = await transfers(orgA, 6);
      const ids = regs.map((r) => r.orderId!);
      const results = await Promise.all([
        orgA.put('/api/order/confirm/batch', { ids }),
        admin.put('/api/order/confirm/batch', { ids: [...ids].reverse() }),
        ...ids.slice(0, 3).map((i) => orgA.put(`/api/order/confirm/${i}`)),
      ]);
      const done = results.slice(0, 2).reduce((n, r) => n + body(r).data.done, 0) + results.slice(2).filter((r) => r.statusCode === 200).length;
      expect(done).toBe(6);
      expect(await payStatuses(ids)).toEqual(Array(6).fill(1));
      expect(
        await messages(
          'order.paid',
          regs.map((r) => r.username),
        ),
      ).toEqual(Array(6).fill(1));
      const audits = await t.database.db
        .selectFrom('auditLog')
        .select('entityId')
        .where('action', '=', 'order.confirm')
        .where('entityId', 'in', ids.map(String))
        .execute();
      expect(audits).toHaveLength(6);
    });
  });

  describe('invoices to issue', () => {
    const COMPANY = {
      kind: 'company',
      name: '某某科技有限公司',
      taxNo: '914401011111111110',
      bank: '工商银行广州分行',
      bankAccount: '3602000000000000000',
      address: '广州市天河区',
      phone: '020-12345678',
    };

    /** Invoice applications for paid orders of a new competition of the organiser, the platform allowing normal invoices. */
    async function applications(organiser: Client, n: number) {
      const cfg = await admin.put('/api/invoice/config', {
        enable: true,
        issuerName: '甲大学',
        issuerTaxNo: COMPANY.taxNo,
        allowedTypes: ['normal'],
        notice: null,
      });
      expect(cfg.statusCode, cfg.body).toBe(200);
      const regs = await registrations(await onlineCompetition(admin, organiser, { fee: 5000 }), n);
      const ids: number[] = [];
      for (const r of regs) {
        const voucher = body(
          await r.leader.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('回单.pdf', PDF, 'application/pdf') }),
        ).data.fileUri;
        await r.leader.put(`/api/order/voucher/${r.orderId}`, { payMethod: 4, voucher });
        expect((await organiser.put(`/api/order/confirm/${r.orderId}`)).statusCode).toBe(200);
        const titleId = body(await r.leader.post('/api/invoice/title', COMPANY)).data.id;
        const res = await r.leader.post('/api/invoice/apply', { orderId: r.orderId, titleId, type: 'normal' });
        expect(res.statusCode, res.body).toBe(200);
        ids.push(body(res).data.id);
      }
      return ids;
    }
    const invoiceStatuses = async (ids: number[]) =>
      (await t.database.db.selectFrom('invoices').select(['id', 'status']).where('id', 'in', ids).orderBy('id').execute()).map((r) => r.status);

    it('rejects the selected applications with one reason, once each, in the caller’s organisation only', async () => {
      const cfg = await admin.put('/api/invoice/config', {
        enable: true,
        issuerName: '甲大学',
        issuerTaxNo: COMPANY.taxNo,
        allowedTypes: ['normal'],
        notice: null,
      });
      expect(cfg.statusCode, cfg.body).toBe(200);
      const ids = await applications(orgA, 4);
      const other = await applications(orgB, 1);
      expect(body(await orgA.put('/api/invoice/reject/batch', { ids, reason: ' ' })).data.fields.reason).toBe('请填写驳回原因');
      expect((await orgA.put(`/api/invoice/reject/${ids[0]}`, { reason: '抬头有误' })).statusCode).toBe(200);

      const results = await Promise.all([
        orgA.put('/api/invoice/reject/batch', { ids: [...ids, ...other], reason: '税号与抬头不符' }),
        orgA.put('/api/invoice/reject/batch', { ids: [...ids].reverse(), reason: '税号与抬头不符' }),
      ]);
      for (const r of results) expect(r.statusCode, r.body).toBe(200);
      const [a, b] = results.map((r) => body(r).data);
      expect(a.done + b.done).toBe(3);
      expect([a.notFound, b.notFound]).toEqual([1, 0]);
      expect(await invoiceStatuses(ids)).toEqual([2, 2, 2, 2]);
      expect(await invoiceStatuses(other)).toEqual([0]);
      const audits = await t.database.db
        .selectFrom('auditLog')
        .select('entityId')
        .where('action', '=', 'invoice.reject')
        .where('entityId', 'in', ids.map(String))
        .execute();
      expect(audits).toHaveLength(4);
      expect(body(await orgA.put('/api/invoice/reject/batch', { ids, reason: '再驳' })).message).toBe('已驳回 0 条，4 条已被处理');
      const foreign = await orgA.put('/api/invoice/reject/batch', { ids: other, reason: '越权' });
      expect([foreign.statusCode, body(foreign).message]).toEqual([404, '发票申请不存在']);
    });

    it('lists what waits to be issued, exports the selection, and rejects an application clicked twice at once only once', async () => {
      const ids = await applications(orgA, 3);
      const other = await applications(orgB, 1);
      const competitionId = (await t.database.db.selectFrom('invoices').select('competitionId').where('id', '=', ids[0]!).executeTakeFirstOrThrow())
        .competitionId;
      const listed = async (q: string) =>
        body(await orgA.get(`/api/invoice/list?competitionId=${competitionId}&${q}`))
          .data.list.map((i: { id: number }) => i.id)
          .sort();
      expect(await listed('status=0')).toEqual([...ids].sort());

      // Two rejections of the same application and a batch holding it, all at once: one of them rejects it.
      const [one, two, batch] = await Promise.all([
        orgA.put(`/api/invoice/reject/${ids[0]}`, { reason: '第一次' }),
        admin.put(`/api/invoice/reject/${ids[0]}`, { reason: '第二次' }),
        orgA.put('/api/invoice/reject/batch', { ids: [ids[0]], reason: '批量' }),
      ]);
      const wins = [one, two].filter((r) => r.statusCode === 200).length + body(batch).data.done;
      expect(wins).toBe(1);
      for (const r of [one, two]) if (r.statusCode !== 200) expect([r.statusCode, body(r).message]).toEqual([409, '该发票申请已处理']);
      const audits = await t.database.db
        .selectFrom('auditLog')
        .select('afterJson')
        .where('action', '=', 'invoice.reject')
        .where('entityId', '=', String(ids[0]))
        .execute();
      expect(audits).toHaveLength(1);
      const reason = (await t.database.db.selectFrom('invoices').select('reason').where('id', '=', ids[0]!).executeTakeFirstOrThrow()).reason;
      expect(JSON.parse(audits[0]!.afterJson!)).toEqual({ reason });

      // 待开票 no longer lists it; 已驳回 does.
      expect(await listed('status=0')).toEqual(ids.slice(1).sort());
      expect(await listed('status=2')).toEqual([ids[0]]);
      expect(await listed('')).toEqual([...ids].sort());

      // The export of a selection holds the selected rows of the caller's organisation only.
      const rows = await sheetRows(await orgA.get(`/api/invoice/list?ids=${ids[1]},${ids[2]},${other[0]}&export=xlsx`));
      const orderNos = (
        await t.database.db
          .selectFrom('invoices as i')
          .innerJoin('orders as o', 'o.id', 'i.orderId')
          .select('o.orderNo')
          .where('i.id', 'in', [ids[1]!, ids[2]!])
          .execute()
      )
        .map((r) => r.orderNo)
        .sort();
      expect(rows.map((r) => r[0]).sort()).toEqual(orderNos);
      expect(rows.every((r) => r[10] === '待开票')).toBe(true);
    });
  });

  describe('the to-do list', () => {
    it('counts what waits for the caller in its organisation only, and each running competition’s figures', async () => {
      const orgC = await makeOrganiser(t, admin, 'borgC', '丙大学');
      const orgD = await makeOrganiser(t, admin, 'borgD', '丁大学');
      const before = body(await admin.get('/api/system/todo')).data;
      const id = await onlineCompetition(admin, orgC, { fee: 5000 });
      const regs = await registrations(id, 3);
      for (const r of regs.slice(0, 2)) {
        const voucher = body(
          await r.leader.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('回单.pdf', PDF, 'application/pdf') }),
        ).data.fileUri;
        expect((await r.leader.put(`/api/order/voucher/${r.orderId}`, { payMethod: 4, voucher })).statusCode).toBe(200);
      }
      await registrations(await onlineCompetition(admin, orgD), 1);
      // A competition submitted for audit waits for the platform only.
      const draft = body(
        await orgD.post('/api/competition/', {
          name: '待审竞赛',
          brandId: body(await admin.get('/api/competition/brand/public/page?limit=1')).data.list[0].id,
          regStartTime: '2026-03-10T00:00:00+08:00',
          regEndTime: '2026-04-10T00:00:00+08:00',
          endTime: '2026-06-30T00:00:00+08:00',
          minMembers: 1,
          maxMembers: 3,
          maxTeachers: 2,
          fee: 0,
        }),
      ).data.id;
      expect((await orgD.put(`/api/competition/publish/${draft}`)).statusCode).toBe(200);

      // Review work, written straight to the tables: two judges with three assignments (one submitted), one dispute
      // waiting and one answered.
      const db = t.database.db;
      const stamp = now.toISOString();
      const [team, team2] = await db.selectFrom('registers').select('teamId').where('id', 'in', [regs[0].id, regs[1].id]).orderBy('id').execute();
      const { id: questionId } = await db
        .insertInto('questions')
        .values({ competitionId: id, title: '赛题一', content: null, reviewed: 1, sort: 0, createdAt: stamp, updatedAt: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      const judges = await db.selectFrom('users').select('id').where('username', 'in', [regs[1].username, regs[2].username]).orderBy('id').execute();
      await db
        .insertInto('reviewAssignments')
        .values([
          { questionId, teamId: team!.teamId, judgeId: judges[0]!.id, code: 'A1', status: 2, createdAt: stamp, updatedAt: stamp },
          { questionId, teamId: team!.teamId, judgeId: judges[1]!.id, code: 'A2', status: 1, createdAt: stamp, updatedAt: stamp },
          { questionId, teamId: team2!.teamId, judgeId: judges[1]!.id, code: 'A3', status: 0, createdAt: stamp, updatedAt: stamp },
        ])
        .execute();
      await db
        .insertInto('scoreDisputes')
        .values([
          { questionId, teamId: team!.teamId, userId: judges[0]!.id, reason: '分数有误', status: 0, createdAt: stamp },
          { questionId, teamId: team2!.teamId, userId: judges[0]!.id, reason: '已答复', status: 1, createdAt: stamp },
        ])
        .execute();

      // Registration days, in Beijing time: 00:30 today, 23:59 yesterday, and one older than the trend.
      const day = (id: number, createdAt: string) => db.updateTable('registers').set({ createdAt }).where('id', '=', id).execute();
      await day(regs[0].id, '2026-03-19T16:30:00.000Z');
      await day(regs[1].id, '2026-03-19T15:59:00.000Z');
      await day(regs[2].id, '2026-03-01T00:00:00.000Z');

      // Each registration waiting is told to those who review them, in the competition's organisation only (issue 33).
      const told = async (who: Client) =>
        (body(await who.get('/api/message/notice/page/1?limit=50')).data.list as { title: string }[]).filter((m) => m.title === '新的报名待审核').length;
      expect([await told(orgC), await told(orgD)]).toEqual([3, 1]);
      const mine = body(await orgC.get('/api/system/todo')).data;
      expect(mine.counts).toEqual({
        applicationsToReview: null,
        competitionsToAudit: null,
        questionsToReview: null,
        registrationsToReview: 3,
        transfersToConfirm: 2,
        invoicesToIssue: 0,
        disputesToAnswer: 1,
        judgesNotFinished: 1,
      });
      expect(mine.running).toEqual([
        {
          id,
          name: expect.any(String),
          registrations: 3,
          approved: 0,
          paid: 0,
          submissions: 0,
          reviewsDone: 1,
          reviewsTotal: 3,
          daily: [...Array(12).fill(0), 1, 1],
        },
      ]);
      expect([mine.days.length, mine.days[0], mine.days.at(-1)]).toEqual([14, '2026-03-07', '2026-03-20']);
      // The to-do's disputes lead to the question they wait on.
      expect(mine.disputeQuestions).toEqual([{ questionId, questionTitle: '赛题一', competitionName: expect.any(String), pending: 1 }]);
      expect(body(await orgD.get('/api/system/todo')).data.disputeQuestions).toEqual([]);
      // The link opens the question's disputes filtered to those waiting (`status=0`); 1 lists the answered ones.
      const disputes = async (q: string) =>
        body(await orgC.get(`/api/review/works/dispute/page/${questionId}${q}`)).data.list.map((d: { reason: string }) => d.reason);
      expect(await disputes('?status=0')).toEqual(['分数有误']);
      expect(await disputes('?status=1')).toEqual(['已答复']);
      expect((await disputes('')).sort()).toEqual(['已答复', '分数有误'].sort());
      const bad = await orgC.get(`/api/review/works/dispute/page/${questionId}?status=5`);
      expect([bad.statusCode, body(bad).message]).toEqual([400, '申诉状态须为0（待答复）或1（已答复）']);
      expect((await orgD.get(`/api/review/works/dispute/page/${questionId}?status=0`)).statusCode).toBe(404);

      // The judges not finished, as a list: the one with works left, not the one who submitted everything.
      const unfinished = body(await orgC.get('/api/system/todo/judges')).data;
      expect(unfinished).toMatchObject({ total: 1, page: 1, limit: 20 });
      expect(unfinished.list).toEqual([
        {
          questionId,
          questionTitle: '赛题一',
          competitionId: id,
          competitionName: expect.any(String),
          judgeId: judges[1]!.id,
          username: regs[2].username,
          userName: null,
          assigned: 2,
          submitted: 0,
        },
      ]);
      expect(body(await orgC.get(`/api/system/todo/judges?competitionId=${id}`)).data.total).toBe(1);
      expect(body(await orgD.get('/api/system/todo/judges')).data).toMatchObject({ list: [], total: 0 });
      expect(body(await orgD.get(`/api/system/todo/judges?competitionId=${id}`)).data.total).toBe(0);
      expect(body(await admin.get(`/api/system/todo/judges?competitionId=${id}`)).data.total).toBe(1);
      expect((await regs[0].leader.get('/api/system/todo/judges')).statusCode).toBe(403);
      // Submitting the last works takes the judge off the list.
      await db.updateTable('reviewAssignments').set({ status: 2 }).where('judgeId', '=', judges[1]!.id).where('questionId', '=', questionId).execute();
      expect(body(await orgC.get('/api/system/todo/judges')).data.total).toBe(0);
      expect(body(await orgC.get('/api/system/todo')).data.counts.judgesNotFinished).toBe(0);
      expect(body(await orgD.get('/api/system/todo')).data.counts).toMatchObject({
        registrationsToReview: 1,
        transfersToConfirm: 0,
        disputesToAnswer: 0,
        judgesNotFinished: 0,
      });

      const all = body(await admin.get('/api/system/todo')).data;
      expect(all.counts.competitionsToAudit).toBe(before.counts.competitionsToAudit + 1);
      expect(all.counts.registrationsToReview).toBe(before.counts.registrationsToReview + 4);
      expect(all.counts.transfersToConfirm).toBe(before.counts.transfersToConfirm + 2);

      // Clearing work lowers the counts and raises the figures.
      await orgC.put('/api/order/confirm/batch', { ids: regs.map((r) => r.orderId) });
      // The batch approves the two paid teams; the unpaid one is approved on its own.
      expect(body(await orgC.post('/api/team/register/flow/batch', { ids: regs.map((r) => r.id), action: 'approve' })).data.skipped).toBe(1);
      for (const r of regs) await orgC.post(`/api/team/register/flow/${r.id}`, { action: 'approve' });
      const after = body(await orgC.get('/api/system/todo')).data;
      expect([after.counts.registrationsToReview, after.counts.transfersToConfirm]).toEqual([0, 0]);
      expect(after.running[0]).toMatchObject({ registrations: 3, approved: 3, paid: 2 });
      expect((await regs[0].leader.get('/api/system/todo')).statusCode).toBe(403);
    });

    it('asks the platform to review a question added after the competition’s approval, and tells the organiser when it is', async () => {
      const orgE = await makeOrganiser(t, admin, 'borgE', '戊大学');
      const inbox = async (who: Client) => body(await who.get('/api/message/notice/page/1')).data.list as { title: string; content: string }[];
      const before = body(await admin.get('/api/system/todo')).data;
      // A partner application waits for the platform too.
      await registerUser(t.app, 'applicantF');
      const applicant = await loggedIn(t.app, 'applicantF');
      expect(
        (await applicant.post('/api/competition/partner/apply', { name: '己大学', kind: 'school', contactName: '老师', contactPhone: '13800138000' }))
          .statusCode,
      ).toBe(200);
      expect(body(await admin.get('/api/system/todo')).data.counts.applicationsToReview).toBe(before.counts.applicationsToReview + 1);

      const id = await onlineCompetition(admin, orgE);
      const added = await orgE.post(`/api/competition/question/${id}`, { title: '新增赛题', judging: 'review' });
      expect(added.statusCode, added.body).toBe(200);
      const questionId = body(added).data.id as number;
      const todo = body(await admin.get('/api/system/todo')).data;
      expect(todo.counts.questionsToReview).toBe(before.counts.questionsToReview + 1);
      expect(todo.reviewQuestions).toContainEqual({ questionId, questionTitle: '新增赛题', competitionId: id, competitionName: expect.any(String) });
      expect((await inbox(admin))[0]).toMatchObject({ title: '新赛题待审核' });
      expect((await inbox(admin))[0]!.content).toContain('新增了赛题“新增赛题”');
      // The organiser cannot review it, so it is no to-do of theirs.
      expect(body(await orgE.get('/api/system/todo')).data.counts.questionsToReview).toBeNull();

      expect((await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true })).statusCode).toBe(200);
      expect((await inbox(orgE))[0]).toMatchObject({ title: '赛题已审核通过' });
      expect((await inbox(orgE))[0]!.content).toContain('“新增赛题”已审核通过');
      expect(body(await admin.get('/api/system/todo')).data.counts.questionsToReview).toBe(before.counts.questionsToReview);
    });
  });
});
