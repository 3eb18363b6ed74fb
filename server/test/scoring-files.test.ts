import { Readable } from 'node:stream';
import fc from 'fast-check';
import { TextDecoder } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsvError, MAX_FIELD_CHARS, MAX_RECORD_CHARS, memoryCsv, type CsvFile } from '../src/scoring/csv.ts';
import type { Metric } from '../src/scoring/metrics.ts';
import { loadAnswers, scoreSubmission, type Evaluation } from '../src/scoring/score.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { zip } from './zip.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
  REG_INFO as info,
} from './helpers.ts';

/**
 * Hostile files (issue 21): every encoding and line end, BOMs, NUL bytes, unterminated last lines, a GBK file that is
 * valid UTF-8, empty and header-only files, duplicate header names, compressed files and compression bombs. Each ends
 * in a correct score or a Chinese message with its line, never an exception of another kind. Fixtures are generated
 * here, not committed.
 */

// --- encoders Node lacks: GBK (from the decoder's own table) and UTF-16 BE -------------------------------------------
const GBK = (() => {
  const table = new Map<string, Buffer>();
  const d = new TextDecoder('gbk');
  for (let a = 0x81; a <= 0xfe; a++) {
    for (let b = 0x40; b <= 0xfe; b++) {
      if (b === 0x7f) continue;
      const ch = d.decode(Buffer.from([a, b]));
      if (ch.length === 1 && ch !== '\uFFFD' && !table.has(ch)) table.set(ch, Buffer.from([a, b]));
    }
  }
  return table;
})();
const gbk = (text: string) =>
  Buffer.concat(
    [...text].map((c) => {
      if (c.charCodeAt(0) < 0x80) return Buffer.from(c);
      const bytes = GBK.get(c);
      if (!bytes) throw new Error(`no GBK for ${c}`);
      return bytes;
    }),
  );
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
};
const utf8bom = (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
/**
 * Two everyday hanzi (GB2312) whose GBK bytes are also valid UTF-8 (a 2-byte sequence each, read as Greek, Cyrillic or
 * the like), so a GBK file of them is valid UTF-8.
 */
const [A, B] = [...GBK.entries()].filter(([c, [x, y]]) => /\p{Script=Han}/u.test(c) && x! >= 0xc6 && x! <= 0xdf && y! >= 0xa1 && y! <= 0xbf).map(([c]) => c);

/** A re-readable file that hands its bytes over in chunks of `size`, as a store does. */
const chunked = (bytes: Buffer, size: number, maxBytes = Infinity): CsvFile => ({
  read: async (range) => {
    const buf = range ? bytes.subarray(range.start, range.end + 1) : bytes;
    const parts: Buffer[] = [];
    for (let i = 0; i < buf.length; i += size) parts.push(buf.subarray(i, i + size));
    return Readable.from(parts);
  },
  size: async () => bytes.length,
  maxBytes,
});

const ev = (metric: Metric = 'accuracy'): Evaluation => ({ metric, idColumn: 'id', targetColumn: 'label', publicShare: 1, salt: 's' });
const table = (rows: [string, string][], end = '\n', last = true) => ['id,label', ...rows.map(([i, l]) => `${i},${l}`)].join(end) + (last ? end : '');

async function problems(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof CsvError) return err.problems;
    throw err;
  }
  throw new Error('expected a CsvError');
}

// A long ASCII head (past the first chunks and past 64 KiB) and Chinese only on the last line.
const LONG = Array.from({ length: 6000 }, (_, i) => [`r${i}`, 'cat'] as [string, string]);
const ROWS: [string, string][] = [...LONG, ['last', '猫咪']];

