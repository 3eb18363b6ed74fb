import {
  ACTION_CODES,
  ONLINE_METHODS,
  PAY_STATUS,
  PAYMENT_METHOD_MENUS,
  type AlipaySettingsBody,
  type OfflineSettingsBody,
  type PaymentConfigView,
  type PaymentMethodOption,
  type PayResult,
  type WechatSettingsBody,
} from '@contest/shared';
import { StringDecoder } from 'node:string_decoder';
import QRCode from 'qrcode';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { publicUrlMissing } from '../../http/origin.ts';
import type { HitResult } from '../../limits/rate-limiter.ts';
import * as alipay from '../../payments/alipay.ts';
import * as wechat from '../../payments/wechat.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as orders from '../orders/index.ts';
import * as repo from './repo.ts';

export const WECHAT = 1;
export const ALIPAY = 2;

/** Fields kept encrypted at rest and never sent back to the browser. */
const SECRET_FIELDS: Record<number, string[]> = { [WECHAT]: ['privateKey', 'apiV3Key'], [ALIPAY]: ['appPrivateKey'] };

type Stored = { enable: boolean; settings: Record<string, unknown>; updatedAt: string };

async function loadStored(ctx: Pick<Ctx, 'db'>, method: number): Promise<Stored | null> {
  const row = await repo.findConfig(ctx.db, method);
  return row ? { enable: row.enable === 1, settings: JSON.parse(row.settingsJson) as Record<string, unknown>, updatedAt: row.updatedAt } : null;
}

/** The settings of an enabled method with its secrets decrypted, for talking to the gateway. */
async function activeSettings<T>(ctx: Pick<Ctx, 'db' | 'cipher'>, method: number): Promise<T | null> {
  const stored = await loadStored(ctx, method);
  if (!stored?.enable) return null;
  const settings = { ...stored.settings };
  for (const f of SECRET_FIELDS[method] ?? []) if (typeof settings[f] === 'string') settings[f] = ctx.cipher.decrypt(settings[f] as string);
  return settings as T;
}

export async function readConfig(ctx: Ctx, method: number): Promise<PaymentConfigView> {
  const stored = await loadStored(ctx, method);
  const settings = { ...(stored?.settings ?? {}) };
  const secrets: Record<string, string | null> = {};
  for (const f of SECRET_FIELDS[method] ?? []) {
    const sealed = settings[f];
    delete settings[f];
    secrets[f] = typeof sealed === 'string' ? `已设置（…${ctx.cipher.decrypt(sealed).trim().slice(-4)}）` : null;
  }
  return { method, enable: stored?.enable ?? false, settings, secrets, updatedAt: stored?.updatedAt ?? null, simulator: ctx.config.paymentSimulator };
}

const SECRET_LABELS: Record<string, string> = { privateKey: '商户API私钥', apiV3Key: 'APIv3密钥', appPrivateKey: '应用私钥' };

/** Saves a method's settings; a secret left empty keeps the stored one, and an enabled method must have all of them. */
export async function saveConfig(ctx: Ctx, method: number, body: AlipaySettingsBody | WechatSettingsBody | OfflineSettingsBody) {
  if (!PAYMENT_METHOD_MENUS[method]) throw notFound('支付方式不存在');
  const before = await loadStored(ctx, method);
  const { enable, ...settings } = body as { enable: boolean } & Record<string, unknown>;
  for (const f of SECRET_FIELDS[method] ?? []) {
    if (typeof settings[f] === 'string') settings[f] = ctx.cipher.encrypt(settings[f] as string);
    else if (typeof before?.settings[f] === 'string') settings[f] = before.settings[f];
    else if (enable) throw badRequest(`请填写${SECRET_LABELS[f]}`, { [f]: `请填写${SECRET_LABELS[f]}` });
  }
  const now = ctx.clock.now().toISOString();
  await repo.saveConfig(ctx.db, method, { enable: enable ? 1 : 0, settingsJson: JSON.stringify(settings), updatedAt: now });
  const hide = (s: Record<string, unknown> | undefined) =>
    s && Object.fromEntries(Object.entries(s).filter(([k]) => !(SECRET_FIELDS[method] ?? []).includes(k)));
  await writeAudit(ctx, {
    action: 'payment.config',
    entity: 'paymentConfig',
    entityId: method,
    before: before && { enable: before.enable, ...hide(before.settings) },
    after: { enable, ...hide(settings) },
  });
}

