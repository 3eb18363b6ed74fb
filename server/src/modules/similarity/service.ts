import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CODE_LANGUAGE_TEXT,
  SIMILARITY_DECISION_TEXT,
  isHeld,
  judgedByExperts,
  levelOf,
  type IdentityHit,
  type SimilarityDecision,
  type SimilarityOverview,
  type SimilarityPair,
  type SimilarityWork,
} from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { enqueue, jobsQueued } from '../../jobs/define.ts';
import { FileTooLargeError } from '../../storage/file-store.ts';
import { Extractor } from '../../similarity/extractor.ts';
import { compareCodeLimit, submissionText } from '../../similarity/code.ts';
import { MAX_TEXT_CHARS, REASONS, type CodeFile, type CodeLanguage, type Extracted } from '../../similarity/extract.ts';
import { scanIdentity } from '../../similarity/identity.ts';
import { FingerprintIndex, compare, fingerprint, normalise, without, withoutReferences, type Fingerprints, type Ranges } from '../../similarity/winnow.ts';
import { writeAudit } from '../audit-log/index.ts';
import { releaseFile } from '../files/index.ts';
import * as competitions from '../competitions/index.ts';
import { notify, teamUserIds } from '../notices/index.ts';
import { loadRule, managedQuestion, questionOf, teamPeople, withdrawFromReview } from '../review/index.ts';
import { checkJob } from './jobs.ts';
import * as repo from './repo.ts';

/** Works read a run step; the run then queues its next step, so that other jobs go between. */
export const READ_BATCH = 10;
/**
 * A run's steps wait behind the jobs people wait for (scoring, messages: priority 0; lower numbers are taken first),
 * and before the periodic sweeps (100).
 */
const RUN_PRIORITY = 50;
const queueStep = (db: Db, questionId: number, now: Date) => enqueue(db, checkJob, { questionId }, now, now, RUN_PRIORITY);
/** A works file larger than this is listed as too large rather than read. */
export const MAX_WORK_BYTES = 256 * 1024 * 1024;
/** Pairs sharing less than this (per mille, either side) are not kept: honest papers share a few percent of phrases. */
export const KEEP_SHARE = 50;
/** Matches listed per work. */
const MATCHES_SHOWN = 5;
const EXCLUSION_MAX_BYTES = 50 * 1024 * 1024;
/** What an exclusion may be: the statement or template (PDF, DOCX), or the baseline code (source files, or a zip). */
const EXCLUSION_TYPES = /\.(pdf|docx|zip|py|ipynb|r|java|c|h|cpp|cc|cxx|hpp|js)$/i;
const EXCLUSION_TYPES_TEXT = '请上传PDF、DOCX（题目、模板）或代码文件、zip压缩包（基线代码）';

// ---- The organiser's view -------------------------------------------------------------------------------------------

/** A question of the caller's judged by experts: 查重 is for written works. */
async function checkedQuestion(ctx: Ctx, questionId: number) {
  const q = await managedQuestion(ctx, questionId);
  if (!judgedByExperts(q.judging)) throw conflict('该赛题为自动评分，没有需要查重的作品');
  return q;
}

const parse = <T>(json: string) => JSON.parse(json) as T;

