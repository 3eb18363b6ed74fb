import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveManifestSchema, type ArchiveManifest, CERT_BUILTIN_FIELDS, PAY_STATUS, shiftDate } from '@contest/shared';
import {
  ADMIN_PASSWORD,
  Client,
  DATABASES,
  PNG,
  REG_INFO,
  body,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  registerUser,
  submitWork,
  type TestApp,
} from './helpers.ts';
import { MAE_ANSWER, MAE_EVALUATION, expert, judgesOnQuestion, ok, reviewRule, reviewedQuestion, unique } from './factories.ts';
import { runDueJobs } from '../src/jobs/runner.ts';
import { docx } from './documents.ts';
import { releaseFile } from '../src/modules/files/index.ts';

/**
 * Issue 38 items 1, 2 and 5: 复制为新一届 copies a competition's settings (the parts ticked) as a draft linked to it, its
 * dates moved by one offset, its files shared by key, nobody and nothing of its participants copied; an archive carries
 * the same settings to another platform and back.
 */
const ALL_PARTS = ['pages', 'stages', 'presets', 'questions', 'review', 'certificates', 'fees', 'notices'];

async function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(buf, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z!))));
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, async (err, s) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        for await (const c of s!) chunks.push(c as Buffer);
        out.set(entry.fileName, Buffer.concat(chunks));
        zip.readEntry();
      }),
    );
    zip.once('end', resolve);
    zip.once('error', reject);
    zip.readEntry();
  });
  return out;
}

/** A zip of the given entries (the archive's own layout), made with archiver as the server makes it. */
async function zipOf(entries: Map<string, Buffer>): Promise<Buffer> {
  const { default: archiver } = await import('archiver');
  const zip = archiver('zip');
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => zip.on('end', resolve));
  for (const [name, data] of entries) zip.append(data, { name });
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}

