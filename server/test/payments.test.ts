import net from 'node:net';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alipayNotification, simulatorKeys, wechatNotification, type SimulatorKeys } from '../src/payments/simulator.ts';
import { rsa2Sign, signContent } from '../src/payments/alipay.ts';
import { encryptResource, rsaSign, responseMessage } from '../src/payments/wechat.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
  REG_INFO as info,
} from './helpers.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

describe.each(DATABASES)('payments on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let admin: Client;
  let org: Client;
  let keys: SimulatorKeys;
  let competitionId: number;
  let now = new Date('2026-03-20T00:00:00Z');
  let seq = 0;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp(kind, { clock: { now: () => now }, env: { PAYMENT_SIMULATOR: '1', PUBLIC_URL: base, SESSION_TTL_HOURS: String(24 * 365) } });
    await t.app.listen({ port, host: '127.0.0.1' });
    keys = simulatorKeys(t.config.dataDir);
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'payorg', '支付大学');
    competitionId = await onlineCompetition(admin, org, { fee: 9900 });
  });
  afterAll(() => t.close());

  /** A new team with an open order for the competition's fee. */
  async function openOrder() {
    const username = `payer${++seq}`;
    await registerUser(t.app, username);
    const payer = await loggedIn(t.app, username);
    const res = await payer.post(`/api/team/register/${competitionId}`, { teamName: `付款队${seq}`, info });
    expect(res.statusCode, res.body).toBe(200);
    const orderId = body(res).data.orderId as number;
    const order = body(await payer.get(`/api/order/${orderId}`)).data as { orderNo: string; amount: number };
    return { payer, orderId, orderNo: order.orderNo, amount: order.amount };
  }

  const notices = () => t.database.db.selectFrom('paymentNotifications').selectAll().orderBy('id').execute();
  const postAlipay = (payload: string) =>
    fetch(`${base}/api/payment/notify/alipay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: payload });
  const postWechat = (n: { body: string; headers: Record<string, string> }) =>
    fetch(`${base}/api/payment/notify/wechat`, { method: 'POST', headers: n.headers, body: n.body });

  describe('configuration', () => {
    it('keeps secrets encrypted, shows only their last characters, and keeps them when left empty', async () => {
      // A platform of its own, whose Alipay was never set up: the other tests set it up through the simulator, and a
      // stored key would be kept when the form leaves it empty.
      const t = await createTestApp(kind);
      try {
        const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
        const org = await makeOrganiser(t, admin, 'payorgKeys', '密钥大学');
        const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        const priv = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
        const pub = publicKey.export({ type: 'spki', format: 'pem' }).toString();
        const settings = { enable: true, appId: '2021009999', gatewayUrl: 'https://openapi.alipay.com/gateway.do', alipayPublicKey: pub };
        const missing = await admin.put('/api/payment/config/2', settings);
        expect(body(missing).data.fields.appPrivateKey).toBe('请填写应用私钥');
        expect((await admin.put('/api/payment/config/2', { ...settings, appPrivateKey: 'not a key' })).statusCode).toBe(400);
        expect((await org.put('/api/payment/config/2', { ...settings, appPrivateKey: priv })).statusCode).toBe(403);
        expect((await admin.put('/api/payment/config/2', { ...settings, appPrivateKey: priv })).statusCode).toBe(200);
        // Saved again without the secret: the stored one stays.
        expect((await admin.put('/api/payment/config/2', { ...settings, appId: '2021008888' })).statusCode).toBe(200);

        const view = await admin.get('/api/payment/config/2');
        expect(view.body).not.toContain('PRIVATE KEY');
        expect(body(view).data).toMatchObject({
          enable: true,
          settings: { appId: '2021008888' },
          secrets: { appPrivateKey: expect.stringMatching(/^已设置（…/) },
        });
        const row = await t.database.db.selectFrom('paymentConfigs').selectAll().where('method', '=', 2).executeTakeFirstOrThrow();
        expect(row.settingsJson).not.toContain('PRIVATE KEY');
        expect(JSON.parse(row.settingsJson).appPrivateKey).toMatch(/^v1\./);
        const audit = await t.database.db.selectFrom('auditLog').select(['afterJson']).where('action', '=', 'payment.config').execute();
        expect(audit.length).toBeGreaterThanOrEqual(2);
        expect(audit.every((a) => !a.afterJson!.includes('PRIVATE'))).toBe(true);
        expect((await org.get('/api/payment/config/2')).statusCode).toBe(403);
      } finally {
        await t.close();
      }
    });

    it('lists enabled methods with the accounts of offline transfers', async () => {
      // Alipay is on (the simulator's merchant), as an online method beside the transfer.
      expect((await admin.post('/api/payment/simulator/configure/2')).statusCode).toBe(200);
      const bad = await admin.put('/api/payment/config/4', { enable: true, accounts: [] });
      expect(body(bad).data.fields.accounts).toBe('请至少填写一个收款账户');
      const account = {
        name: '工行对公账户',
        accountName: '支付大学',
        accountNo: '6222020000000000000',
        bankName: '工商银行广州分行',
        instructions: '转账时请备注队伍编号',
      };
      expect((await admin.put('/api/payment/config/4', { enable: true, accounts: [account] })).statusCode).toBe(200);
      const { payer } = await openOrder();
      const methods = body(await payer.get('/api/payment/methods')).data as { method: number; online: boolean; accounts: unknown[] }[];
      expect(methods.find((m) => m.method === 4)).toEqual({ method: 4, name: '工商银行', online: false, accounts: [account] });
      expect(methods.find((m) => m.method === 2)).toMatchObject({ online: true, accounts: [] });
    });
  });

  describe('the simulator plays the gateways with their real protocols', () => {
    for (const [method, name] of [
      [2, 'Alipay'],
      [1, 'WeChat Pay'],
    ] as const) {
      it(`pays an order through ${name}: signed order request, checkout page, signed notification`, async () => {
        expect((await admin.post(`/api/payment/simulator/configure/${method}`)).statusCode).toBe(200);
        const { payer, orderId } = await openOrder();
        const res = await payer.post(`/api/payment/pay/${orderId}`, { method });
        expect(res.statusCode, res.body).toBe(200);
        const { codeUrl, qrImage } = body(res).data as { codeUrl: string; qrImage: string };
        expect(qrImage).toMatch(/^data:image\/png;base64,/);
        expect(codeUrl).toMatch(new RegExp(`^${base}/api/payment/simulator/pay\\?trade=`));
        const checkout = await (await fetch(codeUrl)).text();
        expect(checkout).toContain('¥99.00');
        const trade = new URL(codeUrl).searchParams.get('trade')!;
        const done = await (
          await fetch(`${base}/api/payment/simulator/pay`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `trade=${trade}`,
          })
        ).text();
        expect(done).toContain('支付成功');
        const order = body(await payer.get(`/api/order/${orderId}`)).data;
        expect(order).toMatchObject({ payStatus: 1, payMethod: method, competitionVisible: true });
        expect(order.tradeNo).toBeTruthy();
        expect(body(await payer.post(`/api/payment/pay/${orderId}`, { method })).message).toBe('只有待支付的订单可以支付');
      });
    }

    it('refuses a merchant request the gateway cannot verify', async () => {
      await admin.post('/api/payment/simulator/configure/2');
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const row = await t.database.db.selectFrom('paymentConfigs').selectAll().where('method', '=', 2).executeTakeFirstOrThrow();
      const settings = JSON.parse(row.settingsJson);
      settings.appPrivateKey = t.deps.cipher.encrypt(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
      await t.database.db
        .updateTable('paymentConfigs')
        .set({ settingsJson: JSON.stringify(settings) })
        .where('method', '=', 2)
        .execute();
      const { payer, orderId } = await openOrder();
      const res = await payer.post(`/api/payment/pay/${orderId}`, { method: 2 });
      expect([res.statusCode, body(res).message]).toEqual([502, '支付渠道暂时不可用，请稍后重试或选择其他支付方式']);
      await admin.post('/api/payment/simulator/configure/2');
    });
  });

  describe('notifications', () => {
    it('pays once for the same notification sent 20 times at once, and again a day later', async () => {
      await admin.post('/api/payment/simulator/configure/2');
      const { payer, orderId, orderNo, amount } = await openOrder();
      const payload = alipayNotification(keys, { orderNo, tradeNo: 'T-ONCE-1', amount }, now);
      const before = (await notices()).length;
      const replies = await Promise.all(Array.from({ length: 20 }, () => postAlipay(payload).then(async (r) => [r.status, await r.text()])));
      expect(replies.every(([s, text]) => s === 200 && text === 'success')).toBe(true);
      const rows = (await notices()).slice(before);
      expect(rows.filter((r) => r.outcome === 'paid')).toHaveLength(1);
      expect(rows.filter((r) => r.outcome === 'duplicate')).toHaveLength(19);
      const paidAt = body(await payer.get(`/api/order/${orderId}`)).data.paidAt;

      now = new Date(now.getTime() + 24 * 3600_000);
      try {
        expect(await (await postAlipay(payload)).text()).toBe('success');
      } finally {
        now = new Date('2026-03-20T00:00:00Z');
      }
      const order = body(await payer.get(`/api/order/${orderId}`)).data;
      expect(order).toMatchObject({ payStatus: 1, tradeNo: 'T-ONCE-1', paidAt, refundFlag: false });
      expect((await notices()).at(-1)!.outcome).toBe('duplicate');
    });

    it('changes nothing for a forged signature, a wrong amount or a foreign merchant, and logs each', async () => {
      await admin.post('/api/payment/simulator/configure/2');
      await admin.post('/api/payment/simulator/configure/1');
      const { payer, orderId, orderNo, amount } = await openOrder();

      // Forged: the amount was changed after signing.
      const forged = new URLSearchParams(alipayNotification(keys, { orderNo, tradeNo: 'T-F', amount }, now));
      forged.set('total_amount', '0.01');
      const r1 = await postAlipay(forged.toString());
      expect([r1.status, await r1.text()]).toEqual([400, 'fail']);
      // Signed with a key that is not Alipay's.
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const params = Object.fromEntries(new URLSearchParams(alipayNotification(keys, { orderNo, tradeNo: 'T-F2', amount }, now)));
      delete params.sign;
      delete params.sign_type;
      params.sign = rsa2Sign(signContent(params), privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
      params.sign_type = 'RSA2';
      expect((await postAlipay(new URLSearchParams(params).toString())).status).toBe(400);
      // Correctly signed, wrong amount.
      expect((await postAlipay(alipayNotification(keys, { orderNo, tradeNo: 'T-A', amount: amount - 1 }, now))).status).toBe(400);
      // WeChat: tampered body, then a foreign merchant correctly signed by the platform.
      const n = wechatNotification(keys, { orderNo, tradeNo: 'W-F', amount }, now);
      expect((await postWechat({ ...n, body: n.body.replace('TRANSACTION.SUCCESS', 'TRANSACTION.SUCCESS ') })).status).toBe(401);
      const foreignTx = JSON.stringify({
        appid: keys.wechat.appId,
        mchid: '1999999999',
        out_trade_no: orderNo,
        transaction_id: 'W-M',
        trade_state: 'SUCCESS',
        amount: { total: amount },
      });
      const foreignBody = JSON.stringify({
        id: 'x',
        event_type: 'TRANSACTION.SUCCESS',
        resource: {
          algorithm: 'AEAD_AES_256_GCM',
          ciphertext: encryptResource(keys.wechat.apiV3Key, foreignTx, 'transaction', 'abcdefabcdef'),
          associated_data: 'transaction',
          nonce: 'abcdefabcdef',
        },
      });
      const ts = String(Math.floor(now.getTime() / 1000));
      const foreignHeaders = {
        'content-type': 'application/json',
        'wechatpay-timestamp': ts,
        'wechatpay-nonce': 'n1',
        'wechatpay-serial': keys.wechat.platformSerial,
        'wechatpay-signature': rsaSign(responseMessage(ts, 'n1', foreignBody), keys.wechat.platformPrivateKey),
      };
      expect((await postWechat({ body: foreignBody, headers: foreignHeaders })).status).toBe(400);

      expect(body(await payer.get(`/api/order/${orderId}`)).data).toMatchObject({ payStatus: 0, tradeNo: null });
      const outcomes = (await notices()).filter((r) => r.orderNo === orderNo || r.outcome === 'forged').map((r) => r.outcome);
      expect(outcomes).toEqual(expect.arrayContaining(['forged', 'amount_mismatch', 'merchant_mismatch']));
      expect(t.logs.some((l) => l.includes('"outcome":"forged"') && l.includes('"level":40'))).toBe(true);
    });

    it('flags a notification for a closed order for refund instead of dropping it', async () => {
      await admin.post('/api/payment/simulator/configure/1');
      const { payer, orderId, orderNo, amount } = await openOrder();
      expect((await payer.put(`/api/order/close/${orderId}`)).statusCode).toBe(200);
      const res = await postWechat(wechatNotification(keys, { orderNo, tradeNo: 'W-LATE', amount }, now));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ code: 'SUCCESS', message: '成功' });
      const order = body(await org.get(`/api/order/${orderId}`)).data;
      expect(order).toMatchObject({ payStatus: 2, refundFlag: true, tradeNo: 'W-LATE' });
      expect((await notices()).at(-1)!.outcome).toBe('closed_refund');
    });
  });
});

describe.each(DATABASES)('payment notifications per address on %s', (kind) => {
  let t: TestApp;
  let keys: SimulatorKeys;
  let competitionId: number;
  let seq = 0;
  const now = new Date('2026-03-20T00:00:00Z');
  const LIMIT = 6;
  const STORED = 3;
  const BODY_MAX = 1024;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      clock: { now: () => now },
      env: {
        PAYMENT_SIMULATOR: '1',
        PUBLIC_URL: 'http://contest.test',
        SESSION_TTL_HOURS: String(24 * 365),
        PAYMENT_NOTIFY_MAX_PER_IP: String(LIMIT),
        PAYMENT_NOTIFY_STORED_PER_IP: String(STORED),
        PAYMENT_NOTIFY_BODY_MAX_BYTES: String(BODY_MAX),
      },
    });
    keys = simulatorKeys(t.config.dataDir);
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    const org = await makeOrganiser(t, admin, 'limitorg', '限流大学');
    competitionId = await onlineCompetition(admin, org, { fee: 9900 });
    expect((await admin.post('/api/payment/simulator/configure/2')).statusCode).toBe(200);
    expect((await admin.post('/api/payment/simulator/configure/1')).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  async function openOrder() {
    const username = `limited${++seq}`;
    await registerUser(t.app, username);
    const payer = await loggedIn(t.app, username);
    const res = await payer.post(`/api/team/register/${competitionId}`, { teamName: `限流队${seq}`, info });
    expect(res.statusCode, res.body).toBe(200);
    const orderId = body(res).data.orderId as number;
    const order = body(await payer.get(`/api/order/${orderId}`)).data as { orderNo: string; amount: number };
    return { payer, orderId, orderNo: order.orderNo, amount: order.amount };
  }

  const alipay = (payload: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payment/notify/alipay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload,
      remoteAddress: ip,
    });
  const wechat = (n: { body: string; headers: Record<string, string> }, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/payment/notify/wechat', headers: n.headers, payload: n.body, remoteAddress: ip });
  /** A notification that fails its signature check, padded with `junk` (anyone can send these). */
  const forged = (junk = '') => {
    const p = new URLSearchParams(alipayNotification(keys, { orderNo: 'NO-SUCH-ORDER', tradeNo: `T-${randomUUID()}`, amount: 100 }, now));
    p.set('total_amount', '0.01');
    if (junk) p.set('memo', junk);
    return p.toString();
  };
  const rowsFrom = (ip: string) => t.database.db.selectFrom('paymentNotifications').selectAll().where('ip', '=', ip).orderBy('id').execute();

  it('refuses notifications past the limit from one address with 429, in each gateway’s own protocol', async () => {
    const ip = '10.90.0.1';
    const replies = await Promise.all(Array.from({ length: 10 }, () => alipay(forged(), ip)));
    expect(replies.filter((r) => r.statusCode === 400)).toHaveLength(LIMIT);
    const refused = replies.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(10 - LIMIT);
    for (const r of refused) {
      expect(r.body).toBe('fail');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    const { orderNo, amount, payer, orderId } = await openOrder();
    const w = await wechat(wechatNotification(keys, { orderNo, tradeNo: 'W-LIMITED', amount }, now), ip);
    expect(w.statusCode).toBe(429);
    expect(w.json()).toEqual({ code: 'FAIL', message: '通知过于频繁，请稍后重试' });
    // Refused unread: even a genuine notification from that address changes nothing (the gateway resends later).
    const genuine = alipayNotification(keys, { orderNo, tradeNo: 'T-LIMITED', amount }, now);
    expect((await alipay(genuine, ip)).statusCode).toBe(429);
    expect(body(await payer.get(`/api/order/${orderId}`)).data).toMatchObject({ payStatus: 0, tradeNo: null });
    expect(await rowsFrom(ip)).toHaveLength(STORED);
    // From another address it is taken.
    const accepted = await alipay(genuine, '10.90.0.2');
    expect([accepted.statusCode, accepted.body]).toEqual([200, 'success']);
    expect(body(await payer.get(`/api/order/${orderId}`)).data).toMatchObject({ payStatus: 1, tradeNo: 'T-LIMITED' });
  });

  it('keeps a bounded number of notifications per address, each body bounded, but always those that pay', async () => {
    const ip = '10.91.0.1';
    const big = 'x'.repeat(60 * 1024);
    for (let i = 0; i < LIMIT - 1; i++) expect((await alipay(forged(big), ip)).statusCode).toBe(400);
    const rows = await rowsFrom(ip);
    expect(rows).toHaveLength(STORED);
    for (const r of rows) {
      expect(r.outcome).toBe('forged');
      expect(Buffer.byteLength(r.body!)).toBeLessThanOrEqual(BODY_MAX);
      expect(r.body).toMatch(/…\[已截断，原文共\d+字节\]$/);
    }
    expect(t.logs.some((l) => l.includes('"stored":false') && l.includes(ip))).toBe(true);
    // Past the stored quota, a notification that pays is still kept (and applied).
    const { orderNo, amount, payer, orderId } = await openOrder();
    const paid = await alipay(alipayNotification(keys, { orderNo, tradeNo: 'T-KEPT', amount }, now), ip);
    expect([paid.statusCode, paid.body]).toEqual([200, 'success']);
    expect(body(await payer.get(`/api/order/${orderId}`)).data).toMatchObject({ payStatus: 1, tradeNo: 'T-KEPT' });
    const after = await rowsFrom(ip);
    expect(after).toHaveLength(STORED + 1);
    expect(after.at(-1)).toMatchObject({ outcome: 'paid', orderNo, tradeNo: 'T-KEPT' });
    // Another address has a quota of its own.
    expect((await alipay(forged(), '10.91.0.2')).statusCode).toBe(400);
    expect(await rowsFrom('10.91.0.2')).toHaveLength(1);
  });

  it('cuts a stored body on a character boundary', async () => {
    const ip = '10.92.0.1';
    const n = wechatNotification(keys, { orderNo: 'NO-SUCH-ORDER', tradeNo: 'W-CUT', amount: 100 }, now);
    const res = await wechat({ ...n, body: n.body.replace('"summary":"支付成功"', `"summary":"${'支付成功'.repeat(800)}"`) }, ip);
    expect(res.statusCode).toBe(401);
    const [row] = await rowsFrom(ip);
    expect(Buffer.byteLength(row!.body!)).toBeLessThanOrEqual(BODY_MAX);
    expect(row!.body).not.toContain('\uFFFD');
    // Whole characters up to the cut, then the mark.
    expect(row!.body).toMatch(/^\{"id":.*[支付成功]…\[已截断，原文共\d+字节\]$/s);
  });
});
