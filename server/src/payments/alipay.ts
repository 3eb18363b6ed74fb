import { createSign, createVerify } from 'node:crypto';
import { beijing } from '../time.ts';

/**
 * Alipay open platform, RSA2: requests are signed with the merchant's application private key over the sorted
 * `key=value` pairs; replies and asynchronous notifications are verified with Alipay's public key.
 */
export interface AlipaySettings {
  appId: string;
  sellerId?: string | null;
  gatewayUrl: string;
  appPrivateKey: string;
  alipayPublicKey: string;
}

/** The string Alipay signs: non-empty parameters except `sign` (and `sign_type` for notifications), sorted by key. */
export function signContent(params: Record<string, string>, omit: string[] = ['sign']): string {
  return Object.keys(params)
    .filter((k) => !omit.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

export const rsa2Sign = (content: string, privateKey: string) => createSign('RSA-SHA256').update(content, 'utf8').sign(privateKey, 'base64');
export function rsa2Verify(content: string, signature: string, publicKey: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

/** Alipay's timestamp format, in Beijing time. */
export function alipayTimestamp(d: Date): string {
  return beijing(d).replace('T', ' ');
}

/** `alipay.trade.precreate`: asks Alipay for the QR code the payer scans. Returns the QR content. */
export async function precreate(s: AlipaySettings, o: { orderNo: string; amount: number; subject: string; notifyUrl: string; now: Date }): Promise<string> {
  const params: Record<string, string> = {
    app_id: s.appId,
    method: 'alipay.trade.precreate',
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: alipayTimestamp(o.now),
    version: '1.0',
    notify_url: o.notifyUrl,
    biz_content: JSON.stringify({ out_trade_no: o.orderNo, total_amount: (o.amount / 100).toFixed(2), subject: o.subject }),
  };
  params.sign = rsa2Sign(signContent(params), s.appPrivateKey);
  const res = await fetch(s.gatewayUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
    body: new URLSearchParams(params).toString(),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  // The reply is signed over the exact text of its response node.
  const node = /"alipay_trade_precreate_response"\s*:\s*(\{[^{}]*\})/.exec(text)?.[1];
  const sign = (JSON.parse(text) as { sign?: string }).sign;
  if (!node || !sign || !rsa2Verify(node, sign, s.alipayPublicKey)) throw new Error('支付宝应答签名校验失败');
  const reply = JSON.parse(node) as { code: string; msg: string; sub_msg?: string; qr_code?: string; out_trade_no?: string };
  if (reply.code !== '10000' || !reply.qr_code || reply.out_trade_no !== o.orderNo) throw new Error(`支付宝下单失败：${reply.sub_msg ?? reply.msg}`);
  return reply.qr_code;
}

export interface AlipayNotice {
  orderNo: string;
  tradeNo: string;
  amount: number;
  appId: string;
  sellerId: string | null;
  paid: boolean;
}

/** Verifies an asynchronous notification; null when the signature does not hold. */
export function verifyNotification(s: Pick<AlipaySettings, 'alipayPublicKey'>, params: Record<string, string>): AlipayNotice | null {
  if (!params.sign || params.sign_type !== 'RSA2') return null;
  if (!rsa2Verify(signContent(params, ['sign', 'sign_type']), params.sign, s.alipayPublicKey)) return null;
  const yuan = params.total_amount ?? '';
  if (!/^\d+(\.\d{1,2})?$/.test(yuan)) return null;
  return {
    orderNo: params.out_trade_no ?? '',
    tradeNo: params.trade_no ?? '',
    amount: Math.round(Number(yuan) * 100),
    appId: params.app_id ?? '',
    sellerId: params.seller_id ?? null,
    paid: params.trade_status === 'TRADE_SUCCESS' || params.trade_status === 'TRADE_FINISHED',
  };
}