/** The methods a payer may choose, with the account details of offline transfers. */
export async function methods(ctx: Ctx): Promise<PaymentMethodOption[]> {
  const rows = await repo.enabledConfigs(ctx.db);
  return rows.map((r) => {
    const settings = JSON.parse(r.settingsJson) as { accounts?: PaymentMethodOption['accounts'] };
    const online = (ONLINE_METHODS as readonly number[]).includes(r.method);
    return { method: r.method, name: PAYMENT_METHOD_MENUS[r.method]?.title ?? '其他', online, accounts: online ? [] : (settings.accounts ?? []) };
  });
}

const notifyUrl = (origin: string, channel: 'alipay' | 'wechat') => `${origin}/api/payment/notify/${channel}`;

/**
 * Asks the gateway for a code the payer scans, for an unpaid order of the caller's team. `origin` is where the
 * gateway's notifications come back (see `publicOrigin`); without one, nothing is asked of the gateway.
 */
export async function pay(ctx: AuthedCtx, orderId: number, method: number, origin: string | null): Promise<PayResult> {
  const order = await orders.teamPaysOrder(ctx, orderId);
  return payCode(ctx, { ...order, subject: `${order.competitionName}报名费` }, method, origin);
}

/** A gateway's code for an unpaid order (a team's, or a school's 统一缴费 order): `subject` is what the payer reads. */
export async function payCode(
  ctx: Ctx,
  order: { id: number; orderNo: string; amount: number; payStatus: number; subject: string },
  method: number,
  origin: string | null,
): Promise<PayResult> {
  if (order.payStatus !== PAY_STATUS.unpaid) throw conflict('只有待支付的订单可以支付');
  if (!origin) throw publicUrlMissing('在线支付');
  const now = ctx.clock.now();
  const subject = order.subject.slice(0, 120);
  let codeUrl: string;
  try {
    if (method === ALIPAY) {
      const s = await activeSettings<alipay.AlipaySettings>(ctx, ALIPAY);
      if (!s) throw badRequest('支付宝支付未开通', { method: '支付宝支付未开通' });
      codeUrl = await alipay.precreate(s, { orderNo: order.orderNo, amount: order.amount, subject, notifyUrl: notifyUrl(origin, 'alipay'), now });
    } else {
      const s = await activeSettings<wechat.WechatSettings>(ctx, WECHAT);
      if (!s) throw badRequest('微信支付未开通', { method: '微信支付未开通' });
      codeUrl = await wechat.createNative(s, {
        orderNo: order.orderNo,
        amount: order.amount,
        description: subject,
        notifyUrl: notifyUrl(origin, 'wechat'),
        now,
      });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    ctx.log.error({ err, orderId: order.id, method }, 'payment gateway request failed');
    throw new AppError(502, '支付渠道暂时不可用，请稍后重试或选择其他支付方式');
  }
  return { method, codeUrl, qrImage: await QRCode.toDataURL(codeUrl, { margin: 1, width: 240 }) };
}

export type NoticeOutcome =
  | 'paid'
  | 'duplicate'
  | 'closed_refund'
  | 'forged'
  | 'amount_mismatch'
  | 'merchant_mismatch'
  | 'unknown_order'
  | 'not_paid'
  | 'disabled';

/**
 * Counts a notification from the caller's address. A gateway's own sends and retries stay far below the limit; past
 * it, the notification is refused unread (the gateway resends later). Logged once per window, not once per request.
 */
export async function admitNotice(ctx: Ctx): Promise<HitResult> {
  const { paymentNotifyPerIp, windowMs } = ctx.config.publicWrites;
  const hit = await ctx.limiter.hit(`payment:notify:ip:${ctx.ip}`, paymentNotifyPerIp, windowMs);
  if (hit.count === paymentNotifyPerIp + 1) ctx.log.warn({ ip: ctx.ip, limit: paymentNotifyPerIp }, 'payment notifications refused: too many from one address');
  return hit;
}

/** Outcomes that moved money: at most one each per order and payment, so always kept, whoever sent them. */
const MONEY: NoticeOutcome[] = ['paid', 'closed_refund'];

/** At most `max` bytes of UTF-8, cut on a character boundary and marked as cut. */
export function boundedBody(body: string, max: number): string {
  const bytes = Buffer.byteLength(body);
  if (bytes <= max) return body;
  const marker = `…[已截断，原文共${bytes}字节]`;
  // The decoder holds back a character cut in half instead of writing a replacement for it.
  return new StringDecoder('utf8').write(Buffer.from(body).subarray(0, max - Buffer.byteLength(marker))) + marker;
}

/**
 * Keeps a notification for audit. What anyone can send (forged, unknown order, replayed duplicates...) is kept for at
 * most PAYMENT_NOTIFY_STORED_PER_IP notifications per address per window, and each body for at most
 * PAYMENT_NOTIFY_BODY_MAX_BYTES, so that no source can fill the database; the rest is only logged.
 */
async function record(ctx: Ctx, channel: number, outcome: NoticeOutcome, body: string, n?: { orderNo: string; tradeNo: string; amount: number }) {
  const { perIp, bodyMaxBytes } = ctx.config.paymentNotifyStore;
  const stored = MONEY.includes(outcome) || (await ctx.limiter.hit(`payment:notify:stored:${ctx.ip}`, perIp, ctx.config.publicWrites.windowMs)).allowed;
  if (stored) {
    await repo.insertNotification(ctx.db, {
      channel,
      orderNo: n?.orderNo.slice(0, 40) ?? null,
      tradeNo: n?.tradeNo.slice(0, 100) ?? null,
      amount: n?.amount ?? null,
      outcome,
      body: boundedBody(body, bodyMaxBytes),
      ip: ctx.ip,
      createdAt: ctx.clock.now().toISOString(),
    });
  }
  const level = outcome === 'paid' || outcome === 'duplicate' ? 'info' : 'warn';
  ctx.log[level](
    { channel, outcome, orderNo: n?.orderNo?.slice(0, 40), tradeNo: n?.tradeNo?.slice(0, 100), ...(stored ? {} : { stored: false, ip: ctx.ip }) },
    'payment notification',
  );
}

/**
 * Applies a verified notice. The state changes only by a conditional update from unpaid, so the same notice
 * arriving many times at once, or a day later, pays once; a notice for a closed order flags it for refund.
 */
async function apply(
  ctx: Ctx,
  channel: number,
  n: { orderNo: string; tradeNo: string; amount: number; paid: boolean },
  body: string,
  merchantOk: boolean,
): Promise<NoticeOutcome> {
  // A team's order, or a school's 统一缴费 order, which pays its teams' orders with it.
  const order = await orders.findPayable(ctx.db, n.orderNo);
  let outcome: NoticeOutcome;
  if (!merchantOk) outcome = 'merchant_mismatch';
  else if (!order) outcome = 'unknown_order';
  else if (order.amount !== n.amount) outcome = 'amount_mismatch';
  else if (!n.paid) outcome = 'not_paid';
  else if (await orders.markPaid(ctx, order, { payMethod: channel, tradeNo: n.tradeNo })) outcome = 'paid';
  else {
    const fresh = (await orders.findPayable(ctx.db, n.orderNo))!;
    if (fresh.tradeNo === n.tradeNo) outcome = 'duplicate';
    else {
      // Money arrived for an order that is closed, paid another way or paid for by its school: kept visible for a refund.
      await orders.flagPayableRefund(ctx.db, order, fresh.tradeNo ?? n.tradeNo, ctx.clock.now().toISOString());
      outcome = 'closed_refund';
    }
  }
  await record(ctx, channel, outcome, body, n);
  return outcome;
}

/** Outcomes after which the gateway must stop resending: the notice was taken into account. */
export const ACCEPTED: NoticeOutcome[] = ['paid', 'duplicate', 'closed_refund', 'not_paid'];

export async function alipayNotice(ctx: Ctx, params: Record<string, string>, raw: string): Promise<NoticeOutcome> {
  const s = await activeSettings<alipay.AlipaySettings>(ctx, ALIPAY);
  if (!s) {
    await record(ctx, ALIPAY, 'disabled', raw);
    return 'disabled';
  }
  const n = alipay.verifyNotification(s, params);
  if (!n) {
    await record(ctx, ALIPAY, 'forged', raw, { orderNo: params.out_trade_no ?? '', tradeNo: params.trade_no ?? '', amount: 0 });
    return 'forged';
  }
  return apply(ctx, ALIPAY, n, raw, n.appId === s.appId && (!s.sellerId || !n.sellerId || n.sellerId === s.sellerId));
}

export async function wechatNotice(ctx: Ctx, headers: Record<string, string | string[] | undefined>, raw: string): Promise<NoticeOutcome> {
  const s = await activeSettings<wechat.WechatSettings>(ctx, WECHAT);
  if (!s) {
    await record(ctx, WECHAT, 'disabled', raw);
    return 'disabled';
  }
  const n = wechat.verifyNotification(s, headers, raw);
  if (!n) {
    await record(ctx, WECHAT, 'forged', raw);
    return 'forged';
  }
  return apply(ctx, WECHAT, n, raw, n.mchId === s.mchId && n.appId === s.appId);
}

export const CONFIG_EDIT = ACTION_CODES.paymentEdit;
