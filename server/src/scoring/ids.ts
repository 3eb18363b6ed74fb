/**
 * The answer ids, compact and built in two sequential passes. A JavaScript Map of ten million string keys took 16.8 s
 * to fill and over a gigabyte, and holds at most 2^24 entries; a hash table filled row by row spends most of its time
 * waiting on memory (one random access per id into a table of 128 MB). Here:
 * - while the file is read, each id's UTF-8 bytes are appended to one buffer, with its start and its hash in typed
 *   arrays (sequential writes);
 * - once it is read, a counting sort on the top bits of the hashes groups the rows into buckets of two or three
 *   (`build`), which also finds every repeated id.
 * A lookup hashes the id, reads its bucket's range, and compares hashes and then bytes. Ten million ids of ten
 * characters take about 230 MB; the row count is bounded only by the 4 GB a Uint32Array offset can address.
 */
export class IdIndex {
  private bytes: Buffer = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  /** starts[row] is where the row's id begins in `bytes`; starts[size] is where the next one will. */
  private starts: Uint32Array = new Uint32Array(1 << 12);
  /** Each row's hash while the ids are added; dropped by `build`. */
  private hashes: Int32Array | null = new Int32Array(1 << 12);
  /** Bucket b's entries are slots bucketStart[b] to bucketStart[b + 1] - 1 of `entries`. */
  private bucketStart: Uint32Array = new Uint32Array(2);
  /** Per slot, an id's hash and its row, bucket by bucket. */
  private entries: Int32Array = new Int32Array(0);
  private shift = 32;
  size = 0;

  /** The arrays of a built index, to be stored (prepared.ts) and restored without reading the file again. */
  parts(): IdIndexParts {
    if (this.hashes) throw new Error('IdIndex.parts before build');
    return { bytes: this.bytes, starts: this.starts, bucketStart: this.bucketStart, entries: this.entries, shift: this.shift };
  }

  static restore(parts: IdIndexParts): IdIndex {
    const index = new IdIndex();
    index.bytes = parts.bytes;
    index.used = parts.bytes.length;
    index.starts = parts.starts;
    index.bucketStart = parts.bucketStart;
    index.entries = parts.entries;
    index.shift = parts.shift;
    index.hashes = null;
    index.size = parts.starts.length - 1;
    return index;
  }

  /** Appends an id as the next row (duplicates are found by `build`). */
  push(id: string): void {
    const row = this.size;
    if (row + 2 > this.starts.length) this.growRows();
    this.append(id);
    this.hashes![row] = hashId(id);
    this.size = row + 1;
  }

  /**
   * Groups the rows by hash so that `get` can find them, and answers each row whose id an earlier row already has,
   * with that earlier row, in the order of the rows.
   */
  build(): { row: number; first: number }[] {
    const hashes = this.hashes!;
    const n = this.size;
    // About four rows per bucket: the directory costs a quarter of the entries.
    const bits = Math.min(30, Math.max(1, Math.ceil(Math.log2(n + 1)) - 2));
    const shift = 32 - bits;
    const start = new Uint32Array((1 << bits) + 1);
    for (let row = 0; row < n; row++) start[(hashes[row]! >>> shift) + 1]!++;
    for (let b = 0; b < 1 << bits; b++) start[b + 1]! += start[b]!;
    const next = start.slice(0, 1 << bits);
    const entries = new Int32Array(n * 2);
    for (let row = 0; row < n; row++) {
      const h = hashes[row]!;
      const at = next[h >>> shift]!++ * 2;
      entries[at] = h;
      entries[at + 1] = row;
    }
    this.bucketStart = start;
    this.entries = entries;
    this.shift = shift;
    this.hashes = null;
    this.seal();
    // Rows went in in order, so in a bucket an earlier row comes first: a repeat is found against its first row. A
    // bucket is two or three rows; a large one (an id repeated many times) is checked through a map, not pair by pair.
    const repeats: { row: number; first: number }[] = [];
    for (let b = 0; b < 1 << bits; b++) {
      const [from, to] = [start[b]!, start[b + 1]!];
      if (to - from > 16) {
        const seen = new Map<string, number>();
        for (let i = from; i < to; i++) {
          const row = entries[i * 2 + 1]!;
          const id = this.idAt(row);
          const first = seen.get(id);
          if (first === undefined) seen.set(id, row);
          else repeats.push({ row, first });
        }
        continue;
      }
      for (let i = from; i < to; i++) {
        for (let j = from; j < i; j++) {
          if (entries[j * 2] !== entries[i * 2] || !this.sameIds(entries[j * 2 + 1]!, entries[i * 2 + 1]!)) continue;
          repeats.push({ row: entries[i * 2 + 1]!, first: entries[j * 2 + 1]! });
          break;
        }
      }
    }
    return repeats.sort((a, b) => a.row - b.row);
  }

