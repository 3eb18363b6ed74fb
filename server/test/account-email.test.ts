import { FORGOT_ANSWER, SESSION_COOKIE } from '@contest/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDueJobs } from '../src/jobs/runner.ts';
import { EMAIL_TAKEN, LINK_INVALID, MAIL_OFF } from '../src/modules/users/account-links.ts';
import { DATABASES, body, createTestApp, loggedIn, registerUser, type Client, type TestApp } from './helpers.ts';
import { linkIn, startSmtp, textOf } from './smtp.ts';

/**
 * Issue 35, items 3 and 4 (email): an account proves its email by a link, and a forgotten password is reset by a link
 * sent to a proved address, without an administrator. The emails go through the outbox and a real SMTP server; the
 * tests read the links from what that server received, as a person reads their mailbox.
 */
describe.each(DATABASES)('links sent by email on %s', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  /** The app's clock runs this far ahead of the wall clock (links expire by it). */
  let ahead = 0;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, {
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'noreply@contest.test', PUBLIC_URL: 'https://contest.example.cn', REGISTER_MAX_PER_IP: '1000' },
      clock: { now: () => new Date(Date.now() + ahead) },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    ahead = 0;
  });

  let n = 0;
  /** A new participant with this email, logged in. */
  async function participant(email: string) {
    const username = `mail${kind[0]}${++n}${Date.now() % 100000}`;
    await registerUser(t.app, username, 'Passw0rd1', { email });
    return { username, client: await loggedIn(t.app, username) };
  }
  /** Delivers what the outbox holds and answers the emails that arrived for this address since `from`. */
  async function mailFor(address: string, from = 0) {
    await runDueJobs(t.deps);
    return smtp.received.slice(from).filter((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()));
  }
  const me = async (c: Client) => body(await c.get('/api/team/userinfo/')).data;
  const verifyBy = (token: string) => t.app.inject({ method: 'POST', url: '/api/account/email/verify', payload: { token } });
  /** Sends and opens a verification link for the client's email. */
  async function verified(c: Client, address: string) {
    const from = smtp.received.length;
    expect((await c.post('/api/account/email/verification', {})).statusCode).toBe(200);
    const [mail] = await mailFor(address, from);
    const res = await verifyBy(linkIn(mail!, '/verify-email').searchParams.get('token')!);
    expect(res.statusCode).toBe(200);
  }

  it('proves an email by a link to PUBLIC_URL, once, and the same address never for a second account', async () => {
    expect(body(await t.app.inject({ method: 'GET', url: '/api/auth/config' })).data.mailEnabled).toBe(true);
    const { client } = await participant('Li.Hua@Example.edu.cn');
    expect((await me(client)).emailVerified).toBe(false);
    const from = smtp.received.length;
    const sent = await client.post('/api/account/email/verification', {});
    expect(sent.statusCode).toBe(200);
    expect(body(sent).message).toContain('验证邮件已发送');
    // Within the minute, no second email.
    const again = await client.post('/api/account/email/verification', {});
    expect(again.statusCode).toBe(429);
    expect(body(again).message).toMatch(/请\d+分钟后再试/);

    const mails = await mailFor('Li.Hua@Example.edu.cn', from);
    expect(mails).toHaveLength(1);
    expect(textOf(mails[0]!)).toContain('24小时内有效');
    const link = linkIn(mails[0]!, '/verify-email');
    expect(link.origin).toBe('https://contest.example.cn');
    const token = link.searchParams.get('token')!;
    // Only its hash is stored.
    const stored = await t.database.db.selectFrom('accountTokens').select('tokenHash').execute();
    expect(stored.map((r) => r.tokenHash)).not.toContain(token);

    expect(body(await verifyBy(token)).message).toBe('邮箱验证成功');
    expect((await me(client)).emailVerified).toBe(true);
    const reused = await verifyBy(token);
    expect(reused.statusCode).toBe(400);
    expect(body(reused).message).toBe(LINK_INVALID);

    // Another account with the same address (in other letters' case) cannot prove it, nor even be sent a link.
    const other = await participant('li.hua@example.edu.cn');
    const refused = await other.client.post('/api/account/email/verification', {});
    expect(refused.statusCode).toBe(409);
    expect(body(refused).message).toBe(EMAIL_TAKEN);
    expect((await me(other.client)).emailVerified).toBe(false);
  });

  it('lets only the first of two accounts sent links for one address prove it, whatever the order of sending', async () => {
    const a = await participant('twin@example.edu.cn');
    const b = await participant('twin@example.edu.cn');
    const from = smtp.received.length;
    expect((await a.client.post('/api/account/email/verification', {})).statusCode).toBe(200);
    expect((await b.client.post('/api/account/email/verification', {})).statusCode).toBe(200);
    const [first, second] = await mailFor('twin@example.edu.cn', from);
    const tokenOf = (m: typeof first) => linkIn(m!, '/verify-email').searchParams.get('token')!;
    // Which email is whose does not matter: the first opened wins, the second is refused by the unique address.
    expect((await verifyBy(tokenOf(first))).statusCode).toBe(200);
    const late = await verifyBy(tokenOf(second));
    expect(late.statusCode).toBe(409);
    expect(body(late).message).toBe(EMAIL_TAKEN);
    const states = [(await me(a.client)).emailVerified, (await me(b.client)).emailVerified].sort();
    expect(states).toEqual([false, true]);
  });

  it('forgets a proved address when the account changes its email', async () => {
    const { client } = await participant('change@example.edu.cn');
    await verified(client, 'change@example.edu.cn');
    expect((await me(client)).emailVerified).toBe(true);
    expect((await client.put('/api/team/userinfo/', { email: 'changed@example.edu.cn' })).statusCode).toBe(200);
    expect((await me(client)).emailVerified).toBe(false);
    // The old address is free again for whoever proves it.
    const other = await participant('change@example.edu.cn');
    await verified(other.client, 'change@example.edu.cn');
    expect((await me(other.client)).emailVerified).toBe(true);
  });

  it('resets a forgotten password by a link sent to the proved address: once, and every session ends', async () => {
    const { username, client } = await participant('reset@example.edu.cn');
    await verified(client, 'reset@example.edu.cn');
    const phone = await loggedIn(t.app, username);

    const from = smtp.received.length;
    const asked = await t.app.inject({ method: 'POST', url: '/api/account/password/forgot', payload: { email: ' RESET@example.edu.cn ' } });
    expect(asked.statusCode).toBe(200);
    expect(body(asked).message).toBe(FORGOT_ANSWER);
    const [mail] = await mailFor('reset@example.edu.cn', from);
    expect(textOf(mail!)).toContain('15分钟内有效');
    const token = linkIn(mail!, '/reset-password').searchParams.get('token')!;
    const reset = (password: string, tok = token) => t.app.inject({ method: 'POST', url: '/api/account/password/reset', payload: { token: tok, password } });

    // A weak password is refused, and the link still works.
    const weak = await reset('123');
    expect(weak.statusCode).toBe(400);
    expect((await me(client)).username).toBe(username);

    const done = await reset('N3w-Passw0rd');
    expect(done.statusCode).toBe(200);
    expect(body(done).message).toContain('所有设备上的登录均已退出');
    // Both sessions ended; the old password no longer signs in, the new one does.
    expect(await me(client)).toBeNull();
    expect(await me(phone)).toBeNull();
    const login = (password: string) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    expect((await login('Passw0rd1')).statusCode).not.toBe(200);
    const signedIn = await login('N3w-Passw0rd');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.cookies.some((c) => c.name === SESSION_COOKIE && c.value)).toBe(true);
    // Once only.
    const reused = await reset('An0ther-Passw0rd');
    expect(reused.statusCode).toBe(400);
    expect(body(reused).message).toBe(LINK_INVALID);
  });

  it('answers alike for an unknown or unproved address and sends nothing, and lets a link die after 15 minutes', async () => {
    await participant('unproved@example.edu.cn');
    const from = smtp.received.length;
    for (const email of ['nobody-here@example.edu.cn', 'unproved@example.edu.cn']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/account/password/forgot', payload: { email } });
      expect(res.statusCode).toBe(200);
      expect(body(res).message).toBe(FORGOT_ANSWER);
    }
    await runDueJobs(t.deps);
    // (Other tests' messages may go out meanwhile, such as the word to an account whose password was reset.)
    const asked = ['nobody-here@example.edu.cn', 'unproved@example.edu.cn'];
    expect(smtp.received.slice(from).filter((m) => m.to.some((to) => asked.includes(to)))).toEqual([]);

    const { client } = await participant('late@example.edu.cn');
    await verified(client, 'late@example.edu.cn');
    const at = smtp.received.length;
    await t.app.inject({ method: 'POST', url: '/api/account/password/forgot', payload: { email: 'late@example.edu.cn' } });
    const [mail] = await mailFor('late@example.edu.cn', at);
    const token = linkIn(mail!, '/reset-password').searchParams.get('token')!;
    ahead = 15 * 60_000 + 1000;
    const res = await t.app.inject({ method: 'POST', url: '/api/account/password/reset', payload: { token, password: 'N3w-Passw0rd' } });
    expect(res.statusCode).toBe(400);
    expect(body(res).message).toBe(LINK_INVALID);
    expect(await me(client)).not.toBeNull();
  });

  it('limits reset requests per address (one a minute) and per caller (20 an hour) with the wait in Chinese', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/account/password/forgot',
      payload: { email: 'limit@example.edu.cn' },
      remoteAddress: '10.9.0.1',
    });
    expect(first.statusCode).toBe(200);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/account/password/forgot',
      payload: { email: 'limit@example.edu.cn' },
      remoteAddress: '10.9.0.2',
    });
    expect(second.statusCode).toBe(429);
    expect(body(second).message).toMatch(/^操作过于频繁，请\d+分钟后再试$/);
    for (let i = 0; i < 19; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/account/password/forgot',
        payload: { email: `many${i}@example.edu.cn` },
        remoteAddress: '10.9.0.3',
      });
      expect(res.statusCode).toBe(200);
    }
    const past = await t.app.inject({
      method: 'POST',
      url: '/api/account/password/forgot',
      payload: { email: 'many-last@example.edu.cn' },
      remoteAddress: '10.9.0.3',
    });
    expect(past.statusCode).toBe(200);
    const over = await t.app.inject({
      method: 'POST',
      url: '/api/account/password/forgot',
      payload: { email: 'many-over@example.edu.cn' },
      remoteAddress: '10.9.0.3',
    });
    expect(over.statusCode).toBe(429);
  });
});

describe('links sent by email without a mail server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('says so to the pages, and refuses to send a link that could never arrive (409), queueing nothing', async () => {
    expect(body(await t.app.inject({ method: 'GET', url: '/api/auth/config' })).data.mailEnabled).toBe(false);
    await registerUser(t.app, 'nomail', 'Passw0rd1', { email: 'nomail@example.edu.cn' });
    const c = await loggedIn(t.app, 'nomail');
    const sent = await c.post('/api/account/email/verification', {});
    expect(sent.statusCode).toBe(409);
    expect(body(sent).message).toBe(MAIL_OFF);
    const forgot = await t.app.inject({ method: 'POST', url: '/api/account/password/forgot', payload: { email: 'nomail@example.edu.cn' } });
    expect(forgot.statusCode).toBe(409);
    expect(await t.database.db.selectFrom('outboxMessages').select('id').execute()).toEqual([]);
    expect(await t.database.db.selectFrom('accountTokens').select('id').execute()).toEqual([]);
  });
});
