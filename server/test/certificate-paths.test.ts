import { CERT_BUILTIN_FIELDS } from '@contest/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDueJobs } from '../src/jobs/runner.ts';
import { readZip } from '../../desktop/test/fixtures/packages.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  PNG,
  REG_FIELD_LIST,
  REG_INFO,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  registerUser,
  type Client,
  type TestApp,
} from './helpers.ts';
import {
  assignWorks,
  assignmentsOf,
  confirmGrades,
  expert,
  judgesOnQuestion,
  ok,
  reviewRule,
  reviewedQuestion,
  SCHOOL_FIELD,
  submitScores,
  teamWithWork,
  unique,
} from './factories.ts';

/**
 * The certificate paths of spec §7 (issue 20): `cert/cbda/list`, the URL base `upload/`, `POST /{id}` with the
 * template in the query, and path segments that are not numbers. Each test builds what it needs.
 */
describe.each(DATABASES)('certificate paths of the specification on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let orgB: Client;
  const START = new Date('2026-03-20T02:00:00Z');
  let now = START;
  const BASE = '/api/review/certificate';

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { REGISTER_MAX_PER_IP: '100000' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'certPathOrg', '证书路径主办方');
    orgB = await makeOrganiser(t, admin, 'certPathOrgB', '证书路径别的主办方');
  });
  afterAll(() => t.close());
  beforeEach(() => {
    now = START;
  });

  /** A question of the organiser's, reviewed (it has its automatic evaluation). */
  const question = (title: string, fieldList?: object[]) =>
    reviewedQuestion(admin, org, {
      title,
      fieldList,
      evaluation: { metric: 'rmse', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 5 },
      answer: 'id,y\nr0,1\nr1,2\n',
    });

  /** A question of the organiser's with one team of one (its leader's name is REG_INFO's 张三). */
  async function questionWithTeam(school?: string) {
    const n = unique();
    const q = await question(`证书题${n}`, school ? [...REG_FIELD_LIST, SCHOOL_FIELD] : undefined);
    const team = await teamWithWork(t, org, q, {
      username: `certPath${n}`,
      name: `证书队${n}`,
      ...(school ? { info: { ...REG_INFO, organization: school } } : {}),
    });
    return { ...q, n, team };
  }

  /** …judged by one expert, graded, awarded 一等奖 and certified on the built-in landscape layout. */
  async function certifiedTeam(school?: string) {
    const w = await questionWithTeam(school);
    const judge = await expert(t, org, `certPathJudge${w.n}`, '评审大学');
    const rule = await reviewRule(org, w.questionId, {
      criteria: [{ name: '创新性', description: null, maxScore: 100 }],
      judgesPerWork: 1,
      aggregation: 'mean',
      reviewWeight: 100,
      testWeight: 0,
      blind: false,
      disputeDays: 0,
    });
    await judgesOnQuestion(org, w.questionId, [judge]);
    await assignWorks(org, w.questionId);
    ok(await org.post(`/api/review/works/calcFinalScore/${w.questionId}`), 'calculate');
    const [assignment] = await assignmentsOf(org, w.questionId);
    await submitScores(judge, rule, assignment!.id, [90]);
    await confirmGrades(org, w, '2026-03-20T11:00:00+08:00', () => {
      now = new Date('2026-03-20T03:00:01Z');
    });
    ok(await org.put(`/api/competition/preset/${w.presets.GRADE_SET}`, { enable: true }), 'GRADE_SET');
    ok(await org.put(`/api/review/works/awards/${w.questionId}`, { levels: [{ name: '一等奖', rankFrom: 1, rankTo: 1 }] }), 'award levels');
    ok(await org.post(`/api/review/works/awards/apply/${w.questionId}`), 'apply awards');
    const template = ok<{ id: number }>(
      await org.post(`${BASE}/${w.competitionId}`, { name: '获奖证书', backgroundUri: 'builtin:landscape', fields: CERT_BUILTIN_FIELDS.landscape }),
      'template',
    );
    ok(await org.post(`${BASE}/relation/${w.questionId}`, { templateId: template.id }), 'relation');
    ok(await org.post(`${BASE}/cert/push/${w.questionId}`), 'push');
    await runDueJobs(t.deps);
    return w;
  }

  it('gives a school’s coordinator every certificate of its teams as one zip, and nobody else', async () => {
    const name = `证书学校${kind}${unique()}`;
    const school = ok<{ id: number }>(await admin.post('/api/system/school', { name, kind: 'undergraduate' }), 'school').id;
    const w = await certifiedTeam(name);
    const coordName = `certCoord${unique()}`;
    await registerUser(t.app, coordName);
    const coord = await loggedIn(t.app, coordName);
    const url = `/api/school/coordinator/certificates/${w.competitionId}?schoolId=${school}`;
    expect((await coord.get(url)).statusCode).toBe(404);
    ok(await org.post(`/api/competition/coordinator/${w.competitionId}`, { account: coordName, schoolId: school, scope: 'competition' }), 'appoint');
    const res = await coord.get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const entries = readZip(res.rawPayload);
    const names = [...entries.keys()];
    expect(names).toEqual([expect.stringMatching(new RegExp(`^\\d+-证书队${w.n}/${REG_INFO.userName}-一等奖-证书.+\\.pdf$`))]);
    expect(entries.get(names[0]!)!.data.subarray(0, 5).toString()).toBe('%PDF-');
    // The team's members and the organisers have their own ways; a coordinator of another school has none here.
    expect((await w.team.leader.get(url)).statusCode).toBe(404);
  });

  it('answers cert/cbda/list with the caller’s own certificates, as cert/list, and 401 without a login', async () => {
    const w = await certifiedTeam();
    const personal = ok<{ holderName: string; awardName: string; questionId: number }[]>(await w.team.leader.get(`${BASE}/cert/list`), 'cert/list');
    expect(personal).toHaveLength(1);
    expect(personal[0]).toMatchObject({ holderName: REG_INFO.userName, awardName: '一等奖', questionId: w.questionId });

    const res = await w.team.leader.get(`${BASE}/cert/cbda/list`);
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res)).toEqual({ status: 200, message: expect.any(String), data: personal });
    // The same filter by competition as the personal list.
    expect(body(await w.team.leader.get(`${BASE}/cert/cbda/list?competitionId=${w.competitionId}`)).data).toEqual(personal);
    expect(body(await w.team.leader.get(`${BASE}/cert/cbda/list?competitionId=${w.competitionId + 100000}`)).data).toEqual([]);
    const bad = await w.team.leader.get(`${BASE}/cert/cbda/list?competitionId=abc`);
    expect(bad.statusCode).toBe(400);
    expect(body(bad).message).toBe('竞赛编号须为正整数');
    // Only one's own: the organiser holds none of them.
    expect(body(await org.get(`${BASE}/cert/cbda/list`)).data).toEqual([]);

    const anonymous = await t.app.inject({ method: 'GET', url: `${BASE}/cert/cbda/list` });
    expect(anonymous.statusCode).toBe(401);
    expect(body(anonymous)).toMatchObject({ status: 401, message: '当前会话已超时，请重新登录！' });
  });

  it('takes and serves the question’s certificate uploads under upload/, for those who may edit its certificates only', async () => {
    const w = await questionWithTeam();
    const up = await org.request({ method: 'POST', url: `${BASE}/upload/${w.questionId}`, ...multipart('bg.png', PNG) });
    expect(up.statusCode, up.body).toBe(200);
    const background = body(up).data as { uri: string; width: number; height: number };
    expect(background).toEqual({ uri: expect.stringMatching(/^certificate\//), width: 1, height: 1 });

    // The organiser of another competition, a team member and a visitor may not upload for the question.
    const other = await orgB.request({ method: 'POST', url: `${BASE}/upload/${w.questionId}`, ...multipart('bg.png', PNG) });
    expect(other.statusCode).toBe(404);
    expect(body(other).message).toBe('赛题不存在');
    expect((await w.team.leader.request({ method: 'POST', url: `${BASE}/upload/${w.questionId}`, ...multipart('bg.png', PNG) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `${BASE}/upload/${w.questionId}`, ...multipart('bg.png', PNG) })).statusCode).toBe(401);
    const notImage = await org.request({
      method: 'POST',
      url: `${BASE}/upload/${w.questionId}`,
      ...multipart('bg.pdf', Buffer.from('%PDF-1.4\n'), 'application/pdf'),
    });
    expect(notImage.statusCode).toBe(415);
    expect(body(notImage).message).toBe('证书背景只能是PNG或JPEG格式的图片');

    // Served back to its editors: the upload itself, and the background of the template the question uses.
    const file = await org.get(`${BASE}/upload/${w.questionId}?fileUri=${encodeURIComponent(background.uri)}`);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(body(await org.get(`${BASE}/upload/${w.questionId}`)).message).toBe('该赛题还没有选择证书模板');
    const template = ok<{ id: number }>(
      await org.post(`${BASE}/${w.competitionId}`, {
        name: '上传的证书',
        backgroundUri: background.uri,
        fields: [{ field: 'name', x: 0, y: 0, size: 20, color: '#000000' }],
      }),
      'template',
    );
    ok(await org.post(`${BASE}/relation/${w.questionId}`, { templateId: template.id }), 'relation');
    const current = await org.get(`${BASE}/upload/${w.questionId}`);
    expect(current.statusCode, current.body).toBe(200);
    expect(current.rawPayload.equals(PNG)).toBe(true);
    // Not to the organiser of another competition, nor to a team member or a visitor.
    expect(body(await orgB.get(`${BASE}/upload/${w.questionId}?fileUri=${encodeURIComponent(background.uri)}`)).message).toBe('赛题不存在');
    expect((await w.team.leader.get(`${BASE}/upload/${w.questionId}`)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${BASE}/upload/${w.questionId}` })).statusCode).toBe(401);
    // Only certificate uploads of the question's competition (or the caller's own): another organiser's is not served.
    const othersUpload = body(await orgB.request({ method: 'POST', url: `${BASE}/cert/imgUrl`, ...multipart('b.png', PNG) })).data as { uri: string };
    const foreign = await org.get(`${BASE}/upload/${w.questionId}?fileUri=${encodeURIComponent(othersUpload.uri)}`);
    expect(foreign.statusCode).toBe(404);
    expect(body(foreign).message).toBe('文件不存在');

    // The base alone is no `/:id`: a clear 404, not a number that is NaN.
    for (const method of ['GET', 'POST'] as const) {
      const bare = await org.request({ method, url: `${BASE}/upload` });
      expect(bare.statusCode, `${method} upload`).toBe(404);
      expect(body(bare)).toEqual({ status: 404, message: '接口不存在', data: null });
    }
  });

  it('creates a template from its query parameters with no body, and still from a JSON body', async () => {
    const { competitionId } = await question(`查询模板题${unique()}`);
    const fields = CERT_BUILTIN_FIELDS.portrait;
    const query = new URLSearchParams({ name: '查询参数模板', backgroundUri: 'builtin:portrait', fields: JSON.stringify(fields) });
    const res = await org.post(`${BASE}/${competitionId}?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).message).toBe('证书模板已创建');
    const created = body(res).data as { id: number };
    expect(body(await org.get(`${BASE}/${created.id}`)).data).toMatchObject({
      id: created.id,
      competitionId,
      name: '查询参数模板',
      backgroundUri: 'builtin:portrait',
      width: 595,
      height: 842,
      fields: fields.map((f) => expect.objectContaining(f)),
    });

    // One placement per repeated `fields` parameter.
    const repeated = new URLSearchParams({ name: '逐个字段', backgroundUri: 'builtin:landscape' });
    repeated.append('fields', JSON.stringify({ field: 'name', x: 100, y: 100, size: 30, color: '#000000' }));
    repeated.append('fields', JSON.stringify({ field: 'award', x: 100, y: 200, size: 20, color: '#333333' }));
    const two = await org.post(`${BASE}/${competitionId}?${repeated}`);
    expect(two.statusCode, two.body).toBe(200);
    expect((body(two).data as { fields: { field: string }[] }).fields.map((f) => f.field)).toEqual(['name', 'award']);

    // Checked as a body is, with the errors on the fields.
    const noName = await org.post(`${BASE}/${competitionId}?${new URLSearchParams({ backgroundUri: 'builtin:portrait', fields: JSON.stringify(fields) })}`);
    expect(noName.statusCode).toBe(400);
    expect(body(noName)).toMatchObject({ message: '请输入模板名称', data: { fields: { name: '请输入模板名称' } } });
    const badJson = await org.post(`${BASE}/${competitionId}?${new URLSearchParams({ name: '坏字段', backgroundUri: 'builtin:portrait', fields: '[{' })}`);
    expect(body(badJson)).toMatchObject({ status: 400, message: '证书字段须为JSON格式' });
    const outside = await org.post(
      `${BASE}/${competitionId}?${new URLSearchParams({ name: '越界', backgroundUri: 'builtin:portrait', fields: JSON.stringify([{ field: 'name', x: 900, y: 10, size: 20 }]) })}`,
    );
    expect(outside.statusCode).toBe(400);
    expect(body(outside).data.fields['fields.0.x']).toMatch(/超出了页面/);
    const unknown = await org.post(
      `${BASE}/${competitionId}?${new URLSearchParams({ name: '多余', backgroundUri: 'builtin:portrait', fields: JSON.stringify([{ field: 'name', x: 1, y: 1, size: 20, weight: 3 }]) })}`,
    );
    expect(body(unknown).data.fields['fields.0.weight']).toBe('不支持的字段：weight');
    // Another organisation's competition stays out of reach.
    expect((await orgB.post(`${BASE}/${competitionId}?${query}`)).statusCode).not.toBe(200);

    const json = await org.post(`${BASE}/${competitionId}`, { name: 'JSON模板', backgroundUri: 'builtin:landscape', fields: CERT_BUILTIN_FIELDS.landscape });
    expect(json.statusCode, json.body).toBe(200);
    expect(body(json).data).toMatchObject({ name: 'JSON模板', backgroundUri: 'builtin:landscape' });
  });

  it('never hands a path segment that is not a number to a /:id route', async () => {
    const paths: [string, string][] = [
      ['GET', 'abc'],
      ['PUT', 'abc'],
      ['DELETE', 'abc'],
      ['POST', 'abc'],
      ['GET', 'upload'],
      ['GET', 'page/abc'],
      ['GET', 'load/abc'],
      ['GET', 'person/abc'],
      ['GET', 'export/abc'],
      ['GET', 'cert/push/abc'],
      ['POST', 'cert/push/abc'],
      ['POST', 'relation/abc'],
      ['GET', 'cert/certificate/download/abc'],
      ['GET', 'upload/abc'],
      ['POST', 'upload/abc'],
      ['GET', '1.5'],
    ];
    for (const [method, path] of paths) {
      const res = await org.request({ method, url: `${BASE}/${path}`, ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}) });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(body(res), `${method} ${path}`).toEqual({ status: 404, message: '接口不存在', data: null });
    }
    // A number that is not a positive id is still the validation's clear 400.
    const negative = await org.get(`${BASE}/-1`);
    expect(negative.statusCode).toBe(400);
    expect(body(negative).message).toBe('编号须为正整数');
    // Still a login first: a visitor learns nothing of the path.
    expect((await t.app.inject({ method: 'GET', url: `${BASE}/abc` })).statusCode).toBe(401);
  });
});
