import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as migration0015 } from '../src/db/migrations/0015_prepared_answers.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { cachedAnswerBytes, cachedAnswers } from '../src/modules/test-submissions/service.ts';
import type { Metric } from '../src/scoring/metrics.ts';
import { prepareAnswers, restoreAnswers } from '../src/scoring/prepared.ts';
import { answersBytes, loadAnswers, scoreSubmission, type Answers, type Evaluation } from '../src/scoring/score.ts';
import { isPublicRow, splitter } from '../src/scoring/split.ts';
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

/** Issue 21, item 4: large answer files, the split decided once, the loaded form stored at upload, a cache bounded by memory. */

const ev = (metric: string, extra: Partial<Evaluation> = {}): Evaluation => ({
  metric: metric as Metric,
  idColumn: 'id',
  targetColumn: 'y',
  publicShare: 0.3,
  salt: 'large',
  ...extra,
});
const csv = (rows: [string, string | number][]) => ['id,y', ...rows.map(([id, y]) => `${id},${y}`)].join('\n') + '\n';
const roundTrip = (a: Answers) => restoreAnswers(Buffer.concat(prepareAnswers(a)))!;

/** Every observable part of loaded answers, for comparing two of them. */
function view(a: Answers) {
  return {
    size: a.index.size,
    ids: Array.from({ length: a.index.size }, (_, i) => a.index.idAt(i)),
    rows: Array.from({ length: a.index.size }, (_, i) => a.index.get(a.index.idAt(i))),
    truth: Array.from(a.truth as ArrayLike<string | number>),
    isPublic: Array.from(a.isPublic),
  };
}

describe('the loaded form stored at upload', () => {
  it('reads back the same answers for numbers, labels and rankings, with ids in any script', async () => {
    const ids = Array.from({ length: 3000 }, (_, i) => (i % 5 === 0 ? `样本${i}` : i % 7 === 0 ? `😀${i}` : `r${i}`));
    const cases: [string, (i: number) => string | number][] = [
      ['rmse', (i) => (i * 0.37).toFixed(2)],
      ['accuracy', (i) => ['猫', 'dog', '鸟'][i % 3]!],
      ['mapAtK', (i) => `item${i} item${i + 1}`],
    ];
    for (const [metric, y] of cases) {
      const loaded = await loadAnswers(csv(ids.map((id, i) => [id, y(i)])), ev(metric));
      const restored = roundTrip(loaded);
      expect(view(restored)).toEqual(view(loaded));
      expect(restored.truth instanceof Float64Array).toBe(metric === 'rmse');
      // The restored answers score a prediction exactly as the loaded ones.
      const prediction = csv(
        ids.map((id, i) => [id, metric === 'rmse' ? (i * 0.37 + 1).toFixed(2) : metric === 'accuracy' ? ['猫', 'dog', 'x'][i % 3]! : `item${i}`]),
      );
      expect(await scoreSubmission(prediction, restored, ev(metric))).toEqual(await scoreSubmission(prediction, loaded, ev(metric)));
    }
  });

  it('keeps labels as text when there are too many to number', async () => {
    const rows: [string, string][] = Array.from({ length: 70_000 }, (_, i) => [`r${i}`, `类${i}`]);
    const loaded = await loadAnswers(csv(rows), ev('accuracy'));
    const restored = roundTrip(loaded);
    expect([restored.truth[0], restored.truth[69_999], restored.index.get('r69999')]).toEqual(['类0', '类69999', 69_999]);
  });

  it('refuses bytes that are not a stored form: another format, or cut short', async () => {
    const stored = Buffer.concat(
      prepareAnswers(
        await loadAnswers(
          csv([
            ['a', 1],
            ['b', 2],
          ]),
          ev('rmse'),
        ),
      ),
    );
    expect(restoreAnswers(stored)).not.toBeNull();
    expect(restoreAnswers(Buffer.from(`XXXXXXXX${stored.subarray(8).toString('latin1')}`, 'latin1'))).toBeNull();
    const cut = Buffer.alloc(stored.length - 16);
    stored.copy(cut, 0, 0, cut.length);
    expect(restoreAnswers(cut)).toBeNull();
    expect(restoreAnswers(Buffer.alloc(4))).toBeNull();
  });
});

