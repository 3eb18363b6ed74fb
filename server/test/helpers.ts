import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, mainlandCheckDigit } from '@contest/shared';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { Clock } from '../src/context.ts';
import type { RateLimiter } from '../src/limits/rate-limiter.ts';
import { openDatabase, type Database_ } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedIfEmpty, type SeededAccount } from '../src/seed/index.ts';

export type DbKind = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL names a server. */
export const DATABASES: DbKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export const ADMIN_PASSWORD = 'Admin12345';

export interface TestApp extends BuiltApp {
  config: Config;
  database: Database_;
  accounts: SeededAccount[];
  logs: string[];
  close(): Promise<void>;
}

/** A schema of its own on the test PostgreSQL server, so test files never see each other's rows. */
async function postgresSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

export async function createTestApp(
  kind: DbKind,
  options: { env?: Record<string, string>; clock?: Clock; seedDemo?: boolean; limiter?: RateLimiter } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-test-'));
  const pgSchema = kind === 'postgres' ? await postgresSchema() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    CONTEST_ADMIN_PASSWORD: ADMIN_PASSWORD,
    SEED_DEMO: options.seedDemo ? '1' : '0',
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Tests run jobs themselves (`runDueJobs`), so that nothing happens behind their back.
    JOB_WORKER: '0',
    // A reply with a field its route's response schema does not declare fails here rather than losing the field.
    STRICT_RESPONSES: '1',
    ...(pgSchema ? { DATABASE_URL: pgSchema.url } : {}),
    ...options.env,
  });
  const database = openDatabase(config);
  await migrateToLatest(database);
  const clock = options.clock ?? { now: () => new Date() };
  const accounts = await seedIfEmpty(database.db, config, clock);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const built = await buildApp({ config, database, clock, logStream, ...(options.limiter && { limiter: options.limiter }) });
  return {
    ...built,
    config,
    database,
    accounts,
    logs,
    async close() {
      await built.app.close();
      await database.destroy();
      await pgSchema?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function cookieValue(res: LightMyRequestResponse, name: string): string | undefined {
  return res.cookies.find((c) => c.name === name)?.value;
}

/** A browser-like caller: keeps the session cookie and echoes the CSRF token on writes. */
export class Client {
  token?: string;
  csrf?: string;
  constructor(
    readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}

  async request(opts: InjectOptions & { method: string; url: string }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string>) };
    if (this.token) headers.cookie = `${SESSION_COOKIE}=${this.token}`;
    if (this.csrf && opts.method !== 'GET') headers[CSRF_HEADER] = this.csrf;
    const res = await this.app.inject({ ...opts, headers, remoteAddress: this.ip });
    const token = cookieValue(res, SESSION_COOKIE);
    if (token !== undefined) this.token = token || undefined;
    const csrf = cookieValue(res, CSRF_COOKIE);
    if (csrf !== undefined) this.csrf = csrf || undefined;
    return res;
  }

  get = (url: string) => this.request({ method: 'GET', url });
  post = (url: string, payload?: unknown) => this.request({ method: 'POST', url, payload: payload as object });
  put = (url: string, payload?: unknown) => this.request({ method: 'PUT', url, payload: payload as object });
  delete = (url: string) => this.request({ method: 'DELETE', url });

  async login(username: string, password: string) {
    const res = await this.post('/api/auth/login', { username, password });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
    return this;
  }
}

