import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillDeadlines } from '../src/db/migrations/0025_explicit_deadlines.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
  REG_INFO as info,
} from './helpers.ts';

const b64 = (v: string) => Buffer.from(v).toString('base64');
const TUS = { 'tus-resumable': '1.0.0' };

/** Issue 16 item 1: one lifecycle. Submission deadlines follow the stage chosen as deadline (issue 33) or the competition's end, narrowed by presets. */
describe.each(DATABASES)('competition lifecycle on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let seq = 0;
  let now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'lifeOrg', '周期大学');
  });
  afterAll(() => t.close());

  /** An online competition ending 2026-03-31 12:00 Beijing time, works and tests on with no window, a team on its question. */
  async function setup(presetEnd: string | null = null) {
    now = new Date('2026-03-20T02:00:00Z');
    const competitionId = await onlineCompetition(admin, org, { regEndTime: '2026-03-15T00:00:00+08:00', endTime: '2026-03-31T12:00:00+08:00' });
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    const id = (code: string) => presets.find((p) => p.menuCode === code)!.id;
    await org.put(`/api/competition/preset/${id('CHOICE_SET')}`, { enable: true });
    for (const code of ['SUBMIT_WORKS', 'SUBMIT_TEST']) await org.put(`/api/competition/preset/${id(code)}`, { enable: true, enableEndTime: presetEnd });
    const questionId = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '周期题',
        evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
      }),
    ).data.id as number;
    await org.request({
      method: 'POST',
      url: `/api/competition/question/${questionId}/answer`,
      ...multipart('answer.csv', Buffer.from('id,y\na,1\nb,2\n'), 'text/csv'),
    });
    await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true });
    now = new Date('2026-03-10T02:00:00Z');
    const username = `life${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `周期队${seq}`, info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    return { competitionId, questionId, leader };
  }

  const createUpload = (who: Client, questionId: number, content: string) =>
    who.request({
      method: 'POST',
      url: '/api/review/works/upload',
      headers: { ...TUS, 'upload-length': String(content.length), 'upload-metadata': `questionId ${b64(String(questionId))},filename ${b64('w.zip')}` },
    });
  const submitTest = (who: Client, questionId: number) =>
    who.request({ method: 'POST', url: `/api/review/test/${questionId}`, ...multipart('p.csv', Buffer.from('id,y\na,1\nb,2\n'), 'text/csv') });

  it('closes works and tests at the competition end when no preset end is set, naming it', async () => {
    const { questionId, leader } = await setup();
    now = new Date('2026-03-31T04:00:00Z');
    const started = await createUpload(leader, questionId, 'works');
    expect(started.statusCode).toBe(201);
    expect((await submitTest(leader, questionId)).statusCode).toBe(200);
    expect(body(await leader.get(`/api/review/works/rules/${questionId}`)).data).toMatchObject({
      open: true,
      refusal: null,
      deadline: '2026-03-31T04:00:00.000Z',
    });
    now = new Date('2026-03-31T04:00:01Z');
    // The works tab says the same as the refusal.
    expect(body(await leader.get(`/api/review/works/rules/${questionId}`)).data).toMatchObject({ open: false, refusal: '提交作品已于 2026-03-31 12:00 截止' });
    expect(body(await createUpload(leader, questionId, 'works')).message).toBe('提交作品已于 2026-03-31 12:00 截止');
    expect(body(await submitTest(leader, questionId)).message).toBe('提交测试已于 2026-03-31 12:00 截止');
    // The upload started in time but finishing late is refused with the same deadline (the last byte's time counts).
    const late = await leader.request({
      method: 'PATCH',
      url: started.headers.location as string,
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.from('works'),
    });
    expect([late.statusCode, late.body]).toEqual([409, '提交作品已于 2026-03-31 12:00 截止，本次上传未被接收；此前提交的版本不受影响']);
  });

  it('names the earlier preset end when one is set', async () => {
    const { questionId, leader } = await setup('2026-03-20T18:00:00+08:00');
    now = new Date('2026-03-20T10:00:01Z');
    expect(body(await createUpload(leader, questionId, 'works')).message).toBe('提交作品已于 2026-03-20 18:00 截止');
    expect(body(await submitTest(leader, questionId)).message).toBe('提交测试已于 2026-03-20 18:00 截止');
  });

  it('uses the end of the stage chosen as the deadline, whatever it is called, and only that', async () => {
    const { competitionId, questionId, leader } = await setup();
    // A stage called 作品提交 closes nothing by its name.
    const stage = body(
      await org.post(`/api/competition/stages/${competitionId}`, {
        name: '作品提交',
        startDate: '2026-03-16T00:00:00+08:00',
        endDate: '2026-03-25T20:00:00+08:00',
        sort: 1,
      }),
    ).data.id as number;
    now = new Date('2026-03-25T12:00:01Z');
    expect((await createUpload(leader, questionId, 'works')).statusCode).toBe(201);
    // Chosen as the works' deadline (renamed 初赛 first), it closes works and says so; tests keep the competition's end.
    now = new Date('2026-03-20T02:00:00Z');
    expect(
      (
        await org.put(`/api/competition/stages/${stage}`, {
          name: '初赛',
          startDate: '2026-03-16T00:00:00+08:00',
          endDate: '2026-03-25T20:00:00+08:00',
          sort: 1,
        })
      ).statusCode,
    ).toBe(200);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    const works = presets.find((p) => p.menuCode === 'SUBMIT_WORKS')!.id;
    expect((await org.put(`/api/competition/preset/${works}`, { enable: true, deadlineStageId: stage })).statusCode).toBe(200);
    now = new Date('2026-03-25T12:00:01Z');
    expect(body(await createUpload(leader, questionId, 'works')).message).toBe('提交作品已于 2026-03-25 20:00 截止');
    expect((await submitTest(leader, questionId)).statusCode).toBe(200);
    expect(body(await leader.get(`/api/review/works/rules/${questionId}`)).data).toMatchObject({ open: false, deadline: '2026-03-25T12:00:00.000Z' });
    // Readiness names the stage as the deadline's source.
    const deadlines = body(await org.get(`/api/competition/readiness/${competitionId}`)).data.items.find((i: { key: string }) => i.key === 'deadlines');
    expect(deadlines.detail).toContain('提交作品截止于 2026-03-25 20:00（阶段「初赛」结束）');
    // A stage that is a deadline cannot go, nor lose its end, while a menu takes it; a stage of another competition, or without an end, cannot be chosen.
    const gone = await org.delete(`/api/competition/stages/${stage}`);
    expect([gone.statusCode, body(gone).message]).toEqual([409, '阶段「初赛」是「提交作品」的截止时间，不能删除；请先在「菜单设置」中为其改选截止时间']);
    const open = await org.put(`/api/competition/stages/${stage}`, { name: '初赛', startDate: '2026-03-16T00:00:00+08:00', endDate: null, sort: 1 });
    expect([open.statusCode, body(open).message]).toEqual([
      409,
      '阶段「初赛」是「提交作品」的截止时间，不能去掉结束时间；请先在「菜单设置」中为其改选截止时间',
    ]);
    const endless = body(await org.post(`/api/competition/stages/${competitionId}`, { name: '颁奖', startDate: '2026-03-30T00:00:00+08:00', sort: 2 })).data
      .id as number;
    const noEnd = await org.put(`/api/competition/preset/${works}`, { enable: true, deadlineStageId: endless });
    expect([noEnd.statusCode, body(noEnd).data.fields.deadlineStageId]).toEqual([400, '阶段「颁奖」没有结束时间，不能作为截止时间']);
    const other = await onlineCompetition(admin, org);
    const foreign = body(
      await org.post(`/api/competition/stages/${other}`, {
        name: '别的',
        startDate: '2026-03-16T00:00:00+08:00',
        endDate: '2026-03-26T20:00:00+08:00',
        sort: 1,
      }),
    ).data.id as number;
    expect(body(await org.put(`/api/competition/preset/${works}`, { enable: true, deadlineStageId: foreign })).data.fields.deadlineStageId).toBe(
      '所选截止阶段不存在',
    );
    const regSet = presets.find((p) => p.menuCode === 'REG_SET')!.id;
    expect(body(await org.put(`/api/competition/preset/${regSet}`, { enable: true, deadlineStageId: stage })).data.fields.deadlineStageId).toBe(
      '只有选择赛题、提交作品和提交测试可以设置截止阶段',
    );
    // Back to the competition's end: the stage may go.
    now = new Date('2026-03-20T02:00:00Z');
    expect((await org.put(`/api/competition/preset/${works}`, { enable: true, deadlineStageId: null })).statusCode).toBe(200);
    expect((await org.delete(`/api/competition/stages/${stage}`)).statusCode).toBe(200);
  });

  it('keeps an upgraded competition’s deadlines: migration 0025 gives each menu the stage its name used to choose', async () => {
    const { competitionId } = await setup();
    const add = async (name: string, endDate: string | null, startDate = '2026-03-12T00:00:00+08:00') =>
      body(await org.post(`/api/competition/stages/${competitionId}`, { name, startDate, endDate, sort: 1 })).data.id as number;
    const early = await add('作品提交', '2026-03-18T00:00:00+08:00');
    const works = await add('作品终稿', '2026-03-25T00:00:00+08:00', '2026-03-13T00:00:00+08:00');
    await add('颁奖', null, '2026-03-28T00:00:00+08:00');
    const tests = await add('测试阶段', '2026-03-22T00:00:00+08:00', '2026-03-14T00:00:00+08:00');
    expect(early).toBeGreaterThan(0);
    const db = t.database.db;
    await db.updateTable('competitionPresets').set({ deadlineStageId: null }).where('competitionId', '=', competitionId).execute();
    await backfillDeadlines(db as unknown as Kysely<unknown>);
    const rows = await db
      .selectFrom('competitionPresets')
      .select(['menuCode', 'deadlineStageId'])
      .where('competitionId', '=', competitionId)
      .where('deadlineStageId', 'is not', null)
      .orderBy('menuCode')
      .execute();
    // The latest-starting stage with an end naming each (works: 提交 or 作品; tests: 提交 or 测试); the choice followed works.
    expect(rows).toEqual([
      { menuCode: 'CHOICE_SET', deadlineStageId: works },
      { menuCode: 'SUBMIT_TEST', deadlineStageId: tests },
      { menuCode: 'SUBMIT_WORKS', deadlineStageId: works },
    ]);
  });

  it('tells the grade pages which submission is still open, until it closes', async () => {
    const { questionId } = await setup('2026-03-20T18:00:00+08:00');
    now = new Date('2026-03-20T10:00:00Z');
    expect(body(await org.get(`/api/review/works/grade/summary/${questionId}`)).data).toMatchObject({
      gradeState: 0,
      submissionOpen: { kind: 'SUBMIT_WORKS', name: '提交作品', end: '2026-03-20T10:00:00.000Z' },
    });
    now = new Date('2026-03-20T10:00:01Z');
    expect(body(await org.get(`/api/review/works/grade/summary/${questionId}`)).data.submissionOpen).toBeNull();
  });

  it('shows the phase in list and detail replies', async () => {
    const { competitionId } = await setup('2026-03-20T18:00:00+08:00');
    now = new Date('2026-03-12T00:00:00Z');
    const detail = body(await org.get(`/api/competition/public/${competitionId}`)).data;
    expect(detail.phase).toMatchObject({ code: 'registration', name: '报名中', registrationEnd: '2026-03-14T16:00:00.000Z', next: { label: '报名截止' } });
    now = new Date('2026-03-18T00:00:00Z');
    const listed = (
      body(await org.get('/api/competition/listAuth?page=1&limit=50')).data.list as { id: number; phase: { code: string; next: unknown } }[]
    ).find((c) => c.id === competitionId)!;
    expect(listed.phase).toMatchObject({ code: 'inProgress', next: { label: '提交截止', at: '2026-03-20T10:00:00.000Z' } });
    now = new Date('2026-03-21T00:00:00Z');
    const late = body(await org.get(`/api/competition/public/${competitionId}`)).data;
    expect(late.phase).toMatchObject({ code: 'submissionClosed', name: '提交已截止' });
    expect(late.status).toBe(3);
  });
});