describe('every encoding is read right, wherever its non-ASCII text is and however the last line ends', () => {
  const encoders: [string, (t: string) => Buffer][] = [
    ['UTF-8', (t) => Buffer.from(t)],
    ['UTF-8 with BOM', utf8bom],
    ['GBK', gbk],
    ['UTF-16 LE with BOM', utf16le],
    ['UTF-16 BE with BOM', utf16be],
  ];
  for (const [name, encode] of encoders) {
    for (const last of [true, false]) {
      it(`${name}, Chinese on the last line only, ${last ? 'with' : 'without'} a final newline, as answers and as predictions`, async () => {
        const text = table(ROWS, '\n', last);
        for (const chunk of [7, 4096, 1 << 20]) {
          const answers = await loadAnswers(chunked(encode(text), chunk), ev());
          expect(answers.truth[answers.truth.length - 1]).toBe('猫咪');
          expect(await scoreSubmission(chunked(encode(text), chunk), answers, ev())).toEqual({ publicScore: 1, privateScore: null, rows: ROWS.length });
        }
      });
    }
  }
  it('Chinese on the first line (the header) and in the ids', async () => {
    const e: Evaluation = { ...ev(), idColumn: '编号', targetColumn: '标签' };
    const text = '编号,标签\n甲,猫\n乙,狗\n丙,猫';
    const answers = await loadAnswers(utf8bom(text), e);
    for (const encode of [gbk, utf16le, utf16be, utf8bom]) expect((await scoreSubmission(encode(text), answers, e)).publicScore).toBe(1);
  });
  it('CR, LF and CRLF line ends and RFC 4180 quoting (commas, quotes and newlines inside quotes)', async () => {
    const rows: [string, string][] = [
      ['1', '"a,b"'],
      ['2', '"say ""hi"""'],
      ['3', '"two\nlines"'],
      ['4', '"x\r\ny"'],
    ];
    const answers = await loadAnswers(table(rows), ev());
    expect(answers.truth).toEqual(['a,b', 'say "hi"', 'two\nlines', 'x\r\ny']);
    for (const end of ['\n', '\r', '\r\n']) {
      for (const last of [true, false]) expect((await scoreSubmission(chunked(Buffer.from(table(rows, end, last)), 3), answers, ev())).publicScore).toBe(1);
      // A line number counts the lines inside quoted values: the unknown id is on line 8 whatever the line end.
      const bad = table([...rows, ['9', 'z']], end);
      expect(await problems(scoreSubmission(bad, answers, ev()))).toContainEqual({ line: 8, message: '编号“9”不在测试集中' });
    }
  });
});

