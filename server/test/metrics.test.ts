import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { METRIC_INFO, METRICS, type Metric } from '@contest/shared';
import { describe, expect, it } from 'vitest';
import { CsvError } from '../src/scoring/csv.ts';
import { accumulator, auc, averagePrecision, medae, r2 } from '../src/scoring/metrics.ts';
import { loadAnswers, scoreSubmission, type Evaluation } from '../src/scoring/score.ts';
import { mulberry32 } from './mulberry32.ts';

/**
 * Every metric against scikit-learn 1.2: the fixtures are written by scripts/metric-fixtures.py (run by hand with
 * Debian's python3-sklearn) on generated data, hard cases included; equal to 1e-9 relative, null where scikit-learn
 * gives NaN or refuses.
 */
interface Case {
  name: string;
  options: { positiveLabel?: string; k?: number };
  classes?: string[];
  truth: (string | number)[];
  pred: (string | number | number[])[];
  expected: Partial<Record<Metric, number | null>>;
}
const FILES = ['labels', 'grades', 'binary', 'multiclass', 'numbers', 'rankings'] as const;
const fixtures = Object.fromEntries(
  FILES.map((f) => [f, (JSON.parse(readFileSync(new URL(`./fixtures/metrics/${f}.json`, import.meta.url), 'utf8')) as { cases: Case[] }).cases]),
) as Record<(typeof FILES)[number], Case[]>;

function run(metric: Metric, c: Case): number | null {
  const acc = accumulator(metric, { ...c.options, classes: c.classes });
  for (let i = 0; i < c.truth.length; i++) {
    const t = c.truth[i]!;
    acc.add(c.classes ? c.classes.indexOf(t as string) : t, c.pred[i]);
  }
  return acc.result();
}

const close = (actual: number | null, expected: number | null) => {
  if (expected === null) return expect(actual).toBeNull();
  expect(actual).not.toBeNull();
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(expected), 1e-300) + (expected === 0 ? 1e-15 : 0));
};

describe('every metric equals scikit-learn 1.2 on the committed fixtures', () => {
  const covered = new Set<Metric>();
  for (const file of FILES) {
    for (const c of fixtures[file]) {
      for (const [metric, expected] of Object.entries(c.expected) as [Metric, number | null][]) {
        covered.add(metric);
        it(`${metric}: ${c.name} (${c.truth.length} rows)`, () => close(run(metric, c), expected));
      }
    }
  }
  it('the fixtures cover every metric of METRICS, each with its kind', () => {
    expect([...covered].sort()).toEqual([...METRICS].sort());
    const kinds: Record<(typeof FILES)[number], string[]> = {
      labels: ['label'],
      grades: ['grade'],
      binary: ['probability'],
      multiclass: ['classProbabilities'],
      numbers: ['number'],
      rankings: ['ranking'],
    };
    for (const file of FILES)
      for (const c of fixtures[file]) for (const m of Object.keys(c.expected) as Metric[]) expect(kinds[file]).toContain(METRIC_INFO[m].kind);
  });
  it('every metric has a Chinese name, a direction and a one-line definition', () => {
    for (const m of METRICS) {
      const info = METRIC_INFO[m];
      expect(info.name).toMatch(/[\u4e00-\u9fff]|^AUC$|^MAP@K$/);
      expect(typeof info.higherIsBetter).toBe('boolean');
      expect(info.definition.length).toBeGreaterThan(3);
      expect(info.definition).not.toContain('\n');
    }
  });
});

