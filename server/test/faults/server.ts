import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CSRF_COOKIE, CSRF_HEADER, mainlandCheckDigit } from '@contest/shared';
import { mulberry32 } from '../mulberry32.ts';

/** The repository root: servers, backups and restores run from there, as `npm run ...` would. */
export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const ADMIN_PASSWORD = 'Admin12345';

/** A seeded generator (mulberry32), so that every run kills at the same points of the same load. */
export function seeded(seed: number) {
  const next = mulberry32(seed);
  const bytes = (n: number) => {
    const words = new Uint32Array(Math.ceil(n / 4));
    for (let i = 0; i < words.length; i++) words[i] = next() * 4294967296;
    return Buffer.from(words.buffer, 0, n);
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)), bytes };
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as net.AddressInfo;
        s.close(() => resolve(port));
      });
    });
    if (![3000, 3210, 3400].includes(port)) return port;
  }
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
  /** SIGKILL: no hook, no flush, no goodbye. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** Spawns the real server (`node --import tsx server/src/main.ts`) and waits until /api/health answers. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      CONTEST_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      JOB_WORKER: '0',
      WEB_DIST: path.join(env.DATA_DIR ?? ROOT, 'no-web'),
      SESSION_TTL_HOURS: String(24 * 365),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (gone) throw new Error(`the server exited while starting:\n${output.join('')}`);
    const health = await fetch(`${url}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (health === 200) break;
    if (i > 600) throw new Error(`the server did not become ready:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output,
    exited,
    async kill9() {
      if (!gone) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (!gone) child.kill('SIGTERM');
      // A graceful close waits for open keep-alive connections; past that wait, the test ends it the hard way.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface Res {
  status: number;
  body: { status: number; message: string; data: any } | null;
  text: string;
  headers: Headers;
}

/** A browser-like caller over real HTTP: keeps the session cookie, echoes the CSRF token on writes. */
export class HttpClient {
  cookies = new Map<string, string>();
  constructor(public base: string) {}