export async function overview(ctx: Ctx, questionId: number): Promise<SimilarityOverview> {
  const q = await checkedQuestion(ctx, questionId);
  const [settings, run, exclusions, rule, earlier] = await Promise.all([
    repo.settingsOf(ctx.db, questionId),
    repo.runOf(ctx.db, questionId),
    repo.exclusionsOf(ctx.db, questionId),
    loadRule(ctx.db, questionId),
    repo.earlierEditions(ctx.db, q.competitionId),
  ]);
  const latest = await repo.latestWorks(ctx.db, [questionId]);
  const marks = new Map((await repo.marksOf(ctx.db, questionId)).map((m) => [m.teamId, m]));
  const pairs = await repo.pairsOf(ctx.db, questionId);
  const reports = new Map((await repo.reportsOf(ctx.db, questionId)).map((r) => [r.teamId, r]));
  const markedWorkIds = [...marks.values()].map((m) => m.workId);
  const readings = new Map((await repo.workReadings(ctx.db, [...new Set([...markedWorkIds, ...latest.map((w) => w.id)])])).map((r) => [r.workId, r]));
  const origins = new Map(
    (await repo.workOrigins(ctx.db, [...new Set([...markedWorkIds, ...pairs.flatMap((p) => [p.workId, p.otherWorkId])])])).map((o) => [o.id, o]),
  );
  const limits = { holdPercent: settings.similarityHold, blind: rule.blind };

  const works: SimilarityWork[] = latest.map((w) => {
    const mark = marks.get(w.teamId);
    const workId = mark?.workId ?? w.id;
    const origin = origins.get(workId);
    const reading = readings.get(workId);
    const identity = mark ? parse<IdentityHit[]>(mark.identityJson) : [];
    const matches = pairs
      .flatMap((p) => {
        const kind = p.kind as 'text' | 'code';
        if (p.workId === workId) return [{ pairId: p.id, kind, language: p.language, share: p.share, otherShare: p.otherShare, other: p.otherWorkId }];
        if (p.otherWorkId === workId) return [{ pairId: p.id, kind, language: p.language, share: p.otherShare, otherShare: p.share, other: p.workId }];
        return [];
      })
      .sort((a, b) => b.share - a.share)
      .slice(0, MATCHES_SHOWN)
      .map((m) => {
        const o = origins.get(m.other)!;
        return {
          pairId: m.pairId,
          kind: m.kind,
          language: m.language,
          share: m.share,
          otherShare: m.otherShare,
          teamNo: o.teamNo,
          teamName: o.teamName,
          earlier: o.questionId === questionId ? null : { competitionName: o.competitionName, questionTitle: o.questionTitle },
        };
      });
    const report = reports.get(w.teamId);
    const outdated = !mark || mark.workId !== w.id;
    return {
      workId,
      teamId: w.teamId,
      teamNo: w.teamNo,
      teamName: w.teamName,
      version: origin?.version ?? w.version,
      fileName: mark && origin ? (mark.workId === w.id ? w.fileName : `第${origin.version}版`) : w.fileName,
      chars: reading?.chars ?? 0,
      files: reading ? parse<{ name: string; chars: number; reason: string | null }[]>(reading.filesJson) : [],
      topShare: mark?.topShare ?? 0,
      codeShare: mark?.codeShare ?? 0,
      level: levelOf(Math.max(mark?.topShare ?? 0, mark?.codeShare ?? 0), settings.similarityFlag, settings.similarityHold),
      matches,
      identity,
      held: Boolean(
        mark && !outdated && isHeld({ topShare: Math.max(mark.topShare, mark.codeShare), identityCount: identity.length, decision: mark.decision }, limits),
      ),
      decision: (mark?.decision as SimilarityDecision | null) ?? null,
      decisionNote: mark?.decisionNote ?? null,
      decidedAt: mark?.decidedAt ?? null,
      report: report
        ? { fileName: report.fileName, declaredRate: report.declaredRate, fileUri: `/api/review/similarity/report/${questionId}?teamId=${w.teamId}` }
        : null,
      outdated,
    };
  });
  const share = (w: SimilarityWork) => Math.max(w.topShare, w.codeShare);
  works.sort((a, b) => share(b) - share(a) || b.identity.length - a.identity.length || a.teamNo.localeCompare(b.teamNo));

  return {
    flagPercent: settings.similarityFlag,
    holdPercent: settings.similarityHold,
    blind: rule.blind,
    run: run
      ? {
          status: run.status as 'queued' | 'running' | 'done' | 'failed',
          works: run.works,
          done: run.done,
          unreadable: run.unreadable,
          pairs: run.pairs,
          error: run.error,
          startedAt: run.startedAt,
          finishedAt: run.finishedAt,
        }
      : null,
    exclusions: exclusions.map((e) => ({ id: e.id, fileName: e.fileName, chars: e.chars, reason: e.reason, createdAt: e.createdAt })),
    earlierEditions: earlier.map((e) => e.name),
    works,
  };
}

