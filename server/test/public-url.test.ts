import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorKeys } from '../src/payments/simulator.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  REG_INFO,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
} from './helpers.ts';

/**
 * In production the platform's public address comes from PUBLIC_URL only, never from a request's Host header: without
 * it, paying through a gateway (whose notifications must come back to us) and generating certificates (whose QR codes
 * lead to our verification page) are refused with a clear message, and nothing is changed. Outside production the
 * request's origin remains a development fallback.
 */

const NO_PUBLIC_URL = (action: string) => `平台未配置对外访问地址（PUBLIC_URL），暂不能${action}，请联系管理员`;

/** A stand-in for the gateways: records what it is asked, and answers nonsense (so a payment request fails with 502). */
async function recordingGateway() {
  const requests: { url: string; body: string }[] = [];
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    requests.push({ url: req.url!, body: raw });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** The notify_url each payment request gave the gateway. */
    notifyUrls: () =>
      requests.map((r) => (r.body.startsWith('{') ? (JSON.parse(r.body) as { notify_url: string }).notify_url : new URLSearchParams(r.body).get('notify_url'))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(DATABASES)('the public address on %s', (kind) => {
  let gateway: Awaited<ReturnType<typeof recordingGateway>>;
  const apps: TestApp[] = [];
  const now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    gateway = await recordingGateway();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await gateway.close();
  });

  /** A platform with both gateways configured, an open order of a participant, and a question of the organiser. */
  async function platform(env: Record<string, string>) {
    const t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365), ...env } });
    apps.push(t);
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    const organiser = await makeOrganiser(t, admin, 'urlorg', '地址大学');
    const competitionId = await onlineCompetition(admin, organiser, { fee: 9900 });
    const keys = simulatorKeys(t.config.dataDir);
    const a = keys.alipay;
    const w = keys.wechat;
    const configured = [
      await admin.put('/api/payment/config/2', {
        enable: true,
        appId: a.appId,
        sellerId: a.sellerId,
        gatewayUrl: `${gateway.url}/gateway.do`,
        appPrivateKey: a.appPrivateKey,
        alipayPublicKey: a.platformPublicKey,
      }),
      await admin.put('/api/payment/config/1', {
        enable: true,
        appId: w.appId,
        mchId: w.mchId,
        serialNo: w.serialNo,
        apiBase: gateway.url,
        privateKey: w.privateKey,
        apiV3Key: w.apiV3Key,
        platformSerial: w.platformSerial,
        platformPublicKey: w.platformPublicKey,
      }),
    ];
    for (const res of configured) expect(res.statusCode, res.body).toBe(200);
    await registerUser(t.app, 'urlpayer');
    const payer = await loggedIn(t.app, 'urlpayer');
    const reg = await payer.post(`/api/team/register/${competitionId}`, { teamName: '地址队', info: REG_INFO });
    expect(reg.statusCode, reg.body).toBe(200);
    const question = await organiser.post(`/api/competition/question/${competitionId}`, {
      title: '地址题',
      evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 5 },
    });
    expect(question.statusCode, question.body).toBe(200);
    return { t, payer, organiser, orderId: body(reg).data.orderId as number, questionId: body(question).data.id as number };
  }

  /** Asks to pay as a browser that reached the server under `host`. */
  const pay = (payer: Client, orderId: number, method: number, host: string) =>
    payer.request({ method: 'POST', url: `/api/payment/pay/${orderId}`, payload: { method }, headers: { host } });
  const push = (organiser: Client, questionId: number, host: string) =>
    organiser.request({ method: 'POST', url: `/api/review/certificate/cert/push/${questionId}`, headers: { host } });
  const count = async (t: TestApp, table: 'jobs' | 'certificateRuns') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses gateway payments and certificates in production without PUBLIC_URL, whatever Host the request names, changing nothing', async () => {
    const { t, payer, organiser, orderId, questionId } = await platform({ NODE_ENV: 'production', SECRET_KEY: randomBytes(32).toString('hex') });
    expect(t.config.production).toBe(true);
    const asked = gateway.requests.length;
    for (const method of [1, 2]) {
      for (const host of ['evil.example', 'localhost:3000']) {
        const res = await pay(payer, orderId, method, host);
        expect(res.statusCode).toBe(503);
        expect(body(res)).toEqual({ status: 503, message: NO_PUBLIC_URL('在线支付'), data: null });
      }
    }
    // No gateway was asked anything, and the order is as it was.
    expect(gateway.requests.length).toBe(asked);
    expect(body(await payer.get(`/api/order/${orderId}`)).data).toMatchObject({ payStatus: 0, payMethod: null, tradeNo: null });

    const [jobs, runs] = [await count(t, 'jobs'), await count(t, 'certificateRuns')];
    const res = await push(organiser, questionId, 'evil.example');
    expect(res.statusCode).toBe(503);
    expect(body(res).message).toBe(NO_PUBLIC_URL('生成证书'));
    expect([await count(t, 'jobs'), await count(t, 'certificateRuns')]).toEqual([jobs, runs]);
    // Access rules still come first: a participant is refused as before, not told about the configuration.
    expect((await push(payer, questionId, 'evil.example')).statusCode).toBe(403);
  });

  it('gives the gateway PUBLIC_URL in production, never the Host the request names', async () => {
    const { payer, organiser, orderId, questionId } = await platform({
      NODE_ENV: 'production',
      SECRET_KEY: randomBytes(32).toString('hex'),
      PUBLIC_URL: 'https://contest.example.edu.cn/',
    });
    const from = gateway.requests.length;
    for (const method of [2, 1]) {
      const res = await pay(payer, orderId, method, 'evil.example');
      // The stand-in gateway answers nonsense: the request went out, and failed there.
      expect([res.statusCode, body(res).message]).toEqual([502, '支付渠道暂时不可用，请稍后重试或选择其他支付方式']);
    }
    expect(gateway.notifyUrls().slice(from)).toEqual([
      'https://contest.example.edu.cn/api/payment/notify/alipay',
      'https://contest.example.edu.cn/api/payment/notify/wechat',
    ]);
    // Certificates get past the address check (and stop at the next one: grades are not confirmed).
    expect(body(await push(organiser, questionId, 'evil.example'))).toMatchObject({ status: 409, message: '请先确认成绩' });
  });

  it('falls back to the request’s origin outside production', async () => {
    const { t, payer, organiser, orderId, questionId } = await platform({});
    expect(t.config.production).toBe(false);
    const from = gateway.requests.length;
    expect((await pay(payer, orderId, 2, 'dev.example:8080')).statusCode).toBe(502);
    expect(gateway.notifyUrls().slice(from)).toEqual(['http://dev.example:8080/api/payment/notify/alipay']);
    expect(body(await push(organiser, questionId, 'dev.example:8080'))).toMatchObject({ status: 409, message: '请先确认成绩' });
  });
});