  /** The row of an id (the first, if the id repeats), or undefined. */
  get(id: string): number | undefined {
    const h = hashId(id);
    const b = this.shift === 32 ? 0 : h >>> this.shift;
    const entries = this.entries;
    for (let i = this.bucketStart[b]!, end = this.bucketStart[b + 1]!; i < end; i++) {
      if (entries[i * 2] === h && this.equalsAt(entries[i * 2 + 1]!, id)) return entries[i * 2 + 1]!;
    }
    return undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The id of a row (for messages). */
  idAt(row: number): string {
    return this.bytes.toString('utf8', this.starts[row]!, this.starts[row + 1]!);
  }

  /** Whether the row's id is `id`: the scoring pass's fast path when a prediction keeps the answer file's order. */
  equalsAt(row: number, id: string): boolean {
    const start = this.starts[row]!;
    const length = this.starts[row + 1]! - start;
    // UTF-8 takes at least one byte per UTF-16 unit, so a shorter byte string cannot be equal.
    if (length < id.length) return false;
    if (length === id.length) {
      for (let i = 0; i < length; i++) {
        const c = id.charCodeAt(i);
        if (c >= 0x80) return this.idAt(row) === id;
        if (this.bytes[start + i] !== c) return false;
      }
      return true;
    }
    return this.idAt(row) === id;
  }

  /** Bytes held, for the answer cache's memory bound. */
  get byteSize(): number {
    return this.bytes.length + this.starts.byteLength + (this.hashes?.byteLength ?? 0) + this.bucketStart.byteLength + this.entries.byteLength;
  }

  private sameIds(a: number, b: number): boolean {
    const [sa, sb] = [this.starts[a]!, this.starts[b]!];
    const length = this.starts[a + 1]! - sa;
    return length === this.starts[b + 1]! - sb && this.bytes.compare(this.bytes, sb, sb + length, sa, sa + length) === 0;
  }

  /** Gives back the room kept for growth, once every id is in. */
  private seal() {
    this.bytes = Buffer.from(this.bytes.subarray(0, this.used));
    this.starts = this.starts.slice(0, this.size + 1);
  }

  private append(id: string) {
    const start = this.used;
    // Most ids are ASCII: copied in one loop; others are encoded by Buffer (at most 3 bytes per UTF-16 unit).
    if (start + id.length * 3 > this.bytes.length) this.growBytes(start + id.length * 3);
    let ascii = true;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      this.bytes[start + i] = c;
    }
    this.used = start + (ascii ? id.length : this.bytes.write(id, start, 'utf8'));
    if (this.used > 0xffffffff) throw new RangeError('answer ids exceed 4 GB');
    this.starts[this.size + 1] = this.used;
  }

  private growBytes(atLeast: number) {
    const next = Buffer.allocUnsafe(Math.max(atLeast, this.bytes.length * 2));
    this.bytes.copy(next, 0, 0, this.used);
    this.bytes = next;
  }

  private growRows() {
    const starts = new Uint32Array(this.starts.length * 2);
    starts.set(this.starts);
    this.starts = starts;
    const hashes = new Int32Array(this.hashes!.length * 2);
    hashes.set(this.hashes!);
    this.hashes = hashes;
  }
}

export interface IdIndexParts {
  bytes: Buffer;
  starts: Uint32Array;
  bucketStart: Uint32Array;
  entries: Int32Array;
  shift: number;
}

/** FNV-1a over the UTF-16 units, with murmur3's finaliser so that the top bits (the bucket) are well mixed. */
export function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
