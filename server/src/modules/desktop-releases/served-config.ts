import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * Spec §2.4, §7: the package a person downloads from a server is set up for that server. Whatever address a package
 * was built or uploaded with, its `config.json` (at the top of the zip, or in one top folder) is served with
 * `platformUrl` set to the server's public origin; every other entry goes out byte for byte. The zip is not rebuilt:
 * the reply is the stored file's ranges around the one entry, a new stored (uncompressed) `config.json`, and the
 * central directory with the offsets after it moved. A file this cannot read (not a zip, zip64, no `config.json`, a
 * config that is not a JSON object) is served as it is.
 */

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
const MAX_CONFIG_BYTES = 64 * 1024;

interface CentralEntry {
  /** Where the entry starts in the central directory. */
  at: number;
  name: string;
  flags: number;
  method: number;
  compressed: number;
  size: number;
  local: number;
}

export interface ServedPackage {
  size: number;
  body: Readable;
}

const isConfigName = (name: string) => /^([^/]+\/)?config\.json$/.test(name);

async function readAt(handle: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buf, 0, length, position);
  if (bytesRead !== length) throw new Error('zip: short read');
  return buf;
}

/** The new `config.json`: the stored one with `platformUrl` replaced, or null when it already says so or is unusable. */
function patchedConfig(text: Buffer, platformUrl: string): Buffer | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  if ((parsed as { platformUrl?: unknown }).platformUrl === platformUrl) return null;
  return Buffer.from(JSON.stringify({ ...parsed, platformUrl }, null, 2) + '\n');
}

/** The served form of the package at `file`, or null to send the file as it is. */
async function plan(handle: fs.promises.FileHandle, fileSize: number, platformUrl: string) {
  if (fileSize < 22) return null;
  const tailLength = Math.min(fileSize, 22 + 0xffff);
  const tail = await readAt(handle, fileSize - tailLength, tailLength);
  let eocd = tail.length - 22;
  while (eocd >= 0 && tail.readUInt32LE(eocd) !== EOCD_SIG) eocd--;
  if (eocd < 0) return null;
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  // Zip64 and split archives are left alone.
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff || tail.readUInt16LE(eocd + 4) !== 0) return null;
  const eocdAt = fileSize - tailLength + eocd;
  if (cdOffset + cdSize !== eocdAt) return null;
  const cd = await readAt(handle, cdOffset, cdSize);
  const entries: CentralEntry[] = [];
  for (let pos = 0, i = 0; i < count; i++) {
    if (pos + 46 > cd.length || cd.readUInt32LE(pos) !== CEN_SIG) return null;
    const nameLen = cd.readUInt16LE(pos + 28);
    const entry: CentralEntry = {
      at: pos,
      name: cd.subarray(pos + 46, pos + 46 + nameLen).toString('utf8'),
      flags: cd.readUInt16LE(pos + 8),
      method: cd.readUInt16LE(pos + 10),
      compressed: cd.readUInt32LE(pos + 20),
      size: cd.readUInt32LE(pos + 24),
      local: cd.readUInt32LE(pos + 42),
    };
    if (entry.compressed === 0xffffffff || entry.size === 0xffffffff || entry.local === 0xffffffff) return null;
    entries.push(entry);
    pos += 46 + nameLen + cd.readUInt16LE(pos + 30) + cd.readUInt16LE(pos + 32);
  }
  const targets = entries.filter((e) => isConfigName(e.name));
  // The package's own config.json: the top one, else the only one one folder down.
  const target = targets.find((e) => !e.name.includes('/')) ?? (targets.length === 1 ? targets[0] : undefined);
  if (!target || target.size > MAX_CONFIG_BYTES || (target.flags & 1) !== 0 || (target.method !== 0 && target.method !== 8)) return null;

  const localHead = await readAt(handle, target.local, 30);
  if (localHead.readUInt32LE(0) !== LOC_SIG) return null;
  const dataAt = target.local + 30 + localHead.readUInt16LE(26) + localHead.readUInt16LE(28);
  const raw = await readAt(handle, dataAt, target.compressed);
  let text: Buffer;
  try {
    text = target.method === 8 ? zlib.inflateRawSync(raw, { maxOutputLength: MAX_CONFIG_BYTES }) : raw;
  } catch {
    return null;
  }
  const config = patchedConfig(text, platformUrl);
  if (!config) return null;

  // The old entry runs to the next entry (or the central directory): its data descriptor, if any, goes with it.
  const end = Math.min(cdOffset, ...entries.filter((e) => e.local > target.local).map((e) => e.local));
  const name = Buffer.from(target.name, 'utf8');
  const crc = zlib.crc32(config);
  const flags = target.flags & 0x0800; // keep only "UTF-8 name"; no data descriptor
  const time = cd.readUInt16LE(target.at + 12);
  const date = cd.readUInt16LE(target.at + 14);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(LOC_SIG, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(flags, 6);
  local.writeUInt16LE(0, 8);
  local.writeUInt16LE(time, 10);
  local.writeUInt16LE(date, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(config.length, 18);
  local.writeUInt32LE(config.length, 22);
  local.writeUInt16LE(name.length, 26);
  local.writeUInt16LE(0, 28);
  const replacement = Buffer.concat([local, name, config]);
  const shift = replacement.length - (end - target.local);

  const newCd = Buffer.from(cd);
  for (const e of entries) {
    if (e === target) {
      newCd.writeUInt16LE(20, e.at + 6);
      newCd.writeUInt16LE(flags, e.at + 8);
      newCd.writeUInt16LE(0, e.at + 10);
      newCd.writeUInt32LE(crc, e.at + 16);
      newCd.writeUInt32LE(config.length, e.at + 20);
      newCd.writeUInt32LE(config.length, e.at + 24);
    } else if (e.local > target.local) {
      newCd.writeUInt32LE(e.local + shift, e.at + 42);
    }
  }
  const newEocd = Buffer.from(tail.subarray(eocd));
  newEocd.writeUInt32LE(cdOffset + shift, 16);

  const parts: (Buffer | { start: number; end: number })[] = [{ start: 0, end: target.local }, replacement, { start: end, end: cdOffset }, newCd, newEocd];
  const size = parts.reduce((n, p) => n + (Buffer.isBuffer(p) ? p.length : p.end - p.start), 0);
  return { parts, size };
}

async function* ranges(handle: fs.promises.FileHandle, parts: (Buffer | { start: number; end: number })[]) {
  try {
    for (const part of parts) {
      if (Buffer.isBuffer(part)) {
        yield part;
        continue;
      }
      for (let at = part.start; at < part.end; ) {
        const length = Math.min(256 * 1024, part.end - at);
        const chunk = await readAt(handle, at, length);
        at += length;
        yield chunk;
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * The package at `file` as served for `platformUrl` (an origin), or null when the stored file is to be sent as it
 * is (it already says so, or it cannot be read as a zip holding a config.json). One open file serves the whole reply,
 * so a package replaced meanwhile (a rename) does not mix two files.
 */
export async function servedPackage(file: string, platformUrl: string | null): Promise<ServedPackage | null> {
  if (!platformUrl) return null;
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    // A file that cannot be read as expected goes out as it is.
    const served = await plan(handle, fileSize, platformUrl).catch(() => null);
    if (!served) {
      await handle.close();
      return null;
    }
    return { size: served.size, body: Readable.from(ranges(handle, served.parts), { objectMode: false }) };
  } catch (err) {
    await handle.close();
    throw err;
  }
}
