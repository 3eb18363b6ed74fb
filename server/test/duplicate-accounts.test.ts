import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../src/jobs/runner.ts';
import { decodeFingerprint, duplicatePairs } from '../src/scoring/fingerprint.ts';
import { loadAnswers, scoreSubmission, type Evaluation } from '../src/scoring/score.ts';
import { MAE_EVALUATION, ok, reviewedQuestion, teamWithWork, unique } from './factories.ts';
import { ADMIN_PASSWORD, DATABASES, createTestApp, loggedIn, makeOrganiser, multipart, type Client, type TestApp } from './helpers.ts';
import { rng } from './papers.ts';

/**
 * Issue 37, item 5: each prediction file scored leaves a fingerprint of its private rows; pairs of teams whose files
 * agree far beyond independent models (the same wrong predictions) are listed for the organiser, with the evidence.
 */
const ROWS = 4000;

/** A classification question's answers and a generator of honest teams' files: each team is wrong on hard rows more. */
function world(seed: number) {
  const random = rng(seed);
  const truth = Array.from({ length: ROWS }, (): number => (random() < 0.5 ? 1 : 0));
  const hardness = Array.from({ length: ROWS }, () => random() ** 3);
  const honest = () => truth.map((t, i) => (random() < 0.04 + 0.5 * hardness[i]! ? 1 - t : t));
  const copyOf = (file: number[], changed = 0.01) => file.map((p) => (random() < changed ? 1 - p : p));
  return { truth, honest, copyOf };
}

const ev: Evaluation = { metric: 'accuracy', idColumn: 'id', targetColumn: 'y', publicShare: 0.3, salt: 'dup' };
const csv = (values: (number | string)[]) => ['id,y', ...values.map((v, i) => `r${i},${v}`)].join('\n');

async function fingerprints(truth: (number | string)[], files: (number | string)[][], e: Evaluation = ev) {
  const answers = await loadAnswers(Readable.from([Buffer.from(csv(truth))]), e);
  return Promise.all(
    files.map(async (f) => {
      const r = await scoreSubmission(Readable.from([Buffer.from(csv(f))]), answers, e);
      return decodeFingerprint(r.fingerprint!)!;
    }),
  );
}

describe('fingerprints of prediction files', () => {
  it('finds every planted pair of duplicates among honest teams of a classification question, and no honest pair', async () => {
    const w = world(5);
    const files = Array.from({ length: 150 }, () => w.honest());
    const planted: [number, number][] = [];
    for (let i = 0; i < 6; i++) {
      files.push(w.copyOf(files[i * 7]!));
      planted.push([i * 7, files.length - 1]);
    }
    const prints = await fingerprints(w.truth, files);
    const pairs = duplicatePairs(prints.map((fingerprint, i) => ({ teamId: i + 1, fingerprint })));
    const found = pairs.map((p) => [p.a.teamId - 1, p.b.teamId - 1].sort((x, y) => x - y).join('-'));
    expect(found.sort()).toEqual(planted.map((p) => p.join('-')).sort());
    // The evidence: nearly every private row predicted the same, nearly all wrong predictions shared.
    for (const p of pairs) {
      expect(p.agreement.identical).toBeGreaterThan(0.95);
      expect(p.agreement.wrongJaccard).toBeGreaterThan(0.8);
    }
  });

  it('finds a copied regression file (1% of rows changed) and leaves apart models that agree only in quality', async () => {
    const random = rng(9);
    const truth = Array.from({ length: ROWS }, () => random() * 100);
    const model = () => truth.map((t) => Number((t + (random() - 0.5) * 10).toFixed(4)));
    const a = model();
    const files = [a, model(), model(), a.map((v) => (random() < 0.01 ? Number((v + 1).toFixed(4)) : v))];
    const prints = await fingerprints(truth, files, { ...ev, metric: 'mae' });
    const pairs = duplicatePairs(prints.map((fingerprint, i) => ({ teamId: i + 1, fingerprint })));
    expect(pairs.map((p) => [p.a.teamId, p.b.teamId].sort())).toEqual([[1, 4]]);
    expect(pairs[0]!.agreement.identical).toBeGreaterThan(0.95);
  });

  it('says nothing of two near-perfect files, of one team’s own files, or of a file without private rows', async () => {
    const w = world(11);
    const perfect = [...w.truth];
    perfect[0] = 1 - perfect[0]!;
    const prints = await fingerprints(w.truth, [perfect, [...perfect], w.honest()]);
    expect(duplicatePairs(prints.map((fingerprint, i) => ({ teamId: i + 1, fingerprint })))).toEqual([]);
    const mine = await fingerprints(w.truth, [w.truth.map((t) => 1 - t), w.truth.map((t) => 1 - t)]);
    expect(duplicatePairs(mine.map((fingerprint) => ({ teamId: 7, fingerprint })))).toEqual([]);
    const answers = await loadAnswers(Readable.from([Buffer.from(csv(w.truth))]), { ...ev, publicShare: 1 });
    expect((await scoreSubmission(Readable.from([Buffer.from(csv(w.truth))]), answers, { ...ev, publicShare: 1 })).fingerprint).toBeUndefined();
    // Sixty teams sending the organiser's sample file are not sixty accounts of one person.
    const sample = w.honest();
    const crowd = await fingerprints(
      w.truth,
      Array.from({ length: 60 }, () => sample),
    );
    expect(duplicatePairs(crowd.map((fingerprint, i) => ({ teamId: i + 1, fingerprint })))).toEqual([]);
  });
});