describe('the public split', () => {
  const ids = Array.from({ length: 100_000 }, (_, i) => `id-${i}`);

  it('draws each row from its id and the question secret alone, at the public share', () => {
    const flags = splitter(ev('rmse'))(ids);
    const share = flags.reduce((n, f) => n + f, 0) / ids.length;
    // 100,000 draws at 0.3: the standard deviation of the share is 0.0014.
    expect(Math.abs(share - 0.3)).toBeLessThan(0.01);
    // The order of the rows does not matter; each id's draw is its own.
    const reversed = splitter(ev('rmse'))([...ids].reverse()).reverse();
    expect(Array.from(reversed)).toEqual(Array.from(flags));
    expect(ids.slice(0, 50).map((id) => (isPublicRow(id, ev('rmse')) ? 1 : 0))).toEqual(Array.from(flags.slice(0, 50)));
    // Another secret, another split: about 0.3 x 0.3 + 0.7 x 0.7 of the rows agree, not all.
    const other = splitter(ev('rmse', { salt: 'another' }))(ids);
    const agree = flags.reduce((n, f, i) => n + (f === other[i] ? 1 : 0), 0) / ids.length;
    expect(Math.abs(agree - 0.58)).toBeLessThan(0.01);
    // A larger share keeps every row the smaller one made public.
    const larger = splitter(ev('rmse', { publicShare: 0.5 }))(ids);
    expect(flags.every((f, i) => !f || larger[i] === 1)).toBe(true);
  });

  it('keeps the SHA-256 draw for questions whose answers came before the keyed rule', () => {
    const legacy = (id: string) => hash('sha256', `large\0${id}`, 'buffer').readUInt32BE(0) / 2 ** 32 < 0.3;
    const flags = splitter(ev('rmse', { split: 'sha256' }))(ids.slice(0, 2000));
    expect(Array.from(flags)).toEqual(ids.slice(0, 2000).map((id) => (legacy(id) ? 1 : 0)));
  });

  it('migration 0015 gives the SHA-256 rule to questions that already have an answer file, the keyed one to the rest', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    await sql`CREATE TABLE questions (id integer primary key, answer_key varchar(200))`.execute(db);
    await sql`INSERT INTO questions (id, answer_key) VALUES (1, 'answer/a.csv'), (2, NULL)`.execute(db);
    await migration0015(db, { dialect: 'sqlite' });
    await sql`INSERT INTO questions (id) VALUES (3)`.execute(db);
    const rows = await sql<{ id: number; split_rule: string }>`SELECT id, split_rule FROM questions ORDER BY id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 1, split_rule: 'sha256' },
      { id: 2, split_rule: 'keyed' },
      { id: 3, split_rule: 'keyed' },
    ]);
    await db.destroy();
  });
});

describe('twenty million rows', () => {
  const ROWS = 20_000_000;
  /** A CSV streamed from a generator in 100,000-row slices: `row(i)` is the line of row i. */
  const generated = (row: (i: number) => string, order: (i: number) => number = (i) => i) =>
    Readable.from(
      (function* () {
        yield 'id,y\n';
        for (let i = 0; i < ROWS; i += 100_000) {
          let slice = '';
          for (let k = i; k < Math.min(ROWS, i + 100_000); k++) slice += `${row(order(k))}\n`;
          yield slice;
        }
      })(),
    );

  it('loads an answer file of 20 million rows and scores a prediction of as many exactly', async () => {
    const e = ev('rmse', { publicShare: 0.5 });
    const answers = await loadAnswers(
      generated((i) => `r${i},${i % 1000}`),
      e,
    );
    expect(answers.index.size).toBe(ROWS);
    // Around the 2^24 entries one JavaScript Map can hold, and at the end.
    for (const i of [0, 2 ** 24 - 1, 2 ** 24, 2 ** 24 + 1, ROWS - 1]) expect([answers.index.get(`r${i}`), answers.truth[i]]).toEqual([i, i % 1000]);
    expect(answers.index.get(`r${ROWS}`)).toBeUndefined();
    // Off by 2 everywhere, RMSE 2 on both boards; the last 1,000 rows come in reverse, so they are looked up by id.
    const result = await scoreSubmission(
      generated(
        (i) => `r${i},${(i % 1000) + 2}`,
        (k) => (k < ROWS - 1000 ? k : 2 * ROWS - 1001 - k),
      ),
      answers,
      e,
    );
    expect(result).toEqual({ publicScore: 2, privateScore: 2, rows: ROWS, fingerprint: expect.any(String) });
  }, 300_000);
});

describe.each(DATABASES)('large answers through the platform on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let competitionId: number;
  let seq = 0;
  const EVAL = { metric: 'rmse', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 20 };
  const IDS = Array.from({ length: 40 }, (_, i) => `u${i}`);
  const ANSWER = csv(IDS.map((id, i) => [id, i]));

  // Inside the competition's registration and submission windows (see onlineCompetition).
  const now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'bigOrg', '大文件大学');
    competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
  });
  afterAll(() => t.close());

  const managed = async (id: number) => body(await org.get(`/api/competition/question/check/${id}`)).data as { evaluation: Record<string, unknown> };
  const stored = (id: number) =>
    t.deps.db.selectFrom('questions').select(['answerKey', 'answerIndexKey', 'answerIndexTag', 'splitRule']).where('id', '=', id).executeTakeFirstOrThrow();
  async function question() {
    const id = body(await org.post(`/api/competition/question/${competitionId}`, { title: `大题${++seq}`, evaluation: EVAL })).data.id as number;
    expect(
      (await org.request({ method: 'POST', url: `/api/competition/question/${id}/answer`, ...multipart('answer.csv', Buffer.from(ANSWER), 'text/csv') }))
        .statusCode,
    ).toBe(200);
    await admin.put(`/api/competition/question/review/${id}`, { reviewed: true });
    return id;
  }
  async function scoredBy(questionId: number, offset: number, pack = false) {
    const username = `big${kind}${++seq}`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `大队${seq}`, info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    const prediction = csv(IDS.map((id, i) => [id, i + offset]));
    const file = pack ? multipart('pred.csv.gz', gzipSync(prediction), 'application/gzip') : multipart('pred.csv', Buffer.from(prediction), 'text/csv');
    expect((await leader.request({ method: 'POST', url: `/api/review/test/${questionId}`, ...file })).statusCode).toBe(200);
    await runDueJobs(t.deps);
    return (body(await leader.get(`/api/review/test/list/${questionId}`)).data as { list: { publicScore: number | null; reason: string | null }[] }).list[0]!;
  }

  it('stores the loaded answers at upload, and scoring reads them without the CSV', async () => {
    const id = await question();
    const q = await stored(id);
    expect([q.splitRule, typeof q.answerIndexKey, q.answerIndexTag?.length]).toEqual(['keyed', 'string', 64]);
    expect(await t.deps.storage.size(q.answerIndexKey!)).toBeGreaterThan(0);
    // With the CSV gone, only the stored form can score the file.
    await t.deps.storage.delete(q.answerKey!);
    expect(await scoredBy(id, 3)).toMatchObject({ publicScore: 3, reason: null });
  });

  it('stores a new form when the setting changes and drops the old; reads the CSV when the form is missing', async () => {
    const id = await question();
    const before = await stored(id);
    expect((await org.put(`/api/competition/question/${id}`, { title: '大题', evaluation: { ...EVAL, metric: 'mae' } })).statusCode).toBe(200);
    const after = await stored(id);
    expect(after.answerIndexKey).not.toBe(before.answerIndexKey);
    expect(after.answerIndexTag).not.toBe(before.answerIndexTag);
    expect(await t.deps.storage.size(before.answerIndexKey!)).toBeNull();
    await t.deps.storage.delete(after.answerIndexKey!);
    expect(await scoredBy(id, 2)).toMatchObject({ publicScore: 2, reason: null });
  });

  it('records a packed answer or prediction file as what it is, not as text/csv', async () => {
    const id = await question();
    const packed = gzipSync(ANSWER);
    expect(
      (await org.request({ method: 'POST', url: `/api/competition/question/${id}/answer`, ...multipart('answer.csv.gz', packed, 'application/octet-stream') }))
        .statusCode,
    ).toBe(200);
    const q = await stored(id);
    const file = await t.deps.db.selectFrom('files').select('mime').where('key', '=', q.answerKey!).executeTakeFirstOrThrow();
    expect(file.mime).toBe('application/gzip');
    expect(await scoredBy(id, 1, true)).toMatchObject({ publicScore: 1, reason: null });
    const predictions = await t.deps.db.selectFrom('files').select('mime').where('purpose', '=', 'prediction').execute();
    expect(predictions.map((f) => f.mime).sort()).toEqual(['application/gzip', ...Array(predictions.length - 1).fill('text/csv')]);
  });

  it('keeps the stored form when only the daily limit changes, and refuses renaming columns once files were sent', async () => {
    const id = await question();
    const before = await stored(id);
    expect((await org.put(`/api/competition/question/${id}`, { title: '大题', evaluation: { ...EVAL, dailyLimit: 3 } })).statusCode).toBe(200);
    expect((await stored(id)).answerIndexKey).toBe(before.answerIndexKey);
    // Before any file is sent, the columns may still be renamed (to columns the answer file has).
    const wide = ['id,y,sample,label', ...IDS.map((u, i) => `${u},${i},${u},${i}`)].join('\n');
    expect(
      (await org.request({ method: 'POST', url: `/api/competition/question/${id}/answer`, ...multipart('answer.csv', Buffer.from(wide), 'text/csv') }))
        .statusCode,
    ).toBe(200);
    expect(
      (await org.put(`/api/competition/question/${id}`, { title: '大题', evaluation: { ...EVAL, dailyLimit: 3, idColumn: 'sample', targetColumn: 'label' } }))
        .statusCode,
    ).toBe(200);
    expect((await org.put(`/api/competition/question/${id}`, { title: '大题', evaluation: { ...EVAL, dailyLimit: 3 } })).statusCode).toBe(200);
    expect(await scoredBy(id, 1)).toMatchObject({ publicScore: 1, reason: null });
    const res = await org.put(`/api/competition/question/${id}`, { title: '大题', evaluation: { ...EVAL, metric: 'mae', targetColumn: 'label' } });
    expect([res.statusCode, body(res).message]).toEqual([
      409,
      '已有队伍提交测试结果，不能再修改编号列或目标列的列名（已提交的文件按原列名读取，改名后将无法重新评分）',
    ]);
    expect((await managed(id)).evaluation).toMatchObject({ metric: 'rmse', targetColumn: 'y', dailyLimit: 3 });
  });

  it('drops the stored form with its question', async () => {
    const id = await question();
    const q = await stored(id);
    expect((await org.delete(`/api/competition/question/${id}`)).statusCode).toBe(200);
    expect([await t.deps.storage.size(q.answerKey!), await t.deps.storage.size(q.answerIndexKey!)]).toEqual([null, null]);
  });

  it('bounds the answers it holds by memory, not by count, always keeping the newest', async () => {
    const keys: string[] = [];
    for (let k = 0; k < 4; k++)
      keys.push((await t.deps.storage.put(Readable.from([csv(IDS.map((id, i) => [`${id}-${k}`, i]))]), { prefix: 'answer', maxBytes: 1e6 })).key);
    const source = (key: string) => ({ answerKey: key, answerIndexKey: null, answerIndexTag: null });
    const roomy = { storage: t.deps.storage, config: { ...t.deps.config, answerCacheBytes: 1e9 } };
    for (const key of keys.slice(0, 3)) await cachedAnswers(roomy, source(key), ev('rmse'));
    expect(cachedAnswerBytes().length).toBeGreaterThanOrEqual(3);
    const tight = { storage: t.deps.storage, config: { ...t.deps.config, answerCacheBytes: 1 } };
    const last = await cachedAnswers(tight, source(keys[3]!), ev('rmse'));
    expect(cachedAnswerBytes()).toEqual([answersBytes(last)]);
    // The one held is served again without a read: the same object.
    expect(await cachedAnswers(tight, source(keys[3]!), ev('rmse'))).toBe(last);
  });
});
