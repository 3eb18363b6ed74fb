import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../src/jobs/runner.ts';
import * as repo from '../src/modules/test-submissions/repo.ts';
import { NOT_FINITE, RESCORE_BATCH } from '../src/modules/test-submissions/service.ts';
import { CsvError } from '../src/scoring/csv.ts';
import type { Metric } from '../src/scoring/metrics.ts';
import { IdIndex, isPublicRow, loadAnswers, type Evaluation } from '../src/scoring/score.ts';
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

/** Issue 21, item 2: answers validated for their metric, only finite scores ranked, boards never mixing two settings. */

const ev = (metric: string, extra: Partial<Evaluation> = {}): Evaluation => ({
  metric: metric as Metric,
  idColumn: 'id',
  targetColumn: 'y',
  publicShare: 0.5,
  salt: 's',
  ...extra,
});
const rows = (values: (string | number)[]) => ['id,y', ...values.map((v, i) => `r${i},${v}`)].join('\n') + '\n';
async function refusal(text: string, e: Evaluation): Promise<string> {
  try {
    await loadAnswers(Readable.from([Buffer.from(text)]), e);
  } catch (err) {
    if (err instanceof CsvError) return err.message;
    throw err;
  }
  return 'accepted';
}

describe('the answer id index', () => {
  it('finds every id it holds, finds each repeat against its first row, and reads ids of any script back', () => {
    const index = new IdIndex();
    const ids = Array.from({ length: 50_000 }, (_, i) => (i % 7 === 0 ? `编号-${i}` : i % 11 === 0 ? `😀${i}` : `id${i}`));
    for (const id of ids) index.push(id);
    // Repeats: twice the same id, and one id seventy times (a bucket too large to compare pair by pair).
    for (const id of ['id1', '编号-7', '😀11', 'id1', ...Array(70).fill('id2')]) index.push(id);
    const repeats = index.build();
    expect(repeats.slice(0, 4)).toEqual([
      { row: 50_000, first: 1 },
      { row: 50_001, first: 7 },
      { row: 50_002, first: 11 },
      { row: 50_003, first: 1 },
    ]);
    expect(repeats.length).toBe(74);
    expect(repeats.slice(4).every((r, i) => r.row === 50_004 + i && r.first === 2)).toBe(true);
    expect(ids.every((id, i) => index.get(id) === i && index.equalsAt(i, id) && index.idAt(i) === id)).toBe(true);
    // Near misses: a prefix, an extension, another script of the same length, the empty id, another case.
    expect(['id', 'id10x', 'id1 ', '编号-8', '😀12', '', 'ID1'].map((id) => index.get(id))).toEqual(Array(7).fill(undefined));
    expect([index.equalsAt(1, 'id2'), index.equalsAt(7, '编号-8'), index.equalsAt(1, 'id1')]).toEqual([false, false, true]);
  });
});

