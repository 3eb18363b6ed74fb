import { DEFAULT_K, DEFAULT_POSITIVE_LABEL, METRIC_INFO, type Metric, type MetricKind } from '@contest/shared';

/**
 * Evaluation metrics, computed exactly (no sampling) and equal to scikit-learn 1.2 to 1e-9 relative (the fixtures of
 * server/test/fixtures/metrics, written by scripts/metric-fixtures.py). Each accumulator takes (truth, prediction)
 * pairs one at a time so that a file is scored while it streams. Most keep only sums or per-class counts; those that
 * need a ranking or a median keep one number per row (auc, gini, averagePrecision, multiAuc: the scores; medae: the
 * errors). The list of metrics, their names, directions and definitions are shared with the web (`@contest/shared`).
 *
 * The values each kind takes (see `MetricKind`):
 * - label: text / text (trimmed); grade: integer / integer; probability: 0 or 1 / a number in [0, 1];
 * - classProbabilities: the index of the true class in `classes` / the row's probabilities in the order of `classes`;
 * - number: number / number; ranking: space-separated item ids, a set / an ordered list.
 * `result()` is null when the score is not defined (no row; one class only for AUC; one row for R²; QWK with a single
 * grade), where scikit-learn answers NaN or refuses.
 */

/** Classification metrics compare labels as text; the others need numbers (for classProbabilities: the truth is a label). */
export const NUMERIC_PREDICTION = Object.fromEntries(
  Object.entries(METRIC_INFO).map(([m, info]) => [m, info.kind === 'grade' || info.kind === 'probability' || info.kind === 'number']),
) as Record<Metric, boolean>;

export const metricKind = (metric: Metric): MetricKind => METRIC_INFO[metric].kind;

export interface Accumulator<T, P> {
  add(truth: T, prediction: P): void;
  /** The score, or null when it is not defined (no row added, or see above). */
  result(): number | null;
}

export interface MetricOptions {
  /** The positive class of f1, precision and recall. */
  positiveLabel: string;
  /** The K of mapAtK. */
  k: number;
  /** The classes of classProbabilities metrics, in the order predictions give their probabilities. */
  classes: readonly string[];
}

/**
 * The problem with one parsed number for the metric, or null. Checked for both files: the answer file at upload, the
 * prediction file while it is scored (the row's line goes with the message).
 */
export function valueProblem(metric: Metric, n: number, side: 'truth' | 'prediction'): string | null {
  const kind = METRIC_INFO[metric].kind;
  if (kind === 'probability') {
    if (side === 'truth' && n !== 0 && n !== 1) return '真实值须为0或1';
    if (side === 'prediction' && metric === 'logLoss' && (n < 0 || n > 1)) return `概率须在0到1之间：${n}`;
  }
  if (kind === 'grade' && !Number.isInteger(n)) return `${side === 'truth' ? '真实值' : '预测值'}须为整数等级：${n}`;
  if (metric === 'mape' && side === 'truth' && n === 0) return '真实值为0，不能计算MAPE';
  if (metric === 'rmsle' && n < 0) return `${side === 'truth' ? '真实值' : '预测值'}为负数，不能计算RMSLE：${n}`;
  return null;
}