export async function registerUser(app: FastifyInstance, username: string, password = 'Passw0rd1', extra: object = {}) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, password, ...extra } });
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`);
  return res.json().data as { id: number; username: string };
}

export async function loggedIn(app: FastifyInstance, username: string, password = 'Passw0rd1') {
  return new Client(app).login(username, password);
}

export const body = (res: LightMyRequestResponse) => res.json() as { status: number; message: string; data: any };

/** Makes `username` an organiser of a new organisation through the partner workflow. */
export async function makeOrganiser(t: TestApp, admin: Client, username: string, orgName: string) {
  await registerUser(t.app, username);
  const client = await loggedIn(t.app, username);
  const id = body(await client.post('/api/competition/partner/apply', { name: orgName, kind: 'school', contactName: '老师', contactPhone: '13800138000' })).data
    .id;
  const res = await admin.put(`/api/competition/partner/audit/${id}`, { approve: true });
  if (res.statusCode !== 200) throw new Error(`partner audit failed: ${res.body}`);
  return loggedIn(t.app, username);
}

/** The REG_SET fields most tests use: name and ID number required, phone optional, region required. */
export const REG_FIELD_LIST = [
  { label: '姓名', name: 'userName', otherParams: { required: true } },
  { label: '身份证号', name: 'idCardNo', otherParams: { required: true } },
  { label: '手机号', name: 'tel', otherParams: { required: false } },
  { label: '地区', name: 'region', otherParams: { required: true } },
];

/** A registration form that passes REG_FIELD_LIST, with a valid mainland ID number. */
export const REG_INFO = {
  userName: '张三',
  idCardNo: '11010519491231002' + mainlandCheckDigit('11010519491231002'),
  tel: '13800138000',
  province: '广东省',
  city: '广州市',
};

/**
 * An online competition of the organiser's organisation, approved by the administrator, with its REG_SET preset
 * enabled. Registration runs from 2026-03-10 to 2026-04-10 (Beijing time) unless overridden.
 */
export async function onlineCompetition(admin: Client, organiser: Client, overrides: Record<string, unknown> = {}, fieldList: object[] = REG_FIELD_LIST) {
  let brandId = overrides.brandId as number | undefined;
  if (!brandId) {
    const brands = body(await admin.get('/api/competition/brand/public/page?limit=1')).data.list as { id: number }[];
    brandId = brands[0]?.id ?? body(await admin.post('/api/competition/brand/', { name: '测试品牌', shortName: '测试' })).data.id;
  }
  const res = await organiser.post('/api/competition/', {
    name: `测试竞赛${randomBytes(3).toString('hex')}`,
    brandId,
    regStartTime: '2026-03-10T00:00:00+08:00',
    regEndTime: '2026-04-10T00:00:00+08:00',
    endTime: '2026-06-30T00:00:00+08:00',
    minMembers: 1,
    maxMembers: 3,
    maxTeachers: 2,
    fee: 0,
    ...overrides,
  });
  if (res.statusCode !== 200) throw new Error(`create competition failed: ${res.body}`);
  const id = body(res).data.id as number;
  await organiser.put(`/api/competition/publish/${id}`);
  const audit = await admin.put(`/api/competition/audit/${id}`);
  if (audit.statusCode !== 200) throw new Error(`audit failed: ${audit.body}`);
  const presets = body(await organiser.get(`/api/competition/preset/public/list/${id}`)).data as { id: number; menuCode: string }[];
  const reg = presets.find((p) => p.menuCode === 'REG_SET')!;
  const preset = await organiser.put(`/api/competition/preset/${reg.id}`, { enable: true, fieldList });
  if (preset.statusCode !== 200) throw new Error(`preset failed: ${preset.body}`);
  return id;
}

export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** A multipart body with one file field, as a browser's upload sends it. */
export function multipart(filename: string, content: Buffer, type = 'image/png') {
  const boundary = '----contest' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Submits a team's works through the tus protocol in one request: creation, then the whole content. */
export async function submitWork(who: Client, questionId: number, content: Buffer, filename = 'works.zip') {
  const meta = { questionId: String(questionId), filename };
  const created = await who.request({
    method: 'POST',
    url: '/api/review/works/upload',
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(content.length),
      'upload-metadata': Object.entries(meta)
        .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
        .join(','),
    },
  });
  if (created.statusCode !== 201) throw new Error(`works upload refused: ${created.body}`);
  const done = await who.request({
    method: 'PATCH',
    url: created.headers.location as string,
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: content,
  });
  if (done.statusCode !== 204) throw new Error(`works upload failed: ${done.body}`);
}

/**
 * The organiser sets the deadline of the competition's works and test submission (the SUBMIT_WORKS and SUBMIT_TEST
 * presets' end, which narrows the stage or competition default) to `at`, as the menu settings form does; each preset
 * keeps whether it is on and its start. The test's clock then moves past `at` to close the windows.
 */
export async function setSubmissionDeadline(organiser: Client, competitionId: number, at: string) {
  const presets = body(await organiser.get(`/api/competition/preset/public/list/${competitionId}`)).data as {
    menuCode: string;
    enable: boolean | number;
    enableStartTime: string | null;
  }[];
  const deadline = (code: string) => {
    const p = presets.find((x) => x.menuCode === code);
    return { enable: Boolean(p?.enable), enableStartTime: p?.enableStartTime ?? null, enableEndTime: at };
  };
  const res = await organiser.put(`/api/competition/preset/batch/${competitionId}`, {
    presets: { SUBMIT_WORKS: deadline('SUBMIT_WORKS'), SUBMIT_TEST: deadline('SUBMIT_TEST') },
  });
  if (res.statusCode !== 200) throw new Error(`submission deadline: ${res.body}`);
}