export async function saveSettings(ctx: AuthedCtx, questionId: number, body: { flagPercent: number; holdPercent: number }) {
  await checkedQuestion(ctx, questionId);
  const before = await repo.settingsOf(ctx.db, questionId);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.saveSettings(trx, questionId, body.flagPercent, body.holdPercent, ctx.clock.now().toISOString());
    await writeAudit(
      ctx,
      {
        action: 'similarity.settings',
        entity: 'question',
        entityId: questionId,
        before: { flag: before.similarityFlag, hold: before.similarityHold },
        after: body,
      },
      trx,
    );
  });
  return overview(ctx, questionId);
}

/** The organiser asks for a run now (before or after the deadline); one run of a question at a time. */
export async function requestRun(ctx: AuthedCtx, questionId: number) {
  await checkedQuestion(ctx, questionId);
  if (!(await repo.latestWorks(ctx.db, [questionId])).length) throw conflict('该赛题还没有作品');
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.queueRun(trx, questionId, now.toISOString(), null))) throw conflict('查重正在进行，请等待完成');
    await queueStep(trx, questionId, now);
    await writeAudit(ctx, { action: 'similarity.run', entity: 'question', entityId: questionId }, trx);
  });
  jobsQueued();
  return overview(ctx, questionId);
}

/** Writes an upload to a temporary file, at most `max` bytes; answers its path. */
async function spoolUpload(content: Readable, max: number, what: string) {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'similarity-'));
  const file = path.join(dir, 'upload');
  let size = 0;
  try {
    await pipeline(
      content,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > max) throw new FileTooLargeError(max);
          yield chunk;
        }
      },
      fs.createWriteStream(file),
    );
  } catch (err) {
    await fsp.rm(dir, { recursive: true, force: true });
    if (err instanceof FileTooLargeError || (content as { truncated?: boolean }).truncated)
      throw badRequest(`${what}不能超过${Math.round(max / 1024 / 1024)}MB`, { file: `${what}不能超过${Math.round(max / 1024 / 1024)}MB` });
    throw err;
  }
  return { dir, file };
}

/** The organiser's template or problem statement: its text counts against no team. Read at once, to say what was read. */
export async function addExclusion(ctx: AuthedCtx, questionId: number, content: Readable, fileName: string) {
  await checkedQuestion(ctx, questionId);
  if (!EXCLUSION_TYPES.test(fileName)) throw badRequest(EXCLUSION_TYPES_TEXT, { file: EXCLUSION_TYPES_TEXT });
  if ((await repo.exclusionsOf(ctx.db, questionId)).length >= 10) throw conflict('每道赛题至多上传10份排除文件');
  const { dir, file } = await spoolUpload(content, EXCLUSION_MAX_BYTES, '排除文件');
  try {
    const extractor = new Extractor();
    let reading: Extracted;
    try {
      reading = await extractor.read(file, fileName);
    } finally {
      extractor.close();
    }
    // Text, or code: a baseline program (a source file, or a zip of them) is left out of the comparison of code.
    const chars = reading.text.replace(/\s/g, '').length + reading.code.reduce((n, f) => n + f.content.length, 0);
    const why = reading.files.find((f) => f.reason)?.reason ?? REASONS.broken;
    if (!chars) throw badRequest(`未能读取该文件的文字或代码：${why}`, { file: why });
    const stored = await ctx.storage.put(fs.createReadStream(file), { prefix: 'similarity', maxBytes: EXCLUSION_MAX_BYTES });
    const now = ctx.clock.now().toISOString();
    await ctx.db.transaction().execute(async (trx) => {
      const { id } = await repo.insertExclusion(trx, {
        questionId,
        fileKey: stored.key,
        fileName: fileName.slice(0, 255),
        chars,
        reason: null,
        createdAt: now,
      });
      await writeAudit(ctx, { action: 'similarity.exclusion.add', entity: 'question', entityId: questionId, after: { id, fileName, chars } }, trx);
    });
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
  return overview(ctx, questionId);
}

export async function removeExclusion(ctx: AuthedCtx, id: number) {
  const e = await repo.findExclusion(ctx.db, id);
  if (!e) throw notFound('排除文件不存在');
  await checkedQuestion(ctx, e.questionId).catch(() => {
    throw notFound('排除文件不存在');
  });
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteExclusion(trx, id);
    await writeAudit(ctx, { action: 'similarity.exclusion.remove', entity: 'question', entityId: e.questionId, before: { id, fileName: e.fileName } }, trx);
  });
  await releaseFile(ctx, e.fileKey);
  return overview(ctx, e.questionId);
}

