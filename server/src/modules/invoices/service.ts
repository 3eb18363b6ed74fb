import {
  ACTION_CODES,
  batchResult,
  type BatchResult,
  INVOICE_STATUS,
  INVOICE_TYPES,
  PAY_STATUS,
  type InvoiceApplyBody,
  type InvoiceConfig,
  type InvoiceConfigBody,
  type InvoiceListQuery,
  type InvoiceTitleBody,
  type SchoolInvoiceBody,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import { withoutOrg } from '../../http/reply.ts';
import { assertOwnFile, grantPrivateReads } from '../files/index.ts';
import { teamOrder } from '../orders/index.ts';
import * as repo from './repo.ts';
import { notify, tellStaff } from '../notices/index.ts';
import * as policy from '../../policy.ts';

// ---- titles: each user's own

const titleColumns = (b: InvoiceTitleBody) => ({
  kind: b.kind,
  name: b.name,
  taxNo: b.taxNo ?? null,
  bank: b.bank ?? null,
  bankAccount: b.bankAccount ?? null,
  address: b.address ?? null,
  phone: b.phone ?? null,
});

export const listTitles = (ctx: AuthedCtx) => repo.listTitles(ctx.db, ctx.actor.userId);

export async function createTitle(ctx: AuthedCtx, body: InvoiceTitleBody) {
  const now = ctx.clock.now().toISOString();
  return { id: await repo.insertTitle(ctx.db, { ...titleColumns(body), userId: ctx.actor.userId, createdAt: now, updatedAt: now }) };
}

export async function updateTitle(ctx: AuthedCtx, id: number, body: InvoiceTitleBody) {
  if (!(await repo.updateOwnTitle(ctx.db, id, ctx.actor.userId, { ...titleColumns(body), updatedAt: ctx.clock.now().toISOString() })))
    throw notFound('发票抬头不存在');
}

/** Applications keep their own copy of the title, so a used title may still be deleted. */
export async function deleteTitle(ctx: AuthedCtx, id: number) {
  if (!(await repo.deleteOwnTitle(ctx.db, id, ctx.actor.userId))) throw notFound('发票抬头不存在');
}

// ---- configuration

const DEFAULT_CONFIG: InvoiceConfig = {
  enable: true,
  issuerName: '',
  issuerTaxNo: '',
  allowedTypes: ['normal'],
  applyStart: null,
  applyEnd: null,
  notice: null,
  updatedAt: null,
};

export async function readConfig(ctx: Pick<Ctx, 'db'>): Promise<InvoiceConfig> {
  const row = await repo.findConfig(ctx.db);
  if (!row) return DEFAULT_CONFIG;
  return {
    enable: row.enable === 1,
    issuerName: row.issuerName ?? '',
    issuerTaxNo: row.issuerTaxNo ?? '',
    allowedTypes: JSON.parse(row.allowedTypes),
    applyStart: row.applyStart,
    applyEnd: row.applyEnd,
    notice: row.notice,
    updatedAt: row.updatedAt,
  };
}

export async function saveConfig(ctx: AuthedCtx, body: InvoiceConfigBody) {
  const before = await readConfig(ctx);
  const values = {
    enable: body.enable ? 1 : 0,
    issuerName: body.issuerName,
    issuerTaxNo: body.issuerTaxNo,
    allowedTypes: JSON.stringify(body.allowedTypes),
    applyStart: body.applyStart ?? null,
    applyEnd: body.applyEnd ?? null,
    notice: body.notice ?? null,
    updatedAt: ctx.clock.now().toISOString(),
  };
  await repo.saveConfig(ctx.db, values);
  await writeAudit(ctx, { action: 'invoice.config', entity: 'invoiceConfig', entityId: 1, before, after: body });
}

// ---- applications

/** Applications are open, for the type asked. */
async function checkOpen(ctx: AuthedCtx, type: InvoiceApplyBody['type']) {
  const config = await readConfig(ctx);
  const now = ctx.clock.now().toISOString();
  if (!config.enable) throw conflict('暂未开放发票申请');
  if ((config.applyStart && now < config.applyStart) || (config.applyEnd && now > config.applyEnd)) throw conflict('不在发票申请时间内');
  if (!config.allowedTypes.includes(type)) throw badRequest(`暂不支持开具${INVOICE_TYPES[type]}`, { type: `暂不支持开具${INVOICE_TYPES[type]}` });
}

/** One of the caller's saved titles, complete enough for the type asked. */
async function checkedTitle(ctx: AuthedCtx, body: { type: InvoiceApplyBody['type']; titleId: number }) {
  const title = await repo.findTitle(ctx.db, body.titleId, ctx.actor.userId);
  if (!title) throw badRequest('发票抬头不存在', { titleId: '发票抬头不存在' });
  if (body.type === 'special' && (title.kind !== 'company' || !title.taxNo || !title.bank || !title.bankAccount || !title.address || !title.phone)) {
    throw badRequest('专用发票须使用填写完整（税号、开户银行与账号、地址、电话）的单位抬头', {
      titleId: '专用发票须使用填写完整（税号、开户银行与账号、地址、电话）的单位抬头',
    });
  }
  return title;
}

/** Records an application with a snapshot of the title, and tells finance; one per order (the database decides). */
async function insertApplication(
  ctx: AuthedCtx,
  body: SchoolInvoiceBody,
  title: Awaited<ReturnType<typeof checkedTitle>>,
  order: {
    orderId: number | null;
    schoolOrderId: number | null;
    orderNo: string;
    competitionId: number;
    competitionName: string;
    orgId: number;
    amount: number;
  },
) {
  const now = ctx.clock.now().toISOString();
  const { id: _id, createdAt: _c, ...snapshot } = title;
  try {
    const id = await repo.insertInvoice(ctx.db, {
      orderId: order.orderId,
      schoolOrderId: order.schoolOrderId,
      competitionId: order.competitionId,
      userId: ctx.actor.userId,
      amount: order.amount,
      type: body.type,
      titleJson: JSON.stringify(snapshot),
      email: body.email ?? null,
      status: INVOICE_STATUS.pending,
      createdAt: now,
      updatedAt: now,
    });
    await tellStaff(ctx, ACTION_CODES.invoiceEdit, order.orgId, {
      title: '新的发票申请',
      content: `竞赛“${order.competitionName}”的订单 ${order.orderNo} 申请开具${INVOICE_TYPES[body.type]}（抬头：${title.name}），请在“发票管理”中处理。`,
      source: 'invoice.applied',
    });
    return { id };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('该订单已申请过发票');
    throw err;
  }
}

/** Applies for an invoice on a paid order of the caller's team, with a snapshot of one of the caller's titles. */
export async function apply(ctx: AuthedCtx, body: InvoiceApplyBody) {
  await checkOpen(ctx, body.type);
  const order = await teamOrder(ctx, body.orderId);
  if (!order.invoiceEnable) throw conflict(`竞赛“${order.competitionName}”未开放发票申请，如需发票请联系主办方`);
  if (order.payStatus !== PAY_STATUS.paid) throw conflict('只有已支付的订单可以申请发票');
  // The school that paid asks for one invoice of the whole amount; its teams do not invoice their part again.
  if (order.schoolOrderNo) throw conflict(`该订单由学校统一缴费（订单号 ${order.schoolOrderNo}），发票由学校院校负责人统一申请`);
  const title = await checkedTitle(ctx, body);
  return insertApplication(ctx, body, title, { ...order, orderId: order.id, schoolOrderId: null });
}

/** A school's one invoice for its paid 统一缴费 order; the coordinators module has decided the caller acts for it. */
export async function applyForSchool(
  ctx: AuthedCtx,
  so: { id: number; orderNo: string; competitionId: number; competitionName: string; orgId: number; amount: number; payStatus: number; invoiceEnable: boolean },
  body: SchoolInvoiceBody,
) {
  await checkOpen(ctx, body.type);
  if (!so.invoiceEnable) throw conflict(`竞赛“${so.competitionName}”未开放发票申请，如需发票请联系主办方`);
  if (so.payStatus !== PAY_STATUS.paid) throw conflict('只有已支付的订单可以申请发票');
  const title = await checkedTitle(ctx, body);
  return insertApplication(ctx, body, title, { ...so, orderId: null, schoolOrderId: so.id });
}

export async function listPerson(ctx: AuthedCtx, q: InvoiceListQuery) {
  const { list, total } = await repo.listInvoices(ctx.db, q, { applicant: ctx.actor.userId });
  return { list: list.map(withoutOrg), total };
}

export async function listManage(ctx: AuthedCtx, q: InvoiceListQuery) {
  const { list, total } = await repo.listInvoices(ctx.db, q, policy.orgScope(ctx), q.limit);
  return { list: list.map(withoutOrg), total };
}

/** Every invoice application of the finance list's filters and scope, in batches: the export. */
export const exportManage = (ctx: AuthedCtx, q: InvoiceListQuery, batchSize?: number) => repo.exportInvoices(ctx.db, q, policy.orgScope(ctx), batchSize);

async function managed(ctx: Ctx, id: number) {
  const invoice = await repo.findInvoice(ctx.db, id);
  if (!invoice || !policy.actsFor(ctx, invoice.orgId)) throw notFound('发票申请不存在');
  return invoice;
}

export async function issue(ctx: Ctx, id: number, body: { invoiceNo: string; fileUri: string }) {
  const before = await managed(ctx, id);
  await assertOwnFile(ctx, 'fileUri', body.fileUri, 'invoice');
  const now = ctx.clock.now().toISOString();
  if (!(await repo.decide(ctx.db, id, { status: INVOICE_STATUS.issued, invoiceNo: body.invoiceNo, fileKey: body.fileUri, issuedAt: now, updatedAt: now }))) {
    throw conflict('该发票申请已处理');
  }
  await writeAudit(ctx, { action: 'invoice.issue', entity: 'invoice', entityId: id, before: withoutOrg(before), after: body });
  await notify(ctx, [before.userId], {
    title: '发票已开具',
    content: `您为“${before.competitionName}”订单 ${before.orderNo} 申请的发票已开具，发票号码 ${body.invoiceNo}，可在“我的发票”中下载。`,
    source: 'invoice.issued',
  });
}

/** Rejects one pending application: a conditional UPDATE from pending, so a batch and a single click reject it once. */
async function rejectOne(ctx: Ctx, before: Awaited<ReturnType<typeof managed>>, reason: string): Promise<boolean> {
  if (!(await repo.decide(ctx.db, before.id, { status: INVOICE_STATUS.rejected, reason, updatedAt: ctx.clock.now().toISOString() }))) return false;
  await writeAudit(ctx, { action: 'invoice.reject', entity: 'invoice', entityId: before.id, before: withoutOrg(before), after: { reason } });
  return true;
}

export async function reject(ctx: Ctx, id: number, reason: string) {
  if (!(await rejectOne(ctx, await managed(ctx, id), reason))) throw conflict('该发票申请已处理');
}

/**
 * Rejects the selected applications with one reason, each as a single rejection would, and says per id what happened:
 * rejected, already decided, or not found (another organisation's). A selection with nothing of the caller's is
 * refused as a single rejection would be. Issuing stays one by one: each invoice has its own number and PDF.
 */
export async function rejectBatch(ctx: AuthedCtx, body: { ids: number[]; reason: string }): Promise<BatchResult> {
  const ids = [...new Set(body.ids)];
  const found = new Map((await repo.findInvoices(ctx.db, ids, policy.orgScope(ctx))).map((i) => [i.id, i]));
  if (!found.size) throw notFound('发票申请不存在');
  const results: BatchResult['results'] = [];
  for (const id of ids) {
    const invoice = found.get(id);
    if (!invoice) results.push({ id, outcome: 'notFound' });
    else if (invoice.status !== INVOICE_STATUS.pending) results.push({ id, outcome: 'decided' });
    else results.push({ id, outcome: (await rejectOne(ctx, invoice, body.reason)) ? 'done' : 'decided' });
  }
  return batchResult(results);
}

// The applicant may read the invoice issued to them, and finance of the competition's organisation.
grantPrivateReads('invoice', async (ctx, key) => {
  const rows = await repo.invoicesWithFile(ctx.db, key);
  return rows.some((r) => r.userId === ctx.actor.userId || policy.finance(ctx, r.orgId, 'invoice'));
});
