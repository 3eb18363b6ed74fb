import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, runDueJobs } from '../src/jobs/runner.ts';
import { TRIES_AT_ONCE, triesRunning } from '../src/modules/questions/service.ts';
import { MAX_FIELD_CHARS } from '../src/scoring/csv.ts';
import { splitter, type SplitRule } from '../src/scoring/split.ts';
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

/**
 * Issue 32: what an outside test of the test-submission path, the scoring programs and the queue found, closed. A file
 * of one endless line sent through gzip; a body that trickles in past the deadline; a failure whose timing told which
 * rows are public; failed files kept for ever; one organisation taking every try slot; programs holding back built-in
 * scoring; a program's kill reaching its team late.
 */

const IDS = Array.from({ length: 20 }, (_, i) => `u${i}`);
const ANSWER = ['id,label', ...IDS.map((id, i) => `${id},${i % 2}`)].join('\n') + '\n';
const PREDICTION = ANSWER;
/** Mean absolute error with the standard library. */
const MAE = `import csv, json, sys
a = {r["id"]: float(r["label"]) for r in csv.DictReader(open(sys.argv[1]))}
p = {r["id"]: float(r["label"]) for r in csv.DictReader(open(sys.argv[2]))}
print(json.dumps({"score": sum(abs(a[k] - p[k]) for k in a) / len(a)}))
`;
/** MAE that crashes at once on a prediction of 999: what a team's file can make a program do, row by row. */
const POISONED = `import csv, json, sys
a = {r["id"]: float(r["label"]) for r in csv.DictReader(open(sys.argv[1]))}
p = {r["id"]: float(r["label"]) for r in csv.DictReader(open(sys.argv[2]))}
if 999 in p.values():
    sys.exit(4)
print(json.dumps({"score": sum(abs(a[k] - p[k]) for k in a) / len(a)}))
`;
/** A program that never ends. */
const LOOP = 'while True:\n    pass\n';
/** A program that takes three seconds a board, then scores. */
const SLOW = `import json, time
time.sleep(3)
print(json.dumps({"score": 1}))
`;
/** The prediction with `value` on the row of `id`. */
const poisoned = (id: string, value = 999) => ['id,label', ...IDS.map((i, n) => `${i},${i === id ? value : n % 2}`)].join('\n') + '\n';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The competition's end (onlineCompetition), which closes test submission. */
const DEADLINE = new Date('2026-06-30T00:00:00+08:00');