/** Both texts of a pair, with the passages they share. */
export async function pair(ctx: Ctx, id: number): Promise<SimilarityPair> {
  const p = await repo.findPair(ctx.db, id);
  if (!p) throw notFound('比对结果不存在');
  await checkedQuestion(ctx, p.questionId).catch(() => {
    throw notFound('比对结果不存在');
  });
  // Code is shown as it was compared: the team's files of the language, one after another.
  const texts = new Map(
    (await repo.workTexts(ctx.db, [p.workId, p.otherWorkId])).map((t) => [
      t.workId,
      p.kind === 'code' ? submissionText(parse<CodeFile[]>(t.codeJson), p.language as CodeLanguage) : t.text,
    ]),
  );
  const origins = new Map((await repo.workOrigins(ctx.db, [p.workId, p.otherWorkId])).map((o) => [o.id, o]));
  const side = (workId: number, passages: string, share: number) => {
    const o = origins.get(workId)!;
    return {
      teamNo: o.teamNo,
      teamName: o.teamName,
      label: o.questionId === p.questionId ? `第${o.version}版` : `往届：${o.competitionName} · ${o.questionTitle}`,
      text: texts.get(workId) ?? '',
      passages: parse<[number, number][]>(passages),
      share,
    };
  };
  return {
    id: p.id,
    kind: p.kind as 'text' | 'code',
    language: p.language,
    a: side(p.workId, p.passagesJson, p.share),
    b: side(p.otherWorkId, p.otherPassagesJson, p.otherShare),
  };
}

/** The organiser's decision on a marked work: release it to judges, keep it from review, or ask for a new version. */
export async function decide(ctx: AuthedCtx, questionId: number, body: { teamId: number; decision: SimilarityDecision; note?: string | undefined }) {
  const q = await checkedQuestion(ctx, questionId);
  const mark = await repo.findMark(ctx.db, questionId, body.teamId);
  if (!mark) throw notFound('该作品还没有查重结果');
  const settings = await repo.settingsOf(ctx.db, questionId);
  const identity = parse<IdentityHit[]>(mark.identityJson);
  if (levelOf(Math.max(mark.topShare, mark.codeShare), settings.similarityFlag, settings.similarityHold) === 'none' && !identity.length)
    throw conflict('该作品未被标记，无需处理');
  if (body.decision === 'resubmit' && !body.note) throw badRequest('请说明需要队伍修改的内容', { note: '请说明需要队伍修改的内容' });
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const done = await repo.decide(trx, {
      questionId,
      teamId: body.teamId,
      workId: mark.workId,
      decision: body.decision,
      note: body.note ?? null,
      userId: ctx.actor.userId,
      now,
    });
    if (!done) throw conflict('查重结果已更新，请刷新后再处理');
    // Not to be judged: taken from the judges it may already have been given to.
    const withdrawn = body.decision === 'exclude' ? await withdrawFromReview(trx, questionId, body.teamId) : 0;
    await writeAudit(
      ctx,
      {
        action: 'similarity.decide',
        entity: 'team',
        entityId: body.teamId,
        before: { questionId, workId: mark.workId, decision: mark.decision },
        after: { decision: body.decision, note: body.note ?? null, topShare: mark.topShare, codeShare: mark.codeShare, identity: identity.length, withdrawn },
      },
      trx,
    );
  });
  if (body.decision !== 'release') {
    const what = body.decision === 'exclude' ? '组织方审核后决定该作品不予评审' : '组织方要求重新提交作品';
    await notify(ctx, await teamUserIds(ctx.db, [body.teamId]), {
      title: `作品查重：${SIMILARITY_DECISION_TEXT[body.decision]}`,
      content: `赛题“${q.title}”的作品经查重审核，${what}。${body.note ? `说明：${body.note}` : ''}`,
      source: 'similarity.decide',
    });
  }
  return overview(ctx, questionId);
}