describe('answers validated for their metric', () => {
  // Forty rows with the salt 's' and a public share of 0.5 put both classes on both boards when they alternate.
  const alternating = Array.from({ length: 40 }, (_, i) => i % 2);

  it('wants both classes for the ranking metrics, in each board too', async () => {
    for (const metric of ['auc', 'gini', 'averagePrecision']) {
      const name = { auc: 'AUC', gini: 'Gini', averagePrecision: '平均精度（AP）' }[metric];
      expect(await refusal(rows(Array(40).fill(1)), ev(metric))).toBe(`答案只有一个类别（全部为1），${name}需要0和1两类都出现`);
      expect(await refusal(rows(Array(40).fill(0)), ev(metric))).toBe(`答案只有一个类别（全部为0），${name}需要0和1两类都出现`);
      expect(await refusal(rows([0, 1, 2]), ev(metric))).toBe('第4行：真实值须为0或1');
      expect(await refusal(rows(alternating), ev(metric))).toBe('accepted');
    }
    // Both classes in the file, but 1 on every public row and 0 on every private one: neither board could be scored.
    const split = Array.from({ length: 40 }, (_, i) => (isPublicRow(`r${i}`, ev('auc')) ? 1 : 0));
    expect(new Set(split).size).toBe(2);
    expect(await refusal(rows(split), ev('auc'))).toBe('按公榜比例划分后，公榜部分的答案只有一个类别，AUC无法计算；请增加样本或调整公榜比例');
  });

  it('refuses a zero truth for MAPE, negatives for RMSLE, fractional grades for QWK, one class for multi-class metrics', async () => {
    expect(await refusal(rows([3, 0, 2]), ev('mape'))).toBe('第3行：真实值为0，不能计算MAPE');
    const negative = await refusal(rows([3, -1, 2]), ev('rmsle'));
    expect([negative.startsWith('第3行：'), negative.includes('负数'), negative.includes('RMSLE')]).toEqual([true, true, true]);
    expect(await refusal(rows([3, 0, 2]), ev('rmsle'))).toBe('accepted');
    const fractional = await refusal(rows([3, 2.5, 2]), ev('qwk'));
    expect([fractional.startsWith('第3行：'), fractional.includes('整数')]).toEqual([true, true]);
    expect(await refusal(rows([3, 0, 2]), ev('qwk'))).toBe('accepted');
    expect(await refusal(rows(['cat', 'cat']), ev('multiLogLoss'))).toBe('答案只有一个类别（cat），多分类对数损失至少需要两个类别');
    expect(await refusal(rows(['cat', 'cat']), ev('multiAuc'))).toBe('答案只有一个类别（cat），多分类AUC至少需要两个类别');
    expect(await refusal(rows(['cat', 'dog']), ev('multiAuc'))).toBe('accepted');
  });

  it('refuses NaN and infinities in an answer file, as pandas and Excel write them, each with its line', async () => {
    expect(await refusal(rows([1, 'NaN', 'nan', 'inf', '-inf', 'Infinity', '1e999', '', 2]), ev('rmse'))).toBe(
      [
        '第3行：不是数字：NaN',
        '第4行：不是数字：nan',
        '第5行：不是数字：inf',
        '第6行：不是数字：-inf',
        '第7行：不是数字：Infinity',
        '第8行：不是有限的数字：1e999',
        '第9行：不是数字：',
      ].join('；'),
    );
  });

  it('refuses an id column that is the target column', async () => {
    expect(await refusal(rows([1, 2]), ev('rmse', { targetColumn: 'id' }))).toBe('编号列与目标列不能是同一列');
  });
});

const IDS = Array.from({ length: 40 }, (_, i) => `u${i}`);
const TRUTH = IDS.map((_, i) => (i * 3) % 10);
const ANSWER = ['id,y', ...IDS.map((id, i) => `${id},${TRUTH[i]}`)].join('\n');
/** Predictions off by `err` on every row: RMSE and MAE are both `err`, on both boards. */
const prediction = (err: number) => ['id,y', ...IDS.map((id, i) => `${id},${TRUTH[i]! + err}`)].join('\n');