describe('a file two encodings read differently never changes a score silently', () => {
  it('finds two hanzi whose GBK bytes are valid UTF-8', () => {
    expect([A, B].every(Boolean)).toBe(true);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(gbk(`${A}${B}`))).not.toThrow();
  });
  it('a GBK prediction that is valid UTF-8: the reading whose labels are the answer’s classes wins', async () => {
    const rows: [string, string][] = [
      ['1', A!],
      ['2', B!],
      ['3', A!],
    ];
    const answers = await loadAnswers(utf8bom(table(rows)), ev());
    expect(await scoreSubmission(gbk(table(rows)), answers, ev())).toEqual({ publicScore: 1, privateScore: null, rows: 3 });
  });
  it('a UTF-8 prediction that is valid GB18030 (two-character labels): UTF-8 wins the same way', async () => {
    const rows: [string, string][] = [
      ['1', '正常'],
      ['2', '异常'],
      ['3', '正常'],
    ];
    expect(() => new TextDecoder('gb18030', { fatal: true }).decode(Buffer.from(table(rows)))).not.toThrow();
    const answers = await loadAnswers(utf8bom(table(rows)), ev());
    expect((await scoreSubmission(Buffer.from(table(rows)), answers, ev())).publicScore).toBe(1);
    expect((await scoreSubmission(gbk(table(rows)), answers, ev())).publicScore).toBe(1);
  });
  it('an answer file: a UTF-8 file whose GBK reading is not ordinary Chinese text is read as UTF-8', async () => {
    for (const labels of [
      ['正常', '异常'],
      ['猫咪', '狗狗'],
      ['阳性', '阴性'],
    ]) {
      const text = table([
        ['1', labels[0]!],
        ['2', labels[1]!],
      ]);
      expect((await loadAnswers(Buffer.from(text), ev())).truth).toEqual(labels);
      expect((await loadAnswers(gbk(text), ev())).truth).toEqual(labels);
    }
    // Valid GBK too, but read as GBK they hold hanzi outside GB2312: UTF-8 wins.
    expect(
      await loadAnswers(
        Buffer.from(
          table([
            ['1', '北京'],
            ['2', '上海'],
          ]),
        ),
        ev(),
      ).then((a) => a.truth),
    ).toEqual(['北京', '上海']);
  });
  it('an answer file both readings make ordinary text of is refused, naming the encodings that decide it; a BOM decides', async () => {
    // UTF-8 “è” is GBK “猫”: both are text, nothing tells them apart.
    const text = table([
      ['1', 'è'],
      ['2', 'é'],
    ]);
    const [p] = await problems(loadAnswers(Buffer.from(text), ev()));
    expect(p).toEqual({ line: 2, message: expect.stringContaining('UTF-8读作“è”，GBK读作“猫”') });
    expect(p!.message).toContain('带BOM的UTF-8');
    expect((await loadAnswers(utf8bom(text), ev())).truth).toEqual(['è', 'é']);
    // A GBK answer file that is valid UTF-8 is refused, never read as UTF-8.
    expect((await problems(loadAnswers(gbk(table([['1', '猫']])), ev())))[0]!.message).toContain('无法确定编码');
    expect(
      (
        await problems(
          loadAnswers(
            gbk(
              table([
                ['1', A!],
                ['2', B!],
              ]),
            ),
            ev(),
          ),
        )
      )[0]!.message,
    ).toContain('带BOM的UTF-8');
  });
  it('non-ASCII text only in a column nobody reads is no ambiguity', async () => {
    const text = 'id,label,note\n1,a,正常\n2,b,异常\n';
    const answers = await loadAnswers(text, ev());
    expect((await scoreSubmission(text, answers, ev())).publicScore).toBe(1);
  });
  it('valid UTF-8 first, invalid UTF-8 later (after the first chunks): the whole file is read again as GB18030', async () => {
    const rows: [string, string][] = [['0', A!], ...LONG, ['last', '猫咪']];
    const answers = await loadAnswers(utf8bom(table(rows)), ev());
    expect(await scoreSubmission(chunked(gbk(table(rows)), 1000), answers, ev())).toEqual({ publicScore: 1, privateScore: null, rows: rows.length });
    expect((await loadAnswers(chunked(gbk(table(rows)), 1000), ev())).truth[0]).toBe(A);
  });
});

