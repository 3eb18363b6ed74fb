/**
 * Duplicate accounts in data contests (issue 37, item 5): each prediction file scored by a built-in metric leaves a
 * compact fingerprint of its private rows, made during the scoring pass (one hash per private row). Independent models
 * are wrong on different rows, or in different ways; a team that runs a second account with another's predictions
 * (Kaggle forbids both, Zindi and Numerai look for them this way) is wrong on the same rows with the same values.
 *
 * The fingerprint is two MinHash sketches (one-permutation hashing: each element hashed once, into one of K bins,
 * the bin keeping its least hash) of the private rows a file gets wrong: one of the rows, one of (row, predicted
 * value). For numeric predictions every row counts as wrong (an exact hit is rare), so the second is the file's
 * predictions themselves. The Jaccard similarity of two files' sets, estimated from the sketches, gives how many wrong
 * predictions they share, and with the rows' counts, the share of identical predictions on the private rows.
 */

/** Bins of each sketch: the estimate's standard error is about √(J(1−J)/K). */
export const SKETCH_BINS = 128;
const EMPTY = 0xffffffff;

/** murmur3's finaliser: a 32-bit word to a well-mixed 32-bit hash. */
function fmix(h: number) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a of a text, for labels. */
function textHash(s: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
/** A hash of a predicted value (not yet mixed): a number by its bits (so 0.1 and 0.10000001 differ), a label by its text. */
function valueHash(v: unknown): number {
  if (typeof v === 'number') {
    f64[0] = v;
    return Math.imul(u32[0]!, 0x9e3779b1) ^ u32[1]!;
  }
  if (typeof v === 'string') return textHash(v);
  if (v instanceof Float64Array) {
    let h = 0x2545f491;
    for (const x of v) h = fmix(h ^ valueHash(x));
    return h;
  }
  return textHash(String(v));
}

/** One-permutation hashing: the hash's top 7 bits choose the bin, which keeps the least of the other 25. */
function addTo(sketch: Uint32Array, h: number) {
  const bin = h >>> 25;
  const rest = h & 0x1ffffff;
  if (rest < sketch[bin]!) sketch[bin] = rest;
}

/** The sketch a scoring pass fills: `add` for each private row, then `encode`. */
export class PredictionSketch {
  private readonly rows = new Uint32Array(SKETCH_BINS).fill(EMPTY);
  private readonly preds = new Uint32Array(SKETCH_BINS).fill(EMPTY);
  /** Private rows seen, and those predicted wrong. */
  private total = 0;
  private wrong = 0;

  add(row: number, value: unknown, truth: unknown) {
    this.total++;
    if (value === truth) return;
    this.wrong++;
    const r = fmix(row + 0x1b873593);
    addTo(this.rows, r);
    addTo(this.preds, fmix(r ^ valueHash(value)));
  }

  /** Private rows seen. */
  get rowsSeen() {
    return this.total;
  }

  /** Base64 of: total, wrong, then both sketches (1,032 bytes, some 1,400 characters). */
  encode(): string {
    const out = new Uint32Array(2 + 2 * SKETCH_BINS);
    out[0] = this.total;
    out[1] = this.wrong;
    out.set(this.rows, 2);
    out.set(this.preds, 2 + SKETCH_BINS);
    return Buffer.from(out.buffer).toString('base64');
  }
}

export interface Fingerprint {
  total: number;
  wrong: number;
  rows: Uint32Array;
  preds: Uint32Array;
}

export function decodeFingerprint(s: string): Fingerprint | null {
  const buf = Buffer.from(s, 'base64');
  if (buf.length !== 4 * (2 + 2 * SKETCH_BINS)) return null;
  const all = new Uint32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
  return { total: all[0]!, wrong: all[1]!, rows: all.subarray(2, 2 + SKETCH_BINS), preds: all.subarray(2 + SKETCH_BINS) };
}

/** Jaccard similarity of two sets from their one-permutation sketches (bins empty in both are left out). */
function jaccard(a: Uint32Array, b: Uint32Array) {
  let same = 0;
  let used = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === EMPTY && b[i] === EMPTY) continue;
    used++;
    if (a[i] === b[i]) same++;
  }
  return used ? same / used : 0;
}

