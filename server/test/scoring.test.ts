import { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { METRICS } from '@contest/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvError, csvRecords } from '../src/scoring/csv.ts';
import { accumulator, auc, type Metric } from '../src/scoring/metrics.ts';
import { isPublicRow, loadAnswers, scoreSubmission, type Evaluation } from '../src/scoring/score.ts';

const stream = (text: string | Buffer, chunk = 0) => {
  const buf = typeof text === 'string' ? Buffer.from(text) : text;
  if (!chunk) return Readable.from([buf]);
  const parts: Buffer[] = [];
  for (let i = 0; i < buf.length; i += chunk) parts.push(buf.subarray(i, i + chunk));
  return Readable.from(parts);
};
const ev = (metric: Metric, extra: Partial<Evaluation> = {}): Evaluation => ({
  metric,
  idColumn: 'id',
  targetColumn: 'y',
  publicShare: 1,
  salt: 's',
  ...extra,
});
const csv = (rows: (string | number)[][]) => ['id,y', ...rows.map((r) => r.join(','))].join('\n');

async function score(metric: Metric, truth: (string | number)[], predicted: (string | number)[]) {
  const e = ev(metric);
  const answers = await loadAnswers(stream(csv(truth.map((t, i) => [i + 1, t]))), e);
  return (await scoreSubmission(stream(csv(predicted.map((p, i) => [i + 1, p]))), answers, e)).publicScore;
}

async function problems(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    if (err instanceof CsvError) return err.problems;
    throw err;
  }
  throw new Error('expected a CsvError');
}

describe('metrics match hand-computed and reference values', () => {
  it('accuracy', async () => expect(await score('accuracy', [0, 2, 1, 3], [0, 1, 2, 3])).toBe(0.5));
  it('macro-F1 (scikit-learn’s documented example: 0.2666…)', async () =>
    expect(await score('macroF1', [0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1])).toBeCloseTo(0.26666666666666666, 15));
  it('AUC with ties sharing ranks (0.75 for the documented example)', async () => {
    expect(await score('auc', [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])).toBe(0.75);
    expect(await score('auc', [0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])).toBe(0.5);
  });
  it('RMSE, MAE and MAPE on the documented regression example', async () => {
    const t = [3, -0.5, 2, 7];
    const p = [2.5, 0.0, 2, 8];
    expect(await score('rmse', t, p)).toBeCloseTo(Math.sqrt(0.375), 15);
    expect(await score('mae', t, p)).toBe(0.5);
    expect(await score('mape', t, p)).toBeCloseTo(0.3273809523809524, 15);
  });
  it('log-loss, with probabilities clipped', async () => {
    expect(await score('logLoss', [1, 0, 0, 1], [0.9, 0.1, 0.2, 0.65])).toBeCloseTo(0.21616187468057912, 14);
    // Clipped at the float64 epsilon, as scikit-learn 1.2's eps='auto' (server/test/metrics.test.ts has the rest).
    expect(await score('logLoss', [1], [0])).toBeCloseTo(-Math.log(Number.EPSILON), 10);
  });

  it('AUC equals the share of correctly ordered positive–negative pairs', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 5 })), { minLength: 2, maxLength: 40 }), (rows) => {
        const pos = rows.filter(([l]) => l).map(([, s]) => s);
        const neg = rows.filter(([l]) => !l).map(([, s]) => s);
        const a = auc();
        for (const [l, s] of rows) a.add(l ? 1 : 0, s);
        if (!pos.length || !neg.length) return a.result() === null;
        let wins = 0;
        for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
        return Math.abs(a.result()! - wins / (pos.length * neg.length)) < 1e-12;
      }),
    );
  });
});

