import { randomInt } from 'node:crypto';
import {
  ACTION_CODES,
  PAY_STATUS,
  batchResult,
  fenToYuan,
  schoolPaysText,
  type BatchResult,
  type OrderListQuery,
  type SchoolOrder,
  type SchoolOrderListQuery,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import { assertOwnFile, grantPrivateReads } from '../files/index.ts';
import { beijing } from '../../time.ts';
import * as repo from './repo.ts';
import { notify, orderMessages } from '../notices/index.ts';
import * as policy from '../../policy.ts';

/** Order numbers read as the time they were made (Beijing time) plus six random digits, as gateways expect. */
export function newOrderNo(now: Date): string {
  return `${beijing(now).replace(/\D/g, '')}${String(randomInt(1_000_000)).padStart(6, '0')}`;
}

/** Opens the team's order for the competition's fee; the partial unique index keeps it to one open order. */
export async function openOrder(ctx: AuthedCtx, db: Db, v: { competitionId: number; teamId: number; amount: number; userId?: number }) {
  return repo.insertOrder(db, { ...v, orderNo: newOrderNo(ctx.clock.now()), userId: v.userId ?? ctx.actor.userId, now: ctx.clock.now().toISOString() });
}

/** An order of one of the caller's teams: only members pay, close, send vouchers or ask for invoices. */
export async function teamOrder(ctx: AuthedCtx, id: number) {
  const order = await repo.findOrder(ctx.db, id);
  if (!order || !(await repo.isTeamMember(ctx.db, order.teamId, ctx.actor.userId))) throw notFound('订单不存在');
  return order;
}

/** An unpaid order of the caller's team that the team itself pays: not while its school pays for it (统一缴费). */
export async function teamPaysOrder(ctx: AuthedCtx, id: number) {
  const order = await teamOrder(ctx, id);
  if (order.schoolOrderNo && order.payStatus === PAY_STATUS.unpaid) throw conflict(schoolPaysText(order.schoolOrderNo));
  return order;
}

/** An order finance may act on. */
async function managedOrder(ctx: Ctx, id: number) {
  const order = await repo.findOrder(ctx.db, id);
  if (!order || !policy.actsFor(ctx, order.orgId)) throw notFound('订单不存在');
  return order;
}

/** An order its team's members may read, and the finance staff of its organisation. */
export async function readOrder(ctx: AuthedCtx, id: number) {
  const order = await repo.findOrder(ctx.db, id);
  return policy.readsOrder(ctx, order, order !== undefined && (await repo.isTeamMember(ctx.db, order.teamId, ctx.actor.userId)));
}

export const listPerson = (ctx: AuthedCtx, q: OrderListQuery) => repo.listOrders(ctx.db, q, { member: ctx.actor.userId });
export const listManage = (ctx: AuthedCtx, q: OrderListQuery) => repo.listOrders(ctx.db, q, policy.orgScope(ctx));
/** Every order of the finance list's filters and scope, in batches: the export. */
export const exportManage = (ctx: AuthedCtx, q: OrderListQuery, batchSize?: number) => repo.exportOrders(ctx.db, q, policy.orgScope(ctx), batchSize);

export async function byTeamNo(ctx: AuthedCtx, teamNo: string) {
  const teamId = await repo.teamIdByNo(ctx.db, teamNo);
  const order = teamId !== undefined && (await repo.currentOrderOfTeam(ctx.db, teamId));
  if (!order) throw notFound('该队伍没有订单');
  return readOrder(ctx, order.id);
}

/** A member places a new order after the last one was closed. */
export async function reopen(ctx: AuthedCtx, teamId: number) {
  const team = await repo.memberTeamWithFee(ctx.db, teamId, ctx.actor.userId);
  if (!team) throw notFound('队伍不存在');
  if (team.fee <= 0) throw conflict('该竞赛无需缴费');
  if (ctx.clock.now().toISOString() > team.regEndTime) throw conflict('报名已截止，不能再下单');
  const current = await repo.currentOrderOfTeam(ctx.db, teamId);
  if (current?.payStatus === PAY_STATUS.paid) throw conflict('该队伍已缴费');
  if (current?.payStatus === PAY_STATUS.unpaid) throw conflict('已有待支付的订单，请先完成或关闭它');
  try {
    const id = await ctx.db.transaction().execute(async (trx) => {
      const orderId = await openOrder(ctx, trx, { competitionId: team.competitionId, teamId, amount: team.fee });
      await repo.pointRegisterAt(trx, teamId, orderId, ctx.clock.now().toISOString());
      return orderId;
    });
    return { id };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('已有待支付的订单，请先完成或关闭它');
    throw err;
  }
}

export async function close(ctx: AuthedCtx, id: number) {
  const order = await teamPaysOrder(ctx, id);
  const now = ctx.clock.now().toISOString();
  if (!(await repo.transition(ctx.db, order.id, PAY_STATUS.unpaid, { payStatus: PAY_STATUS.closed, closedAt: now, updatedAt: now }))) {
    throw conflict('只有待支付的订单可以关闭');
  }
}

/** The payer of an offline transfer (ICBC, CCB, other) uploads the voucher; finance then confirms. */
export async function submitVoucher(ctx: AuthedCtx, id: number, body: { payMethod: number; voucher: string }) {
  const order = await teamPaysOrder(ctx, id);
  await assertOwnFile(ctx, 'voucher', body.voucher, 'voucher');
  const now = ctx.clock.now().toISOString();
  if (!(await repo.transition(ctx.db, order.id, PAY_STATUS.unpaid, { payMethod: body.payMethod, voucher: body.voucher, updatedAt: now }))) {
    throw conflict('只有待支付的订单可以上传凭证');
  }
}

/**
 * Confirms one offline transfer: a conditional UPDATE from unpaid, so that two finance staff (or a batch and a single
 * click) confirm, audit and notify it once. Says whether this call did it.
 */
async function confirmOne(ctx: Ctx, order: repo.OrderWithOrg): Promise<boolean> {
  const now = ctx.clock.now().toISOString();
  if (!(await repo.transition(ctx.db, order.id, PAY_STATUS.unpaid, { payStatus: PAY_STATUS.paid, paidAt: now, updatedAt: now }))) return false;
  await writeAudit(ctx, { action: 'order.confirm', entity: 'order', entityId: order.id, before: order, after: { payStatus: PAY_STATUS.paid } });
  await orderMessages(ctx, [order.id], 'paid');
  return true;
}

/** Finance confirms an offline transfer. */
export async function confirm(ctx: Ctx, id: number) {
  const order = await managedOrder(ctx, id);
  if (!order.voucher) throw conflict('付款人尚未上传转账凭证');
  if (!(await confirmOne(ctx, order))) throw conflict('只有待支付的订单可以确认收款');
}

/**
 * Confirms the selected transfers, each as a single confirmation would, and says per id what happened: confirmed,
 * already decided (paid, closed or refunded), skipped (no voucher yet), or not found (another organisation's).
 * A selection with nothing of the caller's is refused as a single confirmation would be.
 */
export async function confirmBatch(ctx: AuthedCtx, body: { ids: number[] }): Promise<BatchResult> {
  const ids = [...new Set(body.ids)];
  const found = new Map((await repo.findOrders(ctx.db, ids, policy.orgScope(ctx))).map((o) => [o.id, o]));
  if (!found.size) throw notFound('订单不存在');
  const results: BatchResult['results'] = [];
  for (const id of ids) {
    const order = found.get(id);
    if (!order) results.push({ id, outcome: 'notFound' });
    else if (order.payStatus !== PAY_STATUS.unpaid) results.push({ id, outcome: 'decided' });
    else if (!order.voucher) results.push({ id, outcome: 'skipped' });
    else results.push({ id, outcome: (await confirmOne(ctx, order)) ? 'done' : 'decided' });
  }
  return batchResult(results);
}

export async function refund(ctx: Ctx, id: number, reason: string) {
  const order = await managedOrder(ctx, id);
  const now = ctx.clock.now().toISOString();
  if (!(await repo.transition(ctx.db, order.id, PAY_STATUS.paid, { payStatus: PAY_STATUS.refunded, refundedAt: now, refundReason: reason, updatedAt: now }))) {
    throw conflict('只有已支付的订单可以退款');
  }
  await writeAudit(ctx, {
    action: 'order.refund',
    entity: 'order',
    entityId: id,
    before: order,
    after: { payStatus: PAY_STATUS.refunded, refundReason: reason },
  });
}

/** Collective payment: an organisation paid for many teams at once. Orders not open are skipped; another organisation's are refused. */
export async function batchPayment(ctx: AuthedCtx, body: { ids: number[]; payerOrg: string; voucher: string }) {
  await assertOwnFile(ctx, 'voucher', body.voucher, 'voucher');
  // An order of another organisation is refused outright, as a single order would be, and nothing is paid.
  const orderIds = [...new Set(body.ids)];
  const scope = policy.orgScope(ctx);
  if (!scope.all && (await repo.countOrdersOfOrg(ctx.db, orderIds, scope)) !== orderIds.length) throw notFound('订单不存在');
  const now = ctx.clock.now().toISOString();
  const values = { payStatus: PAY_STATUS.paid, payMethod: 3, payerOrg: body.payerOrg, voucher: body.voucher, paidAt: now, updatedAt: now };
  const paid = await ctx.db.transaction().execute(async (trx) => {
    // One conditional UPDATE: only the unpaid orders among the ids, of the caller's organisation unless the platform.
    const ids = await repo.payUnpaid(trx, orderIds, scope, values);
    await writeAudit(
      ctx,
      { action: 'order.batchPayment', entity: 'order', entityId: null, after: { ids, payerOrg: body.payerOrg, voucher: body.voucher } },
      trx,
    );
    return ids;
  });
  await orderMessages(ctx, paid, 'paid');
  return { paid, skipped: body.ids.filter((id) => !paid.includes(id)) };
}

/**
 * Closes unpaid orders older than the configured timeout, and school orders (统一缴费) with no transfer voucher older
 * than theirs (giving the teams their orders back; the coordinator is told); run by the scheduler.
 */
export async function closeExpiredOrders(deps: Pick<Ctx, 'db' | 'clock' | 'config' | 'hub' | 'log'>) {
  const now = deps.clock.now();
  const closed = await repo.closeExpired(deps.db, new Date(now.getTime() - deps.config.orderTimeoutMs).toISOString(), now.toISOString());
  await orderMessages(deps, closed, 'closed');
  for (const so of await repo.staleSchoolOrders(deps.db, new Date(now.getTime() - deps.config.schoolOrderTimeoutMs).toISOString())) {
    if (!(await closeSchool(deps, so.id, 'timeout'))) continue;
    await notify(deps, [so.userId], {
      title: '统一缴费订单已关闭',
      content: `统一缴费订单 ${so.orderNo} 超时未支付，已关闭；其中队伍的订单可由队伍自行支付，也可重新统一缴费。`,
      source: 'order.schoolClosed',
    });
  }
  return closed.length;
}

export const FINANCE_EDIT = ACTION_CODES.orderEdit;

// Finance of the competition's organisation, and the team's members, may read a transfer voucher.
grantPrivateReads('voucher', async (ctx, key) => {
  if ((await repo.schoolOrdersWithVoucher(ctx.db, key)).some((so) => policy.finance(ctx, so.orgId, 'order'))) return true;
  const orders = await repo.ordersWithVoucher(ctx.db, key);
  for (const o of orders) {
    if (
      await readOrder(ctx, o.id).then(
        () => true,
        () => false,
      )
    )
      return true;
  }
  return false;
});

// ---- 统一缴费: a school's coordinator pays for many of its teams in one order ----------------------------------------
// The coordinators module decides who acts for a school (policy.coordinates) before calling these.

/** A school order with the teams it pays for. */
async function withTeams(db: Db, rows: repo.SchoolOrderRow[]): Promise<(repo.SchoolOrderRow & { teams: SchoolOrder['teams'] })[]> {
  const teams = await repo.teamsOfSchoolOrders(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, teams: teams.filter((t) => t.schoolOrderId === r.id).map(({ schoolOrderId: _s, ...t }) => t) }));
}

