/** Display formatting shared by server responses and web pages. */

/** Spec §9: the unread badge shows at most 99; the check runs 2 s after the layout is created. */
export const UNREAD_BADGE_MAX = 99;
export const UNREAD_CHECK_DELAY_MS = 2000;

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** `1536` -> `1.50 KB`; GB is the largest unit; negative, NaN and infinite sizes show as `0.00 B`. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0.00 B';
  let value = bytes;
  let unit = 0;
  while (unit < SIZE_UNITS.length - 1 && value >= 1024) {
    value /= 1024;
    unit++;
  }
  // 1048575 B is 1023.999 KB, which would round to "1024.00 KB".
  if (unit < SIZE_UNITS.length - 1 && Number(value.toFixed(2)) >= 1024) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)} ${SIZE_UNITS[unit]}`;
}

/** A grade's score (review, final): two decimals at most, a dash when there is none — `86.456` -> `86.46`. */
export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined || !Number.isFinite(score) ? '—' : String(Number(score.toFixed(2)));
}

/** A test score is the metric's own value (an AUC, an error), shown with up to six decimals: `0.8981573211808995` -> `0.898157`. */
export function formatTestScore(score: number | null | undefined): string {
  return score === null || score === undefined || !Number.isFinite(score) ? '—' : String(Number(score.toFixed(6)));
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `3725` -> `01:02:05`; hours are not capped (`123:04:05`); fractions of a second are dropped. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--';
  const total = Math.floor(seconds);
  const hours = Math.floor(total / 3600);
  return `${pad2(hours)}:${pad2(Math.floor((total % 3600) / 60))}:${pad2(total % 60)}`;
}

/** Integer fen to a yuan string with two decimals: `1250` -> `"12.50"`, `-5` -> `"-0.05"`. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen)) throw new RangeError(`fen must be a safe integer, got ${fen}`);
  const abs = Math.abs(fen);
  // Integer arithmetic only: dividing by 100 would bring floating point rounding in.
  return `${fen < 0 ? '-' : ''}${Math.floor(abs / 100)}.${pad2(abs % 100)}`;
}

const YUAN_PATTERN = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * A non-negative yuan amount with at most two decimals to integer fen (`"19.99"` -> `1999`), or null.
 * Works on the decimal digits, never `yuan * 100`, which turns 0.29 into 28.999999999999996.
 */
export function yuanToFen(yuan: string | number): number | null {
  if (typeof yuan === 'number' && !Number.isFinite(yuan)) return null;
  const match = YUAN_PATTERN.exec(String(yuan).trim());
  if (!match) return null;
  const fen = BigInt(match[1]!) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return fen <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(fen) : null;
}

/**
 * A configured limit (a whole number of MB or GB, as organisers set them) without the two decimals of a measured size:
 * `500 * 2 ** 20` -> `500 MB`; anything else falls back to `formatSize`.
 */
export function formatLimit(bytes: number): string {
  for (const [unit, size] of [
    ['GB', 2 ** 30],
    ['MB', 2 ** 20],
    ['KB', 2 ** 10],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return formatSize(bytes);
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/MicroMessenger\/(\d+)/, '微信'],
  [/QQBrowser\/(\d+)/, 'QQ浏览器'],
  [/UCBrowser\/(\d+)/, 'UC浏览器'],
  [/Electron\/(\d+)/, '桌面客户端'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/Windows NT 10/, () => 'Windows 10/11'],
  [/Windows NT 6\.1/, () => 'Windows 7'],
  [/Windows/, () => 'Windows'],
  [/iPhone OS (\d+)/, (m) => `iOS ${m[1]}`],
  [/iPad.*OS (\d+)/, (m) => `iPadOS ${m[1]}`],
  [/Android (\d+)/, (m) => `Android ${m[1]}`],
  [/Mac OS X (\d+)[_.](\d+)/, (m) => `macOS ${m[1]}.${m[2]}`],
  [/CrOS/, () => 'ChromeOS'],
  [/HarmonyOS/, () => 'HarmonyOS'],
  [/Linux/, () => 'Linux'],
];

/**
 * A user-agent as people name their device: `Chrome 120 · Windows 10/11`, `Safari 17 · iOS 17`; what cannot be told is
 * 未知浏览器 / 未知系统, and no user-agent at all is 未知设备.
 */
export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return '未知设备';
  const browser = BROWSERS.map(([re, name]) => [re.exec(ua), name] as const).find(([m]) => m);
  const system = SYSTEMS.map(([re, name]) => [re.exec(ua), name] as const).find(([m]) => m);
  return `${browser ? `${browser[1]} ${browser[0]![1]}` : '未知浏览器'} · ${system ? system[1](system[0]!) : '未知系统'}`;
}