describe('hostile bytes end in a message with the line', () => {
  const answers = () =>
    loadAnswers(
      table([
        ['1', 'a'],
        ['2', 'b'],
        ['3', 'c'],
      ]),
      ev(),
    );
  it('NUL bytes, and UTF-16 without a BOM', async () => {
    const nul = await problems(scoreSubmission(Buffer.from('id,label\n1,a\n2,b\0\n3,c\n'), await answers(), ev()));
    expect(nul).toEqual([{ line: 3, message: expect.stringContaining('空字符（NUL）') }]);
    const bare16 = Buffer.from(table([['1', 'a']]), 'utf16le');
    expect((await problems(scoreSubmission(bare16, await answers(), ev())))[0]).toMatchObject({ line: 1, message: expect.stringContaining('UTF-16') });
  });
  it('bytes no accepted encoding reads, in a UTF-8 file with a BOM, in UTF-16 and without a BOM', async () => {
    const bad = Buffer.concat([utf8bom('id,label\n1,a\n2,'), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from('\n3,c\n')]);
    expect(await problems(scoreSubmission(bad, await answers(), ev()))).toEqual([{ line: 3, message: expect.stringContaining('无法按UTF-8编码读取') }]);
    const lone = Buffer.concat([utf16le('id,label\n1,a\n'), Buffer.from([0x00, 0xd8, 0x41, 0x00])]);
    expect((await problems(scoreSubmission(lone, await answers(), ev())))[0]!.message).toContain('UTF-16LE');
    const neither = Buffer.concat([Buffer.from('id,label\n1,a\n2,b\n3,'), Buffer.from([0xff, 0xff]), Buffer.from('\n')]);
    expect(await problems(scoreSubmission(neither, await answers(), ev()))).toEqual([{ line: 4, message: expect.stringContaining('UTF-8或GBK/GB18030') }]);
  });
  it('empty, BOM-only, blank and header-only files', async () => {
    for (const empty of [Buffer.alloc(0), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xff, 0xfe]), Buffer.from('\n\r\n\r')]) {
      expect(await problems(loadAnswers(empty, ev()))).toEqual([{ line: 0, message: '文件为空' }]);
      expect(await problems(scoreSubmission(empty, await answers(), ev()))).toEqual([{ line: 0, message: '文件为空' }]);
    }
    expect(await problems(loadAnswers(utf16le('id,label'), ev()))).toEqual([{ line: 0, message: '文件没有数据行' }]);
  });
  it('duplicate header names of the id or target column', async () => {
    expect(await problems(loadAnswers('id,label,label\n1,a,b\n', ev()))).toEqual([{ line: 1, message: '表头中“label”列出现了不止一次' }]);
    expect(await problems(scoreSubmission('id,id,label\n1,1,a\n', await answers(), ev()))).toEqual([{ line: 1, message: '表头中“id”列出现了不止一次' }]);
    // A repeated column nobody reads is harmless.
    expect((await scoreSubmission('id,x,label,x\n1,,a,\n2,,b,\n3,,c,\n', await answers(), ev())).publicScore).toBe(1);
  });
  it('an unclosed quote on the last line', async () => {
    expect(await problems(scoreSubmission('id,label\n1,a\n2,b\n3,"c\n', await answers(), ev()))).toEqual([{ line: 4, message: '引号没有闭合' }]);
  });
  it('a field or a record longer than the reader takes is refused naming the line it starts on, in every path', async () => {
    const field = { line: 3, message: `有一个字段超过${MAX_FIELD_CHARS}个字符，请检查是否有引号没有闭合或缺少换行` };
    const record = { line: 3, message: `这一行超过${MAX_RECORD_CHARS}个字符，请检查是否缺少换行` };
    const long = 'x'.repeat(MAX_FIELD_CHARS + 1);
    const cases: [string, Buffer, typeof field][] = [
      // A whole line in one chunk, and the same cut into small chunks (the character-by-character path).
      ['a long field on a line', Buffer.from(`id,label\n1,a\n2,${long}\n3,c\n`), field],
      ['a long quoted field', Buffer.from(`id,label\n1,a\n2,"${long}"\n3,c\n`), field],
      ['an unclosed quote before much text', Buffer.from(`id,label\n1,a\n2,"b\n${'3,c\n'.repeat(MAX_FIELD_CHARS / 3)}`), field],
      ['a field with no line end at all', Buffer.from(`id,label\n1,a\n${long}`), field],
      ['a record of many short fields', Buffer.from(`id,label\n1,a\n2,${'ab,'.repeat(MAX_RECORD_CHARS / 3 + 1)}\n`), record],
    ];
    for (const [what, bytes, problem] of cases) {
      for (const size of [bytes.length, 4096]) {
        expect([what, size, await problems(scoreSubmission(chunked(bytes, size), await answers(), ev()))]).toEqual([what, size, [problem]]);
        expect([what, size, await problems(loadAnswers(chunked(bytes, size), ev()))]).toEqual([what, size, [problem]]);
      }
    }
    // Just within both limits is read.
    const within = Buffer.from(`id,label\n1,${'y'.repeat(MAX_FIELD_CHARS)}\n2,b\n3,c\n`);
    expect((await scoreSubmission(chunked(within, 4096), await answers(), ev())).publicScore).toBe(2 / 3);
  });
});