  async request(method: string, url: string, init: { json?: unknown; body?: Buffer; headers?: Record<string, string> } = {}): Promise<Res> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.cookies.get(CSRF_COOKIE);
    if (csrf && method !== 'GET' && method !== 'HEAD') headers[CSRF_HEADER] = csrf;
    let body: RequestInit['body'];
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.body) {
      body = new Uint8Array(init.body);
    }
    const res = await fetch(`${this.base}${url}`, { method, headers, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    const text = method === 'HEAD' ? '' : await res.text();
    let parsed: Res['body'] = null;
    try {
      parsed = JSON.parse(text) as Res['body'];
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, json?: unknown) => this.request('POST', url, { json: json ?? {} });
  put = (url: string, json?: unknown) => this.request('PUT', url, { json: json ?? {} });

  /** Sends data that must succeed during set-up; throws with the answer otherwise. */
  async must(method: 'GET' | 'POST' | 'PUT', url: string, json?: unknown): Promise<any> {
    const res = await this.request(method, url, method === 'GET' ? {} : { json: json ?? {} });
    if (res.status !== 200) throw new Error(`${method} ${url} -> ${res.status} ${res.text}`);
    return res.body!.data;
  }

  async login(username: string, password: string) {
    const res = await this.post('/api/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${res.text}`);
    return this;
  }

  /** A multipart upload with one file field, as a browser sends it. */
  upload(url: string, filename: string, content: Buffer, type: string) {
    const boundary = `----faults${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return this.request('POST', url, { body: payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  }
}

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (v: string) => Buffer.from(v).toString('base64');

/** The tus creation request of a works upload; its location names the upload. */
export async function createUpload(who: HttpClient, questionId: number, content: Buffer, filename = 'works.zip') {
  const meta = { questionId: String(questionId), filename, sha256: sha256(content) };
  return who.request('POST', '/api/review/works/upload', {
    headers: {
      ...TUS,
      'upload-length': String(content.length),
      'upload-metadata': Object.entries(meta)
        .map(([k, v]) => `${k} ${b64(v)}`)
        .join(','),
    },
  });
}

export const patchUpload = (who: HttpClient, location: string, offset: number, chunk: Buffer) =>
  who.request('PATCH', location, { headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, body: chunk });

export async function uploadOffset(who: HttpClient, location: string) {
  const res = await who.request('HEAD', location, { headers: TUS });
  return Number(res.headers.get('upload-offset'));
}

/** A PNG the avatar upload accepts, made different by `seed` so that each upload is its own file. */
export function png(seed: number): Buffer {
  const base = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  return Buffer.concat([base, Buffer.from(`fault-${seed}`)]);
}

export const REG_INFO = {
  userName: '张三',
  idCardNo: '11010519491231002' + mainlandCheckDigit('11010519491231002'),
  tel: '13800138000',
  province: '广东省',
  city: '广州市',
};
const REG_FIELD_LIST = [
  { label: '姓名', name: 'userName', otherParams: { required: true } },
  { label: '身份证号', name: 'idCardNo', otherParams: { required: true } },
  { label: '地区', name: 'region', otherParams: { required: true } },
];

export interface Arena {
  admin: HttpClient;
  organiser: HttpClient;
  competitionId: number;
  questionId: number;
}

/**
 * Through HTTP only: an organiser, a free competition open for registration now, with question choice and works
 * submission open and no deadline, and one reviewed question with a works limit of `worksMaxMb`.
 */
export async function arena(url: string, worksMaxMb = 20): Promise<Arena> {
  const admin = await new HttpClient(url).login('admin', ADMIN_PASSWORD);
  const orgName = `org${Math.random().toString(36).slice(2, 8)}`;
  await new HttpClient(url).must('POST', '/api/auth/register', { username: orgName, password: 'Passw0rd1' });
  const organiser = await new HttpClient(url).login(orgName, 'Passw0rd1');
  const application = await organiser.must('POST', '/api/competition/partner/apply', {
    name: `${orgName}大学`,
    kind: 'school',
    contactName: '老师',
    contactPhone: '13800138000',
  });
  await admin.must('PUT', `/api/competition/partner/audit/${application.id}`, { approve: true });
  await organiser.login(orgName, 'Passw0rd1');
  const brand = await admin.must('POST', '/api/competition/brand/', { name: '故障测试', shortName: '故障' });
  const { id: competitionId } = await organiser.must('POST', '/api/competition/', {
    name: '故障演练赛',
    brandId: brand.id,
    regStartTime: '2020-01-01T00:00:00+08:00',
    regEndTime: '2099-01-01T00:00:00+08:00',
    endTime: '2099-06-30T00:00:00+08:00',
    minMembers: 1,
    maxMembers: 3,
    maxTeachers: 2,
    fee: 0,
    worksMaxMb,
    worksTypes: 'zip,pdf',
  });
  await organiser.must('PUT', `/api/competition/publish/${competitionId}`);
  await admin.must('PUT', `/api/competition/audit/${competitionId}`);
  const presets = (await organiser.must('GET', `/api/competition/preset/public/list/${competitionId}`)) as { id: number; menuCode: string }[];
  const preset = (code: string) => presets.find((p) => p.menuCode === code)!.id;
  await organiser.must('PUT', `/api/competition/preset/${preset('REG_SET')}`, { enable: true, fieldList: REG_FIELD_LIST });
  await organiser.must('PUT', `/api/competition/preset/${preset('CHOICE_SET')}`, { enable: true });
  await organiser.must('PUT', `/api/competition/preset/${preset('SUBMIT_WORKS')}`, { enable: true });
  const { id: questionId } = await organiser.must('POST', `/api/competition/question/${competitionId}`, {
    title: '故障题',
    evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
  });
  await admin.must('PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });
  return { admin, organiser, competitionId, questionId };
}

/** A new participant leading an approved team that chose the arena's question. */
export async function teamLeader(url: string, a: Arena, username: string) {
  await new HttpClient(url).must('POST', '/api/auth/register', { username, password: 'Passw0rd1' });
  const leader = await new HttpClient(url).login(username, 'Passw0rd1');
  const r = await leader.must('POST', `/api/team/register/${a.competitionId}`, { teamName: `${username}队`, info: REG_INFO });
  await a.organiser.must('POST', `/api/team/register/flow/${r.registerId}`, { action: 'approve' });
  await leader.must('PUT', `/api/team/choiceQuestion/${r.teamId}`, { questionId: a.questionId });
  return { leader, teamId: r.teamId as number, username };
}

/** Every table column that holds a file key. */
const KEY_COLUMNS: [table: string, column: string][] = [
  ['files', 'key'],
  ['works', 'file_key'],
  ['test_submissions', 'file_key'],
  ['question_files', 'file_key'],
  ['invoices', 'file_key'],
  ['certificates', 'file_key'],
  ['certificate_templates', 'background_key'],
  ['users', 'face_img'],
  ['brands', 'logo'],
  ['competitions', 'cover'],
  ['orders', 'voucher'],
];

export interface StoreCheck {
  referenced: number;
  problems: string[];
}

/**
 * Every key a row holds names a complete file under `filesDir`: present, with the size and sha256 its `files` (or
 * `works`) row recorded. `query` runs SQL on SQLite or PostgreSQL alike.
 */
export async function checkFileRows(query: (sql: string) => Promise<Record<string, unknown>[]>, filesDir: string): Promise<StoreCheck> {
  const problems: string[] = [];
  const expected = new Map<string, { size: number; sha256: string }>();
  for (const r of await query('select key, size, sha256 from files')) expected.set(String(r.key), { size: Number(r.size), sha256: String(r.sha256) });
  for (const r of await query('select file_key, size, sha256 from works')) {
    const f = expected.get(String(r.file_key));
    if (!f || f.size !== Number(r.size) || f.sha256 !== r.sha256) problems.push(`works row for ${String(r.file_key)} disagrees with its files row`);
  }
  const keys = new Set<string>();
  for (const [table, column] of KEY_COLUMNS) {
    for (const r of await query(`select ${column} as k from ${table} where ${column} is not null and ${column} <> ''`)) {
      const k = String(r.k);
      // Only keys of the store (`purpose/uuid`); pictures may also be outside links.
      if (/^[a-z0-9-]+\/[0-9a-f-]{36}$/.test(k)) keys.add(k);
    }
  }
  for (const key of keys) {
    const file = path.join(filesDir, key);
    if (!fs.existsSync(file)) {
      problems.push(`${key}: no file`);
      continue;
    }
    const content = fs.readFileSync(file);
    const want = expected.get(key);
    if (!want) problems.push(`${key}: referenced but has no files row`);
    else if (content.length !== want.size || sha256(content) !== want.sha256)
      problems.push(`${key}: ${content.length} bytes, ${sha256(content)}, expected ${want.size} bytes, ${want.sha256}`);
  }
  return { referenced: keys.size, problems };
}

export function sqliteQuery(file: string) {
  return async (sql: string) => {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  };
}

/** `PRAGMA integrity_check` through a read-only connection, beside a running server or after it. */
export function integrityCheck(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}
