import { CSRF_HEADER } from '@contest/shared';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  assignWorks,
  assignmentsOf,
  confirmGrades,
  expert,
  judgesOnQuestion,
  ok,
  reviewRule,
  reviewedQuestion,
  submitScores,
  teamWithWork,
  unique,
} from './factories.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  PDF,
  PNG,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  registerUser,
  type Client,
  type TestApp,
} from './helpers.ts';

/**
 * Issue 20 items 4 and 5: the grade export answers under both of its spec bases (§7 Works: `review/exportGrade/` and
 * `exportGrade/`), and the file download (§7 Files) also answers a form-encoded POST, with the GET's bytes, headers and
 * access rules, and without letting another site's form read anything.
 */
describe.each(DATABASES)('spec download paths on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let otherOrg: Client;
  let now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'dlOrg', '下载大学');
    otherOrg = await makeOrganiser(t, admin, 'dlOtherOrg', '别家大学');
  });
  afterAll(() => t.close());

  /** A question of `org` with two teams, graded by one judge, confirmed and awarded (first and second prize). */
  async function awardedQuestion() {
    now = new Date('2026-03-20T02:00:00Z');
    const n = unique();
    const q = await reviewedQuestion(admin, org, {
      title: `下载题${n}`,
      evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
      answer: 'id,y\na,1\nb,2\n',
    });
    const teams = [
      await teamWithWork(t, org, q, { username: `dlA${n}x`, name: `下载甲队${n}` }),
      await teamWithWork(t, org, q, { username: `dlB${n}x`, name: `下载乙队${n}` }),
    ];
    const judge = await expert(t, org, `dlJudge${n}`, '评审大学');
    await judgesOnQuestion(org, q.questionId, [judge]);
    const rule = await reviewRule(org, q.questionId, {
      criteria: [{ name: '创新性', description: null, maxScore: 10 }],
      judgesPerWork: 1,
      aggregation: 'mean',
      reviewWeight: 100,
      testWeight: 0,
      blind: false,
      disputeDays: 3,
    });
    expect((await assignWorks(org, q.questionId)).created).toBe(2);
    for (const a of await assignmentsOf(org, q.questionId)) await submitScores(judge, rule, a.id, [a.teamId === teams[0]!.teamId ? 9 : 7]);
    await confirmGrades(org, q, '2026-03-20T11:00:00+08:00', () => {
      now = new Date('2026-03-20T03:00:01Z');
    });
    ok(
      await org.put(`/api/review/works/awards/${q.questionId}`, {
        levels: [
          { name: '一等奖', rankFrom: 1, rankTo: 1 },
          { name: '二等奖', rankFrom: 2, rankTo: 2 },
        ],
      }),
      'award levels',
    );
    expect(ok(await org.post(`/api/review/works/awards/apply/${q.questionId}`), 'apply awards')).toEqual({ awarded: 2 });
    return { ...q, teams };
  }

  async function sheetValues(res: LightMyRequestResponse) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: sheet.name, rows };
  }

  it('serves the grade workbook under review/exportGrade/ exactly as under exportGrade/', async () => {
    const { questionId, teams } = await awardedQuestion();
    // The workbook records when it was written: both requests are made at the same instant, so the bytes may match.
    vi.useFakeTimers({ toFake: ['Date'] });
    let plain: LightMyRequestResponse;
    let spec: LightMyRequestResponse;
    try {
      vi.setSystemTime(new Date('2026-03-20T04:00:00Z'));
      plain = await org.get(`/api/review/works/exportGrade/${questionId}`);
      spec = await org.get(`/api/review/works/review/exportGrade/${questionId}`);
    } finally {
      vi.useRealTimers();
    }
    expect(plain.statusCode, plain.body).toBe(200);
    expect(spec.statusCode, spec.body.slice(0, 200)).toBe(200);
    for (const h of ['content-type', 'content-disposition']) expect(spec.headers[h], h).toBe(plain.headers[h]);
    expect(spec.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(spec.rawPayload.equals(plain.rawPayload)).toBe(true);

    // It is the grade workbook of this question: ranks, teams and their awards.
    const { name, rows } = await sheetValues(spec);
    expect(name).toBe('成绩');
    expect(rows[0]![0]).toBe('名次');
    expect(rows.slice(1).map((r) => [r[0], r[2], r[r.length - 1]])).toEqual([
      [1, teams[0]!.name, '一等奖'],
      [2, teams[1]!.name, '二等奖'],
    ]);
  });

  it('refuses review/exportGrade/ to exactly those exportGrade/ refuses', async () => {
    const { questionId, teams } = await awardedQuestion();
    const anonymous = (url: string) => t.app.inject({ method: 'GET', url });
    const callers: [string, (url: string) => Promise<LightMyRequestResponse>][] = [
      ['anonymous', anonymous],
      ['another organisation', (url) => otherOrg.get(url)],
      ['a participant', (url) => teams[0]!.leader.get(url)],
    ];
    for (const [who, get] of callers) {
      const plain = await get(`/api/review/works/exportGrade/${questionId}`);
      const spec = await get(`/api/review/works/review/exportGrade/${questionId}`);
      expect([who, spec.statusCode, body(spec).message]).toEqual([who, plain.statusCode, body(plain).message]);
      expect(spec.statusCode, who).toBeGreaterThanOrEqual(401);
      expect(spec.body).not.toContain(teams[0]!.name);
    }
    // A question id that is not one is refused alike under both bases.
    const [plainBad, specBad] = [await org.get('/api/review/works/exportGrade/abc'), await org.get('/api/review/works/review/exportGrade/abc')];
    expect(plainBad.statusCode).toBeGreaterThanOrEqual(400);
    expect([specBad.statusCode, specBad.body]).toEqual([plainBad.statusCode, plainBad.body]);
  });

  // ---- §7 Files: the form-encoded POST download ------------------------------------------------------------------

  const DOWNLOAD = '/api/file/common/download';
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
  const form = (fileUri: string) => `fileUri=${encodeURIComponent(fileUri)}`;
  /** What the two downloads must share: everything that describes the file, not the request's id or date. */
  const FILE_HEADERS = ['content-type', 'content-disposition', 'content-length', 'accept-ranges', 'x-sha256', 'cache-control'];

  async function user() {
    const username = `dlUser${unique()}x`;
    await registerUser(t.app, username);
    return loggedIn(t.app, username);
  }

  /** A private document (a registration attachment) uploaded by a new user, with a Chinese name. */
  async function privateDocument() {
    const owner = await user();
    const up = ok<{ fileUri: string }>(
      await owner.request({ method: 'POST', url: '/api/file/upload/document?purpose=attachment', ...multipart('报名 附件.pdf', PDF, 'application/pdf') }),
      'document',
    );
    return { owner, fileUri: up.fileUri };
  }

  const postForm = (who: Client, payload: string, headers: Record<string, string> = {}) =>
    who.request({ method: 'POST', url: DOWNLOAD, headers: { ...FORM, ...headers }, payload });

  it('answers a form-encoded POST with the bytes and headers of the GET, for a private file its owner reads', async () => {
    const { owner, fileUri } = await privateDocument();
    const get = await owner.get(`${DOWNLOAD}?fileUri=${encodeURIComponent(fileUri)}`);
    expect(get.statusCode).toBe(200);
    const post = await postForm(owner, form(fileUri), { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' });
    expect(post.statusCode, post.body.slice(0, 200)).toBe(200);
    expect(post.rawPayload.equals(PDF)).toBe(true);
    expect(post.rawPayload.equals(get.rawPayload)).toBe(true);
    for (const h of FILE_HEADERS) expect(post.headers[h], h).toEqual(get.headers[h]);
    expect(post.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('报名 附件.pdf')}`);

    // A range, as a resuming download asks for it.
    const part = await owner.request({ method: 'POST', url: DOWNLOAD, headers: { ...FORM, range: 'bytes=0-3' }, payload: form(fileUri) });
    expect([part.statusCode, part.body, part.headers['content-range']]).toEqual([206, '%PDF', `bytes 0-3/${PDF.length}`]);
  });

  it('answers the POST for a public file to anyone, as the GET does', async () => {
    const owner = await user();
    const avatar = ok<{ fileUri: string }>(
      await owner.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('头像.png', PNG) }),
      'avatar',
    ).fileUri;
    const get = await t.app.inject({ method: 'GET', url: `${DOWNLOAD}?fileUri=${encodeURIComponent(avatar)}` });
    const post = await t.app.inject({ method: 'POST', url: DOWNLOAD, headers: FORM, payload: form(avatar) });
    expect([get.statusCode, post.statusCode]).toEqual([200, 200]);
    expect(post.rawPayload.equals(PNG)).toBe(true);
    for (const h of FILE_HEADERS) expect(post.headers[h], h).toEqual(get.headers[h]);
  });

  it('refuses the POST of a private file to whoever the GET refuses, alike for a missing file', async () => {
    const { fileUri } = await privateDocument();
    const stranger = await user();
    const anonymous = await t.app.inject({ method: 'POST', url: DOWNLOAD, headers: FORM, payload: form(fileUri) });
    const missing = await postForm(stranger, form('attachment/00000000-0000-0000-0000-000000000000'));
    for (const [who, res] of [
      ['anonymous', anonymous],
      ['another user', await postForm(stranger, form(fileUri))],
      ['another organisation', await postForm(otherOrg, form(fileUri))],
      ['a missing file', missing],
    ] as const) {
      expect([who, res.statusCode, body(res).message], who).toEqual([who, 404, '文件不存在']);
      expect(res.body).not.toContain('%PDF');
    }
  });

  it("lets no form of another site read a file with the visitor's cookies", async () => {
    const { owner, fileUri } = await privateDocument();
    const session = owner.token!;
    // What a browser sends for a form another site makes it post: the visitor's cookie, no CSRF header, that site's
    // Origin (or none at all, as some browsers and privacy settings send it).
    const crossSite = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: DOWNLOAD, headers: { ...FORM, cookie: `contest_token=${session}`, ...headers }, payload: form(fileUri) });
    for (const [label, headers] of [
      ['another origin', { origin: 'https://evil.example' }],
      ['no origin', {}],
      ['a null origin', { origin: 'null' }],
      ['another origin, text/plain', { origin: 'https://evil.example', 'content-type': 'text/plain' }],
      ['a guessed token', { [CSRF_HEADER]: 'guessed' }],
      ['the right token from another origin', { origin: 'https://evil.example', [CSRF_HEADER]: owner.csrf! }],
    ] as const) {
      const res = await crossSite(headers);
      expect([label, res.statusCode], label).toEqual([label, 403]);
      expect(res.body).not.toContain('%PDF');
      expect(res.headers['content-disposition']).toBeUndefined();
    }
    // The page's own call, which echoes the CSRF token, is served.
    expect((await crossSite({ origin: 'http://localhost:3000', host: 'localhost:3000', [CSRF_HEADER]: owner.csrf! })).statusCode).toBe(200);
  });

  it("serves the desktop client's bearer POST without a CSRF header", async () => {
    const { owner, fileUri } = await privateDocument();
    const token = ok<{ token: string }>(await owner.post('/api/auth/token'), 'desktop token').token;
    const res = await t.app.inject({ method: 'POST', url: DOWNLOAD, headers: { ...FORM, authorization: `Bearer ${token}` }, payload: form(fileUri) });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    // The same body as JSON, the API's usual form, is read alike.
    const json = await t.app.inject({ method: 'POST', url: DOWNLOAD, headers: { authorization: `Bearer ${token}` }, payload: { fileUri } });
    expect(json.statusCode).toBe(200);
    expect(json.rawPayload.equals(PDF)).toBe(true);
  });

  it('refuses malformed download forms with a Chinese message and changes nothing', async () => {
    const { owner, fileUri } = await privateDocument();
    for (const [label, payload, status] of [
      ['no fileUri', '', 400],
      ['an empty fileUri', 'fileUri=', 400],
      ['fileUri twice', `${form(fileUri)}&${form(fileUri)}`, 400],
      ['an unknown field', `${form(fileUri)}&__proto__=1`, 400],
      ['a too long fileUri', form('x'.repeat(201)), 400],
      ['JSON sent as a form', JSON.stringify({ fileUri }), 400],
      ['a form over the size limit', `${form(fileUri)}&pad=${'x'.repeat(64 * 1024)}`, 413],
    ] as const) {
      const res = await postForm(owner, payload);
      expect([label, res.statusCode], label).toEqual([label, status]);
      expect(body(res).status).toBe(status);
      expect(body(res).message).toMatch(/[\u4e00-\u9fff]/);
    }
    // Still served afterwards.
    expect((await postForm(owner, form(fileUri))).statusCode).toBe(200);
  });

  it('keeps form bodies to the download: other POST routes still refuse them', async () => {
    const owner = await user();
    const res = await owner.request({ method: 'POST', url: '/api/auth/logout', headers: FORM, payload: 'a=1' });
    expect(res.statusCode).toBe(415);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: FORM, payload: 'username=admin&password=x' });
    expect(login.statusCode).toBe(415);
  });
});