export const findSchoolOrder = (db: Db, id: number) => repo.findSchoolOrder(db, id);
export const schoolOrdersOf = async (db: Db, competitionId: number, schoolId: number) => withTeams(db, await repo.schoolOrdersOf(db, competitionId, schoolId));

/** Finance's list of its organisation's school orders. */
export async function listSchoolOrders(ctx: AuthedCtx, q: SchoolOrderListQuery) {
  const { list, total } = await repo.listSchoolOrders(ctx.db, q, policy.orgScope(ctx));
  return { list: await withTeams(ctx.db, list), total };
}

/**
 * Opens one order for the school's chosen teams: each must have an order waiting for payment (no transfer sent, in no
 * other school order, its registration neither refused nor waiting for the school). The teams' orders are linked to it
 * in the same transaction, by a conditional UPDATE, so a team paying at that moment is either paid alone or in it.
 */
export async function openSchoolOrder(ctx: AuthedCtx, v: { competitionId: number; schoolId: number; schoolKey: string; teamIds: number[] }) {
  const teamIds = [...new Set(v.teamIds)];
  const payable = await repo.schoolPayableOrders(ctx.db, v.competitionId, v.schoolKey, teamIds);
  const missing = teamIds.filter((id) => !payable.some((o) => o.teamId === id));
  if (missing.length)
    throw conflict(`有${missing.length}支队伍不能统一缴费（订单不是待支付、已上传转账凭证、已在其他统一缴费订单中，或报名未通过学校审核），请刷新后重新选择`);
  const now = ctx.clock.now();
  const at = now.toISOString();
  const amount = payable.reduce((sum, o) => sum + o.amount, 0);
  return ctx.db.transaction().execute(async (trx) => {
    const id = await repo.insertSchoolOrder(trx, {
      orderNo: `S${newOrderNo(now)}`,
      competitionId: v.competitionId,
      schoolId: v.schoolId,
      userId: ctx.actor.userId,
      amount,
      teamCount: payable.length,
      createdAt: at,
      updatedAt: at,
    });
    if (
      (await repo.linkToSchoolOrder(
        trx,
        id,
        payable.map((o) => o.id),
        at,
      )) !== payable.length
    )
      throw conflict('所选队伍的订单刚刚发生变化（已支付或已加入其他统一缴费订单），请刷新后重新选择');
    await writeAudit(ctx, { action: 'order.schoolOpen', entity: 'schoolOrder', entityId: id, after: { orders: payable.map((o) => o.id), amount } }, trx);
    return { id };
  });
}

