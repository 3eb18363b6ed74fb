import { isHeld } from '@contest/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../src/jobs/runner.ts';
import { sweep } from '../src/modules/similarity/index.ts';
import { Extractor, FAILED_READING } from '../src/similarity/extractor.ts';
import { scanIdentity } from '../src/similarity/identity.ts';
import { REASONS } from '../src/similarity/extract.ts';
import { normalise } from '../src/similarity/winnow.ts';
import { FONT, docx, pdf, zip } from './documents.ts';
import { assignWorks, assignmentsOf, expert, judgesOnQuestion, ok, reviewRule, reviewedQuestion, teamWithWork, unique } from './factories.ts';
import {
  ADMIN_PASSWORD,
  DATABASES,
  PNG,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  setSubmissionDeadline,
  type Client,
  type TestApp,
} from './helpers.ts';
import { makeVocabulary, paper, plantCopy, rng } from './papers.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Issue 37, items 1, 2 and 4 through the API: a question's run reads every team's latest works (PDF, DOCX, the
 * documents of a zip), leaves out the organiser's template, finds the copied pair and the paper naming its author, and
 * holds those from judges until the organiser decides; the decisions are audited and the team is told.
 */
const RULE = {
  criteria: [{ name: '创新性', maxScore: 100 }],
  judgesPerWork: 1,
  aggregation: 'mean',
  reviewWeight: 100,
  testWeight: 0,
  blind: true,
  disputeDays: 3,
};