describe('.csv.gz and .zip holding one CSV; the limit is on the unpacked bytes and bombs are refused early', () => {
  const text = table(ROWS, '\r\n', false);
  const answersOf = () => loadAnswers(text, ev());
  it('reads a gzip file (also in several members) and a ZIP archive, deflated or stored, in any encoding', async () => {
    const answers = await answersOf();
    const whole = { publicScore: 1, privateScore: null, rows: ROWS.length };
    expect(await scoreSubmission(chunked(gzipSync(gbk(text)), 999), answers, ev())).toEqual(whole);
    const half = Math.floor(text.length / 2);
    expect(await scoreSubmission(Buffer.concat([gzipSync(text.slice(0, half)), gzipSync(text.slice(half))]), answers, ev())).toEqual(whole);
    expect(await scoreSubmission(chunked(zip([{ name: 'pred.csv', data: utf16le(text) }]), 999), answers, ev())).toEqual(whole);
    expect(await scoreSubmission(zip([{ name: '预测.CSV', data: Buffer.from(text), store: true }]), answers, ev())).toEqual(whole);
    // What macOS adds beside the file does not count as a second file.
    const mac = zip([
      { name: 'out/', data: Buffer.alloc(0), store: true },
      { name: 'out/pred.csv', data: Buffer.from(text) },
      { name: '__MACOSX/out/._pred.csv', data: Buffer.from([0, 5, 22]) },
    ]);
    expect(await scoreSubmission(mac, answers, ev())).toEqual(whole);
    // A one-shot stream of gzip works too.
    expect(await scoreSubmission(Readable.from([gzipSync(text)]), answers, ev())).toEqual(whole);
  });
  it('refuses archives holding no file, two files, something else, or damaged', async () => {
    const answers = await answersOf();
    const message = async (bytes: Buffer) => (await problems(scoreSubmission(bytes, answers, ev())))[0]!.message;
    expect(await message(zip([]))).toBe('ZIP压缩包中没有文件');
    expect(
      await message(
        zip([
          { name: 'a.csv', data: Buffer.from(text) },
          { name: 'b.csv', data: Buffer.from(text) },
        ]),
      ),
    ).toBe('ZIP压缩包中须只有一个CSV文件，现有2个文件：a.csv、b.csv');
    expect(await message(zip([{ name: 'a.xlsx', data: Buffer.from(text) }]))).toBe('ZIP压缩包中的文件须为CSV文件，现为：a.xlsx');
    expect(await message(gzipSync(text).subarray(0, 200))).toContain('压缩文件已损坏或不完整');
    expect(await message(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00]))).toContain('ZIP压缩包已损坏或不完整');
  });
  it('a compression bomb is refused from its declared size, or after the limit when it lies, without unpacking it', async () => {
    const limit = 1 << 20;
    const bomb = Buffer.concat([Buffer.from('id,label\n'), Buffer.alloc(256 << 20, '\n')]); // a header and 256 MB of blank lines
    const gz = gzipSync(bomb, { level: 1 });
    const tooLarge = [{ line: 0, message: '解压后的文件超过1MB，请减小文件后重新上传' }];
    const answers = await answersOf();
    // What the reader takes from the stored file: a bomb is refused on its first bytes and its trailer or directory
    // when it declares its size, and after about the limit's worth of packed bytes when it lies.
    const counted = (bytes: Buffer) => {
      const file = memoryCsv(bytes, limit);
      const seen = { bytes: 0 };
      // Served in 16 kB chunks, as a store streams a file, each counted when the reader takes it.
      const read: typeof file.read = async (range) => {
        const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
        return Readable.from(
          (function* () {
            for (let at = 0; at < part.length; at += 16_384) {
              const chunk = part.subarray(at, at + 16_384);
              seen.bytes += chunk.length;
              yield chunk;
            }
          })(),
        );
      };
      return { file: { ...file, read }, seen };
    };
    const declared = counted(gz);
    expect(await problems(scoreSubmission(declared.file, answers, ev()))).toEqual(tooLarge);
    expect(declared.seen.bytes).toBe(8);
    // The gzip trailer says 256 MB; a lying trailer is caught by the running count after 1 MB.
    const lying = Buffer.from(gz);
    lying.writeUInt32LE(10, lying.length - 4);
    const lied = counted(lying);
    expect(await problems(scoreSubmission(lied.file, answers, ev()))).toEqual(tooLarge);
    expect(lied.seen.bytes).toBeLessThan(gz.length / 4);
    const z = zip([{ name: 'a.csv', data: bomb }]);
    const zipped = counted(z);
    expect(await problems(loadAnswers(zipped.file, ev()))).toEqual(tooLarge);
    // The end of a ZIP archive is searched for in its last 64 kB, then its directory read: nothing of the packed data.
    expect(zipped.seen.bytes).toBeLessThan(70_000);
    const zipLying = counted(zip([{ name: 'a.csv', data: bomb, declaredSize: 10 }]));
    expect(await problems(loadAnswers(zipLying.file, ev()))).toEqual(tooLarge);
    // The same 64 kB search, then packed data only until the limit is passed: well under half of the archive.
    expect(zipLying.seen.bytes).toBeLessThan(z.length / 2);
    // The limit is on the CSV, not the archive: a CSV just under it, packed, is read.
    const fits = memoryCsv(gzipSync(text), Buffer.byteLength(text));
    expect((await scoreSubmission(fits, answers, ev())).publicScore).toBe(1);
  });
});

