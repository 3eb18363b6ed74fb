import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { sendReminders } from '../src/modules/reminders/index.ts';
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
import { startSmtp } from './smtp.ts';

/**
 * Issue 35, item 7 (reminders): 24 hours and 1 hour before a submission deadline, the approved teams without works are
 * reminded in-app, by email and by SMS, exactly once per team, deadline, window and channel, even with two workers
 * sweeping at the same moment; teams not approved are not, and nothing goes after the deadline.
 */
describe.each(DATABASES)('deadline reminders on %s', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  let second: Awaited<ReturnType<typeof buildApp>>;
  let now = new Date('2026-03-20T10:00:00+08:00');
  const clock = { now: () => now };
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, {
      clock,
      // Sessions outlive the weeks the clock moves through.
      env: {
        SESSION_TTL_HOURS: String(24 * 365),
        SMTP_URL: smtp.url,
        MAIL_FROM: 'noreply@contest.test',
        PUBLIC_URL: 'https://contest.example.cn',
        REGISTER_MAX_PER_IP: '1000',
        SMS_SIMULATOR: '1',
      },
    });
    // A second instance on the same database: the second worker.
    second = await buildApp({ config: t.config, database: t.database, clock });
  });
  afterAll(async () => {
    await second.app.close();
    await t.close();
    await smtp.close();
  });

  it('reminds each approved team without works once per window and channel, with two workers sweeping at once', async () => {
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    const sim = body(await admin.get('/api/system/sms/config')).data.simulator;
    await admin.put('/api/system/sms/config', {
      provider: 'tencent',
      enable: true,
      accessKeyId: sim.tencent.secretId,
      accessKeySecret: sim.tencent.secretKey,
      sdkAppId: sim.tencent.sdkAppId,
      signName: '竞赛平台',
      templates: { code: '1001', notice: '1002', reminder: '1003' },
    });
    const org = await makeOrganiser(t, admin, `rm${kind}org`, `提醒大学${kind}`);
    const competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    const deadline = '2026-05-01T18:00:00+08:00';
    expect(
      (await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'SUBMIT_WORKS')!.id}`, { enable: true, enableEndTime: deadline }))
        .statusCode,
    ).toBe(200);

    const people: Record<string, { id: number; client: Client }> = {};
    const n = kind === 'sqlite' ? 1 : 2;
    const phoneOf = (who: string) => `13900000${n}0${who === 'approved' ? 1 : 2}`;
    for (const who of ['approved', 'pending']) {
      const username = `rm${kind}${who}`;
      const { id } = await registerUser(t.app, username);
      const client = await loggedIn(t.app, username);
      const r = body(await client.post(`/api/team/register/${competitionId}`, { teamName: `提醒${who}队`, info: REG_INFO })).data;
      if (who === 'approved') expect((await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' })).statusCode).toBe(200);
      await t.database.db
        .updateTable('users')
        .set({ email: `${who}${n}@example.edu.cn`, verifiedEmail: `${who}${n}@example.edu.cn`, phone: phoneOf(who), verifiedPhone: phoneOf(who) })
        .where('id', '=', id)
        .execute();
      people[who] = { id, client };
    }
    const mailsTo = (who: string) => smtp.received.filter((m) => m.to[0] === `${who}${n}@example.edu.cn`).length;
    const textsTo = async (who: string) =>
      (await t.database.db.selectFrom('smsSimulatorMessages').select('phone').execute()).filter((r) => r.phone === `+86${phoneOf(who)}`).length;
    const inbox = async (who: string) =>
      (body(await people[who]!.client.get('/api/message/notice/page/1?page=1&limit=20')).data.list as { title: string }[]).filter((m) =>
        m.title.includes('提交作品将在'),
      );

    // Two days before: nothing.
    now = new Date('2026-04-29T18:00:00+08:00');
    await Promise.all([sendReminders(t.deps), sendReminders(second.deps)]);
    await runDueJobs(t.deps);
    expect(mailsTo('approved')).toBe(0);

    // 23 hours before, two workers at once, then again: one reminder per channel.
    now = new Date('2026-04-30T19:00:00+08:00');
    await Promise.all([sendReminders(t.deps), sendReminders(second.deps)]);
    await sendReminders(t.deps);
    await runDueJobs(t.deps);
    expect(mailsTo('approved')).toBe(1);
    expect(await textsTo('approved')).toBe(1);
    const [message] = await inbox('approved');
    expect(message?.title).toMatch(/提交作品将在24小时内截止$/);
    expect(await inbox('approved')).toHaveLength(1);
    // Not approved: none.
    expect(mailsTo('pending')).toBe(0);
    expect(await textsTo('pending')).toBe(0);
    expect(await inbox('pending')).toHaveLength(0);

    // 40 minutes before: the 1-hour reminder, once.
    now = new Date('2026-05-01T17:20:00+08:00');
    await Promise.all([sendReminders(t.deps), sendReminders(second.deps)]);
    await runDueJobs(t.deps);
    expect(mailsTo('approved')).toBe(2);
    expect(await textsTo('approved')).toBe(2);
    expect((await inbox('approved')).map((m) => m.title.replace(/.*将在/, ''))).toEqual(['1小时内截止', '24小时内截止']);

    // After the deadline: nothing more.
    now = new Date('2026-05-01T18:30:00+08:00');
    await sendReminders(t.deps);
    await runDueJobs(t.deps);
    expect(mailsTo('approved')).toBe(2);
  });
});
