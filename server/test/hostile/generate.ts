/**
 * Hostile requests generated from the OpenAPI document: for every operation, a valid baseline built from its
 * schemas, then variants that break one thing at a time (a wrong type, a missing field, an unknown field, a
 * string past its limit, malformed or deeply nested JSON, a wrong content type) and variants that stay within
 * the schema but carry hostile values (SQL and HTML injection, unicode edge cases, numbers at their limits).
 * Everything random comes from one seeded generator, so a run can be repeated exactly.
 */
import { mulberry32 } from '../mulberry32.ts';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
}

export interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** The OpenAPI path, `{name}` for path parameters. */
  path: string;
  params: Param[];
  body?: JsonSchema;
}

/**
 * `refuse`: the request breaks the schema, so it must be answered 400, 413 or 415 (or refused earlier, 401/403/404).
 * `any`: the request fits the schema; the server may accept it, but never with a 5xx.
 */
export type Expect = 'refuse' | 'any';

export interface Variant {
  op: Operation;
  label: string;
  expect: Expect;
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
}

/** Seeded choices of test cases (mulberry32). */
export function prng(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    sample: <T>(xs: readonly T[], n: number): T[] => {
      const copy = [...xs];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, n);
    },
  };
}
export type Rng = ReturnType<typeof prng>;

export const SQL_INJECTION = [
  "' OR '1'='1",
  "admin'--",
  '1; DROP TABLE users;--',
  "'; DELETE FROM competitions; --",
  '" OR ""="',
  "1' UNION SELECT password_hash, username FROM users--",
  "%' AND 1=1 AND '%'='",
  '%_%',
  "\\'; SELECT pg_sleep(0);--",
  '1) OR (1=1',
];

export const HTML_INJECTION = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "javascript:alert('x')",
  '<svg/onload=alert(1)>',
  '{{7*7}}${7*7}<%= 7*7 %>',
  '</textarea><iframe src="//evil.example">',
  '&lt;b&gt;&amp;&#x3C;',
  ']]><!--<![CDATA[',
];

export const UNICODE_EDGE = [
  '\u202Egnp.exe',
  'a\u200B\u200C\u200D\uFEFFb',
  '👨‍👩‍👧‍👦🏳️‍🌈😀',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  '１２３４５６',
  '𠀀𪚥𡃁',
  'İıß ﬁ ǅ',
  '\u0001\u001b[31mred\u001b[0m\u007f',
  'line\r\nSet-Cookie: hacked=1',
  '\u00a0\u2028\u2029\u3000',
];

/** Values the database cannot hold or that encoders mangle: accepted or refused, but never a 5xx. */
export const UNSTORABLE = ['nul\u0000byte', '\uD800lone', 'lone\uDFFF'];

export const TRAVERSAL = [
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '....//....//etc/passwd',
  'files/../../contest.sqlite',
];

export const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

export const HOSTILE_STRINGS = [...SQL_INJECTION, ...HTML_INJECTION, ...UNICODE_EDGE, ...UNSTORABLE, ...TRAVERSAL, ...PROTO_KEYS, '%s%n%x%p', ''];

/** Hostile values for path and query parameters, as they appear in a URL (already encoded). */
export const HOSTILE_URL_VALUES = [
  'abc',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e3',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '9007199254740993',
  '2147483648',
  '99999999999999999999999',
  '%00',
  '1%00',
  '..%2F..%2Fetc%2Fpasswd',
  '%E2%80%AE1',
  encodeURIComponent('１２３'),
  encodeURIComponent("1' OR '1'='1"),
  encodeURIComponent('<script>alert(1)</script>'),
  encodeURIComponent('👨‍👩‍👧'),
  '%ZZ',
  '%C0%AE%C0%AE',
  'true',
  '',
];

const DATE_TIME = '2026-03-10T00:00:00+08:00';
const CANDIDATES = [
  '1',
  'a',
  'abc',
  'A1b2c3',
  '13800138000',
  '2026-03-10',
  'x@example.com',
  'cover/0123456789abcdef',
  'REG_SET',
  'win',
  'Passw0rd1',
  '110105194912310021',
  '2026-03-10 00:00:00',
  '#ff0000',
  '100000',
];

export const isInteger = (s: JsonSchema) => s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer'));
const types = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** The non-null branch of a union, which is what a generator should aim at. */
export function concrete(s: JsonSchema): JsonSchema {
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    const inner = branches.find((b) => !types(b).includes('null') && b.type !== 'null') ?? branches[0]!;
    return { ...concrete(inner), nullable: true };
  }
  return s;
}