describe('no input of any kind makes reading throw anything but a CsvError', () => {
  it('random bytes, and random damage to a gzip file and a ZIP archive', async () => {
    const answers = await loadAnswers(
      table([
        ['1', 'a'],
        ['2', '猫'],
      ]),
      ev(),
    );
    const good = Buffer.from(
      table([
        ['1', 'a'],
        ['2', '猫'],
      ]),
    );
    const seeds = [
      good,
      gbk(good.toString()),
      utf16le(good.toString()),
      gzipSync(good),
      zip([{ name: 'p.csv', data: good }]),
      zip([{ name: 'p.csv', data: good, store: true }]),
    ];
    const outcome = async (bytes: Buffer) => {
      for (const input of [bytes, chunked(bytes, 5, 1 << 16)]) {
        try {
          await scoreSubmission(input, answers, ev());
          await loadAnswers(input, ev());
        } catch (err) {
          if (!(err instanceof CsvError)) throw err;
        }
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), (bytes) => outcome(Buffer.from(bytes))),
      { numRuns: 300 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: seeds.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        async (which, damage, cut) => {
          const bytes = Buffer.from(seeds[which]!);
          for (const [at, value] of damage) bytes[at % bytes.length] = value;
          await outcome(cut % 3 === 0 ? bytes.subarray(0, cut % bytes.length) : bytes);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe.each(DATABASES)('uploads of hostile files on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let competitionId: number;
  let questionId: number;
  const now = new Date('2026-03-20T02:00:00Z');
  const IDS = Array.from({ length: 3000 }, (_, i) => `u${i}`);
  // GBK, Chinese only on the last line, no final newline, past 64 KiB: what made scoring throw and the upload answer 500.
  const ANSWER = table([...IDS.map((id) => [id, 'cat'] as [string, string]), ['last', '狗']], '\r\n', false);
  const PREDICTION = ANSWER;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365), TEST_MAX_BYTES: String(1 << 20) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'filesOrg', '文件大学');
    competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST'])
      await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
    questionId = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '分类题',
        evaluation: { metric: 'accuracy', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 2 },
      }),
    ).data.id;
    const res = await org.request({
      method: 'POST',
      url: `/api/competition/question/${questionId}/answer`,
      ...multipart('answer.csv.gz', gzipSync(gbk(ANSWER)), 'application/gzip'),
    });
    expect([res.statusCode, body(res).data]).toEqual([200, { rows: IDS.length + 1 }]);
    await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true });
  });
  afterAll(() => t.close());

  async function team() {
    const username = `hf${Math.random().toString(36).slice(2, 8)}`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `文件队${username}`, info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    return leader;
  }
  const submit = (who: Client, name: string, bytes: Buffer) =>
    who.request({ method: 'POST', url: `/api/review/test/${questionId}`, ...multipart(name, bytes, 'application/octet-stream') });
  const mine = async (who: Client) => body(await who.get(`/api/review/test/list/${questionId}`)).data;

  it('an answer file no encoding reads is a 400 naming the encodings and the line, never a 500', async () => {
    const bad = Buffer.concat([Buffer.from('id,label\r\nu1,a\r\nu2,'), Buffer.from([0xff, 0xff])]);
    const res = await org.request({ method: 'POST', url: `/api/competition/question/${questionId}/answer`, ...multipart('answer.csv', bad, 'text/csv') });
    expect(res.statusCode).toBe(400);
    expect(body(res).message).toContain('第3行');
    expect(body(res).message).toContain('GBK/GB18030');
  });

  it('scores a GBK prediction sent as .csv, .csv.gz and .zip; a refused file gives its attempt back', async () => {
    const leader = await team();
    for (const [name, bytes] of [
      ['pred.csv.gz', gzipSync(gbk(PREDICTION))],
      ['pred.zip', zip([{ name: 'pred.csv', data: gbk(PREDICTION) }])],
    ] as const) {
      expect((await submit(leader, name, bytes)).statusCode).toBe(200);
    }
    await runDueJobs(t.deps);
    expect((await mine(leader)).list.map((s: { status: number; publicScore: number }) => [s.status, s.publicScore])).toEqual([
      [2, 1],
      [2, 1],
    ]);
    expect((await mine(leader)).usedToday).toBe(2);

    // The day's two attempts are used; a file refused in the scoring job (a missing id) would not have counted.
    const other = await team();
    const missing = table([['u0', 'cat']]);
    expect((await submit(other, 'p.csv', Buffer.from(missing))).statusCode).toBe(200);
    await runDueJobs(t.deps);
    const [failed] = (await mine(other)).list;
    expect(failed).toMatchObject({ status: 3, reason: expect.stringContaining('缺少3000个编号的预测') });
    expect((await mine(other)).usedToday).toBe(0);
  });

  it('a compression bomb and a file over the limit once unpacked are refused at upload, before the quota', async () => {
    const leader = await team();
    const bomb = gzipSync(Buffer.concat([Buffer.from('id,label\n'), Buffer.alloc(64 << 20, '\n')]), { level: 1 });
    for (const bytes of [bomb, zip([{ name: 'a.csv', data: Buffer.concat([Buffer.from('id,label\n'), Buffer.alloc(64 << 20, '\n')]), declaredSize: 1 }])]) {
      const res = await submit(leader, 'bomb.csv.gz', bytes);
      expect([res.statusCode, body(res).message]).toEqual([400, '解压后的文件超过1MB，请减小文件后重新上传']);
    }
    const res = await submit(leader, 'nul.csv', Buffer.from('id,label\nu1,a\0\n'));
    expect([res.statusCode, body(res).message]).toEqual([400, expect.stringContaining('第2行：含有空字符（NUL）')]);
    // Refused before the quota; each is in the team's history with its reason (issue 33).
    expect((await mine(leader)).usedToday).toBe(0);
    expect((await mine(leader)).list.map((s: { status: number; reason: string }) => [s.status, s.reason])).toEqual([
      [3, expect.stringContaining('第2行：含有空字符（NUL）')],
      [3, '解压后的文件超过1MB，请减小文件后重新上传'],
      [3, '解压后的文件超过1MB，请减小文件后重新上传'],
    ]);
  });
});
