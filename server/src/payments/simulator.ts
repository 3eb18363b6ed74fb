import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ACTION_CODES } from '@contest/shared';
import { z } from 'zod';
import type { Deps } from '../context.ts';
import { PUBLIC, perm } from '../http/access.ts';
import type { App } from '../http/app-types.ts';
import { badRequest } from '../http/errors.ts';
import { escapeHtml } from '../http/html.ts';
import { ok } from '../http/reply.ts';
import { saveConfig } from '../modules/payments/service.ts';
import { originOf } from '../http/origin.ts';
import { alipayTimestamp, rsa2Sign, rsa2Verify, signContent } from './alipay.ts';
import { encryptResource, parseAuthorization, responseMessage, rsaSign, rsaVerify } from './wechat.ts';

/**
 * A development stand-in for Alipay and WeChat Pay (PAYMENT_SIMULATOR=1, refused in production). It speaks the
 * gateways' real protocols with locally generated keys: it checks the merchant's request signatures, signs its
 * replies, shows the payer a checkout page, and sends correctly signed (and, for WeChat, encrypted) notifications
 * over real HTTP to the notify URL the merchant gave.
 */
export interface SimulatorKeys {
  alipay: { appId: string; sellerId: string; appPrivateKey: string; appPublicKey: string; platformPrivateKey: string; platformPublicKey: string };
  wechat: {
    appId: string;
    mchId: string;
    serialNo: string;
    privateKey: string;
    publicKey: string;
    apiV3Key: string;
    platformSerial: string;
    platformPrivateKey: string;
    platformPublicKey: string;
  };
}

function rsaPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { priv: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), pub: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** Keys are made once and kept under DATA_DIR, so a saved configuration keeps working after a restart. */
export function simulatorKeys(dataDir: string): SimulatorKeys {
  const file = path.join(dataDir, 'payment-simulator.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as SimulatorKeys;
  const [a1, a2, w1, w2] = [rsaPair(), rsaPair(), rsaPair(), rsaPair()];
  const keys: SimulatorKeys = {
    alipay: {
      appId: '2021000000000001',
      sellerId: '2088000000000001',
      appPrivateKey: a1.priv,
      appPublicKey: a1.pub,
      platformPrivateKey: a2.priv,
      platformPublicKey: a2.pub,
    },
    wechat: {
      appId: 'wx0000000000000001',
      mchId: '1900000001',
      serialNo: randomBytes(20).toString('hex').toUpperCase(),
      privateKey: w1.priv,
      publicKey: w1.pub,
      apiV3Key: randomBytes(16).toString('hex'),
      platformSerial: randomBytes(20).toString('hex').toUpperCase(),
      platformPrivateKey: w2.priv,
      platformPublicKey: w2.pub,
    },
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

interface Trade {
  id: string;
  channel: 'alipay' | 'wechat';
  orderNo: string;
  amount: number;
  subject: string;
  notifyUrl: string;
  tradeNo: string;
  notified: boolean;
}

/** A signed Alipay notification for a trade, as Alipay posts it (form-encoded). */
export function alipayNotification(keys: SimulatorKeys, t: { orderNo: string; tradeNo: string; amount: number }, now: Date): string {
  const params: Record<string, string> = {
    notify_time: alipayTimestamp(now),
    notify_type: 'trade_status_sync',
    notify_id: randomBytes(16).toString('hex'),
    app_id: keys.alipay.appId,
    seller_id: keys.alipay.sellerId,
    charset: 'utf-8',
    version: '1.0',
    trade_no: t.tradeNo,
    out_trade_no: t.orderNo,
    trade_status: 'TRADE_SUCCESS',
    total_amount: (t.amount / 100).toFixed(2),
    gmt_payment: alipayTimestamp(now),
  };
  params.sign = rsa2Sign(signContent(params), keys.alipay.platformPrivateKey);
  params.sign_type = 'RSA2';
  return new URLSearchParams(params).toString();
}

/** A signed, encrypted WeChat Pay notification: its body and headers. */
export function wechatNotification(keys: SimulatorKeys, t: { orderNo: string; tradeNo: string; amount: number }, now: Date) {
  const nonce = randomBytes(6).toString('hex');
  const transaction = JSON.stringify({
    appid: keys.wechat.appId,
    mchid: keys.wechat.mchId,
    out_trade_no: t.orderNo,
    transaction_id: t.tradeNo,
    trade_type: 'NATIVE',
    trade_state: 'SUCCESS',
    trade_state_desc: '支付成功',
    success_time: now.toISOString(),
    amount: { total: t.amount, payer_total: t.amount, currency: 'CNY', payer_currency: 'CNY' },
  });
  const body = JSON.stringify({
    id: randomBytes(16).toString('hex'),
    create_time: now.toISOString(),
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: encryptResource(keys.wechat.apiV3Key, transaction, 'transaction', nonce),
      associated_data: 'transaction',
      nonce,
    },
  });
  return { body, headers: signedHeaders(keys, body, now) };
}

function signedHeaders(keys: SimulatorKeys, body: string, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const nonce = randomBytes(16).toString('hex');
  return {
    'content-type': 'application/json',
    'wechatpay-timestamp': timestamp,
    'wechatpay-nonce': nonce,
    'wechatpay-serial': keys.wechat.platformSerial,
    'wechatpay-signature': rsaSign(responseMessage(timestamp, nonce, body), keys.wechat.platformPrivateKey),
  };
}

const page = (title: string, inner: string) =>
  `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>` +
  `<style>body{font-family:"Noto Sans CJK SC",sans-serif;background:#f0f2f5;margin:0}main{max-width:420px;margin:48px auto;background:#fff;border-radius:8px;padding:32px;text-align:center}` +
  `h1{font-size:20px}.amount{font-size:32px;color:#1890ff;margin:16px 0}button{background:#1890ff;color:#fff;border:0;border-radius:4px;padding:10px 32px;font-size:16px;cursor:pointer}.note{color:#888;font-size:13px}</style>` +
  `</head><body><main>${inner}</main></body></html>`;

export function simulatorRoutes(app: App, deps: Deps) {
  const keys = simulatorKeys(deps.config.dataDir);
  const trades = new Map<string, Trade>();
  const tags = ['payment-simulator'];
  const checkout = (origin: string, id: string) => `${origin}/api/payment/simulator/pay?trade=${id}`;

  /** Points a method's configuration at the simulator, with its keys. */
  app.post(
    '/api/payment/simulator/configure/:method',
    { config: { rule: perm(ACTION_CODES.paymentEdit) }, schema: { tags, params: z.object({ method: z.coerce.number().int() }) } },
    async (req) => {
      const origin = deps.config.publicUrl ?? originOf(req);
      if (req.params.method === 2) {
        const a = keys.alipay;
        await saveConfig(req.ctx, 2, {
          enable: true,
          appId: a.appId,
          sellerId: a.sellerId,
          gatewayUrl: `${origin}/api/payment/simulator/alipay/gateway`,
          appPrivateKey: a.appPrivateKey,
          alipayPublicKey: a.platformPublicKey,
        });
      } else if (req.params.method === 1) {
        const w = keys.wechat;
        await saveConfig(req.ctx, 1, {
          enable: true,
          appId: w.appId,
          mchId: w.mchId,
          serialNo: w.serialNo,
          apiBase: `${origin}/api/payment/simulator/wechat`,
          privateKey: w.privateKey,
          apiV3Key: w.apiV3Key,
          platformSerial: w.platformSerial,
          platformPublicKey: w.platformPublicKey,
        });
      } else throw badRequest('模拟器只模拟微信支付和支付宝');
      return ok(null, '已填入支付模拟器的配置');
    },
  );

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    const foreign = { rule: PUBLIC, foreign: true };

    // Alipay's gateway: alipay.trade.precreate, signed by the merchant's application key.
    scope.post('/api/payment/simulator/alipay/gateway', { config: foreign, schema: { hide: true } }, async (req, reply) => {
      const params = Object.fromEntries(new URLSearchParams(String(req.body ?? '')));
      const respond = (node: Record<string, unknown>) => {
        const text = JSON.stringify(node);
        return reply
          .type('application/json; charset=utf-8')
          .send(`{"alipay_trade_precreate_response":${text},"sign":"${rsa2Sign(text, keys.alipay.platformPrivateKey)}"}`);
      };
      if (params.app_id !== keys.alipay.appId || !params.sign || !rsa2Verify(signContent(params), params.sign, keys.alipay.appPublicKey)) {
        return respond({ code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' });
      }
      const biz = JSON.parse(params.biz_content ?? '{}') as { out_trade_no: string; total_amount: string; subject: string };
      const id = randomBytes(12).toString('hex');
      trades.set(id, {
        id,
        channel: 'alipay',
        orderNo: biz.out_trade_no,
        amount: Math.round(Number(biz.total_amount) * 100),
        subject: biz.subject,
        notifyUrl: params.notify_url ?? '',
        tradeNo: `2026${randomBytes(10).toString('hex')}`,
        notified: false,
      });
      return respond({ code: '10000', msg: 'Success', out_trade_no: biz.out_trade_no, qr_code: checkout(originOf(req), id) });
    });

    // WeChat Pay v3 native order, authorised by the merchant's API key.
    scope.post('/api/payment/simulator/wechat/v3/pay/transactions/native', { config: foreign, schema: { hide: true } }, async (req, reply) => {
      const body = String(req.body ?? '');
      const auth = parseAuthorization(req.headers.authorization);
      const message = auth && `POST\n${req.url}\n${auth.timestamp}\n${auth.nonce_str}\n${body}\n`;
      const send = (code: number, payload: object) => {
        const text = JSON.stringify(payload);
        return reply
          .code(code)
          .headers(signedHeaders(keys, text, new Date()))
          .send(text);
      };
      if (
        !auth ||
        auth.mchid !== keys.wechat.mchId ||
        auth.serial_no !== keys.wechat.serialNo ||
        !rsaVerify(message!, auth.signature ?? '', keys.wechat.publicKey)
      ) {
        return send(401, { code: 'SIGN_ERROR', message: '签名错误' });
      }
      const o = JSON.parse(body) as { out_trade_no: string; description: string; notify_url: string; amount: { total: number } };
      const id = randomBytes(12).toString('hex');
      trades.set(id, {
        id,
        channel: 'wechat',
        orderNo: o.out_trade_no,
        amount: o.amount.total,
        subject: o.description,
        notifyUrl: o.notify_url,
        tradeNo: `4200${randomBytes(9).toString('hex')}`,
        notified: false,
      });
      return send(200, { code_url: checkout(originOf(req), id) });
    });

    // The payer's checkout page, where the QR code leads.
    scope.get(
      '/api/payment/simulator/pay',
      { config: foreign, schema: { hide: true, querystring: z.object({ trade: z.string().max(64) }) } },
      async (req, reply) => {
        const t = trades.get((req.query as { trade: string }).trade);
        reply.type('text/html; charset=utf-8');
        if (!t) return page('支付模拟器', '<h1>交易不存在或已过期</h1>');
        const name = t.channel === 'alipay' ? '支付宝' : '微信支付';
        return page(
          `${name}模拟收银台`,
          `<h1>${name}（模拟）</h1><p>${escapeHtml(t.subject)}</p><p class="note">订单号 ${escapeHtml(t.orderNo)}</p><div class="amount">¥${(t.amount / 100).toFixed(2)}</div>` +
            (t.notified
              ? '<p>该交易已支付</p>'
              : `<form method="post" action="/api/payment/simulator/pay"><input type="hidden" name="trade" value="${t.id}"><button type="submit">确认支付</button></form>`) +
            '<p class="note">这是开发用的支付模拟器，不会产生真实扣款。</p>',
        );
      },
    );

    scope.post('/api/payment/simulator/pay', { config: foreign, schema: { hide: true } }, async (req, reply) => {
      const t = trades.get(new URLSearchParams(String(req.body ?? '')).get('trade') ?? '');
      reply.type('text/html; charset=utf-8');
      if (!t) return page('支付模拟器', '<h1>交易不存在或已过期</h1>');
      const now = new Date();
      let status: number;
      try {
        if (t.channel === 'alipay') {
          const res = await fetch(t.notifyUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
            body: alipayNotification(keys, t, now),
            signal: AbortSignal.timeout(15_000),
          });
          status = (await res.text()) === 'success' ? 200 : res.status;
        } else {
          const n = wechatNotification(keys, t, now);
          const res = await fetch(t.notifyUrl, { method: 'POST', headers: n.headers, body: n.body, signal: AbortSignal.timeout(15_000) });
          status = res.status;
        }
      } catch (err) {
        deps.log.warn({ err, notifyUrl: t.notifyUrl }, 'simulator could not reach the notify URL');
        status = 0;
      }
      if (status === 200) t.notified = true;
      return page(
        '支付模拟器',
        status === 200 ? '<h1>支付成功</h1><p>请返回竞赛平台查看订单状态。</p>' : `<h1>通知商户失败</h1><p class="note">商户应答 ${status || '无法连接'}</p>`,
      );
    });
  });
}
