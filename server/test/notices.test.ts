import { SESSION_COOKIE } from '@contest/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { streamEvents } from './sse.ts';
import { unique } from './factories.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  PDF,
  REG_INFO,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
} from './helpers.ts';

/** Reads server-sent events from a real HTTP stream, one `data:` payload at a time. */
async function openStream(base: string, token: string) {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/message/notice/stream`, { headers: { cookie: `${SESSION_COOKIE}=${token}` }, signal: controller.signal });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  return streamEvents(res, controller);
}

const systemNotice = (target: object, title = '缴费提醒') => ({ kind: 0, title, content: '<p>请尽快缴费</p><script>alert(1)</script>', target });

describe.each(DATABASES)('notices and messages on %s', (kind) => {
  // The shared world, never changed by the tests: the app and the administrator. Each test builds its own organisers,
  // competitions and teams with `world()`, so that it runs alone and in any order.
  let t: TestApp;
  let admin: Client;
  const START = new Date('2026-03-20T02:00:00Z');
  let now = START;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365), REGISTER_MAX_PER_IP: '100000' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    now = START;
  });

  type Person = { client: Client; id: number; username: string; teamNo: string; orderId: number };
  /**
   * Two new organisers (通知大学 and 别的通知大学), each with a competition of 100 yuan; in the first, Paid (approved, paid
   * by the organisation's collective transfer), Unpaid (approved) and Pending (not yet reviewed); in the second, Other
   * (approved). Nothing has been sent to anyone yet.
   */
  async function world() {
    const n = unique();
    const [org, orgB] = await Promise.all([
      makeOrganiser(t, admin, `noticeOrg${n}`, `通知大学${n}`),
      makeOrganiser(t, admin, `noticeOrgB${n}`, `别的通知大学${n}`),
    ]);
    const competitionId = await onlineCompetition(admin, org, { fee: 10000 });
    const otherCompetition = await onlineCompetition(admin, orgB, { fee: 10000 });
    const people: Record<'Paid' | 'Unpaid' | 'Pending' | 'Other', Person> = {} as never;
    const registered = async (key: keyof typeof people, competition: number, approve: boolean) => {
      const username = `nt${n}${key}`;
      const { id } = await registerUser(t.app, username);
      const client = await loggedIn(t.app, username);
      const r = body(await client.post(`/api/team/register/${competition}`, { teamName: `通知${key}队`, info: REG_INFO })).data;
      if (approve) await (competition === competitionId ? org : orgB).post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
      const team = body(await client.get(`/api/team/${r.teamId}`)).data;
      people[key] = { client, id, username, teamNo: team.teamNo, orderId: r.orderId };
    };
    await Promise.all([
      registered('Paid', competitionId, true),
      registered('Unpaid', competitionId, true),
      registered('Pending', competitionId, false),
      registered('Other', otherCompetition, true),
    ]);
    const voucher = body(
      await org.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('集体缴费.pdf', PDF, 'application/pdf') }),
    ).data.fileUri;
    expect(body(await org.put('/api/order/batch/payment', { ids: [people.Paid.orderId], payerOrg: `通知大学${n}`, voucher })).data.paid).toEqual([
      people.Paid.orderId,
    ]);
    const unread = async (key: keyof typeof people) => body(await people[key].client.get('/api/message/notice/check/read')).data;
    return { n, org, orgB, competitionId, otherCompetition, people, unread };
  }

  it('reaches exactly the teams a target describes', async () => {
    const { org, competitionId, people, unread } = await world();
    const count = async (target: object) => body(await org.post('/api/message/notice/recipients', { target })).data.count;
    expect(await count({ scope: 'competition', competitionId })).toBe(3);
    expect(await count({ scope: 'competition', competitionId, payStatus: 'unpaid' })).toBe(2);
    expect(await count({ scope: 'competition', competitionId, payStatus: 'unpaid', registerStatus: 'approved' })).toBe(1);
    expect(await count({ scope: 'competition', competitionId, payStatus: 'paid' })).toBe(1);
    expect(await count({ scope: 'teams', competitionId, teamNos: [people.Pending!.teamNo] })).toBe(1);

    const created = await org.post('/api/message/notice', systemNotice({ scope: 'competition', competitionId, payStatus: 'unpaid' }));
    expect(created.statusCode, created.body).toBe(200);
    const notice = body(created).data;
    expect(notice).toMatchObject({ status: 0, recipients: 0 });
    // Rich text is sanitised.
    expect(notice.content).toContain('<p>请尽快缴费</p>');
    expect(notice.content).not.toContain('<script');
    const published = await org.post(`/api/message/notice/${notice.id}`, {});
    expect(body(published).data).toMatchObject({ status: 2, recipients: 2 });
    expect((await org.post(`/api/message/notice/${notice.id}`, {})).statusCode).toBe(409);
    expect((await org.put(`/api/message/notice/${notice.id}`, systemNotice({ scope: 'competition', competitionId }))).statusCode).toBe(409);

    expect((await unread('Unpaid')).system).toBe(1);
    expect((await unread('Pending')).system).toBe(1);
    expect((await unread('Paid')).system).toBe(0);
    expect((await unread('Other')).system).toBe(0);
    const [message] = body(await people.Unpaid!.client.get('/api/message/notice/page/0')).data.list;
    expect(message).toMatchObject({ title: '缴费提醒', read: false });
  });

  it('keeps organisers to their own competitions and the platform’s scopes to the platform', async () => {
    const { org, orgB, competitionId, otherCompetition, people } = await world();
    // A draft notice of the organiser's, for organisation B to try to delete.
    expect((await org.post('/api/message/notice', systemNotice({ scope: 'competition', competitionId }))).statusCode).toBe(200);
    const all = await org.post('/api/message/notice', systemNotice({ scope: 'all' }));
    expect([all.statusCode, body(all).message]).toEqual([400, '只有平台可以向全体用户或指定用户发送通知']);
    expect((await org.post('/api/message/notice', systemNotice({ scope: 'competition', competitionId: otherCompetition }))).statusCode).toBe(400);
    const mismatch = await org.post('/api/message/notice', { kind: 1, title: '个人', target: { scope: 'competition', competitionId } });
    expect(body(mismatch).data.fields.target).toBe('个人消息须发给指定用户或队伍');
    const mine = body(await org.get('/api/message/notice/page')).data.list as { id: number }[];
    expect((await orgB.delete(`/api/message/notice/${mine[0]!.id}`)).statusCode).toBe(404);
    expect(body(await orgB.get('/api/message/notice/page')).data.total).toBe(0);
    expect((await people.Paid!.client.get('/api/message/notice/page')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/message/notice/check/read' })).statusCode).toBe(401);
  });

  it('never lets a user read or mark another user’s personal message', async () => {
    const { people, unread } = await world();
    const notice = body(
      await admin.post('/api/message/notice', {
        kind: 1,
        title: '私信',
        content: '<p>只给你</p>',
        target: { scope: 'users', usernames: [people.Unpaid.username] },
      }),
    ).data;
    await admin.post(`/api/message/notice/${notice.id}`, {});
    const before = await unread('Unpaid');
    expect(before.person).toBeGreaterThanOrEqual(1);
    const otherBox = body(await people.Paid!.client.get('/api/message/notice/page/1')).data.list as { title: string }[];
    expect(otherBox.map((m) => m.title)).not.toContain('私信');
    expect((await people.Paid!.client.put(`/api/message/notice/user/${notice.id}`)).statusCode).toBe(404);
    expect(await unread('Unpaid')).toEqual(before);
    const after = body(await people.Unpaid!.client.put(`/api/message/notice/user/${notice.id}`)).data;
    expect(after).toEqual({ ...before, person: before.person - 1, total: before.total - 1 });
    const all = body(await people.Unpaid!.client.put('/api/message/notice/user/all')).data;
    expect(all).toEqual({ person: 0, system: 0, total: 0 });
  });

  it('sends the platform’s automatic messages: registration approved, order paid, invitation', async () => {
    const { n, competitionId, people } = await world();
    const titles = async (key: keyof typeof people) =>
      (body(await people[key].client.get('/api/message/notice/page/1?limit=50')).data.list as { title: string }[]).map((m) => m.title);
    expect(await titles('Paid')).toEqual(expect.arrayContaining(['报名审核通过', '订单已支付']));
    expect(await titles('Pending')).not.toContain('报名审核通过');
    const { id, username: inviteeName } = await registerUser(t.app, `ntInvitee${n}`);
    const invitee = await loggedIn(t.app, inviteeName);
    const team = body(await people.Unpaid!.client.get(`/api/team/competition/${competitionId}`)).data;
    expect((await people.Unpaid!.client.post('/api/team/member/invitation', { teamId: team.id, account: inviteeName })).statusCode).toBe(200);
    const box = body(await invitee.get('/api/message/notice/page/1')).data.list as { title: string }[];
    expect(box.map((m) => m.title)).toEqual(['队伍邀请：通知Unpaid队']);
    expect(id).toBeGreaterThan(0);
  });

  it('publishes a scheduled notice through the job runner at its time', async () => {
    const { org, competitionId, unread } = await world();
    const notice = body(await org.post('/api/message/notice', systemNotice({ scope: 'competition', competitionId }, '定时通知'))).data;
    const scheduled = body(await org.post(`/api/message/notice/${notice.id}`, { publishAt: '2026-03-20T12:00:00+08:00' })).data;
    expect(scheduled).toMatchObject({ status: 1, publishedAt: null, publishAt: '2026-03-20T04:00:00.000Z' });
    const before = (await unread('Paid')).system;
    await runDueJobs(t.deps);
    expect((await unread('Paid')).system).toBe(before);
    now = new Date('2026-03-20T04:00:01Z');
    await runDueJobs(t.deps);
    expect((await unread('Paid')).system).toBe(before + 1);
    expect(body(await org.get('/api/message/notice/page?status=2')).data.list.find((n: { id: number }) => n.id === notice.id)).toMatchObject({ recipients: 3 });
  });

  it('keeps counts right while notices are published and read at the same time', async () => {
    const { org, competitionId, people, unread } = await world();
    await people.Paid!.client.put('/api/message/notice/user/all');
    const ids: number[] = [];
    for (let i = 0; i < 8; i++)
      ids.push(body(await org.post('/api/message/notice', systemNotice({ scope: 'competition', competitionId }, `并发${i}`))).data.id);
    // Every notice published twice at once: each reaches its recipients once.
    const publishes = ids.flatMap((id) => [org.post(`/api/message/notice/${id}`, {}), org.post(`/api/message/notice/${id}`, {})]);
    const reads = Array.from({ length: 6 }, () => people.Paid!.client.put('/api/message/notice/user/all?kind=0'));
    const results = await Promise.all([...publishes, ...reads]);
    const codes = results.slice(0, publishes.length).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(8);
    expect(codes.filter((c) => c === 409)).toHaveLength(8);
    const rows = await t.database.db
      .selectFrom('noticeRecipients')
      .select('readAt')
      .where('userId', '=', people.Paid!.id)
      .where('noticeId', 'in', ids)
      .execute();
    expect(rows).toHaveLength(8);
    const counts = await unread('Paid');
    expect(counts.system).toBe(rows.filter((r) => r.readAt === null).length);
    expect(counts.total).toBe(counts.person + counts.system);
    expect(body(await people.Paid!.client.put('/api/message/notice/user/all')).data.total).toBe(0);
  });

  it('pushes new counts to an open stream the moment a notice is published or read', async () => {
    const { org, competitionId, people } = await world();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(address, people.Pending!.client.token!);
    try {
      const first = await stream.next();
      const notice = body(await org.post('/api/message/notice', systemNotice({ scope: 'competition', competitionId, registerStatus: 'pending' }, '实时'))).data;
      await org.post(`/api/message/notice/${notice.id}`, {});
      expect(await stream.next()).toEqual({ ...first, system: first.system + 1, total: first.total + 1 });
      await people.Pending!.client.put(`/api/message/notice/user/${notice.id}`);
      expect(await stream.next()).toEqual(first);
    } finally {
      stream.close();
    }
  });

  it.runIf(process.env.TEST_REDIS_URL)('reaches a stream open on another server instance through Redis', async () => {
    const { n, otherCompetition, people } = await world();
    const redisUrl = process.env.TEST_REDIS_URL!;
    // Two instances on one database, both listening on the Redis channel.
    const one = await buildApp({ config: { ...t.config, redisUrl }, database: t.database, clock: { now: () => now } });
    const two = await buildApp({ config: { ...t.config, redisUrl }, database: t.database, clock: { now: () => now } });
    try {
      const address = await two.app.listen({ port: 0, host: '127.0.0.1' });
      const stream = await openStream(address, people.Other!.client.token!);
      try {
        const first = await stream.next();
        const orgBOnOne = await loggedIn(one.app, `noticeOrgB${n}`);
        const notice = body(
          await orgBOnOne.post('/api/message/notice', systemNotice({ scope: 'competition', competitionId: otherCompetition }, '跨实例')),
        ).data;
        expect((await orgBOnOne.post(`/api/message/notice/${notice.id}`, {})).statusCode).toBe(200);
        expect(await stream.next()).toEqual({ ...first, system: first.system + 1, total: first.total + 1 });
      } finally {
        stream.close();
      }
    } finally {
      await one.app.close();
      await two.app.close();
    }
  });
});