describe('a million rows, against a plain reference', () => {
  const n = 1_000_000;
  const random = mulberry32(21);
  const labels = new Uint8Array(n);
  const scores = new Float64Array(n);
  const truth = new Float64Array(n);
  const pred = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    labels[i] = random() < 0.3 ? 1 : 0;
    // Scores on a 1e-3 grid: many ties.
    scores[i] = Math.round((random() * 0.7 + labels[i]! * 0.3) * 1000) / 1000;
    truth[i] = 1e6 + random() * 1000;
    pred[i] = truth[i]! + (random() - 0.5) * 50;
  }

  it('AUC and average precision equal a sort of the rows with the ties grouped', () => {
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
    const positives = labels.reduce((s, l) => s + l, 0);
    const negatives = n - positives;
    // Walk from the highest score down, a group of tied rows at a time.
    let tp = 0;
    let fp = 0;
    let ap = 0;
    let pairs = 0;
    for (let i = 0; i < n; ) {
      let j = i;
      let gp = 0;
      let gn = 0;
      while (j < n && scores[order[j]!] === scores[order[i]!]) {
        if (labels[order[j]!]) gp++;
        else gn++;
        j++;
      }
      // Each positive of the group is above the negatives not yet seen (all lower), tied with the group's negatives.
      pairs += gp * (negatives - fp - gn) + (gp * gn) / 2;
      tp += gp;
      fp += gn;
      if (gp) ap += (gp / positives) * (tp / (tp + fp));
      i = j;
    }
    const a = auc();
    const p = averagePrecision();
    for (let i = 0; i < n; i++) {
      a.add(labels[i]!, scores[i]!);
      p.add(labels[i]!, scores[i]!);
    }
    close(a.result(), pairs / (positives * negatives));
    close(p.result(), ap);
  });

  it('R² and the median absolute error equal a two-pass computation and a sorted array', () => {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += truth[i]!;
    mean /= n;
    let total = 0;
    let residual = 0;
    for (let i = 0; i < n; i++) {
      total += (truth[i]! - mean) ** 2;
      residual += (truth[i]! - pred[i]!) ** 2;
    }
    const errors = Array.from(truth, (t, i) => Math.abs(t - pred[i]!)).sort((a, b) => a - b);
    const r = r2();
    const m = medae();
    for (let i = 0; i < n; i++) {
      r.add(truth[i]!, pred[i]!);
      m.add(truth[i]!, pred[i]!);
    }
    close(r.result(), 1 - residual / total);
    close(m.result(), (errors[n / 2 - 1]! + errors[n / 2]!) / 2);
  });
});