describe.each(DATABASES)('the test-submission path under attack on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let competitionId: number;
  let builtIn: number;
  let custom: number;
  // The clock runs (the worker below measures real time), set back to inside the competition's windows.
  let offset = 0;
  const setNow = (at: Date) => (offset = at.getTime() - Date.now());
  const now = () => new Date(Date.now() + offset);
  setNow(new Date('2026-03-20T02:00:00Z'));
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now }, env: { SESSION_TTL_HOURS: String(24 * 365), FAILED_TEST_FILES_MB: '1' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'hardOrg', '加固大学');
    competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
    builtIn = await question('内置指标', { metric: 'mae', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 5 });
    custom = await question('自定义程序', { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 10 }, MAE);
  });
  afterAll(() => t.close());

  const send = (who: Client, url: string, name: string, content: string | Buffer, type = 'text/csv') =>
    who.request({ method: 'POST', url, ...multipart(name, Buffer.from(content), type) });
  async function question(title: string, evaluation: object, program?: string, by = org, competition = competitionId) {
    const res = await by.post(`/api/competition/question/${competition}`, { title, evaluation });
    expect(res.statusCode).toBe(200);
    const id = body(res).data.id as number;
    expect((await send(by, `/api/competition/question/${id}/answer`, 'answer.csv', ANSWER)).statusCode).toBe(200);
    if (program) expect((await send(by, `/api/question/scorer/${id}`, 'score.py', program, 'text/plain')).statusCode).toBe(200);
    await admin.put(`/api/competition/question/review/${id}`, { reviewed: true });
    return id;
  }
  async function team(questionId: number, competition = competitionId, by = org) {
    const username = `hd${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competition}`, { teamName: `加固队${seq}`, info })).data;
    await by.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    return leader;
  }
  const mine = async (who: Client, questionId: number) => body(await who.get(`/api/review/test/list/${questionId}`)).data;
  const submit = (who: Client, questionId: number, text: string) => send(who, `/api/review/test/${questionId}`, 'pred.csv', text);
  const drain = async () => {
    while (await runDueJobs(t.deps));
  };
  /** An organiser of a new organisation, with a competition of its own open for test submissions. */
  async function otherOrganisation(name: string) {
    const other = await makeOrganiser(t, admin, `hd${name}`, `${name}大学`);
    const competition = await onlineCompetition(admin, other);
    const presets = body(await other.get(`/api/competition/preset/public/list/${competition}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await other.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
    return { other, competition };
  }

  it('refuses a .csv.gz of one endless line naming the line, at upload, at a try and as answers, and memory stays flat', async () => {
    // 64 million characters on the second line, 62 kB compressed: the reader used to grow by tens of bytes a character.
    const bomb = gzipSync(Buffer.concat([Buffer.from('id,label\nu0,'), Buffer.alloc(64 << 20, 0x37)]), { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    const leader = await team(builtIn);
    const message = `第2行：有一个字段超过${MAX_FIELD_CHARS}个字符，请检查是否有引号没有闭合或缺少换行`;
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
    try {
      const submitted = await send(leader, `/api/review/test/${builtIn}`, 'pred.csv.gz', bomb, 'application/gzip');
      expect([submitted.statusCode, body(submitted).message]).toEqual([400, message]);
      const tried = await send(org, `/api/question/scorer/try/${custom}`, 'pred.csv.gz', bomb, 'application/gzip');
      expect([tried.statusCode, body(tried).message]).toEqual([400, `预测文件有误：${message}`]);
      for (const q of [builtIn, custom]) {
        const answer = await send(org, `/api/competition/question/${q}/answer`, 'answer.csv.gz', bomb, 'application/gzip');
        expect([answer.statusCode, body(answer).message]).toEqual([400, `答案文件有误：${message}`]);
      }
    } finally {
      clearInterval(sampler);
    }
    // Four readings of 64 MB each: none held more than a few chunks of it.
    expect(peak - base).toBeLessThan(64 * 1024 ** 2);
    // Refused before the quota, and shown in the team's history with its reason (issue 33).
    const after = await mine(leader, builtIn);
    expect([after.usedToday, after.list.map((s: { status: number; reason: string }) => [s.status, s.reason])]).toEqual([0, [[3, message]]]);
  });

  it('refuses a file whose last byte arrives after the deadline, and dates an accepted one when it arrived whole', async () => {
    const leader = await team(builtIn);
    const tmp = path.join(t.config.dataDir, 'files', '.tmp');
    /** Sends the prediction in two parts; between them (once the server is storing the file) the clock moves to `then`. */
    async function trickle(start: Date, then: Date) {
      setNow(start);
      const { payload, headers } = multipart('pred.csv', Buffer.from(PREDICTION), 'text/csv');
      const cut = payload.length - 40;
      const stream = new Readable({ read() {} });
      stream.push(payload.subarray(0, cut));
      const temps = fs.existsSync(tmp) ? fs.readdirSync(tmp).length : 0;
      const response = leader.request({ method: 'POST', url: `/api/review/test/${builtIn}`, payload: stream, headers });
      // The window was asked when the request began: the server is now writing the file.
      await expect.poll(() => (fs.existsSync(tmp) ? fs.readdirSync(tmp).length : 0)).toBeGreaterThan(temps);
      setNow(then);
      stream.push(payload.subarray(cut));
      stream.push(null);
      return response;
    }
    try {
      const late = await trickle(new Date(DEADLINE.getTime() - 1000), new Date(DEADLINE.getTime() + 60_000));
      expect([late.statusCode, body(late).message]).toEqual([409, '提交测试已于 2026-06-30 00:00 截止（文件传完时已过截止时间），本次提交未被接收']);
      expect(await mine(leader, builtIn)).toMatchObject({ list: [], usedToday: 0 });
      expect(fs.readdirSync(tmp)).toEqual([]);

      const arrived = new Date(DEADLINE.getTime() - 30_000);
      const onTime = await trickle(new Date(DEADLINE.getTime() - 90_000), arrived);
      expect(onTime.statusCode).toBe(200);
      const [s] = (await mine(leader, builtIn)).list;
      // Dated when its last byte arrived (the clock runs on meanwhile), not when the request began.
      expect(new Date(s.createdAt).getTime() - arrived.getTime()).toBeGreaterThanOrEqual(0);
      expect(new Date(s.createdAt).getTime() - arrived.getTime()).toBeLessThan(10_000);
    } finally {
      setNow(new Date('2026-03-20T02:00:00Z'));
    }
  });

  it('holds a program’s failure until both boards’ limits have passed, whichever board failed, and says nothing of which', async () => {
    const q = await question(
      '毒行题',
      { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 30 },
      POISONED,
    );
    const secret = await t.database.db.selectFrom('questions').select(['salt', 'splitRule']).where('id', '=', q).executeTakeFirstOrThrow();
    const flags = splitter({ salt: secret.salt!, publicShare: 0.5, split: secret.splitRule as SplitRule })(IDS);
    const publicId = IDS.find((_, i) => flags[i] === 1)!;
    const privateId = IDS.find((_, i) => flags[i] === 0)!;

    // The organiser's try runs both boards and says which failed, with the other board's score.
    const tryOf = async (text: string) => body(await send(org, `/api/question/scorer/try/${q}`, 'pred.csv', text)).data;
    expect(await tryOf(poisoned(publicId))).toMatchObject({
      ok: false,
      message: '公榜部分运行失败：评分程序异常退出（退出码4）',
      publicScore: null,
      privateScore: 0,
    });
    expect(await tryOf(poisoned(privateId))).toMatchObject({
      ok: false,
      message: '私榜部分运行失败：评分程序异常退出（退出码4）',
      publicScore: 0,
      privateScore: null,
    });

    const [a, b] = [await team(q), await team(q)];
    expect((await submit(a, q, poisoned(publicId))).statusCode).toBe(200);
    expect((await submit(b, q, poisoned(privateId))).statusCode).toBe(200);
    const started = now().getTime();
    await drain();
    const state = async (who: Client) => {
      const m = await mine(who, q);
      return [m.list[0].status, m.list[0].reason, m.usedToday];
    };
    // Both held while the two runs could still be going (30 s each): being scored, the attempt still taken.
    expect([await state(a), await state(b)]).toEqual([
      [1, null, 1],
      [1, null, 1],
    ]);
    setNow(new Date(started + 45_000));
    await drain();
    expect([await state(a), await state(b)]).toEqual([
      [1, null, 1],
      [1, null, 1],
    ]);
    // Past both limits (and the moments their scorings began), both fail, in the same words.
    setNow(new Date(started + 75_000));
    await drain();
    const reason = '评分失败：评分程序异常退出（退出码4），本次提交不计入次数；请检查文件是否符合赛题说明，或联系主办方';
    expect([await state(a), await state(b)]).toEqual([
      [3, reason, 0],
      [3, reason, 0],
    ]);
    setNow(new Date('2026-03-20T02:00:00Z'));
  });

  it('keeps a team’s failed files within its bound: the oldest are deleted, their outcomes stay', async () => {
    const leader = await team(builtIn);
    // An unknown id: refused in the scoring job, attempt given back. About 400 kB each, padded in a column nobody reads.
    const pad = 'x'.repeat(20_000);
    const refused = ['id,label,note', 'nobody,1,', ...IDS.map((id, i) => `${id},${i % 2},${pad}`)].join('\n') + '\n';
    for (let i = 0; i < 4; i++) {
      expect((await submit(leader, builtIn, refused)).statusCode).toBe(200);
      await drain();
    }
    const list = (await mine(leader, builtIn)).list as { id: number; status: number; reason: string }[];
    expect(list.map((s) => s.status)).toEqual([3, 3, 3, 3]);
    expect(new Set(list.map((s) => s.reason))).toEqual(new Set(['第2行：编号“nobody”不在测试集中']));
    const rows = await t.database.db
      .selectFrom('testSubmissions')
      .select(['id', 'fileKey', 'fileRemovedAt', 'size'])
      .where(
        'id',
        'in',
        list.map((s) => s.id),
      )
      .orderBy('id')
      .execute();
    // FAILED_TEST_FILES_MB=1: the two newest fit, the two oldest are gone from the store and from the files table.
    expect(rows[0]!.size).toBeGreaterThan(400_000);
    expect(rows.map((r) => r.fileRemovedAt !== null)).toEqual([true, true, false, false]);
    const stored = async (key: string) => (await t.deps.storage.size(key)) !== null;
    expect(await Promise.all(rows.map((r) => stored(r.fileKey)))).toEqual([false, false, true, true]);
    const fileRows = await t.database.db
      .selectFrom('files')
      .select('key')
      .where(
        'key',
        'in',
        rows.map((r) => r.fileKey),
      )
      .execute();
    expect(fileRows.map((f) => f.key).sort()).toEqual([rows[2]!.fileKey, rows[3]!.fileKey].sort());
    expect((await mine(leader, builtIn)).usedToday).toBe(0);
  });

  it('lets each organisation try one program at a time, so that one cannot take every slot', async () => {
    const slow = await question(
      '慢程序',
      { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 30 },
      SLOW,
    );
    const others = [await otherOrganisation('试运行甲'), await otherOrganisation('试运行乙')];
    const theirs = await Promise.all(
      others.map(({ other, competition }) =>
        question(
          '慢程序',
          { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 30 },
          SLOW,
          other,
          competition,
        ),
      ),
    );
    const tryOn = (who: Client, q: number) => send(who, `/api/question/scorer/try/${q}`, 'pred.csv', PREDICTION);
    const orgIdOf = async (q: number) =>
      (
        await t.database.db
          .selectFrom('questions as q')
          .innerJoin('competitions as c', 'c.id', 'q.competitionId')
          .select('c.orgId')
          .where('q.id', '=', q)
          .executeTakeFirstOrThrow()
      ).orgId;

    const first = tryOn(org, slow);
    await expect.poll(async () => triesRunning(await orgIdOf(slow)), { timeout: 20_000 }).toBe(1);
    // Its second try waits for its first; another organisation's goes ahead.
    const again = await tryOn(org, slow);
    expect([again.statusCode, body(again).message]).toEqual([429, '本单位已有一个评分程序正在试运行，请等它结束后再试']);
    const second = tryOn(others[0]!.other, theirs[0]!);
    await expect.poll(() => triesRunning(), { timeout: 20_000 }).toBe(TRIES_AT_ONCE);
    // Every slot of this process is taken now, by two organisations, one each.
    const third = await tryOn(others[1]!.other, theirs[1]!);
    expect([third.statusCode, body(third).message]).toEqual([429, '正在试运行的评分程序较多，请稍后再试']);
    for (const res of await Promise.all([first, second])) expect([res.statusCode, body(res).data.ok]).toEqual([200, true]);
    expect(triesRunning()).toBe(0);
    expect(body(await tryOn(others[1]!.other, theirs[1]!)).data).toMatchObject({ ok: true, publicScore: 1, privateScore: 1 });
  });

  it('scores built-in questions while programs run, and serves organisations in turn', async () => {
    const slowQ = await question(
      '慢队列',
      { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 30 },
      SLOW,
    );
    const { other, competition } = await otherOrganisation('队列');
    const theirs = await question(
      '别家程序',
      { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 30 },
      MAE,
      other,
      competition,
    );
    const flood = [await team(slowQ), await team(slowQ)];
    const newcomer = await team(theirs, competition, other);
    const plain = await team(builtIn);
    const statuses = () => Promise.all(flood.map(async (f) => (await mine(f, slowQ)).list[0].status as number));
    const stop = startWorker(t.deps);
    try {
      // This organisation's teams send files to a program of 6 s a file; the first is being scored.
      for (const leader of flood) expect((await submit(leader, slowQ, PREDICTION)).statusCode).toBe(200);
      await expect.poll(statuses, { timeout: 20_000 }).toEqual([1, 0]);
      // Then another organisation's team sends one: one turn of the first organisation's is ahead of it, not all.
      expect((await submit(newcomer, theirs, PREDICTION)).statusCode).toBe(200);
      expect((await mine(newcomer, theirs)).list[0].queue).toMatchObject({ ahead: 1 });
      // A built-in question's file is scored while the program still runs.
      expect((await submit(plain, builtIn, PREDICTION)).statusCode).toBe(200);
      await expect.poll(async () => (await mine(plain, builtIn)).list[0].status, { timeout: 20_000 }).toBe(2);
      expect(await statuses()).toEqual([1, 0]);
      // The other organisation's file is scored next, before the first organisation's second.
      await expect.poll(async () => (await mine(newcomer, theirs)).list[0].status, { timeout: 30_000 }).toBe(2);
      expect((await statuses())[1]).not.toBe(2);
    } finally {
      await stop();
    }
    await drain();
    expect(await statuses()).toEqual([2, 2]);
  }, 60_000);

  it('shows a killed program’s failure within 2 s of its last kill, with a real worker', async () => {
    const q = await question('死循环', { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 2 }, LOOP);
    const leader = await team(q);
    const stop = startWorker(t.deps);
    try {
      expect((await submit(leader, q, PREDICTION)).statusCode).toBe(200);
      let scoringFrom = 0;
      let failedAt = 0;
      while (!failedAt) {
        const [s] = (await mine(leader, q)).list;
        if (s.status === 1 && !scoringFrom) scoringFrom = Date.now();
        if (s.status === 3) failedAt = Date.now();
        await sleep(20);
      }
      // Each board's run is killed at its 2 s limit: the second kill comes 4 s after the scoring began.
      const lastKill = scoringFrom + 4_000;
      expect(failedAt - lastKill).toBeGreaterThanOrEqual(-100);
      expect(failedAt - lastKill).toBeLessThan(2_000);
      expect((await mine(leader, q)).list[0].reason).toBe(
        '评分失败：评分程序超过时间限制，已被终止，本次提交不计入次数；请检查文件是否符合赛题说明，或联系主办方',
      );
    } finally {
      await stop();
    }
  }, 60_000);
});
