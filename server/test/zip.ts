import { crc32, deflateRawSync } from 'node:zlib';

/** ZIP archives built by the tests themselves (local headers, central directory, end record), names in UTF-8. */
export function zip(entries: { name: string; data: Buffer; store?: boolean; declaredSize?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = e.store ? e.data : deflateRawSync(e.data);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x800, 6);
    header.writeUInt16LE(e.store ? 0 : 8, 8);
    header.writeUInt32LE(crc32(e.data), 14);
    header.writeUInt32LE(packed.length, 18);
    header.writeUInt32LE(e.declaredSize ?? e.data.length, 22);
    header.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    header.copy(cd, 8, 6, 30); // flags, method, time, date, crc, sizes, name length
    cd.writeUInt16LE(0, 30);
    cd.writeUInt32LE(offset, 42);
    locals.push(header, name, packed);
    central.push(cd, name);
    offset += header.length + name.length + packed.length;
  }
  const cdBuf = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cdBuf, end]);
}

/** An archive of text files by name. */
export const zipOf = (files: Record<string, string>) => zip(Object.entries(files).map(([name, text]) => ({ name, data: Buffer.from(text) })));