describe('public and private scores', () => {
  it('splits rows by a salted hash of the id, the same way every time', async () => {
    const n = 2000;
    const truth = Array.from({ length: n }, (_, i) => (i * 7) % 10);
    const pred = truth.map((t, i) => t + (i % 3) - 1);
    const e = ev('mae', { publicShare: 0.3, salt: 'question-42' });
    const answers = await loadAnswers(stream(csv(truth.map((t, i) => [`r${i}`, t]))), e);
    const result = await scoreSubmission(stream(csv(pred.map((p, i) => [`r${i}`, p]))), answers, e);
    let pubSum = 0;
    let pubN = 0;
    let privSum = 0;
    for (let i = 0; i < n; i++) {
      const err = Math.abs(truth[i]! - pred[i]!);
      if (isPublicRow(`r${i}`, e)) {
        pubSum += err;
        pubN++;
      } else privSum += err;
    }
    expect(pubN / n).toBeGreaterThan(0.25);
    expect(pubN / n).toBeLessThan(0.35);
    expect(result).toEqual({ publicScore: pubSum / pubN, privateScore: privSum / (n - pubN), rows: n, fingerprint: expect.any(String) });
    // Another question's salt picks other rows.
    const picked = (salt: string) => Array.from({ length: 100 }, (_, i) => isPublicRow(`r${i}`, { ...e, salt })).join();
    expect(picked('question-42')).toBe(picked('question-42'));
    expect(picked('question-43')).not.toBe(picked('question-42'));
  });

  it('scores 1,000,000 rows streamed from a generator, never holding the file', async () => {
    // Both files are produced a thousand lines at a time; the engine reads them the same way.
    function* rows(n: number, err: number) {
      yield 'id,y\n';
      for (let i = 0; i < n; i += 1000) {
        let chunk = '';
        for (let j = i; j < Math.min(n, i + 1000); j++) chunk += `r${j},${(j % 10) + err}\n`;
        yield chunk;
      }
    }
    const e = ev('rmse', { publicShare: 0.3 });
    const answers = await loadAnswers(Readable.from(rows(1_000_000, 0)), e);
    expect(await scoreSubmission(Readable.from(rows(1_000_000, 2)), answers, e)).toEqual({
      publicScore: 2,
      privateScore: 2,
      rows: 1_000_000,
      fingerprint: expect.any(String),
    });
  }, 120_000);

  it('scores a large file the same whatever the chunking', async () => {
    const rows = Array.from({ length: 20000 }, (_, i) => [`"id ${i}"`, (i % 97) / 97]);
    const e = ev('rmse', { publicShare: 0.5 });
    const answers = await loadAnswers(stream(csv(rows.map(([id]) => [id!, 0.5]))), e);
    const whole = await scoreSubmission(stream(csv(rows)), answers, e);
    const bytes = await scoreSubmission(stream(csv(rows), 7), answers, e);
    expect(bytes).toEqual(whole);
    expect(whole.rows).toBe(20000);
  });
});

