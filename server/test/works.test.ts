import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBatches } from '../src/db/batches.ts';
import { UPLOAD_IDLE_EXPIRY_MS, expireUploads } from '../src/modules/works/service.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  onlineCompetition,
  registerUser,
  type Client,
  type TestApp,
  REG_INFO as info,
} from './helpers.ts';

const b64 = (v: string) => Buffer.from(v).toString('base64');
const TUS = { 'tus-resumable': '1.0.0' };

describe.each(DATABASES)('works on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let orgB: Client;
  let competitionId: number;
  let questionId: number;
  let worksPreset: number;
  let seq = 0;
  let now = new Date('2026-03-20T02:00:00Z');

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'worksOrg', '作品大学');
    orgB = await makeOrganiser(t, admin, 'worksOrgB', '别的大学');
    const bad = await org.post('/api/competition/', {
      name: '格式有误',
      brandId: 1,
      regStartTime: '2026-03-10T00:00:00+08:00',
      regEndTime: '2026-04-10T00:00:00+08:00',
      endTime: '2026-06-30T00:00:00+08:00',
      worksTypes: 'zip;exe!',
    });
    expect(body(bad).data.fields.worksTypes).toBe('作品格式须为以逗号分隔的扩展名，如 zip,pdf');
    // Written loosely, the types are kept normalised: lower case, no dots, no repeats.
    competitionId = await onlineCompetition(admin, org, { worksMaxMb: 1, worksTypes: '.ZIP, pdf，zip' });
    expect(body(await org.get(`/api/competition/public/${competitionId}`)).data).toMatchObject({ worksMaxMb: 1, worksTypes: 'zip,pdf' });
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === 'CHOICE_SET')!.id}`, { enable: true });
    worksPreset = presets.find((p) => p.menuCode === 'SUBMIT_WORKS')!.id;
    await org.put(`/api/competition/preset/${worksPreset}`, { enable: true, enableEndTime: '2026-03-20T12:00:00+08:00' });
    questionId = body(
      await org.post(`/api/competition/question/${competitionId}`, {
        title: '作品题',
        evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 3 },
      }),
    ).data.id;
    await admin.put(`/api/competition/question/review/${questionId}`, { reviewed: true });
  });
  afterAll(() => t.close());

  async function team(name = `作品队${++seq}`) {
    const username = `wk${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: name, info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId });
    return { leader, teamId: r.teamId as number, name };
  }

  const create = (who: Client, size: number, meta: Record<string, string>) =>
    who.request({
      method: 'POST',
      url: '/api/review/works/upload',
      headers: {
        ...TUS,
        'upload-length': String(size),
        'upload-metadata': Object.entries(meta)
          .map(([k, v]) => `${k} ${b64(v)}`)
          .join(','),
      },
    });
  const patch = (who: Client, location: string, offset: number, chunk: Buffer) =>
    who.request({
      method: 'PATCH',
      url: location,
      headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      payload: chunk,
    });
  const head = (who: Client, location: string) => who.request({ method: 'HEAD', url: location, headers: TUS });

  /** Uploads `content` in two requests, as a resumed upload would. */
  async function upload(who: Client, content: Buffer, name = 'works.zip', sha256 = createHash('sha256').update(content).digest('hex')) {
    const res = await create(who, content.length, { questionId: String(questionId), filename: name, sha256 });
    expect(res.statusCode, res.body).toBe(201);
    const location = res.headers.location as string;
    const half = Math.floor(content.length / 2);
    expect((await patch(who, location, 0, content.subarray(0, half))).statusCode).toBe(204);
    return { location, finish: () => patch(who, location, half, content.subarray(half)) };
  }

  it('takes an upload interrupted and resumed, and keeps each completed upload as a version', async () => {
    const { leader } = await team();
    const first = Buffer.alloc(200_000, 1);
    const u = await upload(leader, first);
    // The connection dropped: the client asks how far the server got, then sends the rest.
    const h = await head(leader, u.location);
    expect(h.headers['upload-offset']).toBe(String(first.length / 2));
    expect((await u.finish()).statusCode).toBe(204);
    const second = Buffer.from('second version');
    expect((await (await upload(leader, second, '终稿.pdf')).finish()).statusCode).toBe(204);

    const versions = body(await leader.get(`/api/review/works/${questionId}`)).data;
    expect(versions.map((v: { version: number; fileName: string; counts: boolean; size: number }) => [v.version, v.fileName, v.counts, v.size])).toEqual([
      [2, '终稿.pdf', true, second.length],
      [1, 'works.zip', false, first.length],
    ]);
    expect(versions[0].sha256).toBe(createHash('sha256').update(second).digest('hex'));
    expect(versions[0].completedAt).toBe(now.toISOString());
    const download = await leader.get(`/api/file/common/download?fileUri=${encodeURIComponent(versions[1].fileUri)}`);
    expect([download.statusCode, download.rawPayload.equals(first)]).toEqual([200, true]);
  });

  it('refuses what the competition does not allow before storing anything', async () => {
    const { leader } = await team();
    expect(body(await create(leader, 10, { questionId: String(questionId), filename: 'evil.exe' })).message).toBe('只能提交以下格式的作品：zip、pdf');
    const big = await create(leader, 2 * 1024 * 1024, { questionId: String(questionId), filename: 'big.zip' });
    expect([big.statusCode, body(big).message]).toEqual([413, '作品不能超过1MB']);
    const lone = await loggedIn(t.app, (await registerUser(t.app, `wl${++seq}x`)).username);
    expect(body(await create(lone, 10, { questionId: String(questionId), filename: 'a.zip' })).message).toBe('您的队伍尚未选择该赛题');
    expect((await t.app.inject({ method: 'POST', url: '/api/review/works/upload', headers: TUS })).statusCode).toBe(401);
    expect(await t.database.db.selectFrom('workUploads').select('uploadId').execute()).toHaveLength(0);
  });

  it('lets only the uploading team resume an upload', async () => {
    const a = await team();
    const b = await team();
    const u = await upload(a.leader, Buffer.alloc(1000, 7));
    expect((await head(b.leader, u.location)).statusCode).toBe(404);
    expect((await patch(b.leader, u.location, 500, Buffer.alloc(500))).statusCode).toBe(404);
    expect((await u.finish()).statusCode).toBe(204);
    const v = body(await a.leader.get(`/api/review/works/${questionId}`)).data[0];
    expect((await b.leader.get(`/api/file/common/download?fileUri=${encodeURIComponent(v.fileUri)}`)).statusCode).toBe(404);
    expect((await b.leader.get(`/api/review/works/${questionId}?teamId=${a.teamId}`)).statusCode).toBe(404);
  });

  it('refuses an upload that finishes after the deadline, and loses nothing earlier', async () => {
    const { leader } = await team();
    expect((await (await upload(leader, Buffer.from('in time'))).finish()).statusCode).toBe(204);
    // The deadline is 12:00 Beijing time: an upload finishing at that second counts, one second later does not.
    const atDeadline = await upload(leader, Buffer.from('just in time'));
    const late = await upload(leader, Buffer.from('too late, sadly'));
    now = new Date('2026-03-20T04:00:00Z');
    expect((await atDeadline.finish()).statusCode).toBe(204);
    now = new Date('2026-03-20T04:00:01Z');
    try {
      const res = await late.finish();
      expect([res.statusCode, res.body]).toEqual([409, '提交作品已于 2026-03-20 12:00 截止，本次上传未被接收；此前提交的版本不受影响']);
      expect(body(await create(leader, 5, { questionId: String(questionId), filename: 'x.zip' })).message).toBe('提交作品已于 2026-03-20 12:00 截止');
    } finally {
      now = new Date('2026-03-20T02:00:00Z');
    }
    const versions = body(await leader.get(`/api/review/works/${questionId}`)).data;
    expect(versions.map((v: { version: number; counts: boolean }) => [v.version, v.counts])).toEqual([
      [2, true],
      [1, false],
    ]);
  });

  it('refuses a file whose checksum does not match what the client declared', async () => {
    const { leader } = await team();
    const res = await (await upload(leader, Buffer.from('content'), 'a.zip', '0'.repeat(64))).finish();
    expect([res.statusCode, res.body]).toEqual([400, '文件校验失败，上传的内容与原文件不一致，请重新上传']);
    expect(body(await leader.get(`/api/review/works/${questionId}`)).data).toEqual([]);
  });

  it('gives organisers the list, its xlsx and a zip of the counted versions, folders by team', async () => {
    const a = await team('导出甲队');
    await (await upload(a.leader, Buffer.from('old'), 'old.zip')).finish();
    await (await upload(a.leader, Buffer.from('new content'), 'new.zip')).finish();
    const list = body(await org.get(`/api/review/works/page/${questionId}?keyword=导出甲队`)).data;
    expect(list.list.map((w: { fileName: string; counts: boolean }) => [w.fileName, w.counts])).toEqual([
      ['new.zip', true],
      ['old.zip', false],
    ]);
    // Only each team's counting version, on the page and in its export (issue 33).
    const counting = body(await org.get(`/api/review/works/page/${questionId}?keyword=导出甲队&counting=1`)).data;
    expect([counting.total, counting.list.map((w: { fileName: string }) => w.fileName)]).toEqual([1, ['new.zip']]);
    expect(body(await org.get(`/api/review/works/page/${questionId}?counting=1`)).data.list.every((w: { counts: boolean }) => w.counts)).toBe(true);
    expect((await org.get(`/api/review/works/page/${questionId}?counting=yes`)).statusCode).toBe(400);
    expect((await orgB.get(`/api/review/works/page/${questionId}`)).statusCode).toBe(404);
    expect((await a.leader.get(`/api/review/works/page/${questionId}`)).statusCode).toBe(403);
    expect(body(await org.get(`/api/review/works/${questionId}?teamId=${a.teamId}`)).data).toHaveLength(2);
    const xlsx = await org.get(`/api/review/works/page/${questionId}?export=xlsx`);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const zip = await org.get(`/api/review/works/export/${questionId}`);
    expect(zip.headers['content-type']).toBe('application/zip');
    const bytes = zip.rawPayload;
    expect(bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    const teamNo = (await t.database.db.selectFrom('teams').select('teamNo').where('id', '=', a.teamId).executeTakeFirstOrThrow()).teamNo;
    expect(bytes.includes(Buffer.from(`${teamNo}-导出甲队/new.zip`))).toBe(true);
    expect(bytes.includes(Buffer.from('导出甲队/old.zip'))).toBe(false);
    expect(bytes.includes(Buffer.from('new content'))).toBe(true);
  });

  it('zips the counted version of every team, however many batches they are read in', async () => {
    const teams = [await team('批量甲队'), await team('批量乙队'), await team('批量丙队')];
    for (const [i, tm] of teams.entries()) {
      await (await upload(tm.leader, Buffer.from(`draft ${i}`), `draft${i}.zip`)).finish();
      await (await upload(tm.leader, Buffer.from(`final ${i}`), `final${i}.zip`)).finish();
    }
    // One version read at a time: the zip still holds every team's counted version, and no earlier one.
    const size = exportBatches.size;
    exportBatches.size = 1;
    let bytes: Buffer;
    try {
      const zip = await org.get(`/api/review/works/export/${questionId}`);
      expect(zip.statusCode).toBe(200);
      bytes = zip.rawPayload;
    } finally {
      exportBatches.size = size;
    }
    for (const [i, tm] of teams.entries()) {
      const teamNo = (await t.database.db.selectFrom('teams').select('teamNo').where('id', '=', tm.teamId).executeTakeFirstOrThrow()).teamNo;
      expect(bytes.includes(Buffer.from(`${teamNo}-批量${'甲乙丙'[i]}队/final${i}.zip`))).toBe(true);
      expect(bytes.includes(Buffer.from(`final ${i}`))).toBe(true);
      expect(bytes.includes(Buffer.from(`draft${i}.zip`))).toBe(false);
    }
  });

  it('exports and zips only the selected versions, an earlier version named by its number, and nothing of another organisation', async () => {
    const a = await team('选择甲队');
    const b = await team('选择乙队');
    await (await upload(a.leader, Buffer.from('first draft'), 'report.zip')).finish();
    await (await upload(a.leader, Buffer.from('final report'), 'report.zip')).finish();
    await (await upload(b.leader, Buffer.from('team b work'), 'b.zip')).finish();
    const versions = (keyword: string) =>
      org
        .get(`/api/review/works/page/${questionId}?keyword=${encodeURIComponent(keyword)}`)
        .then((r) => body(r).data.list as { id: number; version: number; counts: boolean }[]);
    const [aNew, aOld] = await versions('选择甲队');
    const [bOnly] = await versions('选择乙队');
    expect([aNew!.counts, aOld!.counts, aOld!.version]).toEqual([true, false, 1]);

    // The list and its xlsx hold the selection only.
    const ids = `${aOld!.id},${bOnly!.id}`;
    expect(
      body(await org.get(`/api/review/works/page/${questionId}?ids=${ids}`))
        .data.list.map((w: { id: number }) => w.id)
        .sort(),
    ).toEqual([aOld!.id, bOnly!.id].sort());
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await org.get(`/api/review/works/page/${questionId}?ids=${ids}&export=xlsx`)).rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.rowCount).toBe(3);

    // The zip of the selection: the earlier version keeps its number beside the team's name.
    const zip = await org.get(`/api/review/works/export/${questionId}?ids=${ids}`);
    expect([zip.statusCode, zip.headers['content-type']]).toEqual([200, 'application/zip']);
    expect(decodeURIComponent(String(zip.headers['content-disposition']))).toContain(`赛题${questionId}所选作品.zip`);
    const bytes = zip.rawPayload;
    expect(bytes.includes(Buffer.from('选择甲队/report(V1).zip'))).toBe(true);
    expect(bytes.includes(Buffer.from('first draft'))).toBe(true);
    expect(bytes.includes(Buffer.from('final report'))).toBe(false);
    expect(bytes.includes(Buffer.from('选择乙队/b.zip'))).toBe(true);

    // Ids of another question are not part of this one: nothing to zip is said plainly; bad ids are refused.
    const otherQuestion = body(await org.post(`/api/competition/question/${competitionId}`, { title: '另一题' })).data.id;
    const none = await org.get(`/api/review/works/export/${otherQuestion}?ids=${ids}`);
    expect([none.statusCode, body(none).message]).toEqual([404, '所选作品不存在']);
    const bad = await org.get(`/api/review/works/export/${questionId}?ids=1;2`);
    expect([bad.statusCode, body(bad).data.fields.ids]).toEqual([400, '作品编号格式不正确']);
    expect((await orgB.get(`/api/review/works/export/${questionId}?ids=${ids}`)).statusCode).toBe(404);
    expect((await a.leader.get(`/api/review/works/export/${questionId}?ids=${ids}`)).statusCode).toBe(403);
  });

  it('drops uploads left idle for a week, with what they had received, and keeps one still being written to', async () => {
    const a = await team();
    const b = await team();
    const idle = await upload(a.leader, Buffer.alloc(2000, 3));
    const content = Buffer.alloc(2000, 4);
    const active = await upload(b.leader, content);
    const file = (location: string) => path.join(t.config.uploadsDir, location.split('/').pop()!);
    const started = now;
    try {
      now = new Date(started.getTime() + UPLOAD_IDLE_EXPIRY_MS + 3600_000);
      // The idle one received its last byte when it started; the other was resumed an hour ago.
      fs.utimesSync(file(idle.location), started, started);
      fs.utimesSync(file(active.location), new Date(now.getTime() - 3600_000), new Date(now.getTime() - 3600_000));
      expect(await expireUploads(t.deps)).toBe(1);
      expect(await expireUploads(t.deps)).toBe(0);
    } finally {
      now = started;
    }
    expect(fs.existsSync(file(idle.location))).toBe(false);
    expect(fs.existsSync(`${file(idle.location)}.json`)).toBe(false);
    const gone = await head(a.leader, idle.location);
    expect([gone.statusCode, gone.body]).toEqual([404, '']);
    const resumed = await patch(a.leader, idle.location, 1000, Buffer.alloc(1000, 3));
    expect([resumed.statusCode, body(resumed).message]).toEqual([404, '上传不存在或已过期']);
    expect(body(await a.leader.get(`/api/review/works/${questionId}`)).data).toEqual([]);
    // The one still being written to finishes as usual.
    expect((await head(b.leader, active.location)).headers['upload-offset']).toBe('1000');
    expect((await active.finish()).statusCode).toBe(204);
    expect(body(await b.leader.get(`/api/review/works/${questionId}`)).data.map((v: { size: number }) => v.size)).toEqual([content.length]);
  });

  it('takes a question’s public data files from its organisers, resumably, for visitors to download', async () => {
    const data = Buffer.alloc(300_000, 3);
    const meta = { kind: 'data', questionId: String(questionId), filename: '训练集.csv' };
    expect((await create(orgB, data.length, meta)).statusCode).toBe(404);
    const { leader } = await team();
    expect((await create(leader, data.length, meta)).statusCode).toBe(404);
    const res = await create(org, data.length, meta);
    expect(res.statusCode, res.body).toBe(201);
    const location = res.headers.location as string;
    expect((await patch(org, location, 0, data.subarray(0, 100_000))).statusCode).toBe(204);
    expect((await head(leader, location)).statusCode).toBe(404);
    expect((await head(org, location)).headers['upload-offset']).toBe('100000');
    expect((await patch(org, location, 100_000, data.subarray(100_000))).statusCode).toBe(204);

    const files = body(await org.get(`/api/competition/question/check/${questionId}`)).data.files;
    expect(files).toEqual([{ fileUri: expect.any(String), name: '训练集.csv', size: data.length }]);
    const listed = body(await t.app.inject({ method: 'GET', url: `/api/competition/question/public/${questionId}` })).data.files;
    expect(listed.map((f: { name: string }) => f.name)).toEqual(['训练集.csv']);
    const download = await t.app.inject({ method: 'GET', url: `/api/file/common/download?fileUri=${encodeURIComponent(files[0].fileUri)}` });
    expect([download.statusCode, download.rawPayload.equals(data)]).toEqual([200, true]);

    expect((await orgB.delete(`/api/competition/question/${questionId}/file?fileUri=${encodeURIComponent(files[0].fileUri)}`)).statusCode).toBe(404);
    expect((await org.delete(`/api/competition/question/${questionId}/file?fileUri=${encodeURIComponent(files[0].fileUri)}`)).statusCode).toBe(200);
    expect(body(await org.get(`/api/competition/question/check/${questionId}`)).data.files).toEqual([]);
  });
});