const nullable = (s: JsonSchema) => s.nullable || types(s).includes('null') || !!(s.anyOf ?? s.oneOf)?.some((b) => b.type === 'null');

function lowBound(s: JsonSchema): number {
  if (typeof s.exclusiveMinimum === 'number') return Math.floor(s.exclusiveMinimum) + 1;
  if (s.minimum !== undefined) return s.exclusiveMinimum === true ? Math.floor(s.minimum) + 1 : Math.ceil(s.minimum);
  return 1;
}
function highBound(s: JsonSchema): number {
  if (typeof s.exclusiveMaximum === 'number') return Math.ceil(s.exclusiveMaximum) - 1;
  if (s.maximum !== undefined) return s.exclusiveMaximum === true ? Math.ceil(s.maximum) - 1 : Math.floor(s.maximum);
  return Number.MAX_SAFE_INTEGER;
}

/** A value that fits the schema; `id` is what an identifier gets (something that exists). */
export function validValue(schema: JsonSchema, name: string, ctx: { id: (name: string) => number }): unknown {
  const s = concrete(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const t = types(s)[0] ?? (s.properties ? 'object' : 'string');
  switch (t) {
    case 'boolean':
      return true;
    case 'integer':
    case 'number': {
      const lo = lowBound(s);
      const hi = highBound(s);
      const want = /id$/i.test(name) ? ctx.id(name) : Math.max(lo, Math.min(1, hi));
      return Math.max(lo, Math.min(want, hi));
    }
    case 'array': {
      const n = s.minItems ?? 0;
      return Array.from({ length: n }, () => validValue(s.items ?? {}, name, ctx));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = validValue(s.properties?.[key] ?? {}, key, ctx);
      return out;
    }
    default:
      return validString(s);
  }
}

export function validString(s: JsonSchema): string {
  if (s.format === 'date-time') return DATE_TIME;
  if (s.format === 'email') return 'x@example.com';
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 1000;
  let base = '测试';
  if (s.pattern) {
    const re = new RegExp(s.pattern, 'u');
    base = CANDIDATES.find((c) => re.test(c)) ?? (re.test(DATE_TIME) ? DATE_TIME : 'a');
  }
  while (base.length < min) base += 'x';
  return base.slice(0, Math.max(max, min));
}

/** Wrong-typed replacements for a value of this schema: each must be refused. */
export function wrongTypes(schema: JsonSchema): { label: string; raw: string }[] {
  const s = concrete(schema);
  const t = s.enum ? 'enum' : (types(s)[0] ?? 'string');
  const out: { label: string; raw: string }[] = [];
  if (t !== 'string' && t !== 'enum') out.push({ label: 'string', raw: JSON.stringify('abc') });
  if (t !== 'integer' && t !== 'number' && t !== 'boolean') out.push({ label: 'number', raw: '12345' });
  if (t !== 'boolean') out.push({ label: 'boolean', raw: 'false' });
  if (t !== 'object') out.push({ label: 'object', raw: '{"a":1}' });
  if (t !== 'array') out.push({ label: 'array', raw: '["x",1]' });
  if (!nullable(s)) out.push({ label: 'null', raw: 'null' });
  if (t === 'enum') out.push({ label: 'enum outside', raw: JSON.stringify('NOT_A_CHOICE<script>') });
  if (t === 'integer') {
    out.push(
      { label: 'fraction', raw: '1.5' },
      { label: '1e309', raw: '1e309' },
      { label: 'NaN string', raw: '"NaN"' },
      { label: 'numeric string', raw: '"1"' },
    );
    const hi = highBound(s);
    if (hi < Number.MAX_SAFE_INTEGER) out.push({ label: 'above maximum', raw: String(hi + 1) });
    else out.push({ label: '2^53+1', raw: '9007199254740993' });
    const lo = lowBound(s);
    out.push({ label: 'below minimum', raw: String(lo - 1) });
    if (lo > 0) out.push({ label: '-0', raw: '-0' }, { label: 'negative', raw: '-1' });
  }
  if (t === 'string' && s.maxLength !== undefined) out.push({ label: `length ${s.maxLength + 1}`, raw: JSON.stringify('长'.repeat(s.maxLength + 1)) });
  if (t === 'string' && (s.minLength ?? 0) > 0) out.push({ label: 'empty', raw: '""' });
  if (t === 'array' && s.maxItems !== undefined)
    out.push({ label: `${s.maxItems + 1} items`, raw: JSON.stringify(Array.from({ length: s.maxItems + 1 }, () => null)) });
  if (t === 'string' && s.pattern) out.push({ label: 'pattern broken', raw: JSON.stringify('../../etc/passwd\u0000') });
  return out;
}

/** Values that fit the schema but are hostile: the server may store them, never break on them. */
export function hostileFits(schema: JsonSchema, rng: Rng, n: number): { label: string; value: unknown }[] {
  const s = concrete(schema);
  const t = s.enum ? 'enum' : (types(s)[0] ?? 'string');
  if (t === 'string' && !s.pattern && !s.format) {
    const max = s.maxLength ?? Infinity;
    const min = s.minLength ?? 0;
    const fits = HOSTILE_STRINGS.filter((x) => x.length <= max && x.length >= min);
    const out = rng.sample(fits, n).map((value) => ({ label: `string ${JSON.stringify(value).slice(0, 30)}`, value: value as unknown }));
    if (Number.isFinite(max) && max >= 20) out.push({ label: `max length ${max} of 4-byte chars`, value: '𠀀'.repeat(Math.floor(max / 2)) });
    return out;
  }
  if (t === 'integer' || t === 'number') {
    const lo = lowBound(s);
    const hi = highBound(s);
    return [
      { label: 'minimum', value: lo },
      { label: 'maximum', value: hi },
      ...(hi > 2147483647 && lo <= 2147483648 ? [{ label: '2^31', value: 2147483648 }] : []),
    ];
  }
  return [];
}

export function operationsOf(doc: {
  paths: Record<string, Record<string, { parameters?: Param[]; requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>>;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      ops.push({ method: method.toUpperCase(), path: p, params: (op.parameters ?? []) as Param[], body });
    }
  }
  return ops;
}

/** Percent-encodes any string; a lone surrogate goes as the bytes Node would write for it. */
export function encodeAny(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s)].map((b) => '%' + b.toString(16).padStart(2, '0').toUpperCase()).join('');
  }
}

