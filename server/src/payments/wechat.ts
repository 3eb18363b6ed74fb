import { createCipheriv, createDecipheriv, createSign, createVerify, randomBytes } from 'node:crypto';

/**
 * WeChat Pay API v3: requests carry a `WECHATPAY2-SHA256-RSA2048` authorization signed with the merchant's API
 * private key; replies and notifications are signed by the platform key over `timestamp\nnonce\nbody\n`, and a
 * notification's resource is AES-256-GCM encrypted with the APIv3 key.
 */
export interface WechatSettings {
  appId: string;
  mchId: string;
  serialNo: string;
  apiBase: string;
  privateKey: string;
  apiV3Key: string;
  platformSerial: string;
  platformPublicKey: string;
}

export const rsaSign = (message: string, privateKey: string) => createSign('RSA-SHA256').update(message, 'utf8').sign(privateKey, 'base64');
export function rsaVerify(message: string, signature: string, publicKey: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

export const responseMessage = (timestamp: string, nonce: string, body: string) => `${timestamp}\n${nonce}\n${body}\n`;

export function authorization(
  s: Pick<WechatSettings, 'mchId' | 'serialNo' | 'privateKey'>,
  method: string,
  pathWithQuery: string,
  body: string,
  now: Date,
): string {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const signature = rsaSign(`${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`, s.privateKey);
  return `WECHATPAY2-SHA256-RSA2048 mchid="${s.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${s.serialNo}"`;
}

/** Parses the authorization header back into its parts (the simulator checks merchants with it). */
export function parseAuthorization(header: string | undefined): Record<string, string> | null {
  const m = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header ?? '');
  if (!m) return null;
  return Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]));
}

type Headers = Record<string, string | string[] | undefined>;
const header = (h: Headers, name: string) => {
  const v = h[name] ?? h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** True when the platform signed this body with these headers. */
export function verifySigned(s: Pick<WechatSettings, 'platformSerial' | 'platformPublicKey'>, headers: Headers, body: string): boolean {
  const ts = header(headers, 'wechatpay-timestamp');
  const nonce = header(headers, 'wechatpay-nonce');
  const sig = header(headers, 'wechatpay-signature');
  const serial = header(headers, 'wechatpay-serial');
  if (!ts || !nonce || !sig || serial !== s.platformSerial) return false;
  return rsaVerify(responseMessage(ts, nonce, body), sig, s.platformPublicKey);
}

/** Native payment: asks WeChat Pay for the `code_url` the payer scans. */
export async function createNative(
  s: WechatSettings,
  o: { orderNo: string; amount: number; description: string; notifyUrl: string; now: Date },
): Promise<string> {
  const path = '/v3/pay/transactions/native';
  const body = JSON.stringify({
    appid: s.appId,
    mchid: s.mchId,
    description: o.description,
    out_trade_no: o.orderNo,
    notify_url: o.notifyUrl,
    amount: { total: o.amount, currency: 'CNY' },
  });
  const url = new URL(s.apiBase.replace(/\/$/, '') + path);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: authorization(s, 'POST', url.pathname, body, o.now) },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  if (!verifySigned(s, Object.fromEntries(res.headers.entries()), text)) throw new Error('微信支付应答签名校验失败');
  const reply = JSON.parse(text) as { code_url?: string; message?: string };
  if (!res.ok || !reply.code_url) throw new Error(`微信支付下单失败：${reply.message ?? res.status}`);
  return reply.code_url;
}

/** The platform's side of the resource encryption (used by the simulator). */
export function encryptResource(apiV3Key: string, plain: string, associatedData: string, nonce: string): string {
  const c = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  c.setAAD(Buffer.from(associatedData, 'utf8'));
  return Buffer.concat([c.update(plain, 'utf8'), c.final(), c.getAuthTag()]).toString('base64');
}

export function decryptResource(apiV3Key: string, r: { ciphertext: string; associated_data?: string; nonce: string }): string {
  const data = Buffer.from(r.ciphertext, 'base64');
  const d = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(r.nonce, 'utf8'));
  d.setAAD(Buffer.from(r.associated_data ?? '', 'utf8'));
  d.setAuthTag(data.subarray(data.length - 16));
  return Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]).toString('utf8');
}

export interface WechatNotice {
  orderNo: string;
  tradeNo: string;
  amount: number;
  appId: string;
  mchId: string;
  paid: boolean;
}

/** Verifies a notification's signature and decrypts its transaction; null when either fails. */
export function verifyNotification(s: WechatSettings, headers: Headers, body: string): WechatNotice | null {
  if (!verifySigned(s, headers, body)) return null;
  try {
    const n = JSON.parse(body) as { resource?: { algorithm?: string; ciphertext: string; associated_data?: string; nonce: string } };
    if (n.resource?.algorithm !== 'AEAD_AES_256_GCM') return null;
    const t = JSON.parse(decryptResource(s.apiV3Key, n.resource)) as {
      appid: string;
      mchid: string;
      out_trade_no: string;
      transaction_id: string;
      trade_state: string;
      amount: { total: number };
    };
    return { orderNo: t.out_trade_no, tradeNo: t.transaction_id, amount: t.amount.total, appId: t.appid, mchId: t.mchid, paid: t.trade_state === 'SUCCESS' };
  } catch {
    return null;
  }
}
