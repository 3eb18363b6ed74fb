import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { ID_CARD_MESSAGES, isValidPhone, isValidUrl, maskIdCard, maskPhone, validateIdCard } from '../src/validation/index.ts';

// The reference checksums below are written independently of the source on purpose.
const PROVINCES = [
  '11',
  '12',
  '13',
  '14',
  '15',
  '21',
  '22',
  '23',
  '31',
  '32',
  '33',
  '34',
  '35',
  '36',
  '37',
  '41',
  '42',
  '43',
  '44',
  '45',
  '46',
  '50',
  '51',
  '52',
  '53',
  '54',
  '61',
  '62',
  '63',
  '64',
  '65',
  '71',
  '81',
  '82',
  '83',
  '91',
];
const TODAY = new Date(2025, 5, 15); // 2025-06-15, local time like the validator
const CHECK_CHARS = '0123456789X';

function mainlandCheck(first17: string): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((acc, d, i) => acc + Number(d) * weights[i]!, 0);
  return '10X98765432'[sum % 11]!;
}

function hkCheck(prefix: string, digits: string): string {
  const chars = (prefix.length === 1 ? ' ' + prefix : prefix) + digits;
  const value = (c: string) => (c === ' ' ? 36 : c >= 'A' ? c.charCodeAt(0) - 55 : Number(c));
  const sum = [...chars].reduce((acc, c, i) => acc + value(c) * (9 - i), 0);
  const check = 11 - (sum % 11);
  return check === 11 ? '0' : check === 10 ? 'A' : String(check);
}

const TW_CODES = 'ABCDEFGHJKLMNPQRSTUVXYWZIO'; // index + 10 is the letter's code
function twCheck(letter: string, first8: string): string {
  const digits = String(TW_CODES.indexOf(letter) + 10) + first8;
  const weights = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1];
  const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * weights[i]!, 0);
  return String((10 - (sum % 10)) % 10);
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const DAY_MS = 86_400_000;
const MIN_BIRTH = Date.UTC(1900, 0, 1);
const MAX_BIRTH = Date.UTC(2025, 5, 15);

