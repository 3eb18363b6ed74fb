import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { describeUserAgent, fenToYuan, formatDuration, formatLimit, formatScore, formatSize, formatTestScore, yuanToFen } from '../src/format.ts';

const UNITS = ['B', 'KB', 'MB', 'GB'];
const GB = 1024 ** 3;

describe('formatSize', () => {
  it.each([
    [0, '0.00 B'],
    [1, '1.00 B'],
    [1023, '1023.00 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1048575, '1.00 MB'],
    [1048576, '1.00 MB'],
    [5.25 * 1024 * 1024, '5.25 MB'],
    [1073741823, '1.00 GB'],
    [1073741824, '1.00 GB'],
    [1024 * GB, '1024.00 GB'],
    [3 * 1024 * GB, '3072.00 GB'],
    [-1, '0.00 B'],
    [Number.NaN, '0.00 B'],
    [Number.POSITIVE_INFINITY, '0.00 B'],
  ])('%s -> %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it('keeps the number below 1024 except in GB and parses back within rounding', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (bytes) => {
        const match = /^(\d+\.\d{2}) (B|KB|MB|GB)$/.exec(formatSize(bytes));
        expect(match).not.toBeNull();
        const [, number, unit] = match!;
        const scale = 1024 ** UNITS.indexOf(unit!);
        if (unit !== 'GB') expect(Number(number)).toBeLessThan(1024);
        if (unit !== 'B') expect(Number(number)).toBeGreaterThanOrEqual(1);
        expect(Math.abs(Number(number) * scale - bytes)).toBeLessThanOrEqual(0.005 * scale + 1e-9 * bytes);
      }),
    );
  });

  it('never grows smaller as the size grows', () => {
    const parse = (text: string) => {
      const [number, unit] = text.split(' ');
      return Number(number) * 1024 ** UNITS.indexOf(unit!);
    };
    fc.assert(
      fc.property(fc.nat(2 ** 40), fc.nat(2 ** 40), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(parse(formatSize(low))).toBeLessThanOrEqual(parse(formatSize(high)));
      }),
    );
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '00:00:00'],
    [5, '00:00:05'],
    [59.9, '00:00:59'],
    [60, '00:01:00'],
    [3599, '00:59:59'],
    [3600, '01:00:00'],
    [3725, '01:02:05'],
    [86399, '23:59:59'],
    [360000, '100:00:00'],
    [123 * 3600 + 4 * 60 + 5, '123:04:05'],
    [-1, '--'],
    [Number.NaN, '--'],
    [Number.POSITIVE_INFINITY, '--'],
    [Number.NEGATIVE_INFINITY, '--'],
  ])('%s -> %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('adds back up to the whole seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (seconds) => {
        const match = /^(\d{2,}):([0-5]\d):([0-5]\d)$/.exec(formatDuration(seconds));
        expect(match).not.toBeNull();
        const [, h, m, s] = match!.map(Number);
        expect(h! * 3600 + m! * 60 + s!).toBe(seconds);
      }),
    );
  });
});

describe('fenToYuan', () => {
  it.each([
    [0, '0.00'],
    [1, '0.01'],
    [29, '0.29'],
    [100, '1.00'],
    [1250, '12.50'],
    [1999, '19.99'],
    [-5, '-0.05'],
    [-1250, '-12.50'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('%s -> %s', (fen, text) => {
    expect(fenToYuan(fen)).toBe(text);
  });

  it.each([0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('throws on %s', (fen) => {
    expect(() => fenToYuan(fen)).toThrow(RangeError);
  });
});

describe('yuanToFen', () => {
  it.each([
    ['0', 0],
    ['0.29', 29],
    ['19.99', 1999],
    ['12.5', 1250],
    ['12.50', 1250],
    ['1.1', 110],
    ['100', 10000],
    [' 8.88 ', 888],
    ['0.07', 7],
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
    [0.29, 29],
    [19.99, 1999],
    [42, 4200],
    [0, 0],
  ])('%j -> %s', (yuan, fen) => {
    expect(yuanToFen(yuan)).toBe(fen);
  });

  it.each([
    '',
    ' ',
    'abc',
    '-1',
    '-0.01',
    '1.234',
    '1.',
    '.5',
    '1,000',
    '1e3',
    '¥1',
    '1 .5',
    '0x10',
    '１２',
    '90071992547409.92',
    -1,
    0.001,
    0.1 + 0.2,
    Number.NaN,
    Number.POSITIVE_INFINITY,
  ])('%j -> null', (yuan) => {
    expect(yuanToFen(yuan)).toBeNull();
  });

  it('round-trips any non-negative safe integer fen', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (fen) => {
        expect(yuanToFen(fenToYuan(fen))).toBe(fen);
      }),
    );
  });

  it('reads any amount of up to two decimals exactly', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(99), (yuan, cents) => {
        expect(yuanToFen(`${yuan}.${String(cents).padStart(2, '0')}`)).toBe(yuan * 100 + cents);
        // Numbers print back as their shortest decimal, so 19.99 stays 19.99.
        expect(yuanToFen(Number(`${yuan}.${String(cents).padStart(2, '0')}`))).toBe(yuan * 100 + cents);
      }),
    );
  });
});

describe('formatLimit', () => {
  it('shows whole configured limits without decimals, anything else as a size', () => {
    expect(formatLimit(500 * 2 ** 20)).toBe('500 MB');
    expect(formatLimit(2 * 2 ** 30)).toBe('2 GB');
    expect(formatLimit(1024 * 2 ** 20)).toBe('1 GB');
    expect(formatLimit(64 * 1024)).toBe('64 KB');
    expect(formatLimit(1536)).toBe('1.50 KB');
    expect(formatLimit(0)).toBe('0.00 B');
  });
});

describe('describeUserAgent', () => {
  it('names the browser and the system', () => {
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36')).toBe(
      'Chrome 120 · Windows 10/11',
    );
    expect(
      describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91'),
    ).toBe('Edge 120 · Windows 10/11');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari 17 · iOS 17');
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15')).toBe(
      'Safari 17 · macOS 10.15',
    );
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 MicroMessenger/8.0.44',
      ),
    ).toBe('微信 8 · Android 14');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe('Firefox 121 · Linux');
    expect(describeUserAgent('curl/8.4.0')).toBe('未知浏览器 · 未知系统');
    expect(describeUserAgent(null)).toBe('未知设备');
  });
});

describe('scores', () => {
  it.each([
    [0.8981573211808995, '0.898157', '0.9'],
    [86.456, '86.456', '86.46'],
    [100, '100', '100'],
    [0, '0', '0'],
    [-1.23456789, '-1.234568', '-1.23'],
    [1e-9, '0', '0'],
    [null, '—', '—'],
    [undefined, '—', '—'],
    [Number.NaN, '—', '—'],
  ])('%s -> test %s, grade %s', (score, test, grade) => {
    expect(formatTestScore(score)).toBe(test);
    expect(formatScore(score)).toBe(grade);
  });
});
