/**
 * 查重 of written works (issue 37): character n-gram fingerprints selected by winnowing (Schleimer, Wilkerson and
 * Aiken, "Winnowing: local algorithms for document fingerprinting", SIGMOD 2003, the method of MOSS and Dolos), an
 * inverted index of them so that candidate pairs are found without comparing every pair, and each work's share of
 * text in passages it shares with another.
 *
 * Text is compared after normalisation: NFKC (full-width forms fold to half-width), lower case, and only letters and
 * digits kept, so that spacing, punctuation and line breaks do not hide a copy. Any common run of at least
 * `k + w - 1` normalised characters is found (the winnowing guarantee); shorter ones are noise by design.
 */

/** k: characters per n-gram; w: n-grams per window. A copied run of k + w - 1 = 15 characters or more is found. */
export const K = 8;
export const W = 8;

/** Text reduced to letters and digits, with where each kept character stood in the original. */
export interface Normalised {
  text: string;
  /** `offsets[i]`: the index in the original text of normalised character i (code units). */
  offsets: Int32Array;
}

const KEEP = /[\p{L}\p{N}]/u;

export function normalise(original: string): Normalised {
  const out: string[] = [];
  const offsets: number[] = [];
  let i = 0;
  for (const ch of original) {
    const folded = ch.normalize('NFKC').toLowerCase();
    for (const c of folded) {
      if (KEEP.test(c)) {
        out.push(c);
        offsets.push(i);
      }
    }
    i += ch.length;
  }
  return { text: out.join(''), offsets: Int32Array.from(offsets) };
}

/** The selected fingerprints of a text: each a k-gram's hash and the normalised position it starts at. */
export interface Fingerprints {
  hashes: Uint32Array;
  positions: Int32Array;
  /** Normalised length: the denominator of a share. */
  length: number;
}

const BASE = 0x01000193;

/** 32-bit polynomial rolling hashes of every k-gram of the code points (Rabin–Karp). */
function kgramHashes(points: number[], k: number): Uint32Array {
  const n = points.length - k + 1;
  if (n <= 0) return new Uint32Array(0);
  let power = 1;
  for (let i = 0; i < k - 1; i++) power = Math.imul(power, BASE);
  const hashes = new Uint32Array(n);
  let h = 0;
  for (let i = 0; i < k; i++) h = (Math.imul(h, BASE) + points[i]!) | 0;
  hashes[0] = h >>> 0;
  for (let i = 1; i < n; i++) {
    h = (h - Math.imul(points[i - 1]!, power)) | 0;
    h = (Math.imul(h, BASE) + points[i + k - 1]!) | 0;
    // A final mix spreads the low bits, which the windows' minimum favours otherwise.
    hashes[i] = h >>> 0;
  }
  for (let i = 0; i < n; i++) hashes[i] = mix(hashes[i]!);
  return hashes;
}

