import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** A competition's announcements (`GET /api/message/notice/competition/{id}`): who sees which notice, and the counts. */
describe.each(DATABASES)('a competition’s announcements on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let orgB: Client;
  let competitionId: number;
  let otherCompetition: number;
  const now = new Date('2026-03-20T02:00:00Z');
  const people: Record<string, { client: Client; id: number; orderId: number }> = {};
  const notices: Record<string, number> = {};

  async function registered(key: string, competition: number) {
    const username = `nc${key}`;
    const { id } = await registerUser(t.app, username);
    const client = await loggedIn(t.app, username);
    const res = await client.post(`/api/team/register/${competition}`, { teamName: `公告${key}队`, info: REG_INFO });
    expect(res.statusCode, res.body).toBe(200);
    const r = body(res).data;
    await (competition === competitionId ? org : orgB).post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    people[key] = { client, id, orderId: r.orderId };
  }
  async function published(by: Client, title: string, target: object) {
    const created = await by.post('/api/message/notice', { kind: 0, title, content: `<p>${title}正文</p>`, target });
    expect(created.statusCode, created.body).toBe(200);
    const id = body(created).data.id as number;
    expect((await by.post(`/api/message/notice/${id}`, {})).statusCode).toBe(200);
    notices[title] = id;
    return id;
  }
  const unread = async (key: string) => body(await people[key]!.client.get('/api/message/notice/check/read')).data;
  const board = async (client: Client | null, competition = competitionId) => {
    const url = `/api/message/notice/competition/${competition}`;
    const res = client ? await client.get(url) : await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { list: { id: number; title: string; content: string | null; read: boolean }[]; total: number };
  };
  const titles = async (client: Client | null, competition = competitionId) => (await board(client, competition)).list.map((n) => n.title);

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'ncOrg', '公告大学');
    orgB = await makeOrganiser(t, admin, 'ncOrgB', '别的公告大学');
    competitionId = await onlineCompetition(admin, org, { fee: 10000 });
    otherCompetition = await onlineCompetition(admin, orgB, { fee: 10000 });
    await registered('Paid', competitionId);
    await registered('Unpaid', competitionId);
    await registered('Other', otherCompetition);
    const voucher = body(
      await org.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('集体缴费.pdf', PDF, 'application/pdf') }),
    ).data.fileUri;
    expect(body(await org.put('/api/order/batch/payment', { ids: [people.Paid!.orderId], payerOrg: '公告大学', voucher })).data.paid).toEqual([
      people.Paid!.orderId,
    ]);

    await published(org, '开赛公告', { scope: 'competition', competitionId });
    await published(org, '缴费提醒', { scope: 'competition', competitionId, payStatus: 'unpaid' });
    await published(orgB, '别的竞赛公告', { scope: 'competition', competitionId: otherCompetition });
    // A draft to everyone is nobody's yet.
    const draft = await org.post('/api/message/notice', { kind: 0, title: '草稿公告', content: '<p>x</p>', target: { scope: 'competition', competitionId } });
    expect(draft.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('shows each team the notices that reach it, and no other competition’s', async () => {
    expect(await titles(people.Unpaid!.client)).toEqual(['缴费提醒', '开赛公告']);
    // The notice to unpaid teams is not the paid team's.
    expect(await titles(people.Paid!.client)).toEqual(['开赛公告']);
    const first = (await board(people.Paid!.client)).list[0]!;
    expect(first).toMatchObject({ id: notices.开赛公告, content: '<p>开赛公告正文</p>', read: false });
    // Another competition's page shows none of its notices to a participant of this one, and this one's to nobody there.
    expect(await titles(people.Unpaid!.client, otherCompetition)).toEqual([]);
    expect(await titles(people.Other!.client)).toEqual([]);
    expect(await titles(people.Other!.client, otherCompetition)).toEqual(['别的竞赛公告']);
  });

  it('shows a visitor and a logged-in stranger nothing, not even the notice to unpaid teams', async () => {
    expect(await board(null)).toMatchObject({ list: [], total: 0 });
    await registerUser(t.app, 'ncStranger');
    const stranger = await loggedIn(t.app, 'ncStranger');
    expect(await titles(stranger)).toEqual([]);
    expect(body(await stranger.get('/api/message/notice/check/read')).data).toEqual({ person: 0, system: 0, total: 0 });
    expect((await t.app.inject({ method: 'GET', url: '/api/message/notice/competition/abc' })).statusCode).toBe(404);
  });

  it('gives a participant who registers later the notices to all participants, unread, and no narrower ones', async () => {
    await registered('Late', competitionId);
    const late = people.Late!;
    // Their box and count have it at once, exactly once however often and however concurrently they are read.
    const counts = await Promise.all(Array.from({ length: 6 }, () => unread('Late')));
    for (const c of counts) expect(c.system).toBe(1);
    expect(await titles(late.client)).toEqual(['开赛公告']);
    expect(await titles(late.client)).toEqual(['开赛公告']);
    const system = body(await late.client.get('/api/message/notice/page/0')).data.list as { title: string; read: boolean }[];
    expect(system).toEqual([expect.objectContaining({ title: '开赛公告', read: false })]);
    expect((await unread('Late')).system).toBe(1);
    // One copy of the notice to all participants; none of the notice to unpaid teams, though the late team is unpaid.
    const rows = await t.database.db.selectFrom('noticeRecipients').select('noticeId').where('userId', '=', late.id).where('kind', '=', 0).execute();
    expect(rows.map((r) => r.noticeId)).toEqual([notices.开赛公告]);
    // The notice's own recipient count follows.
    const listed = body(await org.get('/api/message/notice/page?status=2')).data.list as { id: number; recipients: number }[];
    expect(listed.find((n) => n.id === notices.开赛公告)!.recipients).toBe(3);

    // Reading it (the competition page marks it read through the box's route) brings the count down, everywhere.
    const after = body(await late.client.put(`/api/message/notice/user/${notices.开赛公告}`)).data;
    expect(after).toMatchObject({ system: 0 });
    expect((await board(late.client)).list).toEqual([expect.objectContaining({ title: '开赛公告', read: true })]);
    expect((await unread('Late')).system).toBe(0);
  });

  it('leaves the counts of those who had the notices untouched by reading the page', async () => {
    const before = await unread('Unpaid');
    expect(before.system).toBe(2);
    await board(people.Unpaid!.client);
    await board(people.Unpaid!.client);
    expect(await unread('Unpaid')).toEqual(before);
    // Deleting a notice takes it off the page and out of the count (a notice of this test's own: the others' stay).
    const own = await published(org, '临时提醒', { scope: 'competition', competitionId, payStatus: 'unpaid' });
    expect(await titles(people.Unpaid!.client)).toEqual(['临时提醒', '缴费提醒', '开赛公告']);
    expect(await unread('Unpaid')).toEqual({ ...before, system: 3, total: before.total + 1 });
    expect((await org.delete(`/api/message/notice/${own}`)).statusCode).toBe(200);
    expect(await titles(people.Unpaid!.client)).toEqual(['缴费提醒', '开赛公告']);
    expect(await unread('Unpaid')).toEqual(before);
  });
});