describe('the fixtures scored through files (score.ts)', () => {
  const stream = (text: string) => Readable.from([Buffer.from(text)]);
  const cell = (v: string | number) => (/[",\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const lines = (rows: (string | number)[][]) => rows.map((r) => r.map(cell).join(',')).join('\r\n');
  const ev = (metric: Metric, c: Case): Evaluation => ({ metric, idColumn: 'id', targetColumn: 'y', publicShare: 1, salt: 's', ...c.options });

  async function scoreFile(metric: Metric, c: Case, prediction?: string) {
    const e = ev(metric, c);
    const answers = await loadAnswers(stream(lines([['id', 'y'], ...c.truth.map((t, i) => [`r${i}`, t])])), e);
    const file =
      prediction ??
      (c.classes
        ? lines([['id', ...c.classes], ...c.pred.map((p, i) => [`r${i}`, ...(p as number[])])])
        : lines([['id', 'y'], ...c.pred.map((p, i) => [`r${i}`, p as string | number])]));
    return scoreSubmission(stream(file), answers, e);
  }

  // One case of each file whose scores are defined, and the settings each kind reads.
  const picks: [Metric[], Case][] = [
    [['f1', 'precision', 'recall', 'weightedF1', 'mcc'], fixtures.labels.find((c) => c.name.startsWith('binary text'))!],
    [['qwk'], fixtures.grades.find((c) => c.name.includes('only in the predictions'))!],
    [['auc', 'gini', 'averagePrecision', 'logLoss'], fixtures.binary.find((c) => c.name.includes('exactly 0 and 1, some wrong'))!],
    [['multiLogLoss', 'multiAuc'], fixtures.multiclass.find((c) => c.name.includes('not in sorted order'))!],
    [['multiLogLoss', 'multiAuc'], fixtures.multiclass.find((c) => c.name.includes('the truth lacks'))!],
    [['rmsle', 'r2', 'medae', 'smape'], fixtures.numbers.find((c) => c.name.includes('prices'))!],
    [['mapAtK'], fixtures.rankings.find((c) => c.name.startsWith('repeated items'))!],
    [['mapAtK'], fixtures.rankings.find((c) => c.name === 'k = 3')!],
  ];
  for (const [metrics, c] of picks) {
    for (const m of metrics) it(`${m}: ${c.name}`, async () => close((await scoreFile(m, c)).publicScore, c.expected[m]!));
  }

  it('a prediction of several classes needs a column per class of the answers, and rows summing to 1', async () => {
    const c: Case = { name: 'small', options: {}, classes: ['a', 'b', 'c'], truth: ['a', 'b', 'c'], pred: [], expected: {} };
    const refused = async (file: string) => {
      try {
        await scoreFile('multiLogLoss', c, file);
      } catch (err) {
        if (err instanceof CsvError) return err.problems;
        throw err;
      }
      throw new Error('expected a CsvError');
    };
    expect(await refused('id,a,b\r\nr0,0.5,0.5\r\n')).toEqual([{ line: 1, message: '表头须为“id”列加每个类别一列（列名为类别标签），缺少类别：c' }]);
    expect(await refused('id,a,b,a,c\r\n')).toEqual([{ line: 1, message: '表头中类别“a”重复' }]);
    const problems = await refused('id,c,b,a\r\nr0,0.2,0.2,0.5\r\nr1,0.1,x,0.9\r\nr2,0.2,0.3,1.5\r\n');
    expect(problems).toEqual([
      { line: 2, message: '各类别概率之和为0.9，须为1（误差不超过1e-6）' },
      { line: 3, message: '类别“b”：不是数字：x' },
      { line: 4, message: '类别“a”：概率须在0到1之间：1.5' },
    ]);
    // Within 1e-6 of 1 is accepted, the columns in any order.
    const scored = await scoreFile('multiLogLoss', c, 'id,c,b,a\r\nr0,0,0,0.9999995\r\nr1,0.2,0.8,0\r\nr2,1,0,0\r\n');
    // Each row put back to a sum of 1, as scikit-learn does.
    expect(scored.publicScore).toBeCloseTo(-Math.log(0.8) / 3, 12);
  });

  it('the positive label and k change the scores they should', async () => {
    const c: Case = { name: 'p', options: {}, truth: ['yes', 'no', 'yes', 'no'], pred: ['yes', 'yes', 'no', 'no'], expected: {} };
    expect((await scoreFile('precision', { ...c, options: { positiveLabel: 'yes' } })).publicScore).toBe(0.5);
    expect((await scoreFile('recall', { ...c, options: { positiveLabel: 'no' } })).publicScore).toBe(0.5);
    expect((await scoreFile('f1', c)).publicScore).toBe(0); // '1' by default: never present
    const r: Case = { name: 'k', options: {}, truth: ['a b'], pred: ['x a b'], expected: {} };
    expect((await scoreFile('mapAtK', { ...r, options: { k: 1 } })).publicScore).toBe(0);
    expect((await scoreFile('mapAtK', { ...r, options: { k: 2 } })).publicScore).toBe(0.25);
    expect((await scoreFile('mapAtK', r)).publicScore).toBeCloseTo((1 / 2 + 2 / 3) / 2, 15);
  });

  it('QWK and RMSLE refuse predictions they cannot score, with the line', async () => {
    const g: Case = { name: 'g', options: {}, truth: [1, 2], pred: [], expected: {} };
    await expect(scoreFile('qwk', g, 'id,y\nr0,1\nr1,2.5\n')).rejects.toMatchObject({ problems: [{ line: 3, message: '预测值须为整数等级：2.5' }] });
    await expect(scoreFile('rmsle', g, 'id,y\nr0,-1\nr1,2\n')).rejects.toMatchObject({ problems: [{ line: 2, message: '预测值为负数，不能计算RMSLE：-1' }] });
  });
});