describe.each(DATABASES)('scores a board can trust on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let competitionId: number;
  let seq = 0;
  let now = new Date('2026-03-20T02:00:00Z');
  const EVAL = { metric: 'rmse', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 20 };

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'intOrg', '评分大学');
    competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
  });
  afterAll(() => t.close());

  const uploadAnswer = (questionId: number, text: string) =>
    org.request({ method: 'POST', url: `/api/competition/question/${questionId}/answer`, ...multipart('answer.csv', Buffer.from(text), 'text/csv') });
  async function question(title: string) {
    const id = body(await org.post(`/api/competition/question/${competitionId}`, { title, evaluation: EVAL })).data.id as number;
    expect((await uploadAnswer(id, ANSWER)).statusCode).toBe(200);
    await admin.put(`/api/competition/question/review/${id}`, { reviewed: true });
    return id;
  }
  async function team(questionId: number) {
    const username = `si${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `积分队${seq}`, info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    return { leader, teamId: r.teamId as number, name: `积分队${seq}` };
  }
  const submit = (who: Client, questionId: number, text: string) =>
    who.request({ method: 'POST', url: `/api/review/test/${questionId}`, ...multipart('pred.csv', Buffer.from(text), 'text/csv') });
  const board = async (questionId: number) => body(await t.app.inject({ method: 'GET', url: `/api/review/test/leaderboard/${questionId}` })).data;
  const progress = async (questionId: number) => body(await org.get(`/api/review/test/rescore/${questionId}`)).data;
  const put = (questionId: number, evaluation: object) =>
    org.put(`/api/competition/question/${questionId}`, { title: '题', evaluation: { ...EVAL, ...evaluation } });

  it('refuses an id column that is the target column when the setting is saved', async () => {
    const res = await org.post(`/api/competition/question/${competitionId}`, { title: '同列', evaluation: { ...EVAL, targetColumn: 'id' } });
    expect([res.statusCode, body(res).message]).toEqual([400, '编号列与目标列不能是同一列']);
  });

  it('fails a submission whose score is not a finite number, with a reason, and never ranks it', async () => {
    const q = await question('溢出题');
    const a = await team(q);
    await submit(a.leader, q, ['id,y', ...IDS.map((id) => `${id},1e200`)].join('\n'));
    await runDueJobs(t.deps);
    const [s] = body(await a.leader.get(`/api/review/test/list/${q}`)).data.list;
    expect([s.status, s.reason, s.publicScore]).toEqual([3, NOT_FINITE, null]);
    expect((await board(q)).entries).toEqual([]);
  });

  it('breaks ties by the earlier submission of the tied score, whatever came after', async () => {
    const q = await question('同分题');
    const a = await team(q);
    const b = await team(q);
    await submit(a.leader, q, prediction(1));
    await submit(b.leader, q, prediction(1));
    // A's later, worse submission leaves A the one that reached 1 first.
    await submit(a.leader, q, prediction(3));
    await runDueJobs(t.deps);
    const entries = (await board(q)).entries;
    expect(entries.map((e: { teamName: string; score: number; rank: number }) => [e.rank, e.teamName, e.score])).toEqual([
      [1, a.name, 1],
      [2, b.name, 1],
    ]);
  });

  it('scores every submission again when the metric, public share or answer file changes, never mixing two', async () => {
    const q = await question('改指标题');
    const a = await team(q);
    const b = await team(q);
    // Under RMSE: A 0.5 ranks above B 2; B's other files, off by 3, make more than one batch to score again.
    await submit(a.leader, q, prediction(0.5));
    await submit(b.leader, q, prediction(2));
    for (let i = 0; i < RESCORE_BATCH; i++) await submit(b.leader, q, prediction(3));
    await runDueJobs(t.deps);
    expect((await board(q)).entries.map((e: { teamName: string }) => e.teamName)).toEqual([a.name, b.name]);
    expect(await progress(q)).toEqual({ total: 2 + RESCORE_BATCH, done: 2 + RESCORE_BATCH, running: false });

    // A new daily limit, or a positive label RMSE does not read, changes no score: nothing to score again.
    expect((await put(q, { dailyLimit: 19, positiveLabel: '猫' })).statusCode).toBe(200);
    expect(await progress(q)).toMatchObject({ running: false });
    expect(await runDueJobs(t.deps)).toBe(0);

    // To MAE: until scored again, the old scores are off the board (an RMSE is no MAE) and the organiser sees progress.
    expect((await put(q, { metric: 'mae' })).statusCode).toBe(200);
    const during = await board(q);
    expect([during.metric, during.rescoring, during.entries]).toEqual(['mae', true, []]);
    expect(await progress(q)).toEqual({ total: 2 + RESCORE_BATCH, done: 0, running: true });
    expect(await runDueJobs(t.deps)).toBe(2); // a batch of RESCORE_BATCH, then the rest
    const after = await board(q);
    expect(after.rescoring).toBe(false);
    const scoreOf = (name: string) => after.entries.find((e: { teamName: string }) => e.teamName === name).score;
    expect(scoreOf(a.name)).toBeCloseTo(0.5, 12);
    expect(scoreOf(b.name)).toBeCloseTo(2, 12);
    expect(await progress(q)).toEqual({ total: 2 + RESCORE_BATCH, done: 2 + RESCORE_BATCH, running: false });

    // A new public share: the same again.
    expect((await put(q, { metric: 'mae', publicPercent: 30 })).statusCode).toBe(200);
    expect(await progress(q)).toMatchObject({ done: 0, running: true });
    await runDueJobs(t.deps);
    expect(await progress(q)).toMatchObject({ done: 2 + RESCORE_BATCH, running: false });

    // A new answer file whose truth moved by 0.5: A's predictions are now exact, and they rank first by a perfect 0.
    const shifted = ['id,y', ...IDS.map((id, i) => `${id},${TRUTH[i]! + 0.5}`)].join('\n');
    expect((await uploadAnswer(q, shifted)).statusCode).toBe(200);
    expect((await board(q)).entries).toEqual([]);
    await runDueJobs(t.deps);
    const last = await board(q);
    expect([last.entries[0].teamName, last.entries[0].score]).toEqual([a.name, 0]);
  });

  it('scores every submission again when an organiser asks, with progress, and lets nobody else ask', async () => {
    const q = await question('重新评分题');
    // Nothing to score yet: said so, nothing started.
    const empty = await org.post(`/api/question/rescore/${q}`);
    expect([empty.statusCode, body(empty).message, body(empty).data]).toEqual([200, '该赛题还没有需要评分的测试提交', { total: 0, done: 0, running: false }]);
    expect(await runDueJobs(t.deps)).toBe(0);

    const a = await team(q);
    await submit(a.leader, q, prediction(1));
    await submit(a.leader, q, 'id,y\nnope,1\n');
    await runDueJobs(t.deps);
    const before = (await board(q)).entries;
    expect(before.map((e: { score: number }) => e.score)).toEqual([1]);

    // A participant, another organiser and a visitor cannot start it; an unknown question is 404.
    const other = await makeOrganiser(t, admin, `intOther${++seq}`, `别的评分大学${seq}`);
    expect((await a.leader.post(`/api/question/rescore/${q}`)).statusCode).toBe(403);
    expect((await other.post(`/api/question/rescore/${q}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/question/rescore/${q}` })).statusCode).toBe(401);
    expect((await org.post('/api/question/rescore/999999')).statusCode).toBe(404);

    const res = await org.post(`/api/question/rescore/${q}`);
    expect([res.statusCode, body(res).message, body(res).data]).toEqual([200, '已开始重新评分（共2个提交）', { total: 2, done: 0, running: true }]);
    expect(await progress(q)).toEqual({ total: 2, done: 0, running: true });
    // Until the job has run, the board shows only what is scored again: nothing yet, and says it is being re-scored.
    expect(await board(q)).toMatchObject({ rescoring: true, entries: [] });
    await runDueJobs(t.deps);
    expect(await progress(q)).toEqual({ total: 2, done: 2, running: false });
    const after = await board(q);
    expect([after.rescoring, after.entries.map((e: { score: number }) => e.score)]).toEqual([false, [1]]);
    // The team's list still has one scored file and one refused, with its reason.
    const mine = body(await a.leader.get(`/api/review/test/list/${q}`)).data.list as { status: number; reason: string | null }[];
    expect(mine.map((m) => m.status).sort()).toEqual([2, 3]);
    const audit = await t.database.db
      .selectFrom('auditLog')
      .select('action')
      .where('action', '=', 'question.rescore')
      .where('entityId', '=', String(q))
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('re-scores a submission that failed under the old setting, and fails one the new setting refuses', async () => {
    const q = await question('改答案题');
    const a = await team(q);
    // Ids of a new answer file that the old one lacks: refused now, scored once the new answer arrives.
    await submit(a.leader, q, ['id,y', ...IDS.map((id, i) => `${id === 'u0' ? 'new0' : id},${TRUTH[i]}`)].join('\n'));
    await runDueJobs(t.deps);
    expect(body(await a.leader.get(`/api/review/test/list/${q}`)).data.list[0].status).toBe(3);
    expect((await uploadAnswer(q, ['id,y', ...IDS.map((id, i) => `${id === 'u0' ? 'new0' : id},${TRUTH[i]}`)].join('\n'))).statusCode).toBe(200);
    await runDueJobs(t.deps);
    const [s] = body(await a.leader.get(`/api/review/test/list/${q}`)).data.list;
    expect([s.status, s.reason, s.publicScore]).toEqual([2, null, 0]);
  });

  it('fails alone a submission that cannot be scored again, and goes on with the rest', async () => {
    const q = await question('丢文件题');
    const a = await team(q);
    await submit(a.leader, q, prediction(1));
    await submit(a.leader, q, prediction(2));
    await runDueJobs(t.deps);
    const [first] = await t.database.db.selectFrom('testSubmissions').select(['id', 'fileKey']).where('questionId', '=', q).orderBy('id').execute();
    await t.deps.storage.delete(first!.fileKey);
    expect((await put(q, { metric: 'mae' })).statusCode).toBe(200);
    // Three attempts, each after its back-off; then the unreadable file fails and the next run scores the other.
    for (let i = 0; i < 3; i++) {
      await runDueJobs(t.deps);
      now = new Date(now.getTime() + 60_000);
    }
    expect(await progress(q)).toEqual({ total: 2, done: 2, running: false });
    const list = body(await a.leader.get(`/api/review/test/list/${q}`)).data.list;
    expect(list.map((s: { status: number; reason: string | null; publicScore: number | null }) => [s.status, s.reason, s.publicScore])).toEqual([
      [2, null, 2],
      [3, '重新评分出错，请重新提交', null],
    ]);
  });

  it('never stores a score computed under a setting that changed meanwhile', async () => {
    const q = await question('并发题');
    const a = await team(q);
    await submit(a.leader, q, prediction(1));
    const [{ id }] = await t.database.db.selectFrom('testSubmissions').select('id').where('questionId', '=', q).execute();
    const { scoringVersion } = await t.database.db.selectFrom('questions').select('scoringVersion').where('id', '=', q).executeTakeFirstOrThrow();
    expect((await put(q, { metric: 'mae' })).statusCode).toBe(200);
    // A result computed under the old version is refused; the scoring job scores it under the current one.
    expect(
      await repo.settle(t.database.db, {
        id,
        questionId: q,
        version: scoringVersion,
        outcome: { publicScore: 99, privateScore: 99, rows: 40 },
        at: now.toISOString(),
      }),
    ).toBe(false);
    await runDueJobs(t.deps);
    const [s] = body(await a.leader.get(`/api/review/test/list/${q}`)).data.list;
    expect([s.status, s.publicScore]).toEqual([2, 1]);
    expect((await board(q)).entries[0].score).toBe(1);
  });

  it("shows rescoring progress to the question's organisers only", async () => {
    const q = await question('进度题');
    const a = await team(q);
    expect((await a.leader.get(`/api/review/test/rescore/${q}`)).statusCode).toBe(403);
    const other = await makeOrganiser(t, admin, 'intOrg2', '别的大学');
    expect((await other.get(`/api/review/test/rescore/${q}`)).statusCode).toBe(404);
    expect(await progress(q)).toEqual({ total: 0, done: 0, running: false });
  });
});
