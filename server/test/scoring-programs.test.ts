import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER, EXAMPLE_SCORER, SESSION_COOKIE, failureSide } from '@contest/shared';
import { runDueJobs } from '../src/jobs/runner.ts';
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
import { zipOf } from './zip.ts';

/**
 * Issue 23, items 1, 2 and 4: organisers upload and try their own scoring programs, which score the teams' files in the
 * real sandbox; a program that fails costs the team nothing and tells only the organisers why.
 */

const IDS = Array.from({ length: 40 }, (_, i) => `u${i}`);
const ANSWER = ['id,label', ...IDS.map((id, i) => `${id},${i % 4}`)].join('\n') + '\n';
/** A prediction right on every row, or off by `off` on each. */
const prediction = (off = 0, header = 'id,label') => [header, ...IDS.map((id, i) => `${id},${(i % 4) + off}`)].join('\n') + '\n';

/** Mean absolute error with the standard library, and the rows it saw on standard error. */
const MAE = `import csv, json, sys
a = {r["id"]: float(r["label"]) for r in csv.DictReader(open(sys.argv[1]))}
p = {r["id"]: float(r["label"]) for r in csv.DictReader(open(sys.argv[2]))}
print("rows", len(a), file=sys.stderr)
print(json.dumps({"score": sum(abs(a[k] - p[k]) for k in a) / len(a)}))
`;
/** The rows each run sees, as its score. */
const ROWS = `import csv, json, sys
a = list(csv.DictReader(open(sys.argv[1]))); p = list(csv.DictReader(open(sys.argv[2])))
assert sorted(r["id"] for r in a) == sorted(r["id"] for r in p)
print(json.dumps({"score": len(a)}))
`;
/** A program with a fault: a traceback on standard error that names a secret of the answers. */
const BROKEN = `import sys
print("Traceback: KeyError secret-answer-u7", file=sys.stderr)
sys.exit(3)
`;

