/**
 * Identity card numbers: mainland (GB 11643, 18 and legacy 15 digits), Hong Kong, Macau and Taiwan.
 * `validateIdCard` returns null when valid, otherwise one of `ID_CARD_MESSAGES`.
 */

export const ID_CARD_MESSAGES = {
  empty: '身份证号不能为空',
  format: '你输入的身份证长度或格式错误',
  region: '你的身份证地区非法',
  birth: '身份证上的出生日期非法',
  checksum: '你输入的身份证号非法',
} as const;

export type IdCardMessage = (typeof ID_CARD_MESSAGES)[keyof typeof ID_CARD_MESSAGES];

/** GB/T 2260 province-level codes (the first two digits). */
export const ID_CARD_PROVINCES: readonly string[] = [
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

const MAINLAND_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const MAINLAND_CHECK = '10X98765432';

/** ISO 7064 MOD 11-2 check character for the first 17 digits of a mainland number. */
export function mainlandCheckDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * MAINLAND_WEIGHTS[i]!;
  return MAINLAND_CHECK[sum % 11]!;
}

/** Value of an HKID character: digits 0-9, letters A=10..Z=35, the padding space 36. */
function hkValue(char: string): number {
  return char === ' ' ? 36 : parseInt(char, 36);
}

/** Check character for an HKID prefix of one or two letters followed by six digits. */
export function hkCheckDigit(body: string): string {
  const padded = body.padStart(8, ' ');
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += hkValue(padded[i]!) * (9 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'A' : String(check);
}

/** Taiwan letter codes; not alphabetical: I, O, W, X, Y and Z come last (30-35). */
const TW_LETTER_CODES: Record<string, number> = {
  A: 10,
  B: 11,
  C: 12,
  D: 13,
  E: 14,
  F: 15,
  G: 16,
  H: 17,
  I: 34,
  J: 18,
  K: 19,
  L: 20,
  M: 21,
  N: 22,
  O: 35,
  P: 23,
  Q: 24,
  R: 25,
  S: 26,
  T: 27,
  U: 28,
  V: 29,
  W: 32,
  X: 30,
  Y: 31,
  Z: 33,
};
const TW_WEIGHTS = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1];

export function isValidTaiwanChecksum(id: string): boolean {
  const digits = String(TW_LETTER_CODES[id[0]!]) + id.slice(1);
  let sum = 0;
  for (let i = 0; i < 11; i++) sum += Number(digits[i]) * TW_WEIGHTS[i]!;
  return sum % 10 === 0;
}

/** A real calendar date no later than `today` (compared in local time) and not before 1900. */
function isValidBirthDate(yyyymmdd: string, today: Date): boolean {
  const year = Number(yyyymmdd.slice(0, 4));
  const month = Number(yyyymmdd.slice(4, 6));
  const day = Number(yyyymmdd.slice(6, 8));
  if (year < 1900 || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one; UTC avoids DST surprises.
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  const todayKey = today.getFullYear() * 10000 + (today.getMonth() + 1) * 100 + today.getDate();
  return Number(yyyymmdd) <= todayKey;
}

const MAINLAND_18 = /^\d{17}[\dX]$/;
const MAINLAND_15 = /^\d{15}$/;
const HONG_KONG = /^([A-Z]{1,2}\d{6})(?:\(([\dA])\)|([\dA]))$/;
const MACAU = /^[157]\d{6}(?:\(\d\)|\d)$/;
const TAIWAN = /^[A-Z][12]\d{8}$/;

export function validateIdCard(value: string | null | undefined, today: Date = new Date()): IdCardMessage | null {
  const id = (value ?? '').trim().toUpperCase();
  if (id === '') return ID_CARD_MESSAGES.empty;

  if (MAINLAND_18.test(id) || MAINLAND_15.test(id)) {
    if (!ID_CARD_PROVINCES.includes(id.slice(0, 2))) return ID_CARD_MESSAGES.region;
    const birth = id.length === 18 ? id.slice(6, 14) : '19' + id.slice(6, 12);
    if (!isValidBirthDate(birth, today)) return ID_CARD_MESSAGES.birth;
    if (id.length === 18 && mainlandCheckDigit(id) !== id[17]) return ID_CARD_MESSAGES.checksum;
    return null;
  }

  const hk = HONG_KONG.exec(id);
  if (hk) return hkCheckDigit(hk[1]!) === (hk[2] ?? hk[3]) ? null : ID_CARD_MESSAGES.checksum;
  if (MACAU.test(id)) return null;
  if (TAIWAN.test(id)) return isValidTaiwanChecksum(id) ? null : ID_CARD_MESSAGES.checksum;
  return ID_CARD_MESSAGES.format;
}

/** Keeps the first 3 and last 4 characters; anything of 7 characters or fewer is fully masked. */
export function maskIdCard(value: string): string {
  const id = value.trim();
  if (id.length <= 7) return '*'.repeat(id.length);
  return id.slice(0, 3) + '*'.repeat(id.length - 7) + id.slice(-4);
}
