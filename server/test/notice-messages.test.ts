import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../src/jobs/runner.ts';
import { notify } from '../src/modules/notices/index.ts';
import { drain, queueForUsers } from '../src/modules/outbox/index.ts';
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
import { startSmtp, textOf } from './smtp.ts';

/**
 * Issue 35, item 7 (notices that reach people): an organiser's notice may go by email and SMS too; the back office
 * tells how many each channel will reach before sending and how the messages stand after; people who turned a kind
 * off, or have no verified address, get none; every email carries a one-click unsubscribe link (and the RFC 8058
 * header) that works without logging in; and messages to many are delivered an organisation at a time, so one
 * organisation's flood does not hold another's back.
 */
describe.each(DATABASES)('notices by email and SMS on %s', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  let admin: Client;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, {
      // Within the test competitions' registration window.
      clock: { now: () => new Date('2026-03-20T10:00:00+08:00') },
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'noreply@contest.test', PUBLIC_URL: 'https://contest.example.cn', REGISTER_MAX_PER_IP: '1000', SMS_SIMULATOR: '1' },
    });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    const sim = body(await admin.get('/api/system/sms/config')).data.simulator;
    await admin.put('/api/system/sms/config', {
      provider: 'aliyun',
      enable: true,
      accessKeyId: sim.aliyun.accessKeyId,
      accessKeySecret: sim.aliyun.accessKeySecret,
      signName: '竞赛平台',
      templates: { code: 'SMS_1', notice: 'SMS_2', reminder: 'SMS_3' },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  /** Marks an address proved, as the links and codes of sms.test.ts and account-email.test.ts do. */
  const prove = (userId: number, v: { email?: string; phone?: string }) =>
    t.database.db
      .updateTable('users')
      .set({ ...(v.email && { email: v.email, verifiedEmail: v.email }), ...(v.phone && { phone: v.phone, verifiedPhone: v.phone }) })
      .where('id', '=', userId)
      .execute();
  const texts = async () =>
    (await t.database.db.selectFrom('smsSimulatorMessages').selectAll().execute()).map((r) => ({ phone: r.phone, params: JSON.parse(r.paramsJson) }));

  it('sends a notice by email and SMS to those who take them, counted before, tracked after, with one-click unsubscribing', async () => {
    const org = await makeOrganiser(t, admin, `nm${kind}org`, `消息大学${kind}`);
    const competitionId = await onlineCompetition(admin, org);
    const people: Record<string, { id: number; client: Client }> = {};
    for (const who of ['both', 'mailOnly', 'phoneOnly', 'none', 'optedOut']) {
      const username = `nm${kind}${who}`;
      const { id } = await registerUser(t.app, username);
      const client = await loggedIn(t.app, username);
      expect((await client.post(`/api/team/register/${competitionId}`, { teamName: `消息${who}队`, info: REG_INFO })).statusCode).toBe(200);
      people[who] = { id, client };
    }
    const n = kind === 'sqlite' ? 1 : 2;
    await prove(people.both!.id, { email: `both${n}@example.edu.cn`, phone: `1380000${n}001` });
    await prove(people.mailOnly!.id, { email: `mail${n}@example.edu.cn` });
    await prove(people.phoneOnly!.id, { phone: `1380000${n}002` });
    await prove(people.optedOut!.id, { email: `out${n}@example.edu.cn`, phone: `1380000${n}003` });
    // Preferences: notices by email off, by SMS on.
    const prefs = body(await people.optedOut!.client.get('/api/account/message-preferences')).data;
    expect(prefs).toMatchObject({ emailVerified: true, phoneVerified: true });
    expect(prefs.kinds.every((k: { email: boolean; sms: boolean }) => k.email && k.sms)).toBe(true);
    const saved = await people.optedOut!.client.put('/api/account/message-preferences', { kinds: [{ kind: 'notice', email: false, sms: true }] });
    expect(body(saved).data.kinds.find((k: { kind: string }) => k.kind === 'notice')).toEqual({ kind: 'notice', email: false, sms: true });

    const target = { scope: 'competition', competitionId };
    expect(body(await org.post('/api/message/notice/recipients', { target })).data).toEqual({ count: 5, emails: 2, texts: 3 });
    const created = body(
      await org.post('/api/message/notice', {
        kind: 0,
        title: '初赛提交提醒',
        content: '<p>请于<b>周五</b>前提交 &amp; 检查</p>',
        target,
        channels: { email: true, sms: true },
      }),
    ).data;
    expect(created.channels).toEqual({ email: true, sms: true });
    const from = smtp.received.length;
    expect((await org.post(`/api/message/notice/${created.id}`, {})).statusCode).toBe(200);
    await runDueJobs(t.deps);

    const mails = smtp.received.slice(from);
    expect(mails.map((m) => m.to[0]).sort()).toEqual([`both${n}@example.edu.cn`, `mail${n}@example.edu.cn`]);
    const mail = mails.find((m) => m.to[0] === `mail${n}@example.edu.cn`)!;
    const text = textOf(mail);
    expect(text).toContain('请于周五前提交 & 检查');
    expect(text).toContain('https://contest.example.cn/message');
    // Headers as a reader unfolds them.
    const headersOf = (raw: string) => raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ');
    expect(headersOf(mail.raw)).toMatch(/^List-Unsubscribe: <https:\/\/contest\.example\.cn\/api\/account\/unsubscribe\?token=/m);
    expect(headersOf(mail.raw)).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    const link = new URL(/https:\/\/contest\.example\.cn\/unsubscribe\?token=\S+/.exec(text)![0]);
    const sent = await texts();
    expect(
      sent
        .filter((s) => s.params.title === '初赛提交提醒')
        .map((s) => s.phone)
        .sort(),
    ).toEqual([`1380000${n}001`, `1380000${n}002`, `1380000${n}003`]);

    // What the sender sees.
    const listed = body(await org.get('/api/message/notice/page?page=1&limit=20')).data.list.find((x: { id: number }) => x.id === created.id);
    expect(listed.messages).toEqual({ email: { queued: 0, sent: 2, failed: 0 }, sms: { queued: 0, sent: 3, failed: 0 } });

    // One click, no login: that kind on that channel is off; a forged token changes nothing.
    const token = link.searchParams.get('token')!;
    const forged = token.replace(/^\d+/, String(people.both!.id));
    expect((await t.app.inject({ method: 'POST', url: '/api/account/unsubscribe', payload: { token: forged } })).statusCode).toBe(400);
    const done = await t.app.inject({ method: 'POST', url: '/api/account/unsubscribe', payload: { token } });
    expect(body(done).message).toBe('已退订竞赛通知邮件');
    const mine = body(await people.mailOnly!.client.get('/api/account/message-preferences')).data.kinds;
    expect(mine.find((k: { kind: string }) => k.kind === 'notice')).toEqual({ kind: 'notice', email: false, sms: true });
    expect(mine.find((k: { kind: string }) => k.kind === 'reminder')).toEqual({ kind: 'reminder', email: true, sms: true });
    // A mail client's one-click POST (RFC 8058), to the header's address.
    const header = /^List-Unsubscribe: <([^>]+)>/m.exec(headersOf(mails.find((m) => m.to[0] === `both${n}@example.edu.cn`)!.raw))![1]!;
    const oneClick = await t.app.inject({
      method: 'POST',
      url: new URL(header).pathname + new URL(header).search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(body(await org.post('/api/message/notice/recipients', { target })).data).toEqual({ count: 5, emails: 0, texts: 3 });
  });

  it('sends results (grades published, certificates) by email and SMS to those who take them, and not to those who turned them off', async () => {
    const takers: number[] = [];
    for (const who of ['takes', 'declines']) {
      const username = `cert${kind}${who}`;
      const { id } = await registerUser(t.app, username);
      await prove(id, { email: `cert${who}@example.edu.cn`, phone: who === 'takes' ? '13800009001' : '13800009002' });
      if (who === 'declines') {
        const client = await loggedIn(t.app, username);
        await client.put('/api/account/message-preferences', { kinds: [{ kind: 'result', email: false, sms: false }] });
      }
      takers.push(id);
    }
    const from = smtp.received.length;
    await notify(t.deps, takers, { title: '获奖证书已生成', content: '可在“我的证书”页面下载。', source: 'certificate.ready' });
    await runDueJobs(t.deps);
    expect(smtp.received.slice(from).map((m) => m.to[0])).toEqual(['certtakes@example.edu.cn']);
    expect((await texts()).filter((x) => x.params.title === '获奖证书已生成').map((x) => x.phone)).toEqual(['13800009001']);
    // Grades published, and a registration's review, are results too.
    await notify(t.deps, takers, { title: '成绩已公布', content: '可在“我的成绩”页面查看。', source: 'grade.published' });
    await notify(t.deps, takers, { title: '报名审核通过', content: 'x', source: 'register.approved' });
    await runDueJobs(t.deps);
    // (Sent in either order: each is its own message in the outbox.)
    expect(
      smtp.received
        .slice(from + 1)
        .map((m) => [m.to[0], textOfSubject(/^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '')])
        .sort(),
    ).toEqual(
      [
        ['certtakes@example.edu.cn', '成绩已公布'],
        ['certtakes@example.edu.cn', '报名审核通过'],
      ].sort(),
    );
    expect((await texts()).filter((x) => x.params.title === '成绩已公布').map((x) => x.phone)).toEqual(['13800009001']);
    // An automatic message of another kind stays in-app.
    await notify(t.deps, takers, { title: '订单已支付', content: 'x', source: 'order.paid' });
    await runDueJobs(t.deps);
    expect(smtp.received.length).toBe(from + 3);
  });

  it('tells an account its password changed, by email and SMS unless turned off under 账号与实名认证', async () => {
    const username = `pw${kind}owner`;
    const { id } = await registerUser(t.app, username);
    await prove(id, { email: `pw${kind}@example.edu.cn`, phone: '13800009011' });
    const client = await loggedIn(t.app, username);
    const from = smtp.received.length;
    expect((await client.put('/api/auth/password', { oldPassword: 'Passw0rd1', newPassword: 'Passw0rd9' })).statusCode).toBe(200);
    await runDueJobs(t.deps);
    const mails = smtp.received.slice(from).filter((m) => m.to[0] === `pw${kind}@example.edu.cn`);
    expect(mails.map((m) => textOfSubject(/^Subject: (.*)$/m.exec(m.raw)?.[1] ?? ''))).toEqual(['账号密码已修改']);
    expect((await texts()).filter((x) => x.phone === '13800009011').map((x) => x.params.title)).toEqual(['账号密码已修改']);
    const box = body(await client.get('/api/message/notice/page/1?page=1&limit=10')).data.list as { title: string }[];
    expect(box.map((m) => m.title)).toContain('账号密码已修改');
    // Turned off, the next change is told in-app only.
    await client.put('/api/account/message-preferences', { kinds: [{ kind: 'account', email: false, sms: false }] });
    expect((await client.put('/api/auth/password', { oldPassword: 'Passw0rd9', newPassword: 'Passw0rd8' })).statusCode).toBe(200);
    await runDueJobs(t.deps);
    expect(smtp.received.slice(from).filter((m) => m.to[0] === `pw${kind}@example.edu.cn`)).toHaveLength(1);
    const again = body(await client.get('/api/message/notice/page/1?page=1&limit=10')).data.list as { title: string }[];
    expect(again.filter((m) => m.title === '账号密码已修改')).toHaveLength(2);
  });

  it('delivers messages to many an organisation at a time: a flood does not hold another organisation back', async () => {
    const users: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { id } = await registerUser(t.app, `fair${kind}${i}`);
      await prove(id, { email: `fair${kind}${i}@example.edu.cn` });
      users.push(id);
    }
    const [orgA, orgB] = await Promise.all([
      t.database.db
        .insertInto('organisations')
        .values({ name: `洪水大学${kind}`, kind: 'school', createdAt: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow(),
      t.database.db
        .insertInto('organisations')
        .values({ name: `小学校${kind}`, kind: 'school', createdAt: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow(),
    ]);
    const now = t.deps.clock.now();
    // Organisation A floods: 40 messages (six users, several notices); B then queues one.
    for (let k = 0; k < 7; k++)
      await queueForUsers(t.database.db, now, {
        channel: 'email',
        kind: 'notice',
        userIds: users,
        email: { subject: `洪水${k}`, text: 'x' },
        key: `flood${kind}:${k}`,
        orgId: orgA.id,
      });
    await queueForUsers(t.database.db, now, {
      channel: 'email',
      kind: 'notice',
      userIds: users.slice(0, 1),
      email: { subject: '小学校通知', text: 'y' },
      key: `small${kind}`,
      orgId: orgB.id,
    });
    const from = smtp.received.length;
    // One turn of each organisation: A's first 20, then B's one, before A's next 20.
    await drain(t.deps);
    const order = smtp.received.slice(from).map((m) => textOfSubject(/^Subject: (.*)$/m.exec(m.raw)?.[1] ?? ''));
    const small = order.indexOf('小学校通知');
    expect(order.length).toBe(43);
    expect(small).toBeGreaterThan(-1);
    expect(small).toBeLessThanOrEqual(20);
  });

  it('lets a message refused for now wait for its retry while the others go on', async () => {
    const busy = await registerUser(t.app, `busy${kind}`);
    const fine = await registerUser(t.app, `fine${kind}`);
    await prove(busy.id, { email: 'busy@example.edu.cn' });
    await prove(fine.id, { email: `fine.${kind}@example.edu.cn` });
    const now = t.deps.clock.now();
    const from = smtp.received.length;
    await queueForUsers(t.database.db, now, {
      channel: 'email',
      kind: 'notice',
      userIds: [busy.id, fine.id],
      email: { subject: '稍后再试', text: 'z' },
      key: `busy${kind}`,
    });
    await drain(t.deps);
    const rows = await t.database.db.selectFrom('outboxMessages').selectAll().where('idempotencyKey', 'like', `busy${kind}:%`).orderBy('id').execute();
    // The busy mailbox's message is back in the queue with the server's words, one attempt spent, not before its time.
    const refused = rows.find((r) => r.recipient === 'busy@example.edu.cn')!;
    expect(refused).toMatchObject({ state: 'queued', attempts: 1 });
    expect(refused.error).toContain('451');
    expect(Date.parse(refused.retryAt!) - now.getTime()).toBeGreaterThanOrEqual(25_000);
    // The other went.
    expect(rows.find((r) => r.recipient !== 'busy@example.edu.cn')).toMatchObject({ state: 'sent' });
    expect(smtp.received.slice(from).map((m) => m.to[0])).toEqual([`fine.${kind}@example.edu.cn`]);
    // Its time not come, a drain passes it over.
    await drain(t.deps);
    expect((await t.database.db.selectFrom('outboxMessages').select('attempts').where('id', '=', refused.id).executeTakeFirstOrThrow()).attempts).toBe(1);
    // Settled out of the other tests' way.
    await t.database.db.updateTable('outboxMessages').set({ state: 'failed' }).where('id', '=', refused.id).execute();
  });
});

/** A Subject header as the reader sees it (nodemailer encodes non-ASCII ones). */
function textOfSubject(s: string) {
  const m = /=\?UTF-8\?([BQ])\?([^?]*)\?=/i.exec(s);
  if (!m) return s;
  return m[1]!.toUpperCase() === 'B'
    ? Buffer.from(m[2]!, 'base64').toString('utf8')
    : decodeURIComponent(m[2]!.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, '%$1'));
}