describe.each(DATABASES)('organisers’ own scoring programs on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let stranger: Client;
  let competitionId: number;
  let seq = 0;

  // Inside the competition's registration and submission windows.
  let now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'progOrg', '程序大学');
    stranger = await makeOrganiser(t, admin, 'progOther', '别的大学');
    competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
  });
  afterAll(() => t.close());

  const EVAL = { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 30 };
  const send = (who: Client, url: string, name: string, content: string | Buffer, type = 'text/plain') =>
    who.request({ method: 'POST', url, ...multipart(name, Buffer.from(content), type) });
  const uploadProgram = (id: number, name: string, content: string | Buffer, who = org) => send(who, `/api/question/scorer/${id}`, name, content);
  const tryProgram = (id: number, text: string, who = org) => send(who, `/api/question/scorer/try/${id}`, 'pred.csv', text, 'text/csv');
  async function question(title: string, evaluation: object = EVAL, program: string | null = MAE) {
    const res = await org.post(`/api/competition/question/${competitionId}`, { title, evaluation });
    expect(res.statusCode).toBe(200);
    const id = body(res).data.id as number;
    expect((await send(org, `/api/competition/question/${id}/answer`, 'answer.csv', ANSWER, 'text/csv')).statusCode).toBe(200);
    if (program) expect((await uploadProgram(id, 'score.py', program)).statusCode).toBe(200);
    await admin.put(`/api/competition/question/review/${id}`, { reviewed: true });
    return id;
  }
  async function team(questionId: number) {
    const username = `sp${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `程序队${seq}`, info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    return { leader, name: `程序队${seq}`, teamId: r.teamId as number };
  }
  const submit = (who: Client, questionId: number, text: string) => send(who, `/api/review/test/${questionId}`, 'pred.csv', text, 'text/csv');
  const mine = async (who: Client, questionId: number) => body(await who.get(`/api/review/test/list/${questionId}`)).data;
  const board = async (questionId: number) => body(await t.app.inject({ method: 'GET', url: `/api/review/test/leaderboard/${questionId}` })).data;
  const drain = async () => {
    while (await runDueJobs(t.deps));
  };
  /**
   * A program's failure on a file sent now is held until the longest its runs could take has passed since its scoring
   * began (issue 32): the clock moves past both boards' time limits, and the held outcomes are stored.
   */
  const release = async () => {
    now = new Date(now.getTime() + (2 * EVAL.timeLimitSec + 1) * 1000);
    await drain();
  };

  it('takes a .py or a .zip with score.py at its root, describes it, and refuses anything else with why', async () => {
    const q = await question('上传题', EVAL, null);
    expect(body(await org.get(`/api/question/scorer/${q}`)).data).toBeNull();

    const refusals: [string, string | Buffer, string][] = [
      ['score.txt', 'print(1)', '评分程序须为 .py 文件，或根目录含 score.py 的 .zip 压缩包'],
      ['score.zip', 'not a zip', '文件扩展名为.zip，但不是有效的ZIP压缩包'],
      ['p.zip', zipOf({ 'scorer/score.py': 'print(1)' }), 'score.py 须在压缩包的根目录，现在在“scorer/score.py”，请直接压缩程序文件而不是其所在的文件夹'],
      ['p.zip', zipOf({ 'main.py': 'print(1)' }), '压缩包的根目录中没有 score.py'],
      [
        'p.zip',
        zipOf({ 'score.py': 'print(1)', '../evil.py': 'x' }),
        '压缩包中的文件名“../evil.py”不可用：文件和文件夹名只能包含字母、数字、下划线、连字符和点',
      ],
      ['p.zip', zipOf({ 'score.py': 'print(1)', 'answer.csv': 'x' }), '压缩包中不能有 answer.csv：运行时由平台放入该文件'],
      ['score.py', '', '评分程序文件为空'],
    ];
    for (const [name, content, message] of refusals) {
      const res = await uploadProgram(q, name, content);
      expect([name, res.statusCode, body(res).message]).toEqual([name, 400, message]);
    }
    expect(body(await org.get(`/api/question/scorer/${q}`)).data).toBeNull();

    const res = await uploadProgram(q, '我的评分.py', MAE);
    expect(res.statusCode).toBe(200);
    const described = body(await org.get(`/api/question/scorer/${q}`)).data;
    expect(described).toEqual({
      name: '我的评分.py',
      size: Buffer.byteLength(MAE),
      sha256: createHash('sha256').update(MAE).digest('hex'),
      uploadedAt: expect.any(String),
      uploaderName: 'progOrg',
    });
    expect(body(await org.get(`/api/competition/question/check/${q}`)).data.scorer).toEqual(described);

    // Only those who may edit the question: another organisation's organiser sees no such question.
    expect((await uploadProgram(q, 'score.py', BROKEN, stranger)).statusCode).toBe(404);
    expect((await stranger.get(`/api/question/scorer/${q}`)).statusCode).toBe(404);
    expect((await tryProgram(q, prediction(), stranger)).statusCode).toBe(404);
    expect(body(await org.get(`/api/question/scorer/${q}`)).data.sha256).toBe(described.sha256);

    // A question scored by a built-in metric has no program.
    const builtIn = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '内置',
        evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 5 },
      }),
    ).data.id;
    const other = await uploadProgram(builtIn, 'score.py', MAE);
    expect([other.statusCode, body(other).message]).toEqual([409, '请先将评分指标设为“自定义评分程序”并保存，再上传或试运行评分程序']);
  });

  it('names the platform’s own folders for the sandbox to cover: its code, data, uploads and client packages', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    expect(t.config.scorer.hidden).toEqual(expect.arrayContaining([root, t.config.dataDir, t.config.uploadsDir, t.config.clientDir]));
  });

  it('checks an answer file for its ids only, and keeps the setting of direction and time limit', async () => {
    const q = body(await org.post(`/api/competition/question/${competitionId}`, { title: '答案题', evaluation: EVAL })).data.id;
    const twice = await send(org, `/api/competition/question/${q}/answer`, 'a.csv', 'id,anything\nu1,x\nu1,y\n', 'text/csv');
    expect([twice.statusCode, body(twice).message]).toEqual([400, '答案文件有误：第3行：答案文件中编号“u1”重复']);
    const noId = await send(org, `/api/competition/question/${q}/answer`, 'a.csv', 'key,anything\nu1,x\n', 'text/csv');
    expect([noId.statusCode, body(noId).message]).toEqual([400, '答案文件有误：第1行：答案文件表头缺少“id”列']);
    // Any other columns, numeric or not: the program reads them.
    const ok = await send(org, `/api/competition/question/${q}/answer`, 'a.csv', 'id,boxes,class\nu1,"1 2 3 4",cat\nu2,,dog\n', 'text/csv');
    expect([ok.statusCode, body(ok).data]).toEqual([200, { rows: 2 }]);
    const evaluation = body(await org.get(`/api/competition/question/check/${q}`)).data.evaluation;
    expect(evaluation).toEqual({ metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 30 });
    const bad = await org.post(`/api/competition/question/${competitionId}`, { title: '超时', evaluation: { ...EVAL, timeLimitSec: 601 } });
    expect([bad.statusCode, body(bad).message]).toEqual([400, '时间限制至多为600秒']);
    const noTarget = await org.post(`/api/competition/question/${competitionId}`, { title: '无目标列', evaluation: { ...EVAL, metric: 'mae' } });
    expect([noTarget.statusCode, body(noTarget).message]).toEqual([400, '请输入目标列名']);
  });

  it('tries a program on a prediction file: both scores, the failure with its standard error, or the file’s problems', async () => {
    const q = await question('试运行题', EVAL, ROWS);
    const ok = body(await tryProgram(q, prediction())).data;
    // Each run sees only its board's rows; together they are every row.
    expect(ok).toMatchObject({ ok: true, message: null });
    expect([ok.publicScore > 0, ok.privateScore > 0, ok.publicScore + ok.privateScore]).toEqual([true, true, IDS.length]);

    const missing = await tryProgram(q, prediction().split('\n').slice(0, 30).join('\n'));
    expect([missing.statusCode, body(missing).message]).toEqual([400, `预测文件有误：缺少${IDS.length - 29}个测试集编号的预测`]);

    expect((await uploadProgram(q, 'score.py', BROKEN)).statusCode).toBe(200);
    const failed = body(await tryProgram(q, prediction())).data;
    expect(failed).toMatchObject({ ok: false, publicScore: null, privateScore: null, message: '公榜部分运行失败：评分程序异常退出（退出码3）' });
    expect(failed.stderr).toContain('Traceback: KeyError secret-answer-u7');
    // No submission was made.
    expect(body(await org.get(`/api/review/test/rescore/${q}`)).data).toEqual({ total: 0, done: 0, running: false });
  });

  it('scores the teams’ files with the program in the sandbox, ranking by the direction set', async () => {
    const q = await question('排名题');
    const a = await team(q);
    const b = await team(q);
    expect((await mine(a.leader, q)).format).toEqual({ metric: 'custom', higherIsBetter: false, idColumn: 'id' });
    // Only the id column is required; a file without it is refused before the day's quota is touched.
    const noId = await submit(a.leader, q, 'key,label\nu1,1\n');
    expect([noId.statusCode, body(noId).message]).toEqual([400, '第1行：表头须包含“id”列，当前表头为：key,label']);
    expect((await submit(a.leader, q, prediction(1))).statusCode).toBe(200);
    expect((await submit(b.leader, q, prediction(2))).statusCode).toBe(200);
    await drain();
    const [s] = (await mine(a.leader, q)).list;
    expect([s.status, s.publicScore, s.reason]).toEqual([2, 1, null]);
    // Lower is better: A's error of 1 ranks above B's 2.
    expect((await board(q)).entries.map((e: { teamName: string; score: number }) => [e.teamName, e.score])).toEqual([
      [a.name, 1],
      [b.name, 2],
    ]);
    expect((await board(q)).higherIsBetter).toBe(false);
    // Unnamed, the boards call it 自定义评分程序 (no name sent); named, they use the organiser's name (issue 33).
    expect((await board(q)).metricName).toBeUndefined();
    const named = await question('命名题', { ...EVAL, metricName: ' 路径总成本 ' });
    expect(body(await org.get(`/api/competition/question/check/${named}`)).data.evaluation.metricName).toBe('路径总成本');
    expect((await board(named)).metricName).toBe('路径总成本');
    const c = await team(named);
    expect((await mine(c.leader, named)).format).toEqual({ metric: 'custom', higherIsBetter: false, idColumn: 'id', metricName: '路径总成本' });
    const long = await org.post(`/api/competition/question/${competitionId}`, { title: '长名', evaluation: { ...EVAL, metricName: '名'.repeat(31) } });
    expect([long.statusCode, body(long).message]).toEqual([400, '指标名称至多30个字']);

    // Grades read the test score in the same direction: A's lower cost is the best, worth all the test points.
    const db = t.database.db;
    const stamp = new Date().toISOString();
    const criteria = JSON.stringify([{ id: 'x', name: '深度', description: null, maxScore: 100, weight: 1 }]);
    await db
      .insertInto('reviewRules')
      .values({
        questionId: q,
        criteriaJson: criteria,
        judgesPerWork: 1,
        aggregation: 'mean',
        reviewWeight: 0,
        testWeight: 100,
        blind: 1,
        disputeDays: 0,
        updatedAt: stamp,
      })
      .execute();
    for (const who of [a, b]) {
      const userId = body(await who.leader.get('/api/team/userinfo/')).data.id as number;
      await db
        .insertInto('works')
        .values({
          competitionId,
          questionId: q,
          teamId: who.teamId,
          userId,
          version: 1,
          fileKey: `works-${who.teamId}`,
          fileName: 'w.zip',
          size: 1,
          sha256: 'x',
          completedAt: stamp,
        })
        .execute();
    }
    expect((await org.post(`/api/review/works/calcFinalScore/${q}`)).statusCode).toBe(200);
    const grades = body(await org.get(`/api/review/works/grade/${q}`)).data.list as { teamId: number; testScore: number; testPoints: number }[];
    const pointsOf = (teamId: number) => grades.find((g) => g.teamId === teamId)!.testPoints;
    expect([pointsOf(a.teamId), pointsOf(b.teamId)]).toEqual([100, 50]);

    // The direction turned: the board is ranked again, B first.
    expect((await org.put(`/api/competition/question/${q}`, { title: '排名题', evaluation: { ...EVAL, higherIsBetter: true } })).statusCode).toBe(200);
    await drain();
    expect((await board(q)).entries.map((e: { teamName: string }) => e.teamName)).toEqual([b.name, a.name]);
    // And so do the grades: B's higher score is now the best.
    expect((await org.post(`/api/review/works/calcFinalScore/${q}`)).statusCode).toBe(200);
    const again = body(await org.get(`/api/review/works/grade/${q}`)).data.list as { teamId: number; testPoints: number }[];
    expect([b.teamId, a.teamId].map((id) => again.find((g) => g.teamId === id)!.testPoints)).toEqual([100, 50]);
  });

  it('a program that fails gives the team “评分失败”, its attempt back, and the organisers its standard error', async () => {
    const q = await question('失败题', { ...EVAL, dailyLimit: 1 }, BROKEN);
    const a = await team(q);
    expect((await submit(a.leader, q, prediction())).statusCode).toBe(200);
    await drain();
    // Held: still being scored for the team, its attempt still taken, nothing of the failure shown yet.
    const held = await mine(a.leader, q);
    expect([held.list[0].status, held.list[0].reason, held.usedToday]).toEqual([1, null, 1]);
    await release();
    const tests = await mine(a.leader, q);
    const [s] = tests.list;
    expect([s.status, s.reason]).toEqual([3, '评分失败：评分程序异常退出（退出码3），本次提交不计入次数；请检查文件是否符合赛题说明，或联系主办方']);
    expect(JSON.stringify(tests)).not.toContain('secret-answer');
    // The day's only attempt is given back.
    expect(tests.usedToday).toBe(0);
    const failures = body(await org.get(`/api/review/test/failures/${competitionId}`)).data;
    const mineFailed = failures.find((f: { id: number }) => f.id === s.id);
    expect(mineFailed).toMatchObject({ questionTitle: '失败题', teamName: a.name, reason: s.reason });
    expect(failureSide(mineFailed)).toBe('organiser');
    expect(mineFailed.scorerLog).toContain('Traceback: KeyError secret-answer-u7');
    expect((await stranger.get(`/api/review/test/failures/${competitionId}`)).statusCode).toBe(404);
    expect(body(await org.get(`/api/review/test/queue/${competitionId}`)).data.failedLastHour).toBeGreaterThanOrEqual(1);

    // The organiser fixes the program: every submission is scored again, and the failure becomes a score.
    expect((await uploadProgram(q, 'score.py', MAE)).statusCode).toBe(200);
    await drain();
    const [again] = (await mine(a.leader, q)).list;
    expect([again.status, again.publicScore, again.reason]).toEqual([2, 0, null]);
    // Scored again by a program that fails: the file was counted when it was sent, so no refund is promised.
    expect((await uploadProgram(q, 'score.py', BROKEN)).statusCode).toBe(200);
    await drain();
    expect((await mine(a.leader, q)).list[0]).toMatchObject({ status: 3, reason: '评分失败：评分程序异常退出（退出码3），请联系主办方' });
  });

  it('a question moved from a built-in metric to a program is scored again once the program is uploaded', async () => {
    const builtIn = { metric: 'mae', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 5 };
    const q = await question('换程序题', builtIn, null);
    const a = await team(q);
    expect((await submit(a.leader, q, prediction(2))).statusCode).toBe(200);
    await drain();
    expect((await mine(a.leader, q)).list[0]).toMatchObject({ status: 2, publicScore: 2 });
    // To an own program, not uploaded yet: new files wait for it, and the one sent cannot be scored meanwhile.
    expect((await org.put(`/api/competition/question/${q}`, { title: '换程序题', evaluation: EVAL })).statusCode).toBe(200);
    const early = await submit(a.leader, q, prediction(1));
    expect([early.statusCode, body(early).message]).toEqual([409, '该赛题尚未开放测试']);
    await drain();
    expect((await mine(a.leader, q)).list[0]).toMatchObject({ status: 3, reason: '评分失败：主办方尚未上传评分程序' });
    expect((await uploadProgram(q, 'score.py', MAE)).statusCode).toBe(200);
    await drain();
    expect((await mine(a.leader, q)).list[0]).toMatchObject({ status: 2, publicScore: 2, reason: null });
    // And back to the built-in metric: the program had no target column, so naming one renames nothing.
    expect((await org.put(`/api/competition/question/${q}`, { title: '换程序题', evaluation: builtIn })).statusCode).toBe(200);
    await drain();
    expect((await mine(a.leader, q)).list[0]).toMatchObject({ status: 2, publicScore: 2 });
  });

  it('runs a zipped program with a module of its own, and the example program as downloaded', async () => {
    const zipped = zipOf({
      'score.py': 'import json, sys\nfrom helpers.metric import mae\nprint(json.dumps({"score": mae(sys.argv[1], sys.argv[2])}))\n',
      'helpers/__init__.py': '',
      'helpers/metric.py': [
        'import csv',
        'def mae(answer_path, prediction_path):',
        '    a = {r["id"]: float(r["label"]) for r in csv.DictReader(open(answer_path))}',
        '    p = {r["id"]: float(r["label"]) for r in csv.DictReader(open(prediction_path))}',
        '    return sum(abs(a[k] - p[k]) for k in a) / len(a)',
        '',
      ].join('\n'),
    });
    const q = await question('压缩包题', EVAL, null);
    expect((await uploadProgram(q, 'scorer.zip', zipped)).statusCode).toBe(200);
    expect(body(await tryProgram(q, prediction(0.5))).data).toMatchObject({ ok: true, publicScore: 0.5, privateScore: 0.5 });

    // The example scores the mean absolute error of `label` with pandas.
    expect((await uploadProgram(q, 'score.py', EXAMPLE_SCORER)).statusCode).toBe(200);
    const example = body(await tryProgram(q, prediction(3))).data;
    expect(example).toMatchObject({ ok: true, publicScore: 3, privateScore: 3 });
    expect(example.stderr).toMatch(/^rows: \d+/);

    // It refuses a file without its column, telling the team what to fix; the organiser's try says what the team reads.
    const noLabel = prediction(3).replace(/,label/, ',price');
    expect(body(await tryProgram(q, noLabel)).data).toMatchObject({ ok: false, message: '公榜部分：评分程序拒绝了该文件，队伍会看到“预测文件缺少 label 列”' });
    const a = await team(q);
    expect((await submit(a.leader, q, noLabel)).statusCode).toBe(200);
    await drain();
    await release();
    const tests = await mine(a.leader, q);
    expect(tests.list[0]).toMatchObject({ status: 3, reason: '未通过评分程序的检查：预测文件缺少 label 列（本次提交不计入次数，请修改后重新提交）' });
    expect(tests.usedToday).toBe(0);
    // The organisers see it as the team's file, not a failure of their program.
    const failure = body(await org.get(`/api/review/test/failures/${competitionId}`)).data.find((f: { id: number }) => f.id === tests.list[0].id);
    expect(failureSide(failure)).toBe('team');
  });
});

describe('where no sandbox can run a program', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  it('refuses the upload and says why, storing nothing', async () => {
    // A container runtime this machine does not have.
    t = await createTestApp('sqlite', { env: { SCORER_RUNNER: 'podman' } });
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    const org = await makeOrganiser(t, admin, 'noBox', '无沙箱大学');
    const competitionId = await onlineCompetition(admin, org);
    const q = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '题',
        evaluation: { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5 },
      }),
    ).data.id;
    const res = await org.request({ method: 'POST', url: `/api/question/scorer/${q}`, ...multipart('score.py', Buffer.from(MAE), 'text/x-python') });
    expect(res.statusCode).toBe(409);
    expect(body(res).message).toMatch(
      /^服务器无法安全运行评分程序：无法启动评分沙箱（podman）.*请联系平台管理员安装 bubblewrap 或配置容器运行时（SCORER_RUNNER）$/,
    );
    expect(body(await org.get(`/api/question/scorer/${q}`)).data).toBeNull();
  });
});

describe('a try longer than the connection’s idle limit', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  it('keeps the organiser’s connection open while the program runs, over real HTTP', { timeout: 120_000 }, async () => {
    // Sockets silent for 5 s are closed; the program keeps it silent about 7 s (two runs of 3.5 s).
    t = await createTestApp('sqlite', { env: { CONNECTION_TIMEOUT_SECONDS: '5' } });
    const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    const org = await makeOrganiser(t, admin, 'slowTry', '慢程序大学');
    const competitionId = await onlineCompetition(admin, org);
    const q = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '慢题',
        evaluation: { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5 },
      }),
    ).data.id;
    expect(
      (await org.request({ method: 'POST', url: `/api/competition/question/${q}/answer`, ...multipart('a.csv', Buffer.from(ANSWER), 'text/csv') })).statusCode,
    ).toBe(200);
    const slow = 'import json, time\ntime.sleep(3.5)\nprint(json.dumps({"score": 1}))\n';
    expect(
      (await org.request({ method: 'POST', url: `/api/question/scorer/${q}`, ...multipart('score.py', Buffer.from(slow), 'text/x-python') })).statusCode,
    ).toBe(200);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const form = new FormData();
    form.append('file', new Blob([prediction()], { type: 'text/csv' }), 'pred.csv');
    const res = await fetch(`${address}/api/question/scorer/try/${q}`, {
      method: 'POST',
      body: form,
      headers: {
        cookie: `${SESSION_COOKIE}=${org.token}; ${CSRF_COOKIE}=${org.csrf}`,
        [CSRF_HEADER]: org.csrf!,
        'X-Requested-With': 'XMLHttpRequest',
        origin: address,
      },
    });
    const reply = (await res.json()) as { data: { ok: boolean; publicScore: number; seconds: number } };
    expect(reply.data).toMatchObject({ ok: true, publicScore: 1 });
    expect(reply.data.seconds).toBeGreaterThan(5);
  });
});