function encodeQuery(entries: [string, string][]): string {
  return entries.length ? '?' + entries.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&') : '';
}

export interface Baseline {
  pathValues: Record<string, string>;
  query: [string, string][];
  body?: Record<string, unknown>;
}

export function baseline(op: Operation, ctx: { id: (name: string) => number }): Baseline {
  const pathValues: Record<string, string> = {};
  const query: [string, string][] = [];
  for (const p of op.params) {
    const v = validValue(p.schema, p.name, ctx);
    if (p.in === 'path') pathValues[p.name] = encodeURIComponent(String(v));
    else if (p.required) query.push([p.name, encodeURIComponent(String(v))]);
  }
  const body = op.body ? (validValue(op.body, '', ctx) as Record<string, unknown>) : undefined;
  return { pathValues, query, body };
}

export function urlOf(op: Operation, pathValues: Record<string, string>, query: [string, string][]): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => pathValues[name] ?? '1') + encodeQuery(query);
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Replaces the value at `key` of a JSON object body by raw JSON text (so `1e309` and `-0` reach the parser as written). */
function withRaw(body: Record<string, unknown>, key: string, raw: string): string {
  const marker = `"__RAW_${Math.random().toString(36).slice(2)}__"`;
  return JSON.stringify({ ...body, [key]: JSON.parse(marker) }).replace(marker, raw);
}

export function nested(depth: number, leaf = '1'): string {
  return '['.repeat(depth) + leaf + ']'.repeat(depth);
}