/**
 * Closes an unpaid school order with no transfer voucher waiting for finance, and gives its teams their orders back
 * (to pay themselves or in a new school order); in one transaction. Says whether this call closed it.
 */
async function closeSchool(ctx: Pick<Ctx, 'db' | 'clock'> & Partial<Ctx>, id: number, why: string) {
  const now = ctx.clock.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.transitionSchoolOrder(trx, id, PAY_STATUS.unpaid, { payStatus: PAY_STATUS.closed, closedAt: now, updatedAt: now }, true))) return false;
    await repo.releaseSchoolTeams(trx, id, now);
    if (ctx.actor !== undefined) await writeAudit(ctx as Ctx, { action: 'order.schoolClose', entity: 'schoolOrder', entityId: id, after: { why } }, trx);
    return true;
  });
}

/** The coordinator closes an unpaid school order; one whose transfer voucher waits for finance stays. */
export async function closeSchoolOrder(ctx: AuthedCtx, id: number) {
  const so = await repo.findSchoolOrder(ctx.db, id);
  if (so?.voucher && so.payStatus === PAY_STATUS.unpaid) throw conflict('转账凭证已提交，等待财务确认收款，不能关闭订单');
  if (!(await closeSchool(ctx, id, 'coordinator'))) throw conflict('只有待支付的订单可以关闭');
}