describe.each(DATABASES)('duplicate accounts of a question on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let other: Client;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      clock: { now: () => new Date('2026-03-20T02:00:00Z') },
      env: { SESSION_TTL_HOURS: String(24 * 365), REGISTER_MAX_PER_IP: '10000' },
    });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, `dupOrg${kind}`, '重复大学');
    other = await makeOrganiser(t, admin, `dupOther${kind}`, '别处大学');
  });
  afterAll(() => t.close());

  it('lists the two teams that sent the same predictions, with the evidence, and changes no score', async () => {
    // 200 rows, a fifth of them public: some 160 private rows, each team's file wrong on all of them (a regression).
    const answer = ['id,y', ...Array.from({ length: 200 }, (_, i) => `r${i},${i}`)].join('\n') + '\n';
    const q = await reviewedQuestion(admin, org, { title: `重复题${unique()}`, evaluation: { ...MAE_EVALUATION, publicPercent: 20 }, answer });
    const random = rng(21);
    const honest = () => ['id,y', ...Array.from({ length: 200 }, (_, i) => `r${i},${(i + random() * 4 - 2).toFixed(3)}`)].join('\n') + '\n';
    const shared = honest();
    const a = await teamWithWork(t, org, q, { username: `dupA${kind}${unique()}`, name: '甲队', prediction: shared });
    const b = await teamWithWork(t, org, q, { username: `dupB${kind}${unique()}`, name: '乙队', prediction: shared });
    await teamWithWork(t, org, q, { username: `dupC${kind}${unique()}`, name: '丙队', prediction: honest() });
    await teamWithWork(t, org, q, { username: `dupD${kind}${unique()}`, name: '丁队', prediction: honest() });
    while (await runDueJobs(t.deps));

    const view = ok(await org.get(`/api/review/test/duplicates/${q.questionId}`), 'duplicates');
    expect(view.files).toBe(4);
    expect(view.pairs).toHaveLength(1);
    const [pair] = view.pairs;
    expect(new Set([pair.a.teamName, pair.b.teamName])).toEqual(new Set(['甲队', '乙队']));
    expect(pair.identical).toBe(1000);
    expect(pair.privateRows).toBeGreaterThan(0);
    expect(pair.sharedWrong).toBe(pair.privateRows);
    // Nothing changed: both teams keep their scores.
    const scores = ok(await org.get(`/api/review/test/submissions/${q.questionId}?limit=100`), 'submissions').list;
    expect(
      scores.filter((s: { teamId: number; cancelledAt: string | null }) => [a.teamId, b.teamId].includes(s.teamId) && s.cancelledAt === null),
    ).toHaveLength(2);
    expect((await other.get(`/api/review/test/duplicates/${q.questionId}`)).statusCode).toBe(404);
    // A new file of one of them under a changed setting (a new answer file) is compared under that setting only.
    ok(
      await org.request({
        method: 'POST',
        url: `/api/competition/question/${q.questionId}/answer`,
        ...multipart('answer.csv', Buffer.from(answer), 'text/csv'),
      }),
      'answer again',
    );
    expect(ok(await org.get(`/api/review/test/duplicates/${q.questionId}`), 'after new answer').files).toBe(0);
  });
});