/** Murmur3's finaliser: a bijection on 32 bits. */
function mix(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Robust winnowing: in each window of w consecutive k-gram hashes the minimum is selected (the rightmost one on a
 * tie), and recorded once while it stays the window's minimum. A text shorter than one window keeps its minimum.
 */
export function fingerprint(normalisedText: string, k = K, w = W): Fingerprints {
  const points = Array.from(normalisedText, (c) => c.codePointAt(0)!);
  const hashes = kgramHashes(points, k);
  const selHashes: number[] = [];
  const selPositions: number[] = [];
  if (hashes.length) {
    const windows = Math.max(1, hashes.length - w + 1);
    let chosen = -1;
    for (let start = 0; start < windows; start++) {
      const end = Math.min(start + w, hashes.length);
      if (chosen < start) {
        // The previous minimum left the window: scan it whole.
        chosen = start;
        for (let i = start + 1; i < end; i++) if (hashes[i]! <= hashes[chosen]!) chosen = i;
        selHashes.push(hashes[chosen]!);
        selPositions.push(chosen);
      } else if (hashes[end - 1]! <= hashes[chosen]!) {
        chosen = end - 1;
        selHashes.push(hashes[chosen]!);
        selPositions.push(chosen);
      }
    }
  }
  // Positions count code points, as `Normalised.offsets` does.
  return { hashes: Uint32Array.from(selHashes), positions: Int32Array.from(selPositions), length: points.length };
}

/** The fingerprints of `doc` without those of the texts every team shares (the template, the problem statement). */
export function without(doc: Fingerprints, excluded: Set<number>): Fingerprints {
  const keep: number[] = [];
  for (let i = 0; i < doc.hashes.length; i++) if (!excluded.has(doc.hashes[i]!)) keep.push(i);
  return {
    hashes: Uint32Array.from(keep, (i) => doc.hashes[i]!),
    positions: Int32Array.from(keep, (i) => doc.positions[i]!),
    length: doc.length,
  };
}

/** Ranges [start, end) of normalised characters, sorted and disjoint. */
export type Ranges = [number, number][];

/**
 * The parts of `doc` covered by its fingerprints whose hash is in `shared`: each covers its k characters, and parts
 * at most k + w characters apart are one passage (inside a copied run the fingerprints are at most w apart; a word
 * changed here and there breaks the k-grams over it, not the passage).
 */
export function coveredRanges(doc: Fingerprints, shared: Set<number>, k = K, w = W): Ranges {
  const ranges: Ranges = [];
  for (let i = 0; i < doc.hashes.length; i++) {
    if (!shared.has(doc.hashes[i]!)) continue;
    const start = doc.positions[i]!;
    const end = start + k;
    const last = ranges.at(-1);
    if (last && start - last[1] <= k + w) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }
  return ranges;
}

export const coverage = (ranges: Ranges) => ranges.reduce((sum, [a, b]) => sum + (b - a), 0);

/** What two works share: each one's matched passages and the share of its text they are. */
export interface PairMatch {
  a: Ranges;
  b: Ranges;
  /** Of A's normalised text, in passages also in B (0–1). */
  shareA: number;
  shareB: number;
}

export function compare(a: Fingerprints, b: Fingerprints, k = K, w = W): PairMatch {
  const inB = new Set(b.hashes);
  const shared = new Set<number>();
  for (const h of a.hashes) if (inB.has(h)) shared.add(h);
  const ra = coveredRanges(a, shared, k, w);
  const rb = coveredRanges(b, shared, k, w);
  return {
    a: ra,
    b: rb,
    shareA: a.length ? Math.min(1, coverage(ra) / a.length) : 0,
    shareB: b.length ? Math.min(1, coverage(rb) / b.length) : 0,
  };
}

/**
 * The inverted index of a corpus's fingerprints: for each hash, the documents holding it, kept as one sorted array of
 * (hash, document) keys (8 bytes a posting: a question's 2,000 papers fit in some 50 MB). Candidate pairs are the
 * documents sharing enough distinct fingerprints; a hash held by more than `maxDocs` documents is a commonplace (a
 * formula, a standard phrase) and counts for nobody.
 */
export class FingerprintIndex {
  private readonly docs: Fingerprints[] = [];
  private keys: Float64Array | null = null;

  /** Adds a document; answers its number in the index. */
  add(doc: Fingerprints): number {
    if (this.docs.length >= DOC_LIMIT) throw new Error(`at most ${DOC_LIMIT} documents`);
    this.docs.push(doc);
    this.keys = null;
    return this.docs.length - 1;
  }

  get size() {
    return this.docs.length;
  }

  doc(id: number) {
    return this.docs[id]!;
  }

  /** The postings, sorted: hash × 2²⁰ + document, exact in a double (hashes < 2³², documents < 2²⁰). */
  private postings(): Float64Array {
    if (this.keys) return this.keys;
    let n = 0;
    const distinct = this.docs.map((d) => {
      const u = new Set(d.hashes);
      n += u.size;
      return u;
    });
    const keys = new Float64Array(n);
    let at = 0;
    distinct.forEach((u, id) => {
      for (const h of u) keys[at++] = h * DOC_LIMIT + id;
    });
    keys.sort();
    this.keys = keys;
    return keys;
  }

  /**
   * The documents sharing at least `minShare` of document `id`'s distinct fingerprints (and at least 6), with how
   * many, most first: well under any threshold an organiser sets, so that no pair worth a look is missed, and well
   * above what honest papers share through the language's common phrases, so that few pairs are compared.
   */
  candidates(id: number, minShare = 0.03, maxDocs = Math.max(10, Math.ceil(this.docs.length * 0.02))): { id: number; shared: number }[] {
    const keys = this.postings();
    const own = new Set(this.docs[id]!.hashes);
    const min = Math.max(6, Math.ceil(own.size * minShare));
    const counts = new Map<number, number>();
    for (const h of own) {
      const from = lowerBound(keys, h * DOC_LIMIT);
      let to = from;
      while (to < keys.length && Math.floor(keys[to]! / DOC_LIMIT) === h) to++;
      if (to - from > maxDocs) continue;
      for (let i = from; i < to; i++) {
        const other = keys[i]! % DOC_LIMIT;
        if (other !== id) counts.set(other, (counts.get(other) ?? 0) + 1);
      }
    }
    return [...counts]
      .filter(([, n]) => n >= min)
      .map(([other, shared]) => ({ id: other, shared }))
      .sort((x, y) => y.shared - x.shared);
  }
}

/** Documents an index may hold: 2²⁰. */
const DOC_LIMIT = 1 << 20;

/** The first index of a sorted array whose value is at least `value`. */
function lowerBound(a: Float64Array, value: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Cuts the references section (参考文献 / References) off a paper: from the last heading line naming it, if it stands
 * in the last half of the text. Every team cites the same classics; they are not copying.
 */
export function withoutReferences(text: string): string {
  const re = /^[\s\d.、一二三四五六七八九十（）()[\]【】第章节]*(参考文献|references|bibliography)\s*[:：]?\s*$/gimu;
  let cut = -1;
  for (const m of text.matchAll(re)) cut = m.index;
  return cut >= text.length / 2 ? text.slice(0, cut) : text;
}