export interface Agreement {
  /** Estimated Jaccard similarity of the two files' wrong predictions (row and value). */
  wrongJaccard: number;
  /** Estimated wrong predictions the two files share (same row, same value). */
  sharedWrong: number;
  /** Estimated share of the private rows on which both files predict the same. */
  identical: number;
}

/** How far two files of one question agree, from their fingerprints. */
export function agreement(a: Fingerprint, b: Fingerprint): Agreement {
  const jp = jaccard(a.preds, b.preds);
  const jr = jaccard(a.rows, b.rows);
  const inter = (j: number) => (j * (a.wrong + b.wrong)) / (1 + j);
  const sharedWrong = inter(jp);
  // Rows both get right are predicted alike; of the rows both get wrong, those with the same value.
  const bothRight = Math.max(0, a.total - (a.wrong + b.wrong - inter(jr)));
  return { wrongJaccard: jp, sharedWrong, identical: a.total ? Math.min(1, (bothRight + sharedWrong) / a.total) : 0 };
}

/** A pair is suspect when most of their wrong predictions are the same ones: independent models' errors differ. */
export const DUPLICATE_JACCARD = 0.6;
/** Fewer wrong private predictions than this in both files says nothing (two near-perfect files agree by being right). */
export const MIN_WRONG = 20;

/**
 * Pairs of files of different teams that agree far beyond independent models: candidates from locality-sensitive
 * hashing (the prediction sketch in bands of 4 bins: a pair at Jaccard 0.6 shares a band with probability
 * 1 − (1 − 0.6⁴)³² ≈ 0.98), then checked against DUPLICATE_JACCARD. Each pair of teams is reported once, with its
 * most alike pair of files.
 */
export function duplicatePairs<T extends { teamId: number }>(files: (T & { fingerprint: Fingerprint })[]) {
  const BAND = 4;
  const buckets = new Map<string, number[]>();
  files.forEach((f, i) => {
    if (f.fingerprint.wrong < MIN_WRONG) return;
    for (let b = 0; b < SKETCH_BINS / BAND; b++) {
      const band = f.fingerprint.preds.subarray(b * BAND, b * BAND + BAND);
      if (band.every((x) => x === EMPTY)) continue;
      const key = `${b}:${band.join(',')}`;
      const list = buckets.get(key);
      if (list) list.push(i);
      else buckets.set(key, [i]);
    }
  });
  const best = new Map<string, { a: T; b: T; agreement: Agreement }>();
  const seen = new Set<string>();
  // A band shared by very many files is a file everyone sent (the sample, a constant baseline), not two accounts;
  // comparing its holders pairwise would cost their number squared.
  const crowd = Math.max(50, Math.ceil(files.length * 0.02));
  for (const list of buckets.values()) {
    if (list.length < 2 || list.length > crowd) continue;
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const [i, j] = [list[x]!, list[y]!];
        const fa = files[i]!;
        const fb = files[j]!;
        if (fa.teamId === fb.teamId) continue;
        const key = i < j ? `${i}-${j}` : `${j}-${i}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const ag = agreement(fa.fingerprint, fb.fingerprint);
        if (ag.wrongJaccard < DUPLICATE_JACCARD) continue;
        const teams = fa.teamId < fb.teamId ? `${fa.teamId}-${fb.teamId}` : `${fb.teamId}-${fa.teamId}`;
        const kept = best.get(teams);
        if (!kept || kept.agreement.wrongJaccard < ag.wrongJaccard) best.set(teams, { a: fa, b: fb, agreement: ag });
      }
    }
  }
  return [...best.values()].sort((p, q) => q.agreement.wrongJaccard - p.agreement.wrongJaccard);
}