describe.each(DATABASES)('查重 of a question on %s', (kind) => {
  let t: TestApp;
  let admin: Client;
  let org: Client;
  let other: Client;
  let now = new Date('2026-03-20T02:00:00Z');
  const random = rng(371);
  const vocab = makeVocabulary(random, 1500);
  const template = paper(random, vocab, 1200);

  beforeAll(async () => {
    t = await createTestApp(kind, { clock: { now: () => now }, env: { SESSION_TTL_HOURS: String(24 * 365), REGISTER_MAX_PER_IP: '10000' } });
    admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
    org = await makeOrganiser(t, admin, `simOrg${kind}`, '查重大学');
    other = await makeOrganiser(t, admin, `simOther${kind}`, '别的大学');
  });
  afterAll(() => t.close());

  const run = async () => {
    while (await runDueJobs(t.deps));
  };
  /** A work as a DOCX of its paragraphs (the template first, as every team's paper starts with it). */
  const paperDocx = (paragraphs: string[], creator = '作者') => docx([...template, ...paragraphs], creator, creator);

  async function question(blind = true) {
    const q = await reviewedQuestion(admin, org, { title: `查重题${unique()}` });
    await reviewRule(org, q.questionId, { ...RULE, blind });
    const judge = await expert(t, org, `simJudge${kind}${unique()}`, '评审单位');
    await judgesOnQuestion(org, q.questionId, [judge]);
    return q;
  }
  const team = (q: { competitionId: number; questionId: number }, name: string, works: Buffer, filename = `${name}.docx`) =>
    teamWithWork(t, org, q, { username: `sim${kind}${unique()}`, name, works, filename });
  const overview = async (questionId: number, who = org) => ok(await who.get(`/api/review/similarity/${questionId}`), 'similarity');

  it('finds the copied pair and the paper naming its author, holds them from judges until the organiser decides', async () => {
    now = new Date('2026-03-20T02:00:00Z');
    const q = await question();
    const a = paper(random, vocab, 4000);
    const b = plantCopy(random, vocab, a, paper(random, vocab, 4000), 0.6);
    const original = await team(q, '原创队', await paperDocx(a));
    const copiedTeam = await team(q, '抄袭队', await paperDocx(b));
    const honest = await team(q, '诚实队', await paperDocx(paper(random, vocab, 4000)));
    // A PDF whose text names its author (张三: every team's leader here), inside a zip.
    const namedPdf = await pdf((doc) =>
      doc
        .font(FONT)
        .fontSize(11)
        .text([...template, '作者：张三', ...paper(random, vocab, 3000)].join('\n')),
    );
    const named = await team(q, '署名队', await zip([{ name: '论文/论文.pdf', data: namedPdf }]), '署名队.zip');
    // The template and the statement are the organiser's: uploaded as an exclusion, they count for nobody.
    ok(
      await org.request({
        method: 'POST',
        url: `/api/review/similarity/exclusion/${q.questionId}`,
        ...multipart('模板.docx', await docx(template, '组织方', '组织方'), 'application/octet-stream'),
      }),
      'exclusion',
    );

    // The original team's own 知网 report and the rate it declares; a wrong rate or a Word file changes nothing.
    const report = (rate: string, name = '知网报告.pdf', content: Buffer = namedPdf) =>
      original.leader.request({
        method: 'POST',
        url: `/api/review/works/similarityReport/${q.questionId}?declaredRate=${rate}`,
        ...multipart(name, content, 'application/pdf'),
      });
    expect((await report('150')).statusCode).toBe(400);
    expect((await report('8', '报告.docx')).json().message).toBe('请上传PDF格式的查重报告');
    expect(ok(await original.leader.get(`/api/review/works/similarityReport/${q.questionId}`), 'no report')).toBeNull();
    expect(ok(await report('8.5'), 'report')).toMatchObject({ fileName: '知网报告.pdf', declaredRate: 85 });

    const started = ok(await org.post(`/api/review/similarity/run/${q.questionId}`), 'run');
    expect(started.run.status).toBe('queued');
    expect((await org.post(`/api/review/similarity/run/${q.questionId}`)).statusCode).toBe(409);
    // Assignment waits for the run.
    const early = await org.post(`/api/review/works/${q.questionId}?early=1`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toContain('查重正在进行');
    await run();

    const view = await overview(q.questionId);
    expect(view.run).toMatchObject({ status: 'done', works: 4, unreadable: 0 });
    const byTeam = new Map<string, any>(view.works.map((w: any) => [w.teamName, w]));
    const copied = byTeam.get('抄袭队');
    expect(copied.topShare).toBeGreaterThanOrEqual(400);
    expect(copied).toMatchObject({ level: 'hold', held: true });
    expect(copied.matches[0]).toMatchObject({ teamName: '原创队', earlier: null });
    expect(byTeam.get('原创队')).toMatchObject({ level: 'hold', held: true });
    // Sharing only the template (excluded) and the language: nothing.
    expect(byTeam.get('诚实队').topShare).toBeLessThan(50);
    expect(byTeam.get('诚实队')).toMatchObject({ level: 'none', held: false, identity: [] });
    const naming = byTeam.get('署名队');
    expect(naming.identity).toEqual([expect.objectContaining({ kind: '成员姓名', value: '张三', where: '正文' })]);
    expect(naming.held).toBe(true);
    expect(naming.files).toEqual([{ name: '论文/论文.pdf', chars: expect.any(Number), reason: null }]);
    expect(view.works[0].teamName).toMatch(/原创队|抄袭队/);

    expect(byTeam.get('原创队').report).toMatchObject({ fileName: '知网报告.pdf', declaredRate: 85 });
    const file = await org.get(byTeam.get('原创队').report.fileUri);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(namedPdf)).toBe(true);
    expect((await other.get(byTeam.get('原创队').report.fileUri)).statusCode).toBe(404);

    // Side by side: each highlighted passage of one text is found in the other.
    const pair = ok(await org.get(`/api/review/similarity/pair/${copied.matches[0].pairId}`), 'pair');
    const otherText = normalise(pair.a.teamName === '抄袭队' ? pair.b.text : pair.a.text).text;
    const mine = pair.a.teamName === '抄袭队' ? pair.a : pair.b;
    expect(mine.passages.length).toBeGreaterThan(3);
    // Most 8-character runs of each passage (a reworded sentence changes one word) are in the other text.
    const found = (passage: string) => {
      const grams = Array.from({ length: Math.max(0, passage.length - 7) }, (_, i) => passage.slice(i, i + 8));
      return grams.filter((g) => otherText.includes(g)).length / Math.max(1, grams.length);
    };
    const shares = mine.passages.map(([s, e]: [number, number]) => found(normalise(mine.text.slice(s, e)).text));
    expect(shares.filter((x: number) => x >= 0.5).length / shares.length).toBeGreaterThan(0.9);

    // Held works wait: only the honest one goes to judges.
    const first = await assignWorks(org, q.questionId);
    expect(first).toMatchObject({ created: 1, held: 3 });
    expect((await assignmentsOf(org, q.questionId)).map((x) => x.teamId)).toEqual([honest.teamId]);

    // Decisions: bad input changes nothing; another organisation's staff see nothing.
    const bad = await org.put(`/api/review/similarity/decision/${q.questionId}`, { teamId: named.teamId, decision: 'resubmit' });
    expect(bad.statusCode).toBe(400);
    expect((await org.put(`/api/review/similarity/decision/${q.questionId}`, { teamId: honest.teamId, decision: 'release' })).statusCode).toBe(409);
    expect((await other.get(`/api/review/similarity/${q.questionId}`)).statusCode).toBe(404);
    expect((await other.get(`/api/review/similarity/pair/${copied.matches[0].pairId}`)).statusCode).toBe(404);
    expect((await other.put(`/api/review/similarity/decision/${q.questionId}`, { teamId: original.teamId, decision: 'release' })).statusCode).toBe(404);

    ok(
      await org.put(`/api/review/similarity/decision/${q.questionId}`, { teamId: original.teamId, decision: 'release', note: '原作者，时间戳更早' }),
      'release',
    );
    ok(await org.put(`/api/review/similarity/decision/${q.questionId}`, { teamId: copiedTeam.teamId, decision: 'exclude', note: '与原创队雷同' }), 'exclude');
    ok(await org.put(`/api/review/similarity/decision/${q.questionId}`, { teamId: named.teamId, decision: 'resubmit', note: '请删去作者姓名' }), 'resubmit');
    const second = await assignWorks(org, q.questionId);
    expect(second).toMatchObject({ created: 1, held: 2 });
    expect(new Set((await assignmentsOf(org, q.questionId)).map((x) => x.teamId))).toEqual(new Set([honest.teamId, original.teamId]));
    // A work decided not to be judged is taken from the judges it was given to.
    ok(
      await org.put(`/api/review/similarity/decision/${q.questionId}`, { teamId: original.teamId, decision: 'exclude', note: '复核后认定雷同' }),
      'exclude after all',
    );
    expect((await assignmentsOf(org, q.questionId)).map((x) => x.teamId)).toEqual([honest.teamId]);
    ok(await org.put(`/api/review/similarity/decision/${q.questionId}`, { teamId: original.teamId, decision: 'release', note: '申诉后放行' }), 'release again');

    const audits = await t.database.db.selectFrom('auditLog').select(['action', 'entityId', 'afterJson']).where('action', '=', 'similarity.decide').execute();
    expect(audits.map((x) => [Number(x.entityId), JSON.parse(x.afterJson!).decision])).toEqual(
      expect.arrayContaining([
        [original.teamId, 'release'],
        [copiedTeam.teamId, 'exclude'],
        [named.teamId, 'resubmit'],
      ]),
    );
    // The teams asked or refused are told.
    const titles = async (c: Client) => (ok(await c.get('/api/message/notice/page/1'), 'box').list as { title: string }[]).map((m) => m.title);
    expect(await titles(copiedTeam.leader)).toContain('作品查重：不予评审');
    expect(await titles(named.leader)).toContain('作品查重：已要求重新提交');
    expect(await titles(original.leader)).not.toContain('作品查重：已放行');
  });

  it('starts by itself after the works deadline, compares with earlier editions and lists what it could not read', async () => {
    now = new Date('2026-03-20T02:00:00Z');
    const brandId = ok<{ id: number }>(await admin.post('/api/competition/brand/', { name: `查重杯${unique()}`, shortName: '查重杯' }), 'brand').id;
    const last = await reviewedQuestion(admin, org, { competition: { brandId }, title: '往届赛题' });
    const a = paper(random, vocab, 4000);
    await team(last, '往届队', await paperDocx(a));
    // Another organisation's contest of the same brand, with the same paper: its works are never in this corpus.
    const theirs = await reviewedQuestion(admin, other, { competition: { brandId }, title: '别家赛题' });
    await teamWithWork(t, other, theirs, { username: `simOther${kind}${unique()}`, name: '别家队', works: await paperDocx(a), filename: '别家队.docx' });
    const q = await reviewedQuestion(admin, org, { competition: { brandId }, title: '本届赛题' });
    await reviewRule(org, q.questionId, RULE);
    await judgesOnQuestion(org, q.questionId, [await expert(t, org, `simJudge${kind}${unique()}`, '评审单位')]);
    await team(q, '借鉴队', await paperDocx(plantCopy(random, vocab, a, paper(random, vocab, 4000), 0.5)));
    await team(q, '扫描队', await pdf((doc) => doc.image(PNG, 0, 0, { width: 300 })), '扫描队.pdf');
    await team(q, '压缩队', Buffer.from('Rar!not really'), '压缩队.rar');

    // Before the deadline the sweep starts nothing.
    await setSubmissionDeadline(org, q.competitionId, '2026-03-25T00:00:00+08:00');
    await sweep(t.deps);
    await run();
    expect((await overview(q.questionId)).run).toBeNull();

    now = new Date('2026-03-25T01:00:00Z');
    // Works have closed and no run has read them: assignment waits for it.
    const waiting = await org.post(`/api/review/works/${q.questionId}?early=1`);
    expect([waiting.statusCode, waiting.json().message]).toEqual([
      409,
      '作品提交已截止，查重将在一分钟内自动开始（也可在“作品查重”中立即开始），请在查重完成后再分配',
    ]);
    await sweep(t.deps);
    await run();
    const view = await overview(q.questionId);
    expect(view.run).toMatchObject({ status: 'done', works: 3, unreadable: 2 });
    expect(view.earlierEditions).toHaveLength(1);
    const byTeam = new Map<string, any>(view.works.map((w: any) => [w.teamName, w]));
    expect(byTeam.get('借鉴队').matches[0]).toMatchObject({ teamName: '往届队', earlier: { questionTitle: '往届赛题' } });
    expect(byTeam.get('借鉴队').matches.map((m: { teamName: string }) => m.teamName)).not.toContain('别家队');
    expect(byTeam.get('借鉴队').topShare).toBeGreaterThanOrEqual(400);
    expect(byTeam.get('扫描队').files).toEqual([{ name: '扫描队.pdf', chars: 0, reason: REASONS.scanned }]);
    expect(byTeam.get('压缩队').files).toEqual([{ name: '压缩队.rar', chars: 0, reason: REASONS.format }]);

    // Once per deadline: the next sweep leaves the run as it is.
    await sweep(t.deps);
    expect((await overview(q.questionId)).run.startedAt).toBe(view.run.startedAt);
    // A run that gave up does not let works through unchecked.
    await t.database.db.updateTable('similarityRuns').set({ status: 'failed' }).where('questionId', '=', q.questionId).execute();
    const failed = await org.post(`/api/review/works/${q.questionId}?early=1`);
    expect([failed.statusCode, failed.json().message]).toEqual([409, '作品查重未能完成，请在“作品查重”中重新查重，完成后再分配']);
    await t.database.db.updateTable('similarityRuns').set({ status: 'done' }).where('questionId', '=', q.questionId).execute();

    // The thresholds are the question's: a higher hold releases the work, and a wrong pair of thresholds changes nothing.
    const bad = await org.put(`/api/review/similarity/settings/${q.questionId}`, { flagPercent: 50, holdPercent: 30 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('暂停评审阈值不能低于标记阈值');
    expect((await overview(q.questionId)).holdPercent).toBe(40);
    const loose = ok(await org.put(`/api/review/similarity/settings/${q.questionId}`, { flagPercent: 10, holdPercent: 90 }), 'settings');
    expect(loose.works.find((w: any) => w.teamName === '借鉴队')).toMatchObject({ level: 'flag', held: false });
  });

  it('compares code across teams with Dolos: renamed identifiers still match, the baseline does not count', async () => {
    now = new Date('2026-03-20T02:00:00Z');
    const q = await question(false);
    const baseline = `import pandas as pd\n\ndef load(path):\n    frame = pd.read_csv(path)\n    frame = frame.dropna()\n    return frame\n`;
    const model = `import numpy as np\n\ndef train(data, labels, rate=0.01):\n    weights = np.zeros(data.shape[1])\n    for epoch in range(200):\n        grad = data.T @ (data @ weights - labels) / len(labels)\n        weights -= rate * grad\n        if np.linalg.norm(grad) < 1e-6:\n            break\n    return weights\n\ndef predict(data, weights):\n    scores = data @ weights\n    return (scores > 0.5).astype(int)\n\ndef accuracy(data, labels, weights):\n    hits = 0\n    for row, label in zip(data, labels):\n        if (row @ weights > 0.5) == label:\n            hits += 1\n    return hits / len(labels)\n`;
    const renamed = model
      .replace(/weights/g, 'w')
      .replace(/data/g, 'X')
      .replace(/labels/g, 'y')
      .replace(/grad/g, 'g')
      .replace(/epoch/g, 'it')
      .replace(/hits/g, 'correct')
      .replace(/scores/g, 's');
    const other = `from sklearn.ensemble import RandomForestClassifier\nimport pandas as pd\n\nclass Model:\n    def __init__(self, trees):\n        self.forest = RandomForestClassifier(n_estimators=trees, max_depth=8)\n\n    def fit(self, frame):\n        self.forest.fit(frame.drop(columns=["y"]), frame["y"])\n        return self\n\n    def report(self, frame):\n        print({"score": self.forest.score(frame.drop(columns=["y"]), frame["y"])})\n`;
    const works = (code: string) =>
      zip([
        { name: 'code/load.py', data: baseline },
        { name: 'code/model.py', data: code },
        { name: 'code/plot.m', data: 'plot(x)' },
      ]);
    await team(q, '代码原队', await works(model), '代码原队.zip');
    const copier = await team(q, '改名队', await works(renamed), '改名队.zip');
    await team(q, '森林队', await works(other), '森林队.zip');
    ok(
      await org.request({
        method: 'POST',
        url: `/api/review/similarity/exclusion/${q.questionId}`,
        ...multipart('baseline.py', Buffer.from(baseline), 'text/x-python'),
      }),
      'baseline',
    );
    ok(await org.post(`/api/review/similarity/run/${q.questionId}`), 'run');
    await run();
    const view = await overview(q.questionId);
    const byTeam = new Map<string, any>(view.works.map((w: any) => [w.teamName, w]));
    const renamedWork = byTeam.get('改名队');
    expect(renamedWork.codeShare).toBeGreaterThanOrEqual(800);
    expect(renamedWork).toMatchObject({ level: 'hold', held: true, topShare: 0 });
    expect(renamedWork.matches[0]).toMatchObject({ kind: 'code', language: 'python', teamName: '代码原队' });
    expect(renamedWork.files).toEqual([{ name: 'code/plot.m', chars: 0, reason: REASONS.matlab }]);
    expect(byTeam.get('森林队').codeShare).toBeLessThan(200);
    const pair = ok(await org.get(`/api/review/similarity/pair/${renamedWork.matches[0].pairId}`), 'code pair');
    expect(pair).toMatchObject({ kind: 'code', language: 'python' });
    const mine = pair.a.teamName === '改名队' ? pair.a : pair.b;
    expect(mine.text).toContain('# ==== code/model.py ====');
    expect(mine.passages.length).toBeGreaterThan(0);
    // The matched fragments cover the model; the baseline every team was given (森林队 has it too) makes no pair.
    const from = mine.text.indexOf('# ==== code/model.py ====');
    const covered = mine.passages.reduce((n: number, [s, e]: [number, number]) => n + Math.max(0, e - Math.max(s, from)), 0);
    expect(covered / (mine.text.length - from)).toBeGreaterThan(0.8);
    expect(copier.teamId).toBe(renamedWork.teamId);
  });
});

describe('the reading process', () => {
  it('gives a file that takes too long back as unreadable, and reads the next in a new process', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'extractor-'));
    const file = path.join(dir, 'paper.docx');
    fs.writeFileSync(file, await docx(['第一段文字。'], '甲', '甲'));
    const slow = new Extractor({ timeoutMs: 1 });
    try {
      expect((await slow.read(file, 'paper.docx')).files[0]).toMatchObject({ chars: 0, reason: FAILED_READING.timeout });
    } finally {
      slow.close();
    }
    const extractor = new Extractor();
    try {
      expect((await extractor.read(file, 'paper.docx')).text).toContain('第一段文字。');
      fs.writeFileSync(path.join(dir, 'scan.pdf'), await pdf((doc) => doc.image(PNG, 0, 0, { width: 300 })));
      expect((await extractor.read(path.join(dir, 'scan.pdf'), 'scan.pdf')).files[0]).toMatchObject({ reason: REASONS.scanned });
      expect((await extractor.read(path.join(dir, 'scan.pdf'), 'works.rar')).files[0]).toMatchObject({ reason: REASONS.format });
    } finally {
      extractor.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds the team’s names in the text and files, not among the references, nor a short Latin name inside words', () => {
    const names = { members: ['张三', 'Li'], team: '数据先锋队', schools: ['东方大学'], teachers: ['王老师傅'] };
    const text = `摘要：本文由数据 先锋队完成。\n正文：Linear models are simple.\n\n参考文献\n[1] 王老师傅. 统计学习. 2019.\n[2] 张三. 回归分析.`;
    const padded = `${'模型的建立与求解。'.repeat(20)}\n${text}`;
    const hits = scanIdentity(padded, { meta: [{ file: '论文.pdf', fields: { author: '东方大学 张三' } }], entries: ['数据先锋队/论文.pdf'] }, names);
    expect(hits.map((h) => [h.kind, h.value, h.where])).toEqual([
      ['队伍名称', '数据先锋队', '正文'],
      ['队伍名称', '数据先锋队', '压缩包内文件名'],
      ['成员姓名', '张三', '论文.pdf 的作者'],
      ['学校', '东方大学', '论文.pdf 的作者'],
    ]);
  });

  it('holds by share, by names under blind review only, and by the organiser’s word', () => {
    const rule = { holdPercent: 40, blind: true };
    expect(isHeld({ topShare: 400, identityCount: 0, decision: null }, rule)).toBe(true);
    expect(isHeld({ topShare: 399, identityCount: 0, decision: null }, rule)).toBe(false);
    expect(isHeld({ topShare: 0, identityCount: 1, decision: null }, rule)).toBe(true);
    expect(isHeld({ topShare: 0, identityCount: 1, decision: null }, { ...rule, blind: false })).toBe(false);
    expect(isHeld({ topShare: 900, identityCount: 2, decision: 'release' }, rule)).toBe(false);
    expect(isHeld({ topShare: 0, identityCount: 0, decision: 'exclude' }, rule)).toBe(true);
    expect(isHeld({ topShare: 500, identityCount: 0, decision: 'resubmit' }, rule)).toBe(true);
  });
});