describe.each(DATABASES)('editions and archives on %s', (kind) => {
  let t: TestApp;
  let other: TestApp;
  let admin: Client;
  let org: Client;
  let orgB: Client;
  const now = new Date('2026-03-20T02:00:00Z');
  const clock = { now: () => now };
  beforeAll(async () => {
    [t, other] = await Promise.all([createTestApp(kind, { clock, env: { REGISTER_MAX_PER_IP: '1000' } }), createTestApp(kind, { clock })]);
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, 'edorg', '第一学院');
    orgB = await makeOrganiser(t, admin, 'edorgb', '第二学院');
  });
  afterAll(async () => {
    await Promise.all([t.close(), other.close()]);
  });

  /** A running competition with every part set, a team with works and a paid order, and a judge. */
  async function runningCompetition() {
    const n = unique();
    const cover = ok<{ fileUri: string }>(
      await org.request({ method: 'POST', url: '/api/file/upload/image?purpose=cover', ...multipart('cover.png', PNG) }),
      'cover',
    );
    const q = await reviewedQuestion(admin, org, {
      competition: { name: `2025年第十届数据挖掘挑战赛${n}`, fee: 5000, invoiceEnable: true, cover: cover.fileUri, introduce: '<p>介绍</p>' },
      evaluation: MAE_EVALUATION,
      answer: MAE_ANSWER,
      title: '预测题',
    });
    const c = q.competitionId;
    const stage = ok<{ id: number }>(
      await org.post(`/api/competition/stages/${c}?reopen=1`, { name: '初赛', startDate: '2026-03-10T00:00:00+08:00', endDate: '2026-05-01T00:00:00+08:00' }),
      'stage',
    );
    ok(
      await org.put(`/api/competition/preset/${q.presets.SUBMIT_TEST}?reopen=1`, {
        enable: true,
        deadlineStageId: stage.id,
        enableStartTime: '2026-03-15T00:00:00+08:00',
      }),
      'deadline',
    );
    await reviewRule(org, q.questionId, {
      criteria: [{ name: '创新性', description: null, maxScore: 100 }],
      judgesPerWork: 1,
      aggregation: 'mean',
      reviewWeight: 60,
      testWeight: 40,
      blind: true,
      disputeDays: 3,
    });
    ok(
      await org.put(`/api/review/works/awards/${q.questionId}`, {
        levels: [
          { name: '一等奖', rankFrom: 1, rankTo: 1 },
          { name: '二等奖', rankFrom: 2, rankTo: 3 },
        ],
      }),
      'awards',
    );
    ok(
      await org.post(`/api/review/certificate/${c}`, { name: '获奖证书', backgroundUri: 'builtin:landscape', fields: CERT_BUILTIN_FIELDS.landscape }),
      'template',
    );
    ok(
      await org.post('/api/message/notice', { kind: 0, title: '赛前说明', content: '<p>说明</p>', target: { scope: 'competition', competitionId: c } }),
      'notice',
    );
    ok(
      await org.request({
        method: 'POST',
        url: `/api/review/similarity/exclusion/${q.questionId}`,
        ...multipart('赛题模板.docx', await docx(['赛题模板 第一章 问题重述'], '组织方', '组织方'), 'application/octet-stream'),
      }),
      'exclusion',
    );
    const judge = await expert(t, org, `edjudge${kind}${n}`, '某大学');
    await judgesOnQuestion(org, q.questionId, [judge]);
    // A team of the running edition: registered, its order paid (as the gateway's callback would mark it), its works and test in.
    const username = `edteam${kind}${n}`;
    await registerUser(t.app, username);
    const leader = await loggedIn(t.app, username);
    const r = ok<{ teamId: number; registerId: number }>(await leader.post(`/api/team/register/${c}`, { teamName: `往届队${n}`, info: REG_INFO }), 'register');
    ok(await org.post(`/api/team/register/flow/${r.registerId}`, { action: 'approve' }), 'approve');
    await t.database.db.updateTable('orders').set({ payStatus: PAY_STATUS.paid, paidAt: now.toISOString() }).where('teamId', '=', r.teamId).execute();
    ok(await leader.put(`/api/team/choiceQuestion/${r.teamId}`, { questionId: q.questionId }), 'choose');
    await submitWork(leader, q.questionId, Buffer.from('works'), '作品.zip');
    ok(
      await leader.request({ method: 'POST', url: `/api/review/test/${q.questionId}`, ...multipart('pred.csv', Buffer.from(MAE_ANSWER), 'text/csv') }),
      'test',
    );
    await runDueJobs(t.deps);
    return q;
  }

  const exportOf = async (who: Client, id: number) => {
    const res = await who.get(`/api/competition/export/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    return unzip(res.rawPayload);
  };
  const manifestOf = async (who: Client, id: number) => archiveManifestSchema.parse(JSON.parse((await exportOf(who, id)).get('manifest.json')!.toString()));
  const count = async (table: string, competitionId: number) =>
    Number(
      (
        await t.database.db
          .selectFrom(table as 'teams')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('competitionId', '=', competitionId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('copies a competition as its next edition: the settings ticked, dates a year on, files by key, none of its people, teams, orders or submissions', async () => {
    const q = await runningCompetition();
    const before = await manifestOf(org, q.competitionId);
    expect(await count('teams', q.competitionId)).toBe(1);
    expect(await count('orders', q.competitionId)).toBe(1);

    const res = await org.post(`/api/competition/clone/${q.competitionId}`, {
      name: '2026年第十一届数据挖掘挑战赛',
      shiftYears: 1,
      shiftDays: 0,
      parts: ALL_PARTS,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = body(res).data.id as number;

    // Settings equal apart from ids, the name and the dates, each a year on.
    const after = await manifestOf(org, id);
    const year = (iso: string | null) => iso && shiftDate(iso, 1, 0);
    expect(after).toEqual({
      ...before,
      competition: {
        ...before.competition,
        name: '2026年第十一届数据挖掘挑战赛',
        regStartTime: year(before.competition.regStartTime),
        regEndTime: year(before.competition.regEndTime),
        endTime: year(before.competition.endTime),
      },
      stages: before.stages.map((s) => ({ ...s, startDate: year(s.startDate), endDate: year(s.endDate) })),
      presets: before.presets.map((p) => ({ ...p, enableStartTime: year(p.enableStartTime), enableEndTime: year(p.enableEndTime) })),
      notices: before.notices.map((n) => ({ ...n, publishAt: year(n.publishAt) })),
    });
    expect(after.competition.regStartTime).toBe('2027-03-09T16:00:00.000Z');
    expect(after.stages).toHaveLength(1);
    expect(after.presets.find((p) => p.menuCode === 'SUBMIT_TEST')).toMatchObject({ deadlineStage: 0, enableStartTime: '2027-03-14T16:00:00.000Z' });
    expect(after.questions[0]).toMatchObject({
      title: '预测题',
      metric: 'mae',
      review: { blind: 1, disputeDays: 3 },
      awards: [{ name: '一等奖' }, { name: '二等奖' }],
    });
    expect(after.competition).toMatchObject({ fee: 5000, invoiceEnable: 1, introduce: '<p>介绍</p>' });
    expect(after.certificateTemplates).toEqual([expect.objectContaining({ name: '获奖证书', background: 'builtin:landscape' })]);
    expect(after.notices).toEqual([expect.objectContaining({ title: '赛前说明' })]);
    expect(after.questions[0]!.exclusions).toEqual([expect.objectContaining({ fileName: '赛题模板.docx' })]);

    // Nobody and nothing of the participants; the answer file shared by key, the draft linked to the old edition.
    for (const table of ['teams', 'orders', 'registers', 'testSubmissions', 'works', 'certificates', 'invoices']) expect(await count(table, id), table).toBe(0);
    const db = t.database.db;
    const [oldQ, newQ] = await Promise.all(
      [q.competitionId, id].map((c) =>
        db.selectFrom('questions').select(['id', 'answerKey', 'answerIndexKey', 'reviewed']).where('competitionId', '=', c).executeTakeFirstOrThrow(),
      ),
    );
    expect(newQ.answerKey).toBe(oldQ.answerKey);
    expect(newQ.answerIndexKey).toBe(oldQ.answerIndexKey);
    expect(newQ.reviewed).toBe(0);
    expect(await db.selectFrom('questionJudges').select('userId').where('questionId', '=', newQ.id).execute()).toEqual([]);
    expect(await db.selectFrom('files').select('key').where('key', '=', oldQ.answerKey!).execute()).toHaveLength(1);
    const row = await db.selectFrom('competitions').select(['auditStatus', 'previousId', 'seriesId', 'orgId']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ auditStatus: 0, previousId: q.competitionId, seriesId: q.competitionId });

    // 往届: the public sees the edition that ran; its organisers see the draft too.
    const anon = new Client(t.app);
    expect(body(await anon.get(`/api/competition/editions/public/${q.competitionId}`)).data).toEqual([
      expect.objectContaining({ id: q.competitionId, edition: 1, current: true }),
    ]);
    expect(
      body(await org.get(`/api/competition/editions/public/${q.competitionId}`)).data.map((e: { id: number; edition: number }) => [e.id, e.edition]),
    ).toEqual([
      [q.competitionId, 1],
      [id, 2],
    ]);
    expect((await anon.get(`/api/competition/editions/public/${id}`)).statusCode).toBe(404);

    // The checklist asks for the dates, the fee and the judges to be rechecked; 已复核 settles the first two.
    const items = (r: { items: { key: string; ok: boolean; detail: string }[] }) =>
      Object.fromEntries(r.items.filter((i) => i.key.startsWith('recheck:')).map((i) => [i.key, i]));
    const checklist = items(body(await org.get(`/api/competition/readiness/${id}`)).data);
    expect(checklist['recheck:dates']).toMatchObject({ ok: false });
    expect(checklist['recheck:dates']!.detail).toContain('顺延 365 天');
    expect(checklist['recheck:fee']).toMatchObject({ ok: false });
    expect(checklist['recheck:fee']!.detail).toContain('50.00 元');
    expect(checklist['recheck:judges']).toMatchObject({ ok: false, detail: expect.stringContaining('“预测题”') });
    const rechecked = await org.put(`/api/competition/recheck/${id}?key=dates`);
    expect(rechecked.statusCode, rechecked.body).toBe(200);
    expect(items(body(rechecked).data)['recheck:dates']).toMatchObject({ ok: true });
    expect((await org.put(`/api/competition/recheck/${id}?key=judges`)).statusCode).toBe(400);
    // A competition never copied has none of these items.
    expect(items(body(await org.get(`/api/competition/readiness/${q.competitionId}`)).data)).toEqual({});

    // The new edition's organiser replaces its answer file: the old edition's stays, and still scores.
    const replaced = await org.request({
      method: 'POST',
      url: `/api/competition/question/${newQ.id}/answer`,
      ...multipart('answer.csv', Buffer.from(MAE_ANSWER), 'text/csv'),
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await t.deps.storage.size(oldQ.answerKey!)).toBeGreaterThan(0);
    expect(await db.selectFrom('files').select('key').where('key', '=', oldQ.answerKey!).execute()).toHaveLength(1);
    // Deleting the new edition's question leaves the old one's files too.
    expect((await org.delete(`/api/competition/question/${newQ.id}`)).statusCode).toBe(200);
    expect(await t.deps.storage.size(oldQ.answerIndexKey!)).toBeGreaterThan(0);

    // A third edition continues the line.
    const third = body(await org.post(`/api/competition/clone/${id}`, { name: '第十二届', shiftYears: 1, shiftDays: 0, parts: [] })).data.id as number;
    expect(body(await org.get(`/api/competition/editions/public/${third}`)).data.map((e: { edition: number }) => e.edition)).toEqual([1, 2, 3]);
    // A draft another edition was copied from stays while that one does; the last one may go.
    const removed = await org.delete(`/api/competition/${id}`);
    expect([removed.statusCode, body(removed).message]).toEqual([409, '已由该竞赛复制出新一届，不能删除；请先删除新一届']);
    expect((await org.delete(`/api/competition/${third}`)).statusCode).toBe(200);
    expect((await org.delete(`/api/competition/${id}`)).statusCode).toBe(200);
  });

  // On PostgreSQL (READ COMMITTED) the copy's reads and writes run in one transaction holding the rows that name files: an
  // answer file being replaced at that instant is either copied and kept for the copy, or already the new one. On SQLite
  // a transaction holds the one connection, so nothing runs between the copy's reads and its writes.
  it.runIf(kind === 'postgres')('a copy made while the answer file is being replaced waits, then shares the new file; the old one goes', async () => {
    const q = await reviewedQuestion(admin, org, { evaluation: MAE_EVALUATION, answer: MAE_ANSWER, title: '替换中的赛题' });
    const db = t.database.db;
    const { answerKey: oldKey } = await db.selectFrom('questions').select('answerKey').where('id', '=', q.questionId).executeTakeFirstOrThrow();
    const stored = await t.deps.storage.put(Readable.from([Buffer.from(MAE_ANSWER)]), { prefix: 'answer', maxBytes: 1 << 20 });
    // The replacement's transaction, as the questions module writes it, left open until the copy is seen waiting.
    let commit!: () => void;
    const open = new Promise<void>((resolve) => (commit = resolve));
    let holder = 0;
    const replacing = db.transaction().execute(async (trx) => {
      holder = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
      await trx
        .insertInto('files')
        .values({
          key: stored.key,
          originalName: 'answer.csv',
          mime: 'text/csv',
          size: stored.size,
          sha256: stored.sha256,
          ownerId: null,
          visibility: 'private',
          purpose: 'answer',
          createdAt: now.toISOString(),
        })
        .execute();
      await trx.updateTable('questions').set({ answerKey: stored.key }).where('id', '=', q.questionId).execute();
      await open;
    });
    await expect.poll(() => holder).toBeGreaterThan(0);
    const copying = org.post(`/api/competition/clone/${q.competitionId}`, { name: '替换中的新一届', shiftYears: 1, shiftDays: 0, parts: ['questions'] });
    const blocked = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from pg_stat_activity where ${holder} = any(pg_blocking_pids(pid))`.execute(db)).rows[0]!.n);
    try {
      await expect.poll(blocked, { timeout: 20_000 }).toBeGreaterThan(0);
    } finally {
      commit();
      await replacing;
    }
    // As the questions module does after its transaction: the old file goes unless a record still holds it.
    await releaseFile(t.deps, oldKey!);
    const res = await copying;
    expect(res.statusCode, res.body).toBe(200);
    const copied = await db.selectFrom('questions').select('answerKey').where('competitionId', '=', body(res).data.id).executeTakeFirstOrThrow();
    expect(copied.answerKey).toBe(stored.key);
    expect(await db.selectFrom('files').select('key').where('key', '=', oldKey!).execute()).toEqual([]);
    expect(await db.selectFrom('files').select('key').where('key', '=', stored.key).execute()).toHaveLength(1);
  });

  it('settles both recheck items when 已复核 is pressed for the dates and the fee at once', async () => {
    const q = await reviewedQuestion(admin, org, { competition: { fee: 3000 }, title: '复核题' });
    const id = ok<{ id: number }>(
      await org.post(`/api/competition/clone/${q.competitionId}`, { name: '复核的新一届', shiftYears: 1, shiftDays: 0, parts: ['pages', 'fees'] }),
      'clone',
    ).id;
    const replies = await Promise.all(['dates', 'fee', 'dates'].map((key) => org.put(`/api/competition/recheck/${id}?key=${key}`)));
    for (const r of replies) expect(r.statusCode, r.body).toBe(200);
    const items = body(await org.get(`/api/competition/readiness/${id}`)).data.items as { key: string; ok: boolean }[];
    expect(items.filter((i) => i.key === 'recheck:dates' || i.key === 'recheck:fee')).toEqual([
      expect.objectContaining({ key: 'recheck:dates', ok: true }),
      expect.objectContaining({ key: 'recheck:fee', ok: true }),
    ]);
    const audits = await t.database.db
      .selectFrom('auditLog')
      .select('afterJson')
      .where('action', '=', 'competition.recheck')
      .where('entityId', '=', String(id))
      .execute();
    expect(audits).toHaveLength(2);
  });

  it('copies only the parts ticked, moves dates by days too, and refuses what it cannot do with the reason', async () => {
    const q = await runningCompetition();
    const res = await org.post(`/api/competition/clone/${q.competitionId}`, { name: '只复制基本信息', shiftYears: 0, shiftDays: 7, parts: ['stages'] });
    expect(res.statusCode, res.body).toBe(200);
    const m = await manifestOf(org, body(res).data.id);
    expect(m.questions).toEqual([]);
    expect(m.certificateTemplates).toEqual([]);
    expect(m.notices).toEqual([]);
    expect(m.competition).toMatchObject({ fee: 0, invoiceEnable: 0, cover: null, introduce: null });
    expect(m.stages[0]!.startDate).toBe('2026-03-16T16:00:00.000Z');
    // The default menus, as a new competition has them.
    expect(m.presets.find((p) => p.menuCode === 'REG_SET')).toMatchObject({ enable: 1 });

    const refused = async (payload: object, status: number, message: string) => {
      const before = await count('questions', 0);
      const r = await org.post(`/api/competition/clone/${q.competitionId}`, payload);
      expect(r.statusCode, r.body).toBe(status);
      expect(body(r).message).toContain(message);
      expect(await count('questions', 0)).toBe(before);
    };
    await refused({ name: 'x', shiftYears: 0, shiftDays: 0, parts: [] }, 400, '新一届的日期不能与本届相同');
    await refused({ name: 'x', shiftYears: 1, shiftDays: 0, parts: ['review'] }, 400, '须同时复制“赛题及评分设置');
    await refused({ name: '', shiftYears: 1, shiftDays: 0, parts: [] }, 400, '请输入新一届的名称');
    // Another organisation's competition is not there for it.
    const r = await orgB.post(`/api/competition/clone/${q.competitionId}`, { name: 'x', shiftYears: 1, shiftDays: 0, parts: [] });
    expect(r.statusCode).toBe(404);
    expect((await orgB.get(`/api/competition/export/${q.competitionId}`)).statusCode).toBe(404);
  });

  it('carries a competition to another platform and back: export, import as a draft with a report, export again gives the same manifest', async () => {
    const q = await runningCompetition();
    // While it runs, its organisers' archive holds no answer file nor scoring program, and says so.
    const running = await exportOf(org, q.competitionId);
    const held = JSON.parse(running.get('manifest.json')!.toString()) as ArchiveManifest;
    expect(held.questions[0]).toMatchObject({ answerFile: null, scorer: null, answerRows: null });
    expect(JSON.parse(running.get('report.json')!.toString()).notCarried.join('\n')).toContain('竞赛进行中不导出');
    // The platform's (as after the contest) holds them.
    const files = await exportOf(admin, q.competitionId);
    const manifest = JSON.parse(files.get('manifest.json')!.toString()) as ArchiveManifest;
    expect(manifest).toMatchObject({ format: 'contest-platform/competition', version: 1 });
    // Files by SHA-256, each in the zip; no person, team or order anywhere in it.
    expect(Object.keys(manifest.files).length).toBeGreaterThanOrEqual(2);
    for (const sha of Object.keys(manifest.files)) expect(files.has(`files/${sha}`)).toBe(true);
    const text = files.get('manifest.json')!.toString();
    for (const personal of ['edteam', 'edjudge', '往届队', '13800138000', 'edorg']) expect(text).not.toContain(personal);
    expect(JSON.parse(files.get('report.json')!.toString()).notCarried[0]).toContain('参赛者');

    // The other platform has no brand of that name: the importer is asked for one, and nothing is written.
    const theirAdmin = await loggedIn(other.app, 'admin', ADMIN_PASSWORD);
    const theirOrg = await makeOrganiser(other, theirAdmin, 'importer', '异地学院');
    const archive = await zipOf(files);
    const upload = (who: Client, zip: Buffer, query = '') =>
      who.request({ method: 'POST', url: `/api/competition/import${query}`, ...multipart('竞赛包.zip', zip, 'application/zip') });
    const noBrand = await upload(theirOrg, archive);
    expect(noBrand.statusCode, noBrand.body).toBe(400);
    expect(body(noBrand).message).toContain('请选择导入到哪个品牌');
    const brandId = body(await theirAdmin.post('/api/competition/brand/', { name: '异地品牌', shortName: '异地' })).data.id as number;
    const imported = await upload(theirOrg, archive, `?brandId=${brandId}`);
    expect(imported.statusCode, imported.body).toBe(200);
    const report = body(imported).data;
    expect(report).toMatchObject({ name: manifest.competition.name, files: Object.keys(manifest.files).length });
    expect(report.notCarried.join('\n')).toContain('支付商户与密钥');
    expect(report.notCarried.join('\n')).toContain('已导入到本平台的品牌“异地品牌”');
    const row = await other.database.db.selectFrom('competitions').select(['auditStatus', 'brandId']).where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ auditStatus: 0, brandId });

    // Round trip: the imported draft exports the same manifest, apart from the brand it was matched to.
    const again = await unzip((await theirAdmin.get(`/api/competition/export/${report.id}`)).rawPayload);
    const back = JSON.parse(again.get('manifest.json')!.toString()) as ArchiveManifest;
    expect({ ...back, competition: { ...back.competition, brand: manifest.competition.brand } }).toEqual(manifest);
    for (const sha of Object.keys(manifest.files)) expect(again.get(`files/${sha}`)!.equals(files.get(`files/${sha}`)!)).toBe(true);
    // And its answer file scores there: the question is as the original.
    expect(back.questions[0]).toMatchObject({ metric: 'mae', answerRows: manifest.questions[0]!.answerRows });
  });

  it('refuses a broken archive with the reason and writes nothing', async () => {
    const q = await runningCompetition();
    const files = await exportOf(admin, q.competitionId);
    const competitions = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('competitions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const storedFiles = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('files')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const refused = async (zip: Buffer, message: string) => {
      const [c, f] = [await competitions(), await storedFiles()];
      const res = await orgB.request({ method: 'POST', url: '/api/competition/import', ...multipart('竞赛包.zip', zip, 'application/zip') });
      expect(res.statusCode, res.body).toBe(400);
      expect(body(res).message).toContain(message);
      expect([await competitions(), await storedFiles()]).toEqual([c, f]);
    };
    await refused(Buffer.from('not a zip'), '不是有效的zip');
    const m = JSON.parse(files.get('manifest.json')!.toString());
    await refused(await zipOf(new Map([...files, ['manifest.json', Buffer.from(JSON.stringify({ ...m, version: 2 }))]])), '版本不受支持');
    const sha = Object.keys(m.files).find((s) => m.files[s].purpose === 'answer')!;
    await refused(await zipOf(new Map([...files, [`files/${sha}`, Buffer.from('id,y\nr0,999\n')]])), '校验值不符');
    const without = new Map(files);
    without.delete('manifest.json');
    await refused(await zipOf(without), '缺少 manifest.json');
    // A draft notice to everyone on the platform, or to named people, is not the competition's to carry.
    for (const target of [{ scope: 'all' }, { scope: 'users', usernames: ['admin'] }])
      await refused(
        await zipOf(
          new Map([...files, ['manifest.json', Buffer.from(JSON.stringify({ ...m, notices: [{ ...m.notices[0], targetJson: JSON.stringify(target) }] }))]]),
        ),
        '只能导入发给本竞赛参赛者的通知',
      );
    // Settings outside the platform's own rules (a metric it does not have, a broken eligibility rule) are refused too.
    await refused(
      await zipOf(new Map([...files, ['manifest.json', Buffer.from(JSON.stringify({ ...m, questions: [{ ...m.questions[0], metric: 'nope' }] }))]])),
      'questions.0.metric',
    );
    await refused(
      await zipOf(
        new Map([...files, ['manifest.json', Buffer.from(JSON.stringify({ ...m, competition: { ...m.competition, eligibilityJson: '{"groupMode":"x"}' } }))]]),
      ),
      '参赛资格规则有误',
    );
    // A cover must be a picture, whatever the manifest calls it.
    const page = Buffer.from('<script>alert(1)</script>');
    const pageSha = createHash('sha256').update(page).digest('hex');
    const disguised = {
      ...m,
      competition: { ...m.competition, cover: pageSha },
      files: { ...m.files, [pageSha]: { name: 'cover.png', mime: 'image/png', size: page.length, visibility: 'public', purpose: 'cover' } },
    };
    await refused(await zipOf(new Map([...files, ['manifest.json', Buffer.from(JSON.stringify(disguised))], [`files/${pageSha}`, page]])), '应为PNG或JPEG图片');

    // An answer file the manifest calls public is filed private, as every answer file is.
    const exposed = { ...m, files: { ...m.files, [sha]: { ...m.files[sha], visibility: 'public', purpose: 'questionData' } } };
    const imported = await orgB.request({
      method: 'POST',
      url: `/api/competition/import?brandId=${(await t.database.db.selectFrom('brands').select('id').executeTakeFirstOrThrow()).id}`,
      ...multipart('竞赛包.zip', await zipOf(new Map([...files, ['manifest.json', Buffer.from(JSON.stringify(exposed))]])), 'application/zip'),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const answerKey = (
      await t.database.db.selectFrom('questions').select('answerKey').where('competitionId', '=', body(imported).data.id).executeTakeFirstOrThrow()
    ).answerKey!;
    expect(await t.database.db.selectFrom('files').select(['visibility', 'purpose']).where('key', '=', answerKey).executeTakeFirstOrThrow()).toEqual({
      visibility: 'private',
      purpose: 'answer',
    });
  });
});
