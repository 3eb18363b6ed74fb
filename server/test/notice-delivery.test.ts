import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue, jobRegistry } from '../src/jobs/define.ts';
import { JOB_DEFINITIONS, noticeDelivery } from '../src/compose/jobs.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { deliverJob } from '../src/modules/notices/jobs.ts';
import { unique } from './factories.ts';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, loggedIn, registerUser, type Client, type TestApp } from './helpers.ts';

/** The platform's jobs, with notice delivery in batches of BATCH recipients instead of thousands. */
const BATCH = 400;
const JOBS = jobRegistry(JOB_DEFINITIONS.map((j) => (j.id === deliverJob.id ? noticeDelivery(BATCH) : j)));

type NoticeRow = { id: number; status: number; recipients: number; delivered: number; deliveredAt: string | null; reads: number };

/**
 * Broadcast notices leave the request (issue 22): publishing answers at once with how many users the notice is to
 * reach, and the job runner copies it into their boxes in batches, keeping the progress on the notice; read counts are
 * counters kept with the copies.
 */
describe.each(DATABASES)('a broadcast delivered in batches on %s', (kind) => {
  let t: TestApp;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { REGISTER_MAX_PER_IP: '100000' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    // An audience too large to deliver inside the request (INLINE_DELIVERY is 1000): 2,300 users, inserted directly.
    const now = new Date().toISOString();
    const n = unique();
    for (let start = 0; start < 2300; start += 500) {
      await t.database.db
        .insertInto('users')
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            username: `nd${n}u${start + i}`,
            usernameKey: `nd${n}u${start + i}`,
            status: 1,
            createdAt: now,
            updatedAt: now,
          })) as never,
        )
        .execute();
    }
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const userCount = async () =>
    Number(
      (
        await db()
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const copies = async (noticeId: number) =>
    Number(
      (
        await db()
          .selectFrom('noticeRecipients')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('noticeId', '=', noticeId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const listed = async (noticeId: number) =>
    (body(await admin.get('/api/message/notice/page?status=2&limit=100')).data.list as NoticeRow[]).find((x) => x.id === noticeId)!;
  /** Runs due jobs, at most `max` of them. */
  const runJobs = (max = Infinity) => {
    let ran = 0;
    return runDueJobs(t.deps, undefined, { jobs: JOBS, stopping: () => ran++ >= max });
  };
  const broadcast = async (title: string) => {
    const notice = body(await admin.post('/api/message/notice', { kind: 0, title, content: '<p>全体通知</p>', target: { scope: 'all' } })).data as NoticeRow;
    const published = await admin.post(`/api/message/notice/${notice.id}`, {});
    expect(published.statusCode).toBe(200);
    return notice.id;
  };

  it('answers at once, delivers batch by batch with its progress shown, to the users of its moment, each once', async () => {
    const audience = await userCount();
    const id = await broadcast(`全体通知${unique()}`);
    // Nothing copied inside the request: the sender sees how many it is to reach, and that delivery is under way.
    expect(await listed(id)).toMatchObject({ status: 2, recipients: audience, delivered: 0, deliveredAt: null, reads: 0 });
    expect(await copies(id)).toBe(0);
    // A second runner of the same notice (a job enqueued twice) must not give anyone two copies.
    await enqueue(db(), deliverJob, { noticeId: id }, new Date());

    // One batch: BATCH users reached, the rest to come.
    await runJobs(1);
    const first = await listed(id);
    expect(first.delivered).toBe(BATCH);
    expect(first.deliveredAt).toBeNull();
    expect(await copies(id)).toBe(BATCH);

    // Somebody registering during delivery is not among those the notice was published to.
    const late = await registerUser(t.app, `late${unique()}`);
    await runJobs();
    const done = await listed(id);
    expect(done).toMatchObject({ recipients: audience, delivered: audience });
    expect(done.deliveredAt).not.toBeNull();
    expect(await copies(id)).toBe(audience);
    const twice = await db()
      .selectFrom('noticeRecipients')
      .select('userId')
      .where('noticeId', '=', id)
      .groupBy('userId')
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    expect(twice).toEqual([]);
    expect(await db().selectFrom('noticeRecipients').select('userId').where('noticeId', '=', id).where('userId', '=', late.id).execute()).toEqual([]);
    // Nothing left to run, nothing failed.
    const failed = await db().selectFrom('jobs').select('id').where('type', '=', deliverJob.id).where('failed', '=', 1).execute();
    expect(failed).toEqual([]);
    expect(await runJobs()).toBe(0);
  });

  it('counts reads as they happen, once per copy, without reading the copies', async () => {
    const [a, b] = await Promise.all(
      [1, 2].map(async () => {
        const u = await registerUser(t.app, `reader${unique()}`);
        return loggedIn(t.app, u.username);
      }),
    );
    const id = await broadcast(`已读计数${unique()}`);
    await runJobs();
    // Somebody without a copy cannot mark it, and counts nothing.
    const outsider = await loggedIn(t.app, (await registerUser(t.app, `outsider${unique()}`)).username);
    expect((await outsider.put(`/api/message/notice/user/${id}`)).statusCode).toBe(404);
    expect((await listed(id)).reads).toBe(0);
    // Marking read twice at once, and all read afterwards, counts each copy once.
    await Promise.all([a!.put(`/api/message/notice/user/${id}`), a!.put(`/api/message/notice/user/${id}`)]);
    expect((await listed(id)).reads).toBe(1);
    await Promise.all([b!.put('/api/message/notice/user/all'), a!.put('/api/message/notice/user/all')]);
    expect((await listed(id)).reads).toBe(2);
    const readCopies = await db().selectFrom('noticeRecipients').select('userId').where('noticeId', '=', id).where('readAt', 'is not', null).execute();
    expect(readCopies).toHaveLength(2);
  });

  it('stops delivering a notice deleted part way, leaving no copy behind', async () => {
    const id = await broadcast(`中途删除${unique()}`);
    await runJobs(1);
    expect(await copies(id)).toBe(BATCH);
    expect((await admin.delete(`/api/message/notice/${id}`)).statusCode).toBe(200);
    await runJobs();
    expect(await copies(id)).toBe(0);
    const failed = await db().selectFrom('jobs').select('id').where('type', '=', deliverJob.id).where('failed', '=', 1).execute();
    expect(failed).toEqual([]);
  });
});