/**
 * Finance refunds a paid school order: it and every team order it paid move to refunded in one transaction, with the
 * reason (a team refunded alone before stays as it is). An invoice issued for it is finance's to reverse (红冲).
 */
export async function refundSchoolOrder(ctx: Ctx, id: number, reason: string) {
  const so = await repo.findSchoolOrder(ctx.db, id);
  if (!so || !policy.actsFor(ctx, so.orgId)) throw notFound('订单不存在');
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    if (
      !(await repo.transitionSchoolOrder(trx, id, PAY_STATUS.paid, {
        payStatus: PAY_STATUS.refunded,
        refundedAt: now,
        refundReason: reason,
        updatedAt: now,
      }))
    )
      throw conflict('只有已支付的订单可以退款');
    const teams = await repo.refundSchoolTeams(trx, id, { payStatus: PAY_STATUS.refunded, refundedAt: now, refundReason: reason, updatedAt: now });
    await writeAudit(ctx, { action: 'order.schoolRefund', entity: 'schoolOrder', entityId: id, after: { reason, orders: teams } }, trx);
  });
}

/** The coordinator's transfer voucher for a school order; finance then confirms it. */
export async function schoolVoucher(ctx: AuthedCtx, id: number, body: { payMethod: number; voucher: string }) {
  await assertOwnFile(ctx, 'voucher', body.voucher, 'voucher');
  const now = ctx.clock.now().toISOString();
  if (!(await repo.transitionSchoolOrder(ctx.db, id, PAY_STATUS.unpaid, { payMethod: body.payMethod, voucher: body.voucher, updatedAt: now })))
    throw conflict('只有待支付的订单可以上传凭证');
}