function decoded(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** Whether a URL value (as the server decodes it) fits an integer or enum schema, as zod's coercion reads it. */
function fitsUrlValue(s: JsonSchema, value: string): boolean {
  if (s.enum) return s.enum.map(String).includes(value);
  if (!isInteger(s)) return true;
  const n = Number(value);
  return value.trim() !== '' && Number.isInteger(n) && n >= lowBound(s) && n <= highBound(s);
}

/** Hostile contents for a free-form JSON object, as [label, expect, request] for `add`. */
function freeForm(label: string, wrap: (raw: string) => string): [string, Expect, Partial<Variant>][] {
  const manyKeys = '{' + Array.from({ length: 10_000 }, (_, i) => `"k${i}":${i}`).join(',') + '}';
  return [
    [`${label} with a value nested 5000 levels`, 'any', { payload: wrap(`{"deep":${nested(5000)}}`) }],
    [`${label} nested 5000 objects`, 'any', { payload: wrap('{"a":'.repeat(5000) + '1' + '}'.repeat(5000)) }],
    [`${label} with 10000 keys`, 'any', { payload: wrap(manyKeys) }],
    [`${label} with prototype keys`, 'any', { payload: wrap('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}},"toString":"x"}') }],
    [`${label} with hostile strings`, 'any', { payload: wrap(JSON.stringify(Object.fromEntries(HOSTILE_STRINGS.map((v, i) => [`f${i}`, v])))) }],
    [`${label} with a 600 kB string`, 'any', { payload: wrap(JSON.stringify({ big: 'x'.repeat(600_000) })) }],
    [`${label} as an array`, 'refuse', { payload: wrap('[1,2,3]') }],
  ];
}

export function variantsOf(op: Operation, ctx: { id: (name: string) => number; bodyLimit: number }, rng: Rng): Variant[] {
  const out: Variant[] = [];
  const base = baseline(op, ctx);
  const url = (pv = base.pathValues, q = base.query) => urlOf(op, pv, q);
  const add = (label: string, expect: Expect, v: Partial<Variant> = {}) =>
    out.push({
      op,
      label,
      expect,
      method: op.method,
      url: url(),
      ...(base.body !== undefined ? { headers: JSON_HEADERS, payload: JSON.stringify(base.body) } : {}),
      ...v,
    });

  // Path parameters.
  for (const p of op.params.filter((x) => x.in === 'path')) {
    const s = concrete(p.schema);
    const typed = isInteger(s) || !!s.enum;
    for (const raw of rng.sample(HOSTILE_URL_VALUES, typed ? 6 : 4)) {
      if (raw === '') continue;
      // A malformed escape never reaches the route (400); a typed value must fit its schema.
      const malformed = decoded(raw) === null;
      add(`path ${p.name}=${raw}`, malformed || (typed && !fitsUrlValue(s, decoded(raw)!)) ? 'refuse' : 'any', {
        url: url({ ...base.pathValues, [p.name]: raw }),
      });
    }
  }

  // Query parameters.
  const queryParams = op.params.filter((x) => x.in === 'query');
  for (const p of queryParams) {
    const s = concrete(p.schema);
    const typed = isInteger(s) || !!s.enum || s.type === 'boolean' || !!s.pattern;
    const others = base.query.filter(([k]) => k !== p.name);
    for (const raw of rng.sample(HOSTILE_URL_VALUES, typed ? 5 : 3)) {
      const value = decoded(raw);
      // An empty value counts as absent; anything else typed must fit its schema.
      const refused = value !== null && value !== '' && typed && s.type !== 'boolean' && !fitsUrlValue(s, value);
      add(`query ${p.name}=${raw}`, refused ? 'refuse' : 'any', { url: url(base.pathValues, [...others, [p.name, raw]]) });
    }
    if (s.type === 'string' && s.maxLength !== undefined)
      add(`query ${p.name} too long`, 'refuse', { url: url(base.pathValues, [...others, [p.name, 'x'.repeat(s.maxLength + 1)]]) });
    if (p.required) add(`query ${p.name} missing`, 'refuse', { url: url(base.pathValues, others) });
    add(`query ${p.name} repeated`, 'any', { url: url(base.pathValues, [...others, [p.name, '1'], [p.name, '2']]) });
    for (const h of hostileFits(s, rng, 2))
      add(`query ${p.name} ${h.label}`, 'any', { url: url(base.pathValues, [...others, [p.name, encodeAny(String(h.value))]]) });
  }
  if (op.params.length || op.method === 'GET')
    add('unknown query parameter', 'any', {
      url: url(base.pathValues, [...base.query, ['__proto__[x]', '1'], ['constructor', encodeURIComponent("' OR 1=1--")]]),
    });

  // JSON body.
  if (op.body && base.body !== undefined) {
    const body = base.body;
    const s = concrete(op.body);
    for (const key of s.required ?? []) {
      const { [key]: _gone, ...rest } = body;
      add(`body missing ${key}`, 'refuse', { payload: JSON.stringify(rest) });
    }
    for (const [key, prop] of Object.entries(s.properties ?? {})) {
      for (const w of rng.sample(wrongTypes(prop), 3)) add(`body ${key} ${w.label}`, 'refuse', { payload: withRaw(body, key, w.raw) });
      for (const h of hostileFits(prop, rng, 2)) add(`body ${key} ${h.label}`, 'any', { payload: JSON.stringify({ ...body, [key]: h.value }) });
      const inner = concrete(prop);
      // A free-form object (a registration form's answers, a payment method's settings): whatever JSON can carry.
      if (inner.type === 'object' && typeof inner.additionalProperties === 'object')
        for (const f of freeForm(`body ${key}`, (raw) => withRaw(body, key, raw))) add(...f);
      // A nested array (the preset's field list): hostile values one level down.
      if (inner.type === 'array' && inner.items && concrete(inner.items).properties) {
        const item = validValue(inner.items, key, ctx) as Record<string, unknown>;
        for (const [k2, p2] of Object.entries(concrete(inner.items).properties ?? {})) {
          for (const w of rng.sample(wrongTypes(p2), 2))
            add(`body ${key}[0].${k2} ${w.label}`, 'refuse', { payload: withRaw(body, key, `[${withRaw(item, k2, w.raw)}]`) });
        }
      }
    }
    if (typeof s.additionalProperties === 'object') for (const f of freeForm('body', (raw) => raw)) add(...f);
    const strict = s.additionalProperties === false;
    // A body that may be absent (null) is also absent when the content type brings no JSON.
    const optional = nullable(op.body);
    add('body unknown field', strict ? 'refuse' : 'any', { payload: JSON.stringify({ ...body, unexpectedField: "' OR 1=1--" }) });
    add('body __proto__ field', strict ? 'refuse' : 'any', { payload: JSON.stringify(body).replace(/^\{/, '{"__proto__":{"isAdmin":true,"status":1},') });
    add('body constructor.prototype', strict ? 'refuse' : 'any', { payload: JSON.stringify({ ...body, constructor: { prototype: { polluted: true } } }) });
    add('body is an array', 'refuse', { payload: JSON.stringify([body]) });
    add('body is a string', 'refuse', { payload: JSON.stringify('abc') });
    add('body is null', optional ? 'any' : 'refuse', { payload: 'null' });
    add('body empty', optional ? 'any' : 'refuse', { payload: '' });
    for (const bad of ['{"a":', "{'a':1}", '{"a":1,}', '{"a":NaN}', '{"a":1}garbage', '\u0000', '{"a":"\\ud800"', 'undefined'])
      add(`malformed JSON ${JSON.stringify(bad)}`, 'refuse', { payload: bad });
    add('invalid UTF-8 bytes', 'refuse', { payload: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80]), Buffer.from('"}')]) });
    add('body nested 10000 levels', 'refuse', { payload: nested(10_000) });
    add('object nested 10000 levels', 'refuse', { payload: '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000) });
    const firstKey = Object.keys(s.properties ?? {})[0];
    if (firstKey) add(`body ${firstKey} nested 5000 levels`, 'refuse', { payload: withRaw(body, firstKey, nested(5000)) });
    add('body over the size limit', 'refuse', { payload: JSON.stringify({ ...body, [firstKey ?? 'x']: 'x'.repeat(ctx.bodyLimit + 1) }) });
    // About 1 MB of text in one field (a little under the limit): refused by the field's own limit, if it has one.
    const stringKey = Object.entries(s.properties ?? {}).find(([, p]) => concrete(p).type === 'string')?.[0];
    if (stringKey) {
      const limit = concrete(s.properties![stringKey]!).maxLength;
      add(`body ${stringKey} ~1 MB`, limit !== undefined && limit < ctx.bodyLimit / 2 ? 'refuse' : 'any', {
        payload: JSON.stringify({ ...body, [stringKey]: '长'.repeat(Math.floor(ctx.bodyLimit / 3) - 1000) }),
      });
    }
    add('duplicate keys', 'any', { payload: JSON.stringify(body).replace(/^\{/, '{"__dup":1,').replace('"__dup":1,', '') });
    for (const type of [
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/jsonx',
      'image/png',
    ]) {
      const refused = type !== 'application/json; charset=latin1' && !(optional && type.startsWith('multipart/'));
      add(`content-type ${type}`, refused ? 'refuse' : 'any', { headers: { 'content-type': type }, payload: JSON.stringify(body) });
    }
    add('no content-type', optional ? 'any' : 'refuse', { headers: {}, payload: JSON.stringify(body) });
  } else if (op.method !== 'GET' && op.method !== 'DELETE') {
    // No body declared: whatever is sent must not matter or must be refused.
    add('unexpected body', 'any', { headers: JSON_HEADERS, payload: JSON.stringify({ status: 1, id: -1, sql: "'; DROP TABLE users;--" }) });
    add('unexpected malformed body', 'refuse', { headers: JSON_HEADERS, payload: '{"a":' });
    add('unexpected nested body', 'any', { headers: JSON_HEADERS, payload: nested(10_000) });
  }
  return out;
}
