import { SMS_CODE_ANSWER, SMS_CODE_SENT, SMS_CODE_WRONG } from '@contest/shared';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALTCHA_FAILED, ALTCHA_USED } from '../src/crypto/altcha.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { memoryRateLimiter } from '../src/limits/rate-limiter.ts';
import { PHONE_TAKEN, TOO_MANY_TRIES } from '../src/modules/users/phone-codes.ts';
import { ADMIN_PASSWORD, Client, DATABASES, body, createTestApp, loggedIn, registerUser, type TestApp } from './helpers.ts';

/**
 * Issue 35, items 2 to 4 (SMS): texts go through the providers' own SDKs (Aliyun and Tencent Cloud) to the simulator,
 * which checks their signatures as the providers do; codes need a solved ALTCHA, are limited per phone and address,
 * die after 10 minutes or 5 tries, are stored as keyed hashes; they sign people up and in, reset a forgotten password
 * (revoking every session) and prove a phone, which then belongs to one account only. The tests read each code from
 * what the simulator received, as a person reads their phone.
 */
describe.each(DATABASES)('text messages on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  /** The app's clock (and its limiter's) runs this far ahead of the wall clock. */
  let ahead = 0;
  const now = () => Date.now() + ahead;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: { SMS_SIMULATOR: '1', REGISTER_MAX_PER_IP: '1000', SMS_CODES_PER_IP_HOUR: '1000' },
      clock: { now: () => new Date(now()) },
      limiter: memoryRateLimiter(now),
    });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    // Every test starts a day later: no limit of another test's phone or address carries over.
    ahead += 25 * 3600_000;
  });

  async function configure(provider: 'aliyun' | 'tencent', secret?: string) {
    const sim = body(await admin.get('/api/system/sms/config')).data.simulator;
    const keys =
      provider === 'aliyun'
        ? { accessKeyId: sim.aliyun.accessKeyId, accessKeySecret: secret ?? sim.aliyun.accessKeySecret }
        : { accessKeyId: sim.tencent.secretId, accessKeySecret: secret ?? sim.tencent.secretKey, sdkAppId: sim.tencent.sdkAppId };
    const templates =
      provider === 'aliyun' ? { code: 'SMS_100001', notice: 'SMS_100002', reminder: 'SMS_100003' } : { code: '100001', notice: '100002', reminder: '100003' };
    const res = await admin.put('/api/system/sms/config', { provider, enable: true, signName: '竞赛平台', templates, ...keys });
    expect(res.statusCode).toBe(200);
  }

  /** A solved ALTCHA challenge, as the browser sends it. */
  async function altcha(client: Client = new Client(t.app)) {
    const challenge = body(await client.get('/api/auth/altcha')).data;
    const solution = await solveChallenge({ challenge, deriveKey });
    expect(solution).not.toBeNull();
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }
  /** Delivers the outbox and answers the texts the simulator received for this number, newest first. */
  async function textsTo(phone: string) {
    await runDueJobs(t.deps);
    const rows = await t.database.db.selectFrom('smsSimulatorMessages').selectAll().orderBy('id', 'desc').execute();
    return rows.filter((r) => r.phone.replace(/^\+86/, '') === phone).map((r) => JSON.parse(r.paramsJson) as Record<string, string> | string[]);
  }
  const codeOf = (params: Record<string, string> | string[]) => (Array.isArray(params) ? params[0]! : params.code!);
  async function askCode(phone: string, purpose: 'login' | 'reset', client = new Client(t.app)) {
    return client.post('/api/auth/sms/code', { phone, purpose, altcha: await altcha(client) });
  }
  async function latestCode(phone: string) {
    const [params] = await textsTo(phone);
    expect(params).toBeDefined();
    return codeOf(params!);
  }
  let n = 0;
  const newPhone = () => `139${String(kind === 'sqlite' ? 1 : 2)}${String(Date.now() % 10000).padStart(4, '0')}${String(++n).padStart(3, '0')}`;

  it('sends through both providers’ SDKs to the simulator, which checks their signatures', async () => {
    await configure('aliyun');
    const phone = newPhone();
    const sent = await admin.post('/api/system/sms/test', { phone });
    expect(sent.statusCode).toBe(200);
    expect(body(sent).data.providerMessageId).toMatch(/\^0$/);
    expect(await textsTo(phone)).toEqual([{ code: '123456', minutes: '10' }]);
    expect(body(await t.app.inject({ method: 'GET', url: '/api/auth/config' })).data.smsEnabled).toBe(true);

    // A wrong secret: the simulator's signature check refuses, with Aliyun's own code.
    await configure('aliyun', 'not-the-secret');
    const refused = await admin.post('/api/system/sms/test', { phone });
    expect(refused.statusCode).toBe(400);
    expect(body(refused).message).toContain('SignatureDoesNotMatch');

    await configure('tencent');
    const viaTencent = await admin.post('/api/system/sms/test', { phone });
    expect(viaTencent.statusCode).toBe(200);
    const rows = await t.database.db.selectFrom('smsSimulatorMessages').selectAll().orderBy('id', 'desc').limit(1).execute();
    expect(rows[0]).toMatchObject({ provider: 'tencent', phone: `+86${phone}`, signName: '竞赛平台', template: '100001' });
    expect(JSON.parse(rows[0]!.paramsJson)).toEqual(['123456', '10']);
    await configure('tencent', 'wrong');
    expect(body(await admin.post('/api/system/sms/test', { phone })).message).toContain('AuthFailure.SignatureFailure');

    // The page shows what was sent; the secret never leaves the server.
    const page = await t.app.inject({ method: 'GET', url: '/simulator/sms' });
    expect(page.body).toContain(phone);
    const view = body(await admin.get('/api/system/sms/config')).data;
    expect(view.accessKeySecret).toMatch(/^已设置（…/);
    // Only an administrator with the code reads or changes the configuration.
    const outsider = await loggedIn(t.app, (await registerUser(t.app, `smsout${kind}${Date.now() % 1e6}`)).username);
    expect((await outsider.get('/api/system/sms/config')).statusCode).toBe(403);
    expect((await outsider.post('/api/system/sms/test', { phone })).statusCode).toBe(403);
  });

  it('signs up and in by code; a code is hashed at rest, dies after 5 tries, 10 minutes, or one use', async () => {
    await configure('aliyun');
    const phone = newPhone();
    const asked = await askCode(phone, 'login');
    expect(asked.statusCode).toBe(200);
    expect(body(asked).message).toBe(SMS_CODE_SENT);
    const code = await latestCode(phone);
    const stored = await t.database.db.selectFrom('phoneCodes').select(['codeHash']).where('phone', '=', phone).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.codeHash).not.toContain(code);
    expect(stored[0]!.codeHash).not.toBe(createHash('sha256').update(code).digest('hex'));
    // The outbox keeps the text's parameters sealed, and once sent the code is masked.
    const msg = await t.database.db.selectFrom('outboxMessages').selectAll().where('recipient', '=', phone).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(msg.state).toBe('sent');
    expect(msg.body).not.toContain(code);
    expect(t.deps.cipher.decrypt(msg.body)).toContain('******');

    const wrong = code === '000000' ? '111111' : '000000';
    const login = (c: string, client = new Client(t.app)) => client.post('/api/auth/sms/login', { phone, code: c });
    for (let i = 1; i <= 4; i++) expect(body(await login(wrong)).message).toBe(`验证码错误，还可尝试${5 - i}次`);
    expect(body(await login(wrong)).message).toBe(TOO_MANY_TRIES);
    // Dead after five tries, even the right code.
    expect(body(await login(code)).message).toBe(TOO_MANY_TRIES);

    ahead += 61_000;
    await askCode(phone, 'login');
    const second = await latestCode(phone);
    const client = new Client(t.app);
    const signedUp = await login(second, client);
    expect(signedUp.statusCode).toBe(200);
    expect(body(signedUp).data.created).toBe(true);
    const me = body(await client.get('/api/team/userinfo/')).data;
    expect(me.username).toMatch(/^手机用户_/);
    expect(me).toMatchObject({ phone, phoneVerified: true, hasPassword: false });
    // Used once.
    expect(body(await login(second)).message).toBe(SMS_CODE_WRONG);

    // A first password, then the password form works too.
    expect((await client.post('/api/account/password/set', { password: 'Sms-Passw0rd' })).statusCode).toBe(200);
    expect((await client.post('/api/account/password/set', { password: 'Sms-Passw0rd2' })).statusCode).toBe(409);
    await loggedIn(t.app, me.username, 'Sms-Passw0rd');

    // Next time the same phone signs in to the same account; a code 10 minutes old is dead.
    ahead += 61_000;
    await askCode(phone, 'login');
    const third = await latestCode(phone);
    ahead += 10 * 60_000 + 1000;
    expect(body(await login(third)).message).toBe(SMS_CODE_WRONG);
    await askCode(phone, 'login');
    const again = await login(await latestCode(phone));
    expect(body(again).data).toMatchObject({ created: false, user: { username: me.username } });
  });

  it('limits codes to 1 a minute and 10 a day per phone, answering 429 with the wait; a proof of work is good once', async () => {
    await configure('tencent');
    const phone = newPhone();
    expect((await askCode(phone, 'login')).statusCode).toBe(200);
    const soon = await askCode(phone, 'login');
    expect(soon.statusCode).toBe(429);
    expect(body(soon).message).toMatch(/^验证码发送过于频繁，请\d+秒后再试$/);
    for (let i = 2; i <= 10; i++) {
      ahead += 61_000;
      expect((await askCode(phone, 'login')).statusCode).toBe(200);
    }
    ahead += 61_000;
    const eleventh = await askCode(phone, 'login');
    expect(eleventh.statusCode).toBe(429);
    expect(body(eleventh).message).toMatch(/^该手机号今天获取验证码的次数已达上限，请\d+小时后再试$/);
    expect(await textsTo(phone)).toHaveLength(10);
    // Only the newest code is live.
    const live = await t.database.db.selectFrom('phoneCodes').select('id').where('phone', '=', phone).where('usedAt', 'is', null).execute();
    expect(live).toHaveLength(1);

    const other = newPhone();
    const client = new Client(t.app);
    const proof = await altcha(client);
    expect((await client.post('/api/auth/sms/code', { phone: other, purpose: 'login', altcha: proof })).statusCode).toBe(200);
    ahead += 61_000;
    const replay = await client.post('/api/auth/sms/code', { phone: other, purpose: 'login', altcha: proof });
    expect(replay.statusCode).toBe(400);
    expect(body(replay).message).toBe(ALTCHA_USED);
    for (const bad of [
      '',
      'bm90IGpzb24=',
      Buffer.from(JSON.stringify({ challenge: { parameters: {} }, solution: { counter: 1, derivedKey: 'ab' } })).toString('base64'),
    ]) {
      const res = await client.post('/api/auth/sms/code', { phone: other, purpose: 'login', altcha: bad });
      expect(res.statusCode).toBe(400);
      expect(body(res).message).toMatch(bad ? ALTCHA_FAILED : /安全验证/);
    }
    expect(await textsTo(other)).toHaveLength(1);
  });

  it('resets a forgotten password by code, revoking every session, and answers alike for a phone with no account', async () => {
    await configure('aliyun');
    const phone = newPhone();
    const username = `smsreset${kind}${Date.now() % 1e6}`;
    await registerUser(t.app, username, 'Passw0rd1', { phone });
    const laptop = await loggedIn(t.app, username);
    const phoneApp = await loggedIn(t.app, username);
    // The phone typed at registration is not proved: no code goes to it.
    expect(body(await askCode(phone, 'reset')).message).toBe(SMS_CODE_ANSWER);
    expect(await textsTo(phone)).toHaveLength(0);

    // Proved from the user centre, then 忘记密码 sends a code.
    ahead += 61_000;
    const proof = await altcha(laptop);
    expect((await laptop.post('/api/account/phone/code', { phone, altcha: proof })).statusCode).toBe(200);
    expect((await laptop.post('/api/account/phone/verify', { phone, code: await latestCode(phone) })).statusCode).toBe(200);
    expect(body(await laptop.get('/api/team/userinfo/')).data.phoneVerified).toBe(true);
    ahead += 61_000;
    expect(body(await askCode(phone, 'reset')).message).toBe(SMS_CODE_ANSWER);
    const code = await latestCode(phone);
    const weak = await t.app.inject({ method: 'POST', url: '/api/account/password/reset/sms', payload: { phone, code, password: 'short' } });
    expect(weak.statusCode).toBe(400);
    const reset = await t.app.inject({ method: 'POST', url: '/api/account/password/reset/sms', payload: { phone, code, password: 'N3w-Passw0rd' } });
    expect(reset.statusCode).toBe(200);
    for (const c of [laptop, phoneApp]) expect((await c.get('/api/auth/sessions')).statusCode).toBe(401);
    await loggedIn(t.app, username, 'N3w-Passw0rd');
    expect((await new Client(t.app).post('/api/auth/login', { username, password: 'Passw0rd1' })).statusCode).toBe(400);
    // The code was used by the reset.
    const twice = await t.app.inject({ method: 'POST', url: '/api/account/password/reset/sms', payload: { phone, code, password: 'An0ther-Passw0rd' } });
    expect(body(twice).message).toBe(SMS_CODE_WRONG);

    // A phone no account proved: the same answer, no text.
    const nobody = newPhone();
    expect(body(await askCode(nobody, 'reset')).message).toBe(SMS_CODE_ANSWER);
    expect(await textsTo(nobody)).toHaveLength(0);
  });

  it('lets one phone verify one account only, however it is written', async () => {
    await configure('aliyun');
    const phone = newPhone();
    const first = await loggedIn(t.app, (await registerUser(t.app, `smsa${kind}${Date.now() % 1e6}`)).username);
    const second = await loggedIn(t.app, (await registerUser(t.app, `smsb${kind}${Date.now() % 1e6}`)).username);
    expect((await first.post('/api/account/phone/code', { phone: `+86${phone}`, altcha: await altcha(first) })).statusCode).toBe(200);
    // Asked in one form, proved in the other: one number.
    expect((await first.post('/api/account/phone/verify', { phone, code: await latestCode(phone) })).statusCode).toBe(200);
    for (const written of [phone, `+86${phone}`]) {
      const taken = await second.post('/api/account/phone/code', { phone: written, altcha: await altcha(second) });
      expect(taken.statusCode).toBe(409);
      expect(body(taken).message).toBe(PHONE_TAKEN);
    }
    // Signing in by code reaches the account that proved it, not a new one.
    ahead += 61_000;
    await askCode(phone, 'login');
    const signedIn = await new Client(t.app).post('/api/auth/sms/login', { phone, code: await latestCode(phone) });
    expect(body(signedIn).data.created).toBe(false);
    expect(body(signedIn).data.user.userId).toBe(body(await first.get('/api/team/userinfo/')).data.userId);
  });

  it('records a text the operator refuses as bounced, with the provider’s reason', async () => {
    await configure('aliyun');
    const refused = '14000001234';
    expect((await askCode(refused, 'login')).statusCode).toBe(200);
    await runDueJobs(t.deps);
    const msg = await t.database.db.selectFrom('outboxMessages').selectAll().where('recipient', '=', refused).executeTakeFirstOrThrow();
    expect(msg).toMatchObject({ state: 'bounced', channel: 'sms' });
    expect(msg.error).toContain('isv.MOBILE_NUMBER_ILLEGAL');
  });
});
