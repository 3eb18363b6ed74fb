import { createCipheriv, hash } from 'node:crypto';

/**
 * How a question decides which answer rows make the public score; both draw a secret number from the row's id alone,
 * so the split does not depend on the order of the rows, and without the question's secret nobody can tell from the
 * ids which rows are public. A row is public when its draw, as a fraction of 2^32, is below the public share.
 * - `keyed` (every question since migration 0015): AES-128 under a key derived from the question's secret, applied to a
 *   64-bit digest of the id, all rows of a batch in one call (0.2 s for ten million rows).
 * - `sha256` (questions whose answer file was uploaded before): SHA-256 of the secret and the id, one hash per row
 *   (1.8 µs each, 18 s for ten million rows); kept so that an upgrade never moves a row between the boards.
 */
export type SplitRule = 'keyed' | 'sha256';

export interface SplitSetting {
  salt: string;
  publicShare: number;
  split?: SplitRule;
}

/** A 64-bit digest of an id (two independent 32-bit FNV-style hashes with murmur3's finaliser), into `out` at `at`. */
function digest(id: string, out: Uint32Array, at: number) {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  b ^= b >>> 16;
  b = Math.imul(b, 0x7feb352d);
  b ^= b >>> 15;
  out[at] = a ^ (a >>> 16);
  out[at + 1] = b;
}

/** Answers, for a batch of ids, 1 for each public one and 0 for each private one. */
export function splitter(setting: SplitSetting): (ids: readonly string[]) => Uint8Array {
  const threshold = setting.publicShare * 2 ** 32;
  if (setting.split === 'sha256') {
    return (ids) => {
      const flags = new Uint8Array(ids.length);
      for (let i = 0; i < ids.length; i++) flags[i] = hash('sha256', `${setting.salt}\0${ids[i]}`, 'buffer').readUInt32BE(0) < threshold ? 1 : 0;
      return flags;
    };
  }
  const key = hash('sha256', `split\0${setting.salt}`, 'buffer').subarray(0, 16);
  const cipher = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  return (ids) => {
    const blocks = new Uint32Array(ids.length * 4);
    for (let i = 0; i < ids.length; i++) {
      digest(ids[i]!, blocks, i * 4);
      blocks[i * 4 + 2] = ids[i]!.length;
      blocks[i * 4 + 3] = 0x53504c54;
    }
    const out = cipher.update(new Uint8Array(blocks.buffer));
    // Read the ciphertext as 32-bit words in place when it is aligned (a large output is), else from a copy.
    const words = out.byteOffset % 4 === 0 ? new Uint32Array(out.buffer, out.byteOffset, out.length / 4) : new Uint32Array(Uint8Array.from(out).buffer);
    const flags = new Uint8Array(ids.length);
    for (let i = 0; i < ids.length; i++) flags[i] = words[i * 4]! < threshold ? 1 : 0;
    return flags;
  };
}

/** Whether one id is public (tests and single checks; loading splits whole batches). */
export function isPublicRow(id: string, setting: SplitSetting): boolean {
  return splitter(setting)([id])[0] === 1;
}
