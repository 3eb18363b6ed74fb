import { SESSION_COOKIE } from '@contest/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claim, runDueJobs } from '../src/jobs/runner.ts';
import { REFUSED_ROWS_A_DAY, beijingDay } from '../src/modules/test-submissions/service.ts';
import { streamEvents } from './sse.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
  REG_INFO as info,
} from './helpers.ts';

const IDS = Array.from({ length: 40 }, (_, i) => `u${i}`);
const TRUTH = IDS.map((_, i) => (i * 3) % 10);
const ANSWER = ['id,y', ...IDS.map((id, i) => `${id},${TRUTH[i]}`)].join('\n');
/** Predictions off by `err` on every row: RMSE = err exactly, on both boards. */
const prediction = (err: number) => ['id,y', ...IDS.map((id, i) => `${id},${TRUTH[i]! + err}`)].join('\n');

describe.each(DATABASES)('test submissions and automatic scoring on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let competitionId: number;
  let questionId: number;
  let seq = 0;
  let now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'testOrg', '测试大学');
    competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
    questionId = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '回归题',
        evaluation: { metric: 'rmse', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
      }),
    ).data.id;
    await org.request({ method: 'POST', url: `/api/competition/question/${questionId}/answer`, ...multipart('answer.csv', Buffer.from(ANSWER), 'text/csv') });
    await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true });
  });
  afterAll(() => t.close());

  /** An approved team of the competition that chose the question. */
  async function team(name = `测试队${++seq}`) {
    const username = `tt${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: name, info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    return { leader, teamId: r.teamId as number, name };
  }
  const submit = (who: Client, text: string, name = 'pred.csv') =>
    who.request({ method: 'POST', url: `/api/review/test/${questionId}`, ...multipart(name, Buffer.from(text), 'text/csv') });
  const mine = async (who: Client) => body(await who.get(`/api/review/test/list/${questionId}`)).data;
  /** The private board published or not, as confirming the question's grades (grades.test.ts) leaves it. */
  const published = (on: boolean) =>
    t.database.db
      .updateTable('questions')
      .set({ leaderboardPublished: on ? 1 : 0 })
      .where('id', '=', questionId)
      .execute();

  it('offers the team a sample file with every id of the test set, which scores as it is (issue 33)', async () => {
    const { leader } = await team();
    const res = await leader.get(`/api/review/test/sample/${questionId}`);
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8']);
    expect(res.headers['content-disposition']).toContain('sample_submission.csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('id,y');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(IDS);
    // Filled in as it is, it is a file the scorer takes.
    expect((await submit(leader, res.body)).statusCode).toBe(200);
    while (await runDueJobs(t.deps));
    expect((await mine(leader)).list[0].status).toBe(2);
    // Its organisers may fetch it; a team that did not choose the question, or a stranger, may not.
    expect((await org.get(`/api/review/test/sample/${questionId}`)).statusCode).toBe(200);
    const stranger = await loggedIn(t.app, (await registerUser(t.app, `sample${++seq}x`)).username);
    expect((await stranger.get(`/api/review/test/sample/${questionId}`)).statusCode).toBe(404);
  });

  it("fills the sample of a metric of labels with the answer's own labels, not 1 and 0", async () => {
    const labelled = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '分类题',
        evaluation: { metric: 'accuracy', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 3 },
      }),
    ).data.id;
    const answer = ['id,label', ...IDS.map((id, i) => `${id},${i % 2 ? '狗' : '猫'}`)].join('\n');
    await org.request({ method: 'POST', url: `/api/competition/question/${labelled}/answer`, ...multipart('answer.csv', Buffer.from(answer), 'text/csv') });
    const res = await org.get(`/api/review/test/sample/${labelled}`);
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('id,label');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(IDS);
    expect([...new Set(lines.slice(1).map((l) => l.split(',')[1]))].sort()).toEqual(['狗', '猫']);
  });

  it("keeps at most REFUSED_ROWS_A_DAY refusals at upload in a team's history a day, answering every one", async () => {
    const { leader } = await team();
    for (let i = 0; i <= REFUSED_ROWS_A_DAY; i++) {
      const res = await submit(leader, 'x,y\n');
      expect([res.statusCode, body(res).message]).toEqual([400, '第1行：表头须包含“id”和“y”两列，当前表头为：x,y']);
    }
    const history = await mine(leader);
    expect([history.list.length, history.usedToday]).toEqual([REFUSED_ROWS_A_DAY, 0]);
  });

  it('queues a prediction file, scores it in a job, and shows the public score only', async () => {
    // What other tests left due runs first, so that the one job below is this test's.
    while (await runDueJobs(t.deps));
    const { leader } = await team();
    const res = await submit(leader, prediction(2));
    expect([res.statusCode, body(res).data.status]).toEqual([200, 0]);
    expect((await mine(leader)).list[0]).toMatchObject({ status: 0, publicScore: null });
    expect(await runDueJobs(t.deps)).toBe(1);
    const [s] = (await mine(leader)).list;
    expect(s).toMatchObject({ status: 2, publicScore: 2, privateScore: null, fileName: 'pred.csv' });
    expect(await mine(leader)).toMatchObject({
      dailyLimit: 3,
      usedToday: 1,
      format: { metric: 'rmse', higherIsBetter: false, idColumn: 'id', targetColumn: 'y' },
      leaderboardPublished: false,
    });
  });

  it('queues fairly, and tells a waiting submission its place and, once the pace is known, about how long it waits', async () => {
    // Hours on, nothing has been scored in the last minutes: no pace yet, so no estimate. What other tests left due by
    // then runs first, so that the queue below is this test's.
    now = new Date('2026-03-20T05:00:00Z');
    try {
      while (await runDueJobs(t.deps));
      // Half an hour after that drain: its jobs are out of the ten minutes the pace is measured over.
      now = new Date('2026-03-20T05:30:00Z');
      const a = await team();
      const b = await team();
      for (const [who, err] of [
        [a, 1],
        [a, 2],
        [b, 3],
      ] as const)
        expect((await submit(who.leader, prediction(err))).statusCode).toBe(200);
      const queues = async (who: Client) => ((await mine(who)).list as { queue?: unknown }[]).map((s) => s.queue);
      // A fair queue: B's first file waits only for A's first, not for A's second, which waits for both.
      expect(await queues(a.leader)).toEqual([
        { ahead: 2, waitSeconds: null },
        { ahead: 0, waitSeconds: null },
      ]);
      expect(await queues(b.leader)).toEqual([{ ahead: 1, waitSeconds: null }]);
      // One scored in the last ten minutes, taking (say) 3 s: each waits for the scorings before it and its own, 3 s
      // each with one worker taking them (not the ten minutes over the count, which said 600 s for it: issue 33).
      const took = (ms: number) =>
        t.database.db.updateTable('jobs').set({ runMs: ms }).where('type', '=', 'test.score').where('doneAt', 'is not', null).execute();
      let ran = 0;
      await runDueJobs(t.deps, undefined, { stopping: () => ran++ >= 1 });
      await took(3000);
      expect(await queues(b.leader)).toEqual([{ ahead: 0, waitSeconds: 3 }]);
      expect(await queues(a.leader)).toEqual([{ ahead: 1, waitSeconds: 6 }, undefined]);
      // The workers take them in that order: B's first before A's second; the scorings took 3 s and 5 s on average 4.
      ran = 0;
      await runDueJobs(t.deps, undefined, { stopping: () => ran++ >= 1 });
      await t.database.db
        .updateTable('jobs')
        .set({ runMs: 5000 })
        .where('type', '=', 'test.score')
        .where('doneAt', 'is not', null)
        .where('runMs', '<>', 3000)
        .execute();
      expect(await queues(b.leader)).toEqual([undefined]);
      expect(await queues(a.leader)).toEqual([{ ahead: 0, waitSeconds: 4 }, undefined]);
      // Two workers scoring at once share the files before one and its own: three files, two rounds of 4 s.
      const busy = await t.database.db
        .insertInto('jobs')
        .values(
          [0, 1].map(() => ({
            type: 'test.score',
            payload: '{"submissionId":1}',
            runAt: now.toISOString(),
            createdAt: now.toISOString(),
            lockedBy: 'w-other',
            lockedUntil: new Date(now.getTime() + 60_000).toISOString(),
          })),
        )
        .returning('id')
        .execute();
      expect(await queues(a.leader)).toEqual([{ ahead: 2, waitSeconds: 8 }, undefined]);
      await t.database.db
        .deleteFrom('jobs')
        .where(
          'id',
          'in',
          busy.map((j) => j.id),
        )
        .execute();
      // The organisers see the competition's queue: one waiting; a refused file counts as failed in the last hour.
      // (Other tests may have left files waiting for a later day: counted from what was there before.)
      const queue = async () =>
        body(await org.get(`/api/review/test/queue/${competitionId}`)).data as { waiting: number; running: number; failedLastHour: number };
      const before = { ...(await queue()), waiting: (await queue()).waiting - 1 };
      const plus = (waiting: number, failedLastHour: number) => ({
        waiting: before.waiting + waiting,
        running: before.running,
        failedLastHour: before.failedLastHour + failedLastHour,
      });
      expect((await submit(b.leader, 'id,y\nnope,1\n')).statusCode).toBe(200);
      expect(await queue()).toEqual(plus(2, 0));
      await runDueJobs(t.deps);
      expect(await queues(a.leader)).toEqual([undefined, undefined]);
      expect(await queue()).toEqual(plus(0, 1));
      // An hour later the failure has left the count; a participant cannot look.
      now = new Date('2026-03-20T06:30:01Z');
      expect((await queue()).failedLastHour).toBe(0);
      expect((await a.leader.get(`/api/review/test/queue/${competitionId}`)).statusCode).toBe(403);
    } finally {
      now = new Date('2026-03-20T02:00:00Z');
    }
  });

  it('refuses a file that cannot be parsed before it counts against the day, naming what is wrong', async () => {
    // What other tests left due runs first, so that "nothing was queued" below is this test's.
    while (await runDueJobs(t.deps));
    const { leader } = await team();
    const refusals: [string | Buffer, string][] = [
      ['ID,label\nu0,1\n', '第1行：表头须包含“id”和“y”两列，当前表头为：ID,label'],
      ['', '文件为空'],
      ['\n\n', '文件为空'],
      ['id,y\n', '文件只有表头，没有预测数据'],
      [Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00]), 'ZIP压缩包已损坏或不完整，无法解压，请重新压缩后上传'],
      [Buffer.from([0x69, 0x64, 0x2c, 0x79, 0x0a, 0x00, 0xff]), '第2行：含有空字符（NUL），不是文本格式的CSV；若为不带BOM的UTF-16文件，请另存为UTF-8编码的CSV'],
    ];
    for (const [content, message] of refusals) {
      const res = await submit(leader, content as string);
      expect([res.statusCode, body(res).message, body(res).data?.fields]).toEqual([400, message, { file: message }]);
    }
    // Nothing was stored, queued or counted: the day's three attempts are all still there. Each refusal stays in the
    // team's history with its problems, like a refusal of the scorer (issue 33), and no file behind it.
    const history = await mine(leader);
    expect(history.usedToday).toBe(0);
    expect(history.list.map((s: { status: number; reason: string }) => [s.status, s.reason])).toEqual(refusals.map(([, message]) => [3, message]).reverse());
    const kept = await t.database.db.selectFrom('testSubmissions').select('fileRemovedAt').where('teamId', '=', history.list[0].teamId).execute();
    expect(kept.every((r) => r.fileRemovedAt !== null)).toBe(true);
    expect(await runDueJobs(t.deps)).toBe(0);
    for (let i = 0; i < 3; i++) expect((await submit(leader, prediction(1))).statusCode).toBe(200);
    expect(body(await submit(leader, 'x,y\n')).message).toBe('第1行：表头须包含“id”和“y”两列，当前表头为：x,y');
    expect((await submit(leader, prediction(1))).statusCode).toBe(429);
    await runDueJobs(t.deps);
  });

  it('reports a malformed file as failed with line numbers, without answer values', async () => {
    const { leader } = await team();
    await submit(leader, 'id,y\nu0,1\nu0,2\nzz,3\n');
    await runDueJobs(t.deps);
    const [s] = (await mine(leader)).list;
    expect(s.status).toBe(3);
    expect(s.reason).toBe('第3行：编号“u0”重复；第4行：编号“zz”不在测试集中；缺少39个编号的预测，例如：u1、u2、u3');
  });

  it('refuses outsiders, teams without the question, and submissions outside the window', async () => {
    expect((await t.app.inject({ method: 'POST', url: `/api/review/test/${questionId}` })).statusCode).toBe(401);
    const username = `nochoice${++seq}`;
    await registerUser(t.app, username);
    const lone = await loggedIn(t.app, username);
    expect(body(await submit(lone, prediction(0))).message).toBe('您的队伍尚未选择该赛题');
    const { leader } = await team();
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    const testPreset = presets.find((p) => p.menuCode === 'SUBMIT_TEST')!.id;
    await org.put(`/api/competition/preset/${testPreset}`, { enable: true, enableEndTime: '2026-03-20T10:00:00+08:00' });
    now = new Date('2026-03-20T02:00:01Z');
    expect(body(await submit(leader, prediction(0))).message).toBe('提交测试已于 2026-03-20 10:00 截止');
    now = new Date('2026-03-20T01:59:59Z');
    expect((await submit(leader, prediction(0))).statusCode).toBe(200);
    now = new Date('2026-03-20T02:00:00Z');
    expect((await submit(leader, prediction(0))).statusCode).toBe(200);
    await org.put(`/api/competition/preset/${testPreset}`, { enable: true });
    await runDueJobs(t.deps);
  });

  it('keeps parallel uploads within the daily limit, counted in Beijing days', async () => {
    const { leader, teamId } = await team();
    const results = await Promise.all(Array.from({ length: 10 }, () => submit(leader, prediction(1))));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(7);
    expect(body(refused[0]!).message).toBe('今日提交次数已用完（每天3次），请明天再试');
    const rows = await t.database.db.selectFrom('testSubmissions').select('id').where('teamId', '=', teamId).execute();
    expect(rows).toHaveLength(3);
    // 23:59 Beijing time is still the same day; 00:00 is the next.
    now = new Date('2026-03-20T15:59:59Z');
    expect(beijingDay(now)).toBe('2026-03-20');
    expect((await submit(leader, prediction(1))).statusCode).toBe(429);
    now = new Date('2026-03-20T16:00:00Z');
    expect(beijingDay(now)).toBe('2026-03-21');
    expect((await submit(leader, prediction(1))).statusCode).toBe(200);
    now = new Date('2026-03-20T02:00:00Z');
    await runDueJobs(t.deps);
  });

  it('re-queues a submission whose worker died mid-scoring, and fails one whose job keeps failing', async () => {
    // Jobs other tests left queued or backing off run first (a day on), so that the counts below are this test's.
    for (let i = 0; i < 4; i++) {
      now = new Date(new Date('2026-03-20T02:00:00Z').getTime() + (i + 1) * 24 * 3600_000);
      while (await runDueJobs(t.deps));
    }
    now = new Date('2026-03-20T02:00:00Z');
    const { leader } = await team();
    await submit(leader, prediction(3));
    const job = await claim(t.database.db, 'dead-worker', now);
    expect(job).toBeTruthy();
    await t.database.db.updateTable('testSubmissions').set({ status: 1 }).where('status', '=', 0).execute();
    expect(await runDueJobs(t.deps)).toBe(0);
    // Nothing is left 评分中 for ever: within a minute of the dead worker's last word, another worker takes the job.
    now = new Date(now.getTime() + 59_000);
    try {
      expect(await runDueJobs(t.deps)).toBe(0);
      now = new Date(now.getTime() + 2_000);
      expect(await runDueJobs(t.deps)).toBe(1);
    } finally {
      now = new Date('2026-03-20T02:00:00Z');
    }
    expect((await mine(leader)).list[0]).toMatchObject({ status: 2, publicScore: 3 });

    await submit(leader, prediction(4));
    const key = (await t.database.db.selectFrom('testSubmissions').select('fileKey').orderBy('id', 'desc').executeTakeFirstOrThrow()).fileKey;
    await t.deps.storage.delete(key);
    for (let i = 0; i < 3; i++) {
      now = new Date(now.getTime() + 60 * 60_000);
      await runDueJobs(t.deps);
    }
    now = new Date('2026-03-20T02:00:00Z');
    expect((await mine(leader)).list[0]).toMatchObject({ status: 3, reason: '评分出错，请重新提交' });
    const failed = await t.database.db.selectFrom('jobs').select(['attempts', 'failed']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(failed).toEqual({ attempts: 3, failed: 1 });
  });

  it('ranks the public board, hides the private one until published, and uses the selected submissions', async () => {
    const a = await team('榜单甲');
    const b = await team('榜单乙');
    await submit(a.leader, prediction(5));
    await submit(a.leader, prediction(0.5));
    await submit(b.leader, prediction(1.5));
    await runDueJobs(t.deps);
    const board = body(await t.app.inject({ method: 'GET', url: `/api/review/test/leaderboard/${questionId}` })).data;
    expect(board).toMatchObject({ board: 'public', metric: 'rmse', higherIsBetter: false });
    const ours = board.entries.filter((e: { teamName: string }) => ['榜单甲', '榜单乙'].includes(e.teamName));
    expect(ours.map((e: { teamName: string; score: number }) => [e.teamName, e.score])).toEqual([
      ['榜单甲', 0.5],
      ['榜单乙', 1.5],
    ]);
    expect(board.entries.map((e: { rank: number }) => e.rank)).toEqual(board.entries.map((_: unknown, i: number) => i + 1));

    // Closed, said plainly with a 200 and nothing private in it, to a team, a stranger, and a visitor alike.
    const stranger = await loggedIn(t.app, (await registerUser(t.app, `stranger${++seq}`)).username);
    for (const who of [a.leader, stranger]) {
      const closed = await who.get(`/api/review/test/leaderboard/${questionId}?board=private`);
      expect([closed.statusCode, body(closed).data]).toEqual([
        200,
        { board: 'private', metric: 'rmse', higherIsBetter: false, published: false, entries: [], total: 0 },
      ]);
    }
    const anon = await t.app.inject({ method: 'GET', url: `/api/review/test/leaderboard/${questionId}?board=private` });
    expect([anon.statusCode, body(anon).data.entries]).toEqual([200, []]);
    expect((await mine(a.leader)).leaderboardPublished).toBe(false);
    // The organiser sees the private board before publishing it.
    const early = await org.get(`/api/review/test/leaderboard/${questionId}?board=private`);
    expect([early.statusCode, body(early).data.published, body(early).data.entries.length > 0]).toEqual([200, false, true]);

    const list = (await mine(a.leader)).list as { id: number; publicScore: number }[];
    const worst = list.find((s) => s.publicScore === 5)!;
    expect((await a.leader.put(`/api/review/test/select/${worst.id}`, { selected: true })).statusCode).toBe(200);
    expect((await b.leader.put(`/api/review/test/select/${worst.id}`, { selected: true })).statusCode).toBe(404);
    expect((await a.leader.put(`/api/review/test/publish/${questionId}`, { published: true })).statusCode).toBe(403);
    // The private board goes out with the grades, not on its own (issue 33); confirming them sets what follows.
    const alone = await org.put(`/api/review/test/publish/${questionId}`, { published: true });
    expect([alone.statusCode, body(alone).message]).toEqual([409, '私榜在确认成绩时与成绩一同公布，请在该赛题的“成绩”页确认成绩']);
    expect((await mine(a.leader)).leaderboardPublished).toBe(false);
    await published(true);
    const priv = body(await a.leader.get(`/api/review/test/leaderboard/${questionId}?board=private`)).data;
    const scores = Object.fromEntries(priv.entries.map((e: { teamName: string; score: number }) => [e.teamName, e.score]));
    // 榜单甲 selected its worse file, so its private score is that file's; 榜单乙 falls back to its best public one.
    expect([scores.榜单甲, scores.榜单乙]).toEqual([5, 1.5]);
    expect((await mine(a.leader)).list.every((s: { privateScore: number | null; status: number }) => s.status !== 2 || s.privateScore !== null)).toBe(true);

    await submit(a.leader, prediction(2));
    await runDueJobs(t.deps);
    const unselected = ((await mine(a.leader)).list as { id: number; selected: boolean }[]).filter((x) => !x.selected);
    expect((await a.leader.put(`/api/review/test/select/${unselected[0]!.id}`, { selected: true })).statusCode).toBe(200);
    const third = await a.leader.put(`/api/review/test/select/${unselected[1]!.id}`, { selected: true });
    expect(body(third).message).toBe('最多选择2个提交作为最终结果');
    expect(((await mine(a.leader)).list as { selected: boolean }[]).filter((x) => x.selected)).toHaveLength(2);
    await published(false);
  });

  it('keeps the final selection to two when three are picked at once', async () => {
    const { leader } = await team();
    for (const err of [1, 2, 3]) await submit(leader, prediction(err));
    await runDueJobs(t.deps);
    const ids = ((await mine(leader)).list as { id: number }[]).map((x) => x.id);
    const results = await Promise.all(ids.map((id) => leader.put(`/api/review/test/select/${id}`, { selected: true })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 409]);
    expect(((await mine(leader)).list as { selected: boolean }[]).filter((x) => x.selected)).toHaveLength(2);
  });

  it('lets the team read back its own prediction files and nobody else', async () => {
    const a = await team();
    await submit(a.leader, prediction(0));
    const key = (await t.database.db.selectFrom('testSubmissions').select('fileKey').where('teamId', '=', a.teamId).executeTakeFirstOrThrow()).fileKey;
    const url = `/api/file/common/download?fileUri=${encodeURIComponent(key)}`;
    expect((await a.leader.get(url)).statusCode).toBe(200);
    const b = await team();
    expect((await b.leader.get(url)).statusCode).toBe(404);
    await runDueJobs(t.deps);
  });
  it("keeps the test score off the team's grade page until the private board is published", async () => {
    const { leader, teamId } = await team();
    const db = t.database.db;
    const stamp = now.toISOString();
    const criteria = JSON.stringify([{ id: 'x', name: '深度', description: null, maxScore: 100, weight: 1 }]);
    await db
      .insertInto('reviewRules')
      .values({
        questionId,
        criteriaJson: criteria,
        judgesPerWork: 1,
        aggregation: 'mean',
        reviewWeight: 70,
        testWeight: 30,
        blind: 1,
        disputeDays: 0,
        gradeState: 2,
        calculatedAt: stamp,
        confirmedAt: stamp,
        updatedAt: stamp,
      })
      .execute();
    await db
      .insertInto('grades')
      .values({
        questionId,
        teamId,
        reviewScoresJson: '[80]',
        reviewScore: 80,
        judgesDone: 1,
        judgesTotal: 1,
        testScore: 0.4321,
        testPoints: 100,
        finalScore: 86,
        rank: 1,
        awardId: null,
        updatedAt: stamp,
      })
      .execute();
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'GRADE_SET')!.id}`, { enable: true });
    const myGrade = async () =>
      (
        body(await leader.get(`/api/review/works/myGrade/${competitionId}`)).data as {
          questionId: number;
          testScore: number | null;
          finalScore: number | null;
        }[]
      ).find((g) => g.questionId === questionId);
    expect(await myGrade()).toMatchObject({ testScore: null, finalScore: 86 });
    await published(true);
    expect(await myGrade()).toMatchObject({ testScore: 0.4321, finalScore: 86 });
    // Once the grades are confirmed, the board they come from is not withdrawn.
    const withdraw = await org.put(`/api/review/test/publish/${questionId}`, { published: false });
    expect([withdraw.statusCode, body(withdraw).message]).toEqual([409, '该赛题的成绩已确认公布，私榜随成绩公布，不能撤回']);
    await published(false);
    await db.deleteFrom('grades').where('questionId', '=', questionId).execute();
    await db.deleteFrom('reviewRules').where('questionId', '=', questionId).execute();
  });

  it('scores a prediction of several classes (a column per class) and keeps the settings a metric reads (issue 21)', async () => {
    const classes = ['猫', '狗', 'bird'];
    const answer = ['id,species', ...IDS.map((id, i) => `${id},${classes[i % 3]}`)].join('\n');
    const q3 = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '多分类题',
        evaluation: { metric: 'multiLogLoss', idColumn: 'id', targetColumn: 'species', publicPercent: 50, dailyLimit: 5 },
      }),
    ).data.id as number;
    expect(
      (await org.request({ method: 'POST', url: `/api/competition/question/${q3}/answer`, ...multipart('answer.csv', Buffer.from(answer), 'text/csv') }))
        .statusCode,
    ).toBe(200);
    await admin.put(`/api/competition/question/review/${q3}`, { reviewed: true });
    const username = `multi${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: '多分类队', info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId: q3 })).statusCode).toBe(200);
    const upload = (text: string) => leader.request({ method: 'POST', url: `/api/review/test/${q3}`, ...multipart('pred.csv', Buffer.from(text), 'text/csv') });
    // The header has no target column: one column per class, in any order; the true class always gets 0.5.
    const rows = IDS.map(
      (id, i) =>
        `${id},${classes
          .map((c) => (c === classes[i % 3] ? '0.5' : '0.25'))
          .reverse()
          .join(',')}`,
    );
    expect((await upload(['id,bird,狗,猫', ...rows].join('\n'))).statusCode).toBe(200);
    await runDueJobs(t.deps);
    const scored = body(await leader.get(`/api/review/test/list/${q3}`)).data;
    expect(scored.format).toMatchObject({ metric: 'multiLogLoss', higherIsBetter: false, idColumn: 'id' });
    expect(scored.list[0].status).toBe(2);
    expect(scored.list[0].publicScore).toBeCloseTo(Math.log(2), 12);
    // A header lacking the id column is refused at once, naming the format.
    expect(body(await upload('bird,狗,猫\n0.5,0.25,0.25\n')).message).toContain('表头须包含“id”列和每个类别一列（列名为类别标签），当前表头为：bird,狗,猫');

    // The positive label and K are kept for the metrics that read them, and shown to the teams.
    const edit = (evaluation: object) =>
      org.put(`/api/competition/question/${q3}`, {
        title: '多分类题',
        evaluation: { idColumn: 'id', targetColumn: 'species', publicPercent: 50, dailyLimit: 5, ...evaluation },
      });
    const stored = async () =>
      (body(await org.get(`/api/competition/question/list/${competitionId}`)).data as { id: number; evaluation: object }[]).find((q) => q.id === q3)!
        .evaluation;
    expect((await edit({ metric: 'mapAtK', k: 3, positiveLabel: '猫' })).statusCode).toBe(200);
    expect(await stored()).toEqual({ metric: 'mapAtK', idColumn: 'id', targetColumn: 'species', publicPercent: 50, dailyLimit: 5, k: 3 });
    expect(body(await leader.get(`/api/review/test/list/${q3}`)).data.format).toMatchObject({ metric: 'mapAtK', k: 3 });
    expect((await edit({ metric: 'precision', positiveLabel: '猫' })).statusCode).toBe(200);
    expect(await stored()).toMatchObject({ metric: 'precision', positiveLabel: '猫' });
    expect((await edit({ metric: 'recall' })).statusCode).toBe(200);
    expect(body(await leader.get(`/api/review/test/list/${q3}`)).data.format).toMatchObject({ metric: 'recall', positiveLabel: '1' });
    const bad = body(await edit({ metric: 'mapAtK', k: 0 }));
    expect(bad.message).toBe('K至少为1');
  });

  it('tells open message streams when a scoring finishes: everyone of a scored file, the team alone of a refused one', async () => {
    // A question of its own, so that words about the other question's earlier scorings can be told apart.
    const q2 = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '直播题',
        evaluation: { metric: 'rmse', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 5 },
      }),
    ).data.id as number;
    await org.request({ method: 'POST', url: `/api/competition/question/${q2}/answer`, ...multipart('answer.csv', Buffer.from(ANSWER), 'text/csv') });
    await admin.put(`/api/competition/question/review/${q2}`, { reviewed: true });
    const username = `live${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: '直播队', info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId: q2 })).statusCode).toBe(200);
    const watcher = await loggedIn(t.app, (await registerUser(t.app, `watch${++seq}`)).username);

    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const open = async (who: Client) => {
      const controller = new AbortController();
      const res = await fetch(`${address}/api/message/notice/stream`, { headers: { cookie: `${SESSION_COOKIE}=${who.token}` }, signal: controller.signal });
      const stream = streamEvents(res, controller);
      return {
        close: stream.close,
        /** The next event, passing over words about the first question's scorings. */
        async next() {
          for (;;) {
            const e = await stream.event();
            if (e.event !== 'board' || (e.data as { questionId: number }).questionId === q2) return e;
          }
        },
      };
    };
    const [team, stranger] = [await open(leader), await open(watcher)];
    const upload = (text: string) => leader.request({ method: 'POST', url: `/api/review/test/${q2}`, ...multipart('pred.csv', Buffer.from(text), 'text/csv') });
    try {
      expect((await team.next()).event).toBe('unread');
      expect((await stranger.next()).event).toBe('unread');
      expect((await upload(prediction(1))).statusCode).toBe(200);
      await runDueJobs(t.deps);
      // A scored file: the team and a stranger watching the board both hear which question moved.
      expect(await team.next()).toEqual({ event: 'board', data: { questionId: q2 } });
      expect(await stranger.next()).toEqual({ event: 'board', data: { questionId: q2 } });
      // A file the scorer refuses (a duplicated id) changes the team's own list only.
      expect((await upload('id,y\nu0,1\nu0,2\n')).statusCode).toBe(200);
      await runDueJobs(t.deps);
      expect(await team.next()).toEqual({ event: 'board', data: { questionId: q2 } });
      expect(body(await leader.get(`/api/review/test/list/${q2}`)).data.list[0]).toMatchObject({ status: 3 });
      // The stranger heard nothing of it: the next thing it hears is a notice published after.
      const notice = body(await admin.post('/api/message/notice', { kind: 0, title: '直播测试', content: '<p>x</p>', target: { scope: 'all' } })).data;
      expect((await admin.post(`/api/message/notice/${notice.id}`, {})).statusCode).toBe(200);
      expect((await stranger.next()).event).toBe('unread');
    } finally {
      team.close();
      stranger.close();
    }
  });
});