/** A Float64Array that grows, for the metrics that keep one number per row. */
class Floats {
  data = new Float64Array(1024);
  n = 0;
  push(v: number) {
    if (this.n === this.data.length) {
      const d = new Float64Array(this.n * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.n++] = v;
  }
  view() {
    return this.data.subarray(0, this.n);
  }
}

// ------------------------------------------------------------------------------------------------ labels

/** Per-label counts of true positives, false positives and false negatives: enough for every label metric. */
function labelCounts() {
  const tp = new Map<string, number>();
  const fp = new Map<string, number>();
  const fn = new Map<string, number>();
  const inc = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const counts = {
    n: 0,
    right: 0,
    tp,
    fp,
    fn,
    add(t: string, p: string) {
      counts.n++;
      if (t === p) {
        counts.right++;
        inc(tp, t);
      } else {
        inc(fp, p);
        inc(fn, t);
      }
    },
    /** Every label seen in the truth or the predictions, as scikit-learn's `unique_labels`. */
    labels: () => new Set([...tp.keys(), ...fp.keys(), ...fn.keys()]),
    get: (m: Map<string, number>, k: string) => m.get(k) ?? 0,
    /** F1 of one label, 0 when it is undefined (scikit-learn's zero_division=0). */
    f1(l: string) {
      const a = tp.get(l) ?? 0;
      const d = 2 * a + (fp.get(l) ?? 0) + (fn.get(l) ?? 0);
      return d ? (2 * a) / d : 0;
    },
  };
  return counts;
}

function fromCounts(score: (c: ReturnType<typeof labelCounts>) => number): Accumulator<string, string> {
  const c = labelCounts();
  return { add: c.add, result: () => (c.n ? score(c) : null) };
}

export const accuracy = () => fromCounts((c) => c.right / c.n);

/** Mean recall over the labels of the truth (labels only in the predictions have no recall, as in scikit-learn). */
export const balancedAccuracy = () =>
  fromCounts((c) => {
    let sum = 0;
    let labels = 0;
    for (const l of c.labels()) {
      const support = c.get(c.tp, l) + c.get(c.fn, l);
      if (!support) continue;
      labels++;
      sum += c.get(c.tp, l) / support;
    }
    return sum / labels;
  });

/** Unweighted mean of the per-label F1 over every label seen in the truth or the predictions (as scikit-learn). */
export const macroF1 = () =>
  fromCounts((c) => {
    const labels = c.labels();
    let sum = 0;
    for (const l of labels) sum += c.f1(l);
    return sum / labels.size;
  });

/** F1 of the counts added over every label: 2·TP / (2·TP + FP + FN), equal to the accuracy for one label per row. */
export const microF1 = () => fromCounts((c) => (2 * c.right) / (2 * c.right + 2 * (c.n - c.right)));

/** Per-label F1 weighted by the label's rows in the truth. */
export const weightedF1 = () =>
  fromCounts((c) => {
    let sum = 0;
    for (const l of c.labels()) sum += c.f1(l) * (c.get(c.tp, l) + c.get(c.fn, l));
    return sum / c.n;
  });

/** Matthews correlation coefficient, multi-class (scikit-learn's formula from the confusion matrix); 0 when undefined. */
export const mcc = () =>
  fromCounts((c) => {
    let tt = 0;
    let pp = 0;
    let tp = 0;
    for (const l of c.labels()) {
      const t = c.get(c.tp, l) + c.get(c.fn, l);
      const p = c.get(c.tp, l) + c.get(c.fp, l);
      tt += t * t;
      pp += p * p;
      tp += t * p;
    }
    const s = c.n;
    const cov = c.right * s - tp;
    const denominator = (s * s - tt) * (s * s - pp);
    return denominator === 0 ? 0 : cov / Math.sqrt(denominator);
  });

/** Binary metrics: the positive label against every other label. */
function positiveCounts(positive: string, score: (tp: number, fp: number, fn: number) => number): Accumulator<string, string> {
  let n = 0;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  return {
    add(t, p) {
      n++;
      if (p === positive) {
        if (t === positive) tp++;
        else fp++;
      } else if (t === positive) fn++;
    },
    result: () => (n ? score(tp, fp, fn) : null),
  };
}
const ratio = (a: number, b: number) => (b ? a / b : 0);
export const f1 = (positive = DEFAULT_POSITIVE_LABEL) => positiveCounts(positive, (tp, fp, fn) => ratio(2 * tp, 2 * tp + fp + fn));
export const precision = (positive = DEFAULT_POSITIVE_LABEL) => positiveCounts(positive, (tp, fp) => ratio(tp, tp + fp));
export const recall = (positive = DEFAULT_POSITIVE_LABEL) => positiveCounts(positive, (tp, _fp, fn) => ratio(tp, tp + fn));

// ------------------------------------------------------------------------------------------------ grades

/**
 * Quadratic weighted kappa, as scikit-learn's `cohen_kappa_score(weights='quadratic')`: the weight of a cell is the
 * square of the difference of the two grades' positions in the sorted list of every grade seen (in the truth or the
 * predictions). The expected disagreement is expanded into sums over the grades, so a file with many distinct grades
 * costs their number, not its square.
 */
export function qwk(): Accumulator<number, number> {
  const cells = new Map<number, Map<number, number>>();
  const rowSums = new Map<number, number>();
  const colSums = new Map<number, number>();
  let n = 0;
  return {
    add(t, p) {
      n++;
      let row = cells.get(t);
      if (!row) cells.set(t, (row = new Map()));
      row.set(p, (row.get(p) ?? 0) + 1);
      rowSums.set(t, (rowSums.get(t) ?? 0) + 1);
      colSums.set(p, (colSums.get(p) ?? 0) + 1);
    },
    result() {
      if (!n) return null;
      const grades = [...new Set([...rowSums.keys(), ...colSums.keys()])].sort((a, b) => a - b);
      const at = new Map(grades.map((g, i) => [g, i]));
      let observed = 0;
      for (const [t, row] of cells) for (const [p, count] of row) observed += (at.get(t)! - at.get(p)!) ** 2 * count;
      // Σ_ij (i−j)² a_i b_j / n, with a the truth's and b the predictions' counts per grade position.
      let a1 = 0;
      let a2 = 0;
      let b1 = 0;
      let b2 = 0;
      for (const [g, count] of rowSums) {
        const i = at.get(g)!;
        a1 += i * count;
        a2 += i * i * count;
      }
      for (const [g, count] of colSums) {
        const j = at.get(g)!;
        b1 += j * count;
        b2 += j * j * count;
      }
      const expected = (a2 * n + b2 * n - 2 * a1 * b1) / n;
      return expected === 0 ? null : 1 - observed / expected;
    },
  };
}

// ------------------------------------------------------------------------------------------------ probabilities

/**
 * Area under the ROC curve of scores against 0/1 labels, by the rank-sum (Mann–Whitney) statistic counted directly:
 * for each positive, the negatives scored below it and half of those tied with it. Positives and negatives are sorted
 * apart by the engine's numeric sort, then walked together once; a comparator-driven sort of a million indexes took
 * several times as long as reading the file. Null with one class only.
 */
function aucOf(scores: Float64Array, isPositive: (i: number) => boolean): number | null {
  const n = scores.length;
  let positives = 0;
  for (let i = 0; i < n; i++) if (isPositive(i)) positives++;
  const negatives = n - positives;
  if (!positives || !negatives) return null;
  const pos = new Float64Array(positives);
  const neg = new Float64Array(negatives);
  for (let i = 0, p = 0, q = 0; i < n; i++) {
    if (isPositive(i)) pos[p++] = scores[i]!;
    else neg[q++] = scores[i]!;
  }
  pos.sort();
  neg.sort();
  let below = 0;
  let upTo = 0;
  let u = 0;
  for (let i = 0; i < positives; i++) {
    const v = pos[i]!;
    while (below < negatives && neg[below]! < v) below++;
    if (upTo < below) upTo = below;
    while (upTo < negatives && neg[upTo]! <= v) upTo++;
    u += below + (upTo - below) / 2;
  }
  return u / (positives * negatives);
}

/** Keeps the scores of the positives and of the negatives apart, for the ranking metrics of one probability column. */
function binaryScores(score: (scores: Float64Array, labels: Uint8Array) => number | null): Accumulator<number, number> {
  const scores = new Floats();
  let labels = new Uint8Array(1024);
  return {
    add(t, p) {
      if (scores.n === labels.length) {
        const l = new Uint8Array(labels.length * 2);
        l.set(labels);
        labels = l;
      }
      labels[scores.n] = t === 1 ? 1 : 0;
      scores.push(p);
    },
    result() {
      if (!scores.n) return null;
      return score(scores.view(), labels);
    },
  };
}

export const auc = () => binaryScores((scores, labels) => aucOf(scores, (i) => labels[i] === 1));
export const gini = () =>
  binaryScores((scores, labels) => {
    const a = aucOf(scores, (i) => labels[i] === 1);
    return a === null ? null : 2 * a - 1;
  });

/**
 * Average precision as scikit-learn's `average_precision_score`: Σ (Rₙ − Rₙ₋₁)·Pₙ over the distinct scores from the
 * highest down, the rows tied on a score entering together. Null with one class only.
 */
export const averagePrecision = () =>
  binaryScores((scores, labels) => {
    let positives = 0;
    for (let i = 0; i < scores.length; i++) positives += labels[i]!;
    const negatives = scores.length - positives;
    if (!positives || !negatives) return null;
    const pos = new Float64Array(positives);
    const neg = new Float64Array(negatives);
    for (let i = 0, p = 0, q = 0; i < scores.length; i++) {
      if (labels[i]) pos[p++] = scores[i]!;
      else neg[q++] = scores[i]!;
    }
    pos.sort();
    neg.sort();
    let i = positives - 1;
    let j = negatives - 1;
    let tp = 0;
    let fp = 0;
    let sum = 0;
    while (i >= 0) {
      const v = Math.max(pos[i]!, j >= 0 ? neg[j]! : -Infinity);
      const before = tp;
      while (i >= 0 && pos[i] === v) {
        tp++;
        i--;
      }
      while (j >= 0 && neg[j] === v) {
        fp++;
        j--;
      }
      if (tp > before) sum += ((tp - before) / positives) * (tp / (tp + fp));
    }
    return sum;
  });

/** Probabilities are clipped to [ε, 1 − ε] with ε the float64 machine epsilon, as scikit-learn 1.2's `eps='auto'`. */
const EPS = Number.EPSILON;
const clip = (p: number) => Math.min(Math.max(p, EPS), 1 - EPS);

/** Binary log-loss: the probabilities of both classes clipped, then each row put back to a sum of 1 (as scikit-learn). */
export function logLoss(): Accumulator<number, number> {
  let n = 0;
  let sum = 0;
  return {
    add(t, p) {
      n++;
      const q1 = clip(p);
      const q0 = clip(1 - p);
      sum -= Math.log((t === 1 ? q1 : q0) / (q0 + q1));
    },
    result: () => (n ? sum / n : null),
  };
}

/** Multi-class log-loss: each probability clipped, the row put back to a sum of 1, the true class's taken. */
export function multiLogLoss(): Accumulator<number, ArrayLike<number>> {
  let n = 0;
  let sum = 0;
  return {
    add(t, p) {
      n++;
      let total = 0;
      for (let c = 0; c < p.length; c++) total += clip(p[c]!);
      sum -= Math.log(clip(p[t]!) / total);
    },
    result: () => (n ? sum / n : null),
  };
}

/**
 * One-vs-rest AUC of each class's column, averaged over the classes present in the truth (a column for a class the
 * truth lacks has no positive and is left out; scikit-learn refuses such a file). Null when fewer than two classes.
 */
export function multiAuc(classes: number): Accumulator<number, ArrayLike<number>> {
  const columns = Array.from({ length: classes }, () => new Floats());
  let truth = new Int32Array(1024);
  let n = 0;
  return {
    add(t, p) {
      if (n === truth.length) {
        const d = new Int32Array(n * 2);
        d.set(truth);
        truth = d;
      }
      truth[n++] = t;
      for (let c = 0; c < classes; c++) columns[c]!.push(p[c]!);
    },
    result() {
      if (!n) return null;
      let sum = 0;
      let counted = 0;
      for (let c = 0; c < classes; c++) {
        const a = aucOf(columns[c]!.view(), (i) => truth[i] === c);
        if (a === null) continue;
        sum += a;
        counted++;
      }
      return counted >= 2 ? sum / counted : null;
    },
  };
}

// ------------------------------------------------------------------------------------------------ numbers

function meanOf(term: (t: number, p: number) => number, finish: (mean: number) => number = (m) => m): Accumulator<number, number> {
  let n = 0;
  let sum = 0;
  return {
    add(t, p) {
      n++;
      sum += term(t, p);
    },
    result: () => (n ? finish(sum / n) : null),
  };
}

export const rmse = () => meanOf((t, p) => (t - p) ** 2, Math.sqrt);
export const mae = () => meanOf((t, p) => Math.abs(t - p));
/** Mean of |truth - prediction| / |truth|, as a fraction (0.1 is 10 %); rows with a true value of 0 are refused upstream. */
export const mape = () => meanOf((t, p) => Math.abs(t - p) / Math.abs(t));
/** Root mean squared logarithmic error; negative values are refused upstream. */
export const rmsle = () => meanOf((t, p) => (Math.log1p(t) - Math.log1p(p)) ** 2, Math.sqrt);
/** Symmetric MAPE in percent: 100/n·Σ 2|p−t|/(|t|+|p|), a term being 0 when both are 0. */
export const smape = () =>
  meanOf(
    (t, p) => {
      const d = Math.abs(t) + Math.abs(p);
      return d === 0 ? 0 : (2 * Math.abs(p - t)) / d;
    },
    (m) => 100 * m,
  );

/**
 * Coefficient of determination. The truth's variance is accumulated by Welford's method, not from Σt² − (Σt)²/n,
 * which loses every digit on values like 1e9 ± 1e3. A constant truth scores 1 when predicted exactly and 0 otherwise
 * (scikit-learn's force_finite); null for a single row.
 */
export function r2(): Accumulator<number, number> {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  let residual = 0;
  return {
    add(t, p) {
      n++;
      const delta = t - mean;
      mean += delta / n;
      m2 += delta * (t - mean);
      residual += (t - p) ** 2;
    },
    result() {
      if (n < 2) return null;
      if (m2 === 0) return residual === 0 ? 1 : 0;
      return 1 - residual / m2;
    },
  };
}

/** Median of the absolute errors (the mean of the two middle ones for an even count). */
export function medae(): Accumulator<number, number> {
  const errors = new Floats();
  return {
    add: (t, p) => errors.push(Math.abs(t - p)),
    result() {
      if (!errors.n) return null;
      const e = errors.view().sort();
      const mid = e.length >> 1;
      return e.length % 2 ? e[mid]! : (e[mid - 1]! + e[mid]!) / 2;
    },
  };
}

// ------------------------------------------------------------------------------------------------ rankings

const items = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * Mean average precision at k (Kaggle's apk): for each row, the precision at each of the first k predicted items that
 * is relevant (an item repeated counts once) added up, divided by min(|truth|, k); then the mean over rows. A row with
 * an empty truth scores 0.
 */
export function mapAtK(k = DEFAULT_K): Accumulator<string, string> {
  let n = 0;
  let sum = 0;
  return {
    add(t, p) {
      n++;
      const actual = new Set(items(t));
      if (!actual.size) return;
      const predicted = items(p).slice(0, k);
      const seen = new Set<string>();
      let hits = 0;
      let score = 0;
      for (let i = 0; i < predicted.length; i++) {
        const item = predicted[i]!;
        if (seen.has(item)) continue;
        seen.add(item);
        if (actual.has(item)) {
          hits++;
          score += hits / (i + 1);
        }
      }
      sum += score / Math.min(actual.size, k);
    },
    result: () => (n ? sum / n : null),
  };
}

export type { Metric };

// biome-ignore lint/suspicious/noExplicitAny: each metric has its own cell types; the reader hands each the cells it parses for it.
type AnyAccumulator = Accumulator<any, any>;

/** A fresh accumulator of the metric, reading the evaluation's settings it needs. */
export function accumulator(metric: Metric, options: Partial<MetricOptions> = {}): AnyAccumulator {
  const positive = options.positiveLabel ?? DEFAULT_POSITIVE_LABEL;
  const make: Record<Metric, () => AnyAccumulator> = {
    accuracy,
    balancedAccuracy,
    macroF1,
    microF1,
    weightedF1,
    f1: () => f1(positive),
    precision: () => precision(positive),
    recall: () => recall(positive),
    mcc,
    qwk,
    auc,
    gini,
    averagePrecision,
    logLoss,
    multiLogLoss,
    multiAuc: () => multiAuc(options.classes?.length ?? 0),
    rmse,
    mae,
    mape,
    rmsle,
    r2,
    medae,
    smape,
    mapAtK: () => mapAtK(options.k ?? DEFAULT_K),
  };
  return make[metric]();
}