const digitsArb = (length: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((d) => d.join(''));
const provinceArb = fc.constantFrom(...PROVINCES);
const birthArb = fc.integer({ min: 0, max: (MAX_BIRTH - MIN_BIRTH) / DAY_MS }).map((days) => {
  const d = new Date(MIN_BIRTH + days * DAY_MS);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}`;
});
const mainlandArb = fc.tuple(provinceArb, digitsArb(4), birthArb, digitsArb(3)).map(([province, area, birth, seq]) => {
  const first17 = province + area + birth + seq;
  return first17 + mainlandCheck(first17);
});
const impossibleDateArb = fc.oneof(
  fc.tuple(fc.integer({ min: 1900, max: 2024 }), fc.constantFrom(0, 13, 19, 99), fc.integer({ min: 1, max: 28 })),
  fc.tuple(fc.integer({ min: 1900, max: 2024 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 32, 99)),
  fc.tuple(fc.integer({ min: 1900, max: 2024 }), fc.constantFrom(4, 6, 9, 11), fc.constant(31)),
  fc.tuple(fc.integer({ min: 1900, max: 2024 }), fc.constant(2), fc.constant(30)),
  fc
    .integer({ min: 1900, max: 2024 })
    .filter((y) => !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)))
    .map((y) => [y, 2, 29] as const),
  fc.tuple(fc.integer({ min: 1000, max: 1899 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })),
  fc.tuple(fc.integer({ min: 2026, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })),
);
const upperArb = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
const hkArb = fc
  .tuple(
    fc.oneof(
      upperArb,
      fc.tuple(upperArb, upperArb).map(([a, b]) => a + b),
    ),
    digitsArb(6),
    fc.boolean(),
  )
  .map(([prefix, digits, parens]) => {
    const check = hkCheck(prefix, digits);
    return { body: prefix + digits, check, parens };
  });
const twArb = fc
  .tuple(upperArb, fc.constantFrom('1', '2'), digitsArb(7))
  .map(([letter, sex, rest]) => ({ body: letter + sex + rest, check: twCheck(letter, sex + rest) }));

const validate = (id: string) => validateIdCard(id, TODAY);

describe('isValidPhone', () => {
  it.each([
    '13800138000',
    '+8613800138000',
    '19912345678',
    '14700000000',
    '51234567',
    '61234567',
    '81234567',
    '91234567',
    '+85291234567',
    '0912345678',
    '+8860912345678',
  ])('accepts %s', (phone) => {
    expect(isValidPhone(phone)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['mainland second digit 2', '12800138000'],
    ['mainland too short', '1380013800'],
    ['mainland too long', '138001380001'],
    ['surrounding spaces', ' 13800138000 '],
    ['inner space', '138 0013 8000'],
    ['HK starting with 2 (landline)', '21234567'],
    ['HK too short', '9123456'],
    ['HK with mainland prefix', '+8691234567'],
    ['TW without leading 0', '912345678'],
    ['TW starting 08', '0812345678'],
    ['mainland with HK prefix', '+85213800138000'],
    ['prefix without plus', '8613800138000'],
    ['letters', '1380013800a'],
    ['full-width digits', '１３８００１３８０００'],
  ])('rejects %s', (_name, phone) => {
    expect(isValidPhone(phone)).toBe(false);
  });

  const phoneArb = fc.oneof(
    fc.tuple(fc.constantFrom('', '+86'), fc.integer({ min: 3, max: 9 }), digitsArb(9)).map(([p, d, r]) => `${p}1${d}${r}`),
    fc.tuple(fc.constantFrom('', '+852'), fc.constantFrom('5', '6', '8', '9'), digitsArb(7)).map(([p, d, r]) => p + d + r),
    fc.tuple(fc.constantFrom('', '+886'), digitsArb(8)).map(([p, r]) => `${p}09${r}`),
  );

  it('accepts generated valid numbers and rejects them with an extra digit', () => {
    fc.assert(
      fc.property(phoneArb, fc.integer({ min: 0, max: 9 }), (phone, extra) => {
        expect(isValidPhone(phone)).toBe(true);
        expect(isValidPhone(phone + extra)).toBe(false);
      }),
    );
  });
});

describe('maskPhone', () => {
  it.each([
    ['13800138000', '138****8000'],
    ['+8613800138000', '+86138****8000'],
    ['91234567', '912*4567'],
    ['+85291234567', '+852912*4567'],
    ['0912345678', '091***5678'],
    ['+8860912345678', '+886091***5678'],
    ['12345', '*****'],
    ['', ''],
  ])('%s -> %s', (phone, masked) => {
    expect(maskPhone(phone)).toBe(masked);
  });
});

describe('isValidUrl', () => {
  it.each([
    'http://example.com',
    'https://example.com/',
    'https://www.example.com.cn/path/to/page?q=1&x=%E4%B8%AD#top',
    'HTTPS://Example.COM',
    'ftp://ftp.example.org/pub/file.tar.gz',
    'http://localhost',
    'http://localhost:3000/api',
    'http://127.0.0.1',
    'http://192.168.1.1:8080/x',
    'https://255.255.255.255',
    'https://example.com:1',
    'https://example.com:65535',
    'https://my-site.example.co.uk',
    'https://xn--fiqs8s.xn--fiqs8s',
    'https://example.com?query',
    'https://example.com#frag',
  ])('accepts %s', (url) => {
    expect(isValidUrl(url)).toBe(true);
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['javascript with slashes', 'javascript://example.com/%0Aalert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['other scheme', 'file:///etc/passwd'],
    ['no scheme', 'example.com'],
    ['protocol-relative', '//example.com'],
    ['missing host', 'http://'],
    ['missing host with path', 'https:///path'],
    ['space in host', 'http://exa mple.com'],
    ['space in path', 'http://example.com/a b'],
    ['leading space', ' http://example.com'],
    ['trailing space', 'http://example.com '],
    ['single label', 'http://example'],
    ['empty label', 'http://example..com'],
    ['label starting with hyphen', 'http://-example.com'],
    ['numeric top-level label', 'http://example.123'],
    ['octet above 255', 'http://256.1.1.1'],
    ['three octets', 'http://1.2.3'],
    ['port 0', 'http://example.com:0'],
    ['port above 65535', 'http://example.com:65536'],
    ['empty port', 'http://example.com:/'],
    ['user info', 'http://trusted.com@evil.com'],
    ['underscore in host', 'http://my_host.com'],
    ['single slash', 'http:/example.com'],
  ])('rejects %s', (_name, url) => {
    expect(isValidUrl(url)).toBe(false);
  });

  it('accepts any valid port and rejects any port out of range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65535 }), (port) => {
        expect(isValidUrl(`https://example.com:${port}/x`)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 65536, max: 99999 }), (port) => {
        expect(isValidUrl(`https://example.com:${port}/x`)).toBe(false);
      }),
    );
  });

  it('accepts any IPv4 address and rejects one with an octet above 255', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.tuple(octet, octet, octet, octet), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 256, max: 999 }), (ip, i, bad) => {
        expect(isValidUrl(`http://${ip.join('.')}/`)).toBe(true);
        const wrong = ip.map((o, j) => (j === i ? bad : o));
        expect(isValidUrl(`http://${wrong.join('.')}/`)).toBe(false);
      }),
    );
  });

  it('rejects any URL containing whitespace', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.constantFrom(' ', '\t', '\n', '\u3000'), (at, space) => {
        const url = 'https://example.com/path?q=1';
        expect(isValidUrl(url.slice(0, at) + space + url.slice(at))).toBe(false);
      }),
    );
  });
});

