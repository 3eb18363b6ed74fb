import type { Metric } from '@contest/shared';

/**
 * Evaluation metrics, computed exactly from accumulated sums (no sampling). Each accumulator takes (truth, prediction)
 * pairs one at a time so that a file is scored while it streams; only AUC keeps the pairs, since it needs a ranking.
 * The list of metrics, their names and directions are shared with the web (`@contest/shared`).
 */

/** Classification metrics compare labels as text; the others need numbers. */
export const NUMERIC_PREDICTION: Record<Metric, boolean> = { accuracy: false, macroF1: false, auc: true, rmse: true, mae: true, mape: true, logLoss: true };

export interface Accumulator<T, P> {
  add(truth: T, prediction: P): void;
  /** The score, or null when no row was added. */
  result(): number | null;
}

export function accuracy(): Accumulator<string, string> {
  let n = 0;
  let right = 0;
  return {
    add(t, p) {
      n++;
      if (t === p) right++;
    },
    result: () => (n ? right / n : null),
  };
}

/** Unweighted mean of the per-label F1 over every label seen in the truth or the predictions (as scikit-learn). */
export function macroF1(): Accumulator<string, string> {
  const tp = new Map<string, number>();
  const fp = new Map<string, number>();
  const fn = new Map<string, number>();
  const inc = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  let n = 0;
  return {
    add(t, p) {
      n++;
      if (t === p) inc(tp, t);
      else {
        inc(fp, p);
        inc(fn, t);
      }
    },
    result() {
      if (!n) return null;
      const labels = new Set([...tp.keys(), ...fp.keys(), ...fn.keys()]);
      let sum = 0;
      for (const l of labels) {
        const a = tp.get(l) ?? 0;
        const denominator = 2 * a + (fp.get(l) ?? 0) + (fn.get(l) ?? 0);
        sum += denominator ? (2 * a) / denominator : 0;
      }
      return sum / labels.size;
    },
  };
}

export function rmse(): Accumulator<number, number> {
  let n = 0;
  let sq = 0;
  return {
    add(t, p) {
      n++;
      sq += (t - p) ** 2;
    },
    result: () => (n ? Math.sqrt(sq / n) : null),
  };
}

export function mae(): Accumulator<number, number> {
  let n = 0;
  let abs = 0;
  return {
    add(t, p) {
      n++;
      abs += Math.abs(t - p);
    },
    result: () => (n ? abs / n : null),
  };
}

/** Mean of |truth - prediction| / |truth|, as a fraction (0.1 is 10 %); rows with a true value of 0 are refused upstream. */
export function mape(): Accumulator<number, number> {
  let n = 0;
  let sum = 0;
  return {
    add(t, p) {
      n++;
      sum += Math.abs(t - p) / Math.abs(t);
    },
    result: () => (n ? sum / n : null),
  };
}

const EPS = 1e-15;
/** Binary log-loss with the probability clipped to [1e-15, 1 - 1e-15]. */
export function logLoss(): Accumulator<number, number> {
  let n = 0;
  let sum = 0;
  return {
    add(t, p) {
      n++;
      const q = Math.min(Math.max(p, EPS), 1 - EPS);
      sum -= t === 1 ? Math.log(q) : Math.log(1 - q);
    },
    result: () => (n ? sum / n : null),
  };
}

/** Area under the ROC curve by the rank-sum (Mann–Whitney) formula, tied scores sharing their average rank. */
export function auc(): Accumulator<number, number> {
  let scores = new Float64Array(1024);
  let labels = new Uint8Array(1024);
  let n = 0;
  return {
    add(t, p) {
      if (n === scores.length) {
        const s = new Float64Array(n * 2);
        s.set(scores);
        scores = s;
        const l = new Uint8Array(n * 2);
        l.set(labels);
        labels = l;
      }
      scores[n] = p;
      labels[n] = t === 1 ? 1 : 0;
      n++;
    },
    result() {
      if (!n) return null;
      // The rank-sum statistic counted directly: for each positive, the negatives scored below it and half of those tied
      // with it. Positives and negatives are sorted apart by the engine's numeric sort, then walked together once; a
      // comparator-driven sort of a million indexes took several times as long as reading the file.
      let positives = 0;
      for (let i = 0; i < n; i++) positives += labels[i]!;
      const negatives = n - positives;
      if (!positives || !negatives) return null;
      const pos = new Float64Array(positives);
      const neg = new Float64Array(negatives);
      for (let i = 0, p = 0, q = 0; i < n; i++) {
        if (labels[i]) pos[p++] = scores[i]!;
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
    },
  };
}

export type { Metric };

export function accumulator(metric: Metric): Accumulator<string, string> | Accumulator<number, number> {
  return { accuracy, macroF1, auc, rmse, mae, mape, logLoss }[metric]();
}
