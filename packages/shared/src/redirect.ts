/** The longest address kept to return to after logging in. */
export const RETURN_TO_MAX_LENGTH = 500;

/** The WHATWG URL parser, global in browsers and Node alike (this package is compiled without either's types). */
interface ParsedUrl {
  origin: string;
  pathname: string;
  search: string;
  hash: string;
}
declare const URL: new (input: string, base: string) => ParsedUrl;

const BASE = 'http://return-to.invalid';
/** In the address as given: any whitespace (browsers drop tabs and newlines, so `/\t/x` becomes `//x`), controls, backslash. */
const RAW_UNSAFE = /[\s\x00-\x1f\x7f-\x9f\\]/u;
/** In a decoded form: controls and backslash (a space is fine once decoded: it was written `%20`). */
const DECODED_UNSAFE = /[\x00-\x1f\x7f-\x9f\\]/u;

const isPath = (s: string, unsafe: RegExp) => s.startsWith('/') && !s.startsWith('//') && !unsafe.test(s);

/** A plain path as written, and in every form decoding it gives (whoever reads it later may decode it, once or more). */
function isPlainPath(value: string): boolean {
  if (!isPath(value, RAW_UNSAFE)) return false;
  let form = value;
  for (let round = 0; ; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(form);
    } catch {
      return false;
    }
    if (decoded === form) return true;
    if (round === 3 || !isPath(decoded, DECODED_UNSAFE)) return false;
    form = decoded;
  }
}

/**
 * Where to go back to after logging in, made safe: a path on this site, normalised (dot segments resolved, anything
 * outside ASCII percent-encoded), or `fallback`. Refused, whatever it holds: absolute addresses and other schemes
 * (`https://x`, `javascript:`), protocol-relative `//x`, backslashes (`/\x`, read as `//x` by browsers), tabs,
 * newlines and other controls, and any of these hidden behind percent-encoding (`/%2F%2Fx`, `/%09/x`, `/%5Cx`,
 * encoded twice or more). The server and the web use this same function.
 */
export function safeReturnTo(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || value.length > RETURN_TO_MAX_LENGTH || !isPlainPath(value)) return fallback;
  let url: ParsedUrl;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  // Resolving dot segments can itself make `//x` (from `/.//x`, or `/%2e%2e/%2fx`): check the result again.
  const result = url.pathname + url.search + url.hash;
  return result.length <= RETURN_TO_MAX_LENGTH && isPlainPath(result) ? result : fallback;
}