describe('malformed prediction files are refused with line numbers and no answer values', () => {
  const e = ev('rmse');
  const answersCsv = csv([
    [1, 10.5],
    [2, 20.25],
    [3, 30.125],
  ]);
  const answers = () => loadAnswers(stream(answersCsv), e);
  const check = async (file: string | Buffer) => problems(scoreSubmission(stream(file), await answers(), e));

  it('a bad header', async () => expect(await check('id,prediction\n1,1\n')).toEqual([{ line: 1, message: '表头须包含“id”和“y”两列' }]));
  it('missing ids', async () => expect(await check('id,y\n1,1\n')).toEqual([{ line: 0, message: '缺少2个编号的预测，例如：2、3' }]));
  it('extra ids', async () => expect(await check('id,y\n1,1\n2,2\n3,3\n4,4\n')).toEqual([{ line: 5, message: '编号“4”不在测试集中' }]));
  it('duplicates', async () => expect(await check('id,y\n1,1\n2,2\n2,2\n3,3\n')).toEqual([{ line: 4, message: '编号“2”重复' }]));
  it('non-numeric values and ragged rows', async () =>
    expect(await check('id,y\n1,abc\n2,2,9\n3,NaN\n')).toEqual([
      { line: 2, message: '不是数字：abc' },
      { line: 3, message: '列数与表头不一致' },
      { line: 4, message: '不是数字：NaN' },
    ]));
  it('numbers JavaScript reads but a CSV number is not: hex, binary, octal, infinities, blanks', async () => {
    for (const [value, message] of [
      ['0x10', '不是数字：0x10'],
      ['0B1', '不是数字：0B1'],
      ['0o7', '不是数字：0o7'],
      ['-Infinity', '不是数字：-Infinity'],
      ['1e999', '不是有限的数字：1e999'],
      [' ', '不是数字：'],
    ]) {
      expect(await check(`id,y\n1,${value}\n2,2\n3,3\n`)).toEqual([{ line: 2, message }]);
    }
  });
  it('an empty or zero-byte file', async () => {
    expect(await check('')).toEqual([{ line: 0, message: '文件为空' }]);
    expect(await check('\n\n')).toEqual([{ line: 0, message: '文件为空' }]);
    expect(await check('id,y\n')).toEqual([{ line: 0, message: '缺少3个编号的预测，例如：1、2、3' }]);
  });
  it('binary junk', async () =>
    expect(await check(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff]))).toEqual([{ line: 0, message: '无法读取该ZIP压缩包' }]));
  it('never shows an answer value in any problem', async () => {
    const all = [...(await check('id,y\n1,0\n')), ...(await check('id,y\n1,x\n2,y\n3,z\n')), ...(await check('id,y\n9,10.5\n'))];
    for (const p of all) for (const secret of ['10.5', '20.25', '30.125']) expect(p.message).not.toContain(secret);
  });
  it('stops after 20 problems', async () => {
    const lines = ['id,y', ...Array.from({ length: 50 }, (_, i) => `x${i},1`)].join('\n');
    expect(await check(lines)).toHaveLength(20);
  });

  it('reads a BOM, CRLF line ends, quoted fields and GBK-encoded Chinese headers', async () => {
    const ok = { publicScore: 0, privateScore: null, rows: 3 };
    expect(await scoreSubmission(stream('\uFEFFid,y\r\n1,10.5\r\n2,20.25\r\n3,30.125\r\n'), await answers(), e)).toEqual(ok);
    expect(await scoreSubmission(stream('"id","y"\n"1","10.5"\n"2",20.25\n3,"30.125"\n'), await answers(), e)).toEqual(ok);
    const gbkHeader = Buffer.from([0xb1, 0xe0, 0xba, 0xc5, 0x2c, 0xb1, 0xea, 0xc7, 0xa9, 0x0a]);
    expect(new TextDecoder('gbk').decode(gbkHeader)).toBe('编号,标签\n');
    const zh = { ...e, idColumn: '编号', targetColumn: '标签' };
    const zhAnswers = await loadAnswers(stream('编号,标签\n1,10.5\n2,20.25\n3,30.125\n'), zh);
    const gbk = Buffer.concat([gbkHeader, Buffer.from('1,10.5\n2,20.25\n3,30.125\n')]);
    expect(await scoreSubmission(stream(gbk, 3), zhAnswers, zh)).toEqual(ok);
  });

  it('parses quotes doubled inside quoted fields, also split across chunks', async () => {
    const text = 'a,b\n"x ""quoted"" y","line\nbreak"\nplain,"中文"\n';
    for (const chunk of [0, 1, 2, 3]) {
      const out = [];
      for await (const r of csvRecords(stream(text, chunk))) out.push(r);
      expect(out).toEqual([
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: ['x "quoted" y', 'line\nbreak'] },
        { line: 4, fields: ['plain', '中文'] },
      ]);
    }
  });

  it('reads the same records whether lines arrive whole or cut at every few bytes', async () => {
    // The decoder holds the first 64 KiB, so the cuts fall in the text after this prefix.
    const prefix = 'a,b\n'.repeat(16_384);
    const records = async (source: Readable) => {
      const out = [];
      for await (const r of csvRecords(source)) if (r.line > 16_384) out.push(r);
      return out;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom('a', '中', ',', '"', '\n', '\r', ' '), maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }),
        async (tail, cut) => {
          const whole = await records(stream(prefix + tail)).catch((err: Error) => err.message);
          const buf = Buffer.from(prefix + tail);
          const parts = [
            buf.subarray(0, prefix.length),
            ...Array.from({ length: Math.ceil((buf.length - prefix.length) / cut) }, (_, i) =>
              buf.subarray(prefix.length + i * cut, prefix.length + (i + 1) * cut),
            ),
          ];
          expect(await records(Readable.from(parts)).catch((err: Error) => err.message)).toEqual(whole);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('answer files are checked for the organiser', () => {
  it('refuses labels a metric cannot use, duplicates and a missing target column', async () => {
    expect(await problems(loadAnswers(stream('id,y\n1,2\n2,0\n'), ev('auc')))).toEqual([{ line: 2, message: '真实值须为0或1' }]);
    expect(await problems(loadAnswers(stream('id,y\n1,0\n2,5\n'), ev('mape')))).toEqual([{ line: 2, message: '真实值为0，不能计算MAPE' }]);
    expect(await problems(loadAnswers(stream('id,y\n1,1\n1,1\n'), ev('rmse')))).toEqual([{ line: 3, message: '编号“1”重复' }]);
    expect(await problems(loadAnswers(stream('id,label\n1,1\n'), ev('rmse')))).toEqual([{ line: 1, message: '表头须包含“id”和“y”两列' }]);
    expect(await problems(loadAnswers(stream('id,y\n'), ev('rmse')))).toEqual([{ line: 0, message: '文件没有数据行' }]);
  });

  it('accepts every metric’s accumulator name', () => {
    for (const m of METRICS) expect(accumulator(m).result()).toBeNull();
  });
});
