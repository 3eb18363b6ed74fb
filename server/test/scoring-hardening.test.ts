import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FIELD_CHARS } from '../src/scoring/csv.ts';
import { ADMIN_PASSWORD, DATABASES, body, createTestApp, loggedIn, makeOrganiser, multipart, onlineCompetition, registerUser, type Client, type TestApp, REG_INFO as info } from './helpers.ts';

/**
 * Issue 32: what an outside test of the test-submission path found, closed. A file of one endless line sent through
 * gzip, a body that trickles in past the deadline.
 */

const IDS = Array.from({ length: 20 }, (_, i) => `u${i}`);
const ANSWER = ['id,label', ...IDS.map((id, i) => `${id},${i % 2}`)].join('\n') + '\n';
const PREDICTION = ANSWER;
/** Mean absolute error with the standard library. */
const MAE = `import csv, json, sys
a = {r["id"]: float(r["label"]) for r in csv.DictReader(open(sys.argv[1]))}
p = {r["id"]: float(r["label"]) for r in csv.DictReader(open(sys.argv[2]))}
print(json.dumps({"score": sum(abs(a[k] - p[k]) for k in a) / len(a)}))
`;
/** The competition's end (onlineCompetition), which closes test submission. */
const DEADLINE = new Date('2026-06-30T00:00:00+08:00');

describe.each(DATABASES)('the test-submission path under attack on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let competitionId: number;
  let builtIn: number;
  let custom: number;
  let now = new Date('2026-03-20T02:00:00Z');
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365) } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'hardOrg', '加固大学');
    competitionId = await onlineCompetition(admin, org);
    const presets = body(await org.get(`/api/competition/preset/public/list/${competitionId}`)).data as { id: number; menuCode: string }[];
    for (const code of ['CHOICE_SET', 'SUBMIT_TEST']) await org.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
    builtIn = await question('内置指标', { metric: 'mae', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 5 });
    custom = await question('自定义程序', { metric: 'custom', idColumn: 'id', publicPercent: 50, dailyLimit: 5, higherIsBetter: false, timeLimitSec: 10 }, MAE);
  });
  afterAll(() => t.close());

  const send = (who: Client, url: string, name: string, content: string | Buffer, type = 'text/csv') => who.request({ method: 'POST', url, ...multipart(name, Buffer.from(content), type) });
  async function question(title: string, evaluation: object, program?: string) {
    const res = await org.post(`/api/competition/question/${competitionId}`, { title, evaluation });
    expect(res.statusCode).toBe(200);
    const id = body(res).data.id as number;
    expect((await send(org, `/api/competition/question/${id}/answer`, 'answer.csv', ANSWER)).statusCode).toBe(200);
    if (program) expect((await send(org, `/api/question/scorer/${id}`, 'score.py', program, 'text/plain')).statusCode).toBe(200);
    await admin.put(`/api/competition/question/review/${id}`, { reviewed: true });
    return id;
  }
  async function team(questionId: number) {
    const username = `hd${++seq}x`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = body(await leader.post(`/api/team/register/${competitionId}`, { teamName: `加固队${seq}`, info })).data;
    await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' });
    expect((await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId })).statusCode).toBe(200);
    return leader;
  }
  const mine = async (who: Client, questionId: number) => body(await who.get(`/api/review/test/list/${questionId}`)).data;

  it('refuses a .csv.gz of one endless line naming the line, at upload, at a try and as answers, and memory stays flat', async () => {
    // 64 million characters on the second line, 62 kB compressed: the reader used to grow by tens of bytes a character.
    const bomb = gzipSync(Buffer.concat([Buffer.from('id,label\nu0,'), Buffer.alloc(64 << 20, 0x37)]), { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    const leader = await team(builtIn);
    const message = `第2行：有一个字段超过${MAX_FIELD_CHARS}个字符，请检查是否有引号没有闭合或缺少换行`;
    const base = process.memoryUsage().heapUsed;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
    try {
      const submitted = await send(leader, `/api/review/test/${builtIn}`, 'pred.csv.gz', bomb, 'application/gzip');
      expect([submitted.statusCode, body(submitted).message]).toEqual([400, message]);
      const tried = await send(org, `/api/question/scorer/try/${custom}`, 'pred.csv.gz', bomb, 'application/gzip');
      expect([tried.statusCode, body(tried).message]).toEqual([400, `预测文件有误：${message}`]);
      for (const q of [builtIn, custom]) {
        const answer = await send(org, `/api/competition/question/${q}/answer`, 'answer.csv.gz', bomb, 'application/gzip');
        expect([answer.statusCode, body(answer).message]).toEqual([400, `答案文件有误：${message}`]);
      }
    } finally {
      clearInterval(sampler);
    }
    // Four readings of 64 MB each: none held more than a few chunks of it.
    expect(peak - base).toBeLessThan(64 * 1024 ** 2);
    expect(await mine(leader, builtIn)).toMatchObject({ list: [], usedToday: 0 });
  });

  it('refuses a file whose last byte arrives after the deadline, and dates an accepted one when it arrived whole', async () => {
    const leader = await team(builtIn);
    const tmp = path.join(t.config.dataDir, 'files', '.tmp');
    /** Sends the prediction in two parts; between them (once the server is storing the file) the clock moves to `then`. */
    async function trickle(start: Date, then: Date) {
      now = start;
      const { payload, headers } = multipart('pred.csv', Buffer.from(PREDICTION), 'text/csv');
      const cut = payload.length - 40;
      const stream = new Readable({ read() {} });
      stream.push(payload.subarray(0, cut));
      const temps = fs.existsSync(tmp) ? fs.readdirSync(tmp).length : 0;
      const response = leader.request({ method: 'POST', url: `/api/review/test/${builtIn}`, payload: stream, headers });
      // The window was asked when the request began: the server is now writing the file.
      await expect.poll(() => (fs.existsSync(tmp) ? fs.readdirSync(tmp).length : 0)).toBeGreaterThan(temps);
      now = then;
      stream.push(payload.subarray(cut));
      stream.push(null);
      return response;
    }
    const late = await trickle(new Date(DEADLINE.getTime() - 1000), new Date(DEADLINE.getTime() + 60_000));
    expect([late.statusCode, body(late).message]).toEqual([409, '提交测试已于 2026-06-30 00:00 截止（文件传完时已过截止时间），本次提交未被接收']);
    expect(await mine(leader, builtIn)).toMatchObject({ list: [], usedToday: 0 });
    expect(fs.readdirSync(tmp)).toEqual([]);

    const arrived = new Date(DEADLINE.getTime() - 30_000);
    const onTime = await trickle(new Date(DEADLINE.getTime() - 90_000), arrived);
    expect(onTime.statusCode).toBe(200);
    const [s] = (await mine(leader, builtIn)).list;
    expect(new Date(s.createdAt).getTime()).toBe(arrived.getTime());
    now = new Date('2026-03-20T02:00:00Z');
  });
});