/** A team's own report, for the organiser to read beside the run's figures. */
export async function reportFile(ctx: Ctx, questionId: number, teamId: number) {
  await checkedQuestion(ctx, questionId);
  const r = await repo.findReport(ctx.db, questionId, teamId);
  if (!r) throw notFound('该队伍没有上传查重报告');
  return { key: r.fileKey, name: r.fileName, mime: 'application/pdf' };
}

// ---- The run --------------------------------------------------------------------------------------------------------

/** Streams a stored works file to a temporary file for the reading process. */
async function toTempFile(deps: Deps, key: string, dir: string) {
  const file = path.join(dir, 'work');
  await pipeline(await deps.storage.get(key), fs.createWriteStream(file));
  return file;
}

const unreadable = (name: string, reason: string): Extracted => ({
  text: '',
  files: [{ name, chars: 0, reason, meta: {} }],
  entries: [],
  otherEntries: 0,
  code: [],
});

/** Reads the text of these works and keeps it; each work once, whichever run reads it. */
async function readWorks(deps: Deps, questionId: number, works: repo.LatestWork[]) {
  const extractor = new Extractor();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'similarity-'));
  try {
    for (const w of works) {
      let reading: Extracted;
      if (w.size > MAX_WORK_BYTES) reading = unreadable(w.fileName, REASONS.tooLarge);
      else reading = await extractor.read(await toTempFile(deps, w.fileKey, dir), w.fileName);
      // PostgreSQL keeps no NUL in text; a PDF's text layer may hold some.
      const text = reading.text.replaceAll('\u0000', '').slice(0, MAX_TEXT_CHARS);
      const now = deps.clock.now().toISOString();
      await repo.insertWorkText(deps.db, {
        workId: w.id,
        competitionId: w.competitionId,
        questionId: w.questionId,
        teamId: w.teamId,
        chars: text.replace(/\s/g, '').length,
        text,
        filesJson: JSON.stringify(reading.files.map(({ name, chars, reason }) => ({ name, chars, reason }))),
        metaJson: JSON.stringify({
          meta: reading.files.filter((f) => Object.keys(f.meta).length).map((f) => ({ file: f.name, fields: f.meta })),
          entries: reading.entries,
        }),
        codeJson: JSON.stringify(reading.code),
        extractedAt: now,
      });
      if (w.questionId === questionId) await repo.countRead(deps.db, questionId, !text.trim(), now);
    }
  } finally {
    extractor.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * One step of a question's run (the job's work): reads up to READ_BATCH works not read yet (this question's latest
 * works, and those of the earlier editions), queueing the next step while some remain; then compares them all.
 */
export async function check(deps: Deps, questionId: number) {
  await new Promise((resolve) => setImmediate(resolve));
  const run = await repo.runOf(deps.db, questionId);
  if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
  const q = await questionOf(deps.db, questionId);
  const earlier = await repo.earlierEditions(deps.db, q.competitionId);
  const current = await repo.latestWorks(deps.db, [questionId]);
  const old = await repo.latestWorks(
    deps.db,
    await repo.questionIdsOf(
      deps.db,
      earlier.map((e) => e.id),
    ),
  );
  const read = await repo.readWorkIds(
    deps.db,
    [...current, ...old].map((w) => w.id),
  );
  const missing = [...current, ...old].filter((w) => !read.has(w.id));
  const now = deps.clock.now().toISOString();
  if (run.status === 'queued')
    await repo.updateRun(deps.db, questionId, {
      status: 'running',
      works: missing.filter((w) => w.questionId === questionId).length,
      done: 0,
      unreadable: 0,
      startedAt: now,
      updatedAt: now,
    });
  if (missing.length) {
    await readWorks(deps, questionId, missing.slice(0, READ_BATCH));
    if (missing.length > READ_BATCH) {
      await queueStep(deps.db, questionId, deps.clock.now());
      return;
    }
  }
  await compareAll(deps, questionId, current, old);
}