describe('validateIdCard', () => {
  it('has exactly the five messages', () => {
    expect(ID_CARD_MESSAGES).toEqual({
      empty: '身份证号不能为空',
      format: '你输入的身份证长度或格式错误',
      region: '你的身份证地区非法',
      birth: '身份证上的出生日期非法',
      checksum: '你输入的身份证号非法',
    });
  });

  it.each([
    ['mainland 18 with X', '11010519491231002X'],
    ['mainland 18 with lower-case x', '11010519491231002x'],
    ['mainland 18 with digit check', '440308199003074516'],
    ['mainland 18 on a leap day', '110101200002290018'],
    ['mainland 18 born 1900-12-31', '110101190012310012'],
    ['mainland 18 born today', '310115202506151235'],
    ['mainland 18 Taiwan region code', '710101198001010012'],
    ['mainland 18 surrounded by spaces', '  11010519491231002X\t'],
    ['mainland 15', '130503670401001'],
    ['mainland 15 on a leap day of 1996', '110101960229001'],
    ['HK one letter with parentheses', 'A123456(3)'],
    ['HK one letter without parentheses', 'A1234563'],
    ['HK check digit A', 'G123456(A)'],
    ['HK two letters', 'AB987654(3)'],
    ['HK lower case', 'a123456(3)'],
    ['Macau with parentheses', '1234567(8)'],
    ['Macau without parentheses', '52152998'],
    ['Macau starting 7', '7123456(0)'],
    ['Taiwan male', 'A123456789'],
    ['Taiwan female', 'F231104095'],
    ['Taiwan letter I', 'I123456781'],
  ])('accepts %s', (_name, id) => {
    expect(validate(id)).toBeNull();
  });

  it.each([
    ['empty string', '', ID_CARD_MESSAGES.empty],
    ['only spaces', '   ', ID_CARD_MESSAGES.empty],
    ['only tabs and newlines', '\t\n', ID_CARD_MESSAGES.empty],
    ['17 digits', '11010519491231002', ID_CARD_MESSAGES.format],
    ['19 digits', '11010519491231002X1', ID_CARD_MESSAGES.format],
    ['X in the middle', '1101051949123100X2', ID_CARD_MESSAGES.format],
    ['letter check other than X', '11010519491231002A', ID_CARD_MESSAGES.format],
    ['15 with X', '13050367040100X', ID_CARD_MESSAGES.format],
    ['inner space', '110105 19491231002X', ID_CARD_MESSAGES.format],
    ['full-width digits', '１１０１０５１９４９１２３１００２Ｘ', ID_CARD_MESSAGES.format],
    ['HK five digits', 'A12345(3)', ID_CARD_MESSAGES.format],
    ['HK three letters', 'ABC123456(3)', ID_CARD_MESSAGES.format],
    ['HK unbalanced parenthesis', 'A123456(3', ID_CARD_MESSAGES.format],
    ['HK check letter B', 'A123456(B)', ID_CARD_MESSAGES.format],
    ['Macau starting 2', '2234567(8)', ID_CARD_MESSAGES.format],
    ['Macau letter check', '1234567(A)', ID_CARD_MESSAGES.format],
    ['Taiwan sex digit 3', 'A323456789', ID_CARD_MESSAGES.format],
    ['Taiwan too short', 'A12345678', ID_CARD_MESSAGES.format],
    ['random text', 'hello', ID_CARD_MESSAGES.format],
    ['region 00', '000105194912310024', ID_CARD_MESSAGES.region],
    ['region 10', '101010199001010015', ID_CARD_MESSAGES.region],
    ['region 99', '990101199001010019', ID_CARD_MESSAGES.region],
    ['region 24 in 15 digits', '240101900101001', ID_CARD_MESSAGES.region],
    ['region checked before date', '991010199013320011', ID_CARD_MESSAGES.region],
    ['month 13', '110101199013010012', ID_CARD_MESSAGES.birth],
    ['day 32', '110101199001320015', ID_CARD_MESSAGES.birth],
    ['April 31', '110101199004310015', ID_CARD_MESSAGES.birth],
    ['Feb 29 of non-leap 1900', '110101190002290015', ID_CARD_MESSAGES.birth],
    ['Feb 29 of non-leap 2023', '110101202302290015', ID_CARD_MESSAGES.birth],
    ['before 1900', '110101189912310015', ID_CARD_MESSAGES.birth],
    ['tomorrow', '110101202506160015', ID_CARD_MESSAGES.birth],
    ['15 digits Feb 29 of 1997', '110101970229001', ID_CARD_MESSAGES.birth],
    ['15 digits month 00', '110101970029001', ID_CARD_MESSAGES.birth],
    ['date checked before checksum', '110101199013010010', ID_CARD_MESSAGES.birth],
    ['mainland wrong check digit', '110105194912310021', ID_CARD_MESSAGES.checksum],
    ['mainland X instead of digit', '44030819900307451X', ID_CARD_MESSAGES.checksum],
    ['HK wrong check digit', 'A123456(4)', ID_CARD_MESSAGES.checksum],
    ['HK A instead of digit', 'A123456(A)', ID_CARD_MESSAGES.checksum],
    ['Taiwan wrong check digit', 'A123456788', ID_CARD_MESSAGES.checksum],
  ])('rejects %s', (_name, id, message) => {
    expect(validate(id)).toBe(message);
  });

  it('treats null and undefined as empty', () => {
    expect(validateIdCard(null)).toBe(ID_CARD_MESSAGES.empty);
    expect(validateIdCard(undefined)).toBe(ID_CARD_MESSAGES.empty);
  });

  it('judges the future against the given day', () => {
    const id = '110101202506160013';
    expect(validateIdCard(id, new Date(2025, 5, 15))).toBe(ID_CARD_MESSAGES.birth);
    expect(validateIdCard(id, new Date(2025, 5, 16))).toBeNull();
  });

  it('accepts any generated valid 18-digit number', () => {
    fc.assert(
      fc.property(mainlandArb, (id) => {
        expect(validate(id)).toBeNull();
        expect(validate(id.toLowerCase())).toBeNull();
      }),
    );
  });

  it('gives the checksum message for any other check digit', () => {
    fc.assert(
      fc.property(mainlandArb, fc.constantFrom(...CHECK_CHARS), (id, check) => {
        fc.pre(check !== id[17]);
        expect(validate(id.slice(0, 17) + check)).toBe(ID_CARD_MESSAGES.checksum);
      }),
    );
  });

  it('gives the birth message for any impossible or out-of-range date', () => {
    fc.assert(
      fc.property(mainlandArb, impossibleDateArb, (id, [y, m, d]) => {
        const first17 = id.slice(0, 6) + pad(y, 4) + pad(m, 2) + pad(d, 2) + id.slice(14, 17);
        expect(validate(first17 + mainlandCheck(first17))).toBe(ID_CARD_MESSAGES.birth);
      }),
    );
  });

  it('gives the region message for any code outside the list', () => {
    const badProvince = fc
      .integer({ min: 0, max: 99 })
      .map((n) => pad(n, 2))
      .filter((p) => !PROVINCES.includes(p));
    fc.assert(
      fc.property(mainlandArb, badProvince, (id, province) => {
        const first17 = province + id.slice(2, 17);
        expect(validate(first17 + mainlandCheck(first17))).toBe(ID_CARD_MESSAGES.region);
      }),
    );
  });

  it('gives the format message for digit strings of a wrong length', () => {
    // 8 digits starting 1, 5 or 7 are Macau numbers, 15 and 18 are mainland lengths.
    const length = fc.integer({ min: 1, max: 30 }).filter((n) => ![8, 15, 18].includes(n));
    fc.assert(
      fc.property(length.chain(digitsArb), (id) => {
        expect(validate(id)).toBe(ID_CARD_MESSAGES.format);
      }),
    );
  });

  it('gives the format message for strings of mainland length with a foreign character', () => {
    fc.assert(
      fc.property(mainlandArb, fc.integer({ min: 0, max: 16 }), fc.constantFrom('X', 'a', '-', '*', '中', '.'), (id, at, c) => {
        expect(validate(id.slice(0, at) + c + id.slice(at + 1))).toBe(ID_CARD_MESSAGES.format);
      }),
    );
  });

  it('accepts any generated Hong Kong number and rejects any other check digit', () => {
    fc.assert(
      fc.property(hkArb, fc.constantFrom(...'0123456789A'), ({ body, check, parens }, other) => {
        const wrap = (c: string) => (parens ? `${body}(${c})` : body + c);
        expect(validate(wrap(check))).toBeNull();
        if (other !== check) expect(validate(wrap(other))).toBe(ID_CARD_MESSAGES.checksum);
      }),
    );
  });

  it('accepts any generated Taiwan number and rejects any other check digit', () => {
    fc.assert(
      fc.property(twArb, fc.integer({ min: 0, max: 9 }), ({ body, check }, other) => {
        expect(validate(body + check)).toBeNull();
        if (String(other) !== check) expect(validate(body + other)).toBe(ID_CARD_MESSAGES.checksum);
      }),
    );
  });

  it('accepts any Macau number', () => {
    fc.assert(
      fc.property(fc.constantFrom('1', '5', '7'), digitsArb(7), fc.boolean(), (first, rest, parens) => {
        const id = parens ? `${first}${rest.slice(0, 6)}(${rest[6]})` : first + rest;
        expect(validate(id)).toBeNull();
      }),
    );
  });

  it('only ever answers null or one of the five messages', () => {
    const messages = Object.values(ID_CARD_MESSAGES);
    fc.assert(
      fc.property(fc.string(), (id) => {
        const result = validate(id);
        expect(result === null || messages.includes(result)).toBe(true);
      }),
    );
  });
});

describe('maskIdCard', () => {
  it.each([
    ['11010519491231002X', '110***********002X'],
    ['130503670401001', '130********1001'],
    ['A123456(3)', 'A12***6(3)'],
    ['A123456789', 'A12***6789'],
    ['12345678', '123*5678'],
    ['1234567', '*******'],
    ['abc', '***'],
    ['', ''],
    ['  11010519491231002X  ', '110***********002X'],
  ])('%s -> %s', (id, masked) => {
    expect(maskIdCard(id)).toBe(masked);
  });

  it('keeps the length and the first 3 and last 4 characters', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 8, maxLength: 30 })
          .map((s) => s.trim())
          .filter((s) => s.length >= 8),
        (id) => {
          const masked = maskIdCard(id);
          expect(masked).toHaveLength(id.length);
          expect(masked.slice(0, 3)).toBe(id.slice(0, 3));
          expect(masked.slice(-4)).toBe(id.slice(-4));
          expect(masked.slice(3, -4)).toMatch(/^\*+$/);
        },
      ),
    );
  });
});