/**
 * Pays a school order and, in the same transaction, each of its teams' orders (paid by the school, named as payer);
 * says whether this call did it (the same notice twice, or two finance clicks, pay once).
 */
async function paySchool(ctx: Ctx, so: repo.SchoolOrderRow, how: { payMethod: number; tradeNo: string | null }) {
  const now = ctx.clock.now().toISOString();
  const paid = await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.transitionSchoolOrder(trx, so.id, PAY_STATUS.unpaid, { payStatus: PAY_STATUS.paid, ...how, paidAt: now, updatedAt: now }))) return null;
    const ids = await repo.paySchoolTeams(trx, so.id, {
      payStatus: PAY_STATUS.paid,
      payMethod: how.payMethod,
      payerOrg: so.schoolName,
      paidAt: now,
      updatedAt: now,
    });
    await writeAudit(ctx, { action: 'order.schoolPaid', entity: 'schoolOrder', entityId: so.id, after: { ...how, orders: ids } }, trx);
    return ids;
  });
  if (!paid) return false;
  await orderMessages(ctx, paid, 'paid');
  await notify(ctx, [so.userId], {
    title: '统一缴费订单已支付',
    content: `“${so.competitionName}”的统一缴费订单 ${so.orderNo}（${so.teamCount}支队伍，¥${fenToYuan(so.amount)}）已支付成功，可申请发票。`,
    source: 'order.schoolPaid',
  });
  return true;
}

/** Finance confirms a school's transfer. */
export async function confirmSchoolOrder(ctx: Ctx, id: number) {
  const so = await repo.findSchoolOrder(ctx.db, id);
  if (!so || !policy.actsFor(ctx, so.orgId)) throw notFound('订单不存在');
  if (!so.voucher) throw conflict('付款人尚未上传转账凭证');
  if (!(await paySchool(ctx, so, { payMethod: so.payMethod ?? 6, tradeNo: null }))) throw conflict('只有待支付的订单可以确认收款');
}

// ---- What a gateway's notice pays: a team's order or a school's -----------------------------------------------------

/** The order a gateway notice names, a team's or (numbers starting with S) a school's. */
export type Payable = { school: boolean; id: number; orderNo: string; amount: number; payStatus: number; tradeNo: string | null };

export async function findPayable(db: Db, orderNo: string): Promise<Payable | undefined> {
  const o = orderNo.startsWith('S') ? await repo.findSchoolOrderByNo(db, orderNo) : await repo.findOrderByNo(db, orderNo);
  return o && { school: orderNo.startsWith('S'), id: o.id, orderNo: o.orderNo, amount: o.amount, payStatus: o.payStatus, tradeNo: o.tradeNo };
}

/** Pays what a verified notice names, once: says whether this call did it. */
export async function markPaid(ctx: Ctx, p: Payable, how: { payMethod: number; tradeNo: string }) {
  if (p.school) {
    const so = await repo.findSchoolOrder(ctx.db, p.id);
    return Boolean(so && (await paySchool(ctx, so, how)));
  }
  const now = ctx.clock.now().toISOString();
  if (!(await repo.transition(ctx.db, p.id, PAY_STATUS.unpaid, { payStatus: PAY_STATUS.paid, ...how, paidAt: now, updatedAt: now }))) return false;
  await orderMessages(ctx, [p.id], 'paid');
  return true;
}

/** Money arrived for an order that is closed or paid another way: kept visible for a refund. */
export const flagPayableRefund = (db: Db, p: Payable, tradeNo: string, now: string) =>
  p.school ? repo.flagSchoolRefund(db, p.id, tradeNo, now) : repo.flagRefund(db, p.id, tradeNo, now);