/** What the question's exclusions (template, statement, baseline code) take out of every work, read again for each run. */
async function exclusionsRead(deps: Deps, questionId: number, extractor: Extractor, dir: string) {
  const hashes = new Set<number>();
  const code: CodeFile[] = [];
  for (const e of await repo.exclusionsOf(deps.db, questionId)) {
    const reading = await extractor.read(await toTempFile(deps, e.fileKey, dir), e.fileName);
    for (const h of fingerprint(normalise(reading.text).text).hashes) hashes.add(h);
    code.push(...reading.code);
  }
  return { hashes, code };
}

/** Normalised ranges of a text to [start, end) offsets into the text itself. */
function originalRanges(text: string, ranges: Ranges): [number, number][] {
  const { offsets } = normalise(withoutReferences(text));
  return ranges.map(([s, e]) => [offsets[s]!, offsets[Math.min(e, offsets.length) - 1]! + 1]);
}

const permille = (share: number) => Math.round(share * 1000);

async function compareAll(deps: Deps, questionId: number, current: repo.LatestWork[], old: repo.LatestWork[]) {
  const extractor = new Extractor();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'similarity-'));
  try {
    await compareAllWith(deps, questionId, current, old, extractor, dir);
  } finally {
    extractor.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

async function compareAllWith(deps: Deps, questionId: number, current: repo.LatestWork[], old: repo.LatestWork[], extractor: Extractor, dir: string) {
  const { hashes: excluded, code: baseline } = await exclusionsRead(deps, questionId, extractor, dir);
  const docs = [...current, ...old];
  const texts = new Map(
    (
      await repo.workTexts(
        deps.db,
        docs.map((d) => d.id),
      )
    ).map((t) => [t.workId, t]),
  );
  const index = new FingerprintIndex();
  const fps: Fingerprints[] = [];
  for (const d of docs) {
    const fp = without(fingerprint(normalise(withoutReferences(texts.get(d.id)?.text ?? '')).text), excluded);
    fps.push(fp);
    index.add(fp);
  }
  const pairs: repo.PairRow[] = [];
  const seen = new Set<string>();
  const top = new Map<number, number>();
  for (let i = 0; i < current.length; i++) {
    for (const c of index.candidates(i)) {
      const j = c.id;
      const key = i < j ? `${i}-${j}` : `${j}-${i}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const m = compare(fps[i]!, fps[j]!);
      const share = permille(m.shareA);
      const otherShare = permille(m.shareB);
      if (Math.max(share, otherShare) < KEEP_SHARE) continue;
      const a = docs[i]!;
      const b = docs[j]!;
      pairs.push({
        questionId,
        workId: a.id,
        otherWorkId: b.id,
        kind: 'text',
        language: null,
        share,
        otherShare,
        passagesJson: JSON.stringify(originalRanges(texts.get(a.id)!.text, m.a)),
        otherPassagesJson: JSON.stringify(originalRanges(texts.get(b.id)!.text, m.b)),
      });
      top.set(a.id, Math.max(top.get(a.id) ?? 0, share));
      if (j < current.length) top.set(b.id, Math.max(top.get(b.id) ?? 0, otherShare));
    }
    if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
  }

  // Code, language by language: each team's files of it as one submission, compared by Dolos in the reading process.
  const codeOf = new Map(docs.map((d) => [d.id, parse<CodeFile[]>(texts.get(d.id)?.codeJson ?? '[]')]));
  const currentIds = new Set(current.map((w) => w.id));
  const codeTop = new Map<number, number>();
  const codeFailed: string[] = [];
  const languages = new Set(current.flatMap((w) => codeOf.get(w.id)!.map((f) => f.language)));
  for (const language of languages) {
    const submissions = docs
      .filter((d) => codeOf.get(d.id)!.some((f) => f.language === language))
      .slice(0, compareCodeLimit)
      .map((d) => ({ id: d.id, text: submissionText(codeOf.get(d.id)!, language) }));
    if (submissions.length < 2) continue;
    const found = await extractor.compareCode(path.join(dir, `code-${language}.json`), {
      language,
      submissions,
      baseline: submissionText(baseline, language) || null,
    });
    if (!found) {
      deps.log.warn({ questionId, language }, '查重: the comparison of code failed');
      codeFailed.push(CODE_LANGUAGE_TEXT[language] ?? language);
      continue;
    }
    for (const c of found) {
      // Earlier editions are compared with this one, not with each other; this question's work is the pair's first.
      if (!currentIds.has(c.a) && !currentIds.has(c.b)) continue;
      const row = currentIds.has(c.a)
        ? { workId: c.a, otherWorkId: c.b, share: c.shareA, otherShare: c.shareB, ranges: c.a_ranges, otherRanges: c.b_ranges }
        : { workId: c.b, otherWorkId: c.a, share: c.shareB, otherShare: c.shareA, ranges: c.b_ranges, otherRanges: c.a_ranges };
      if (Math.max(permille(row.share), permille(row.otherShare)) < KEEP_SHARE) continue;
      pairs.push({
        questionId,
        workId: row.workId,
        otherWorkId: row.otherWorkId,
        kind: 'code',
        language,
        share: permille(row.share),
        otherShare: permille(row.otherShare),
        passagesJson: JSON.stringify(row.ranges),
        otherPassagesJson: JSON.stringify(row.otherRanges),
      });
      codeTop.set(row.workId, Math.max(codeTop.get(row.workId) ?? 0, permille(row.share)));
      if (currentIds.has(row.otherWorkId)) codeTop.set(row.otherWorkId, Math.max(codeTop.get(row.otherWorkId) ?? 0, permille(row.otherShare)));
    }
  }

  const people = await teamPeople(
    deps.db,
    current.map((w) => w.teamId),
  );
  const marks: repo.MarkRow[] = current.map((w) => {
    const t = texts.get(w.id);
    const p = people.get(w.teamId);
    const named = t ? parse<{ meta: { file: string; fields: Record<string, string> }[]; entries: string[] }>(t.metaJson) : { meta: [], entries: [] };
    const identity = scanIdentity(t?.text ?? '', named, {
      members: p?.members.map((m) => m.name) ?? [],
      team: w.teamName,
      schools: p?.schools ?? [],
      teachers: p?.teachers.map((x) => x.name) ?? [],
    });
    return {
      questionId,
      teamId: w.teamId,
      workId: w.id,
      topShare: top.get(w.id) ?? 0,
      codeShare: codeTop.get(w.id) ?? 0,
      identityJson: JSON.stringify(identity),
    };
  });
  const unreadableCount = current.filter((w) => !texts.get(w.id)?.text.trim()).length;
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await repo.replaceResults(trx, questionId, pairs, marks);
    await repo.updateRun(trx, questionId, {
      status: 'done',
      // Done, but what could not be compared is said (the text was; code of these languages was not).
      error: codeFailed.length ? `${codeFailed.join('、')}代码比对未能完成（代码过多或无法解析），其余结果有效` : null,
      done: current.length,
      works: current.length,
      unreadable: unreadableCount,
      pairs: pairs.length,
      finishedAt: now,
      updatedAt: now,
    });
  });
}

export async function runGaveUp(deps: Deps, questionId: number, error: string) {
  const now = deps.clock.now().toISOString();
  // The organiser reads what to do; what went wrong is in the log.
  deps.log.error({ questionId, error }, '查重 run gave up');
  await repo.updateRun(deps.db, questionId, { status: 'failed', error: '查重过程出错，请重新查重；如仍失败，请联系平台', finishedAt: now, updatedAt: now });
}

/**
 * After a question's works deadline, its run starts by itself: for each question judged by experts whose works
 * window has closed and that has works the last run did not see (or no run yet), once per deadline.
 */
export async function sweep(deps: Deps) {
  const now = deps.clock.now();
  for (const c of await repo.questionsToCheck(deps.db)) {
    const window = await competitions.submissionWindowOf(deps.db, c.competitionId, 'SUBMIT_WORKS');
    if (!window.enabled || !window.end || new Date(window.end) > now) continue;
    if (c.deadline === window.end) continue;
    await deps.db.transaction().execute(async (trx) => {
      if (await repo.queueRun(trx, c.questionId, now.toISOString(), window.end)) await queueStep(trx, c.questionId, now);
    });
  }
}
