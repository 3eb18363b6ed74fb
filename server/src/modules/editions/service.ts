import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_MAX_MB,
  ARCHIVE_NEVER_CARRIED,
  ARCHIVE_VERSION,
  AUDIT_STATUS,
  EDITION_PART_KEYS,
  archiveManifestSchema,
  isBuiltin,
  shiftDate,
  shiftedDays,
  type ArchiveManifest,
  type CloneBody,
  type Edition,
  type EditionPart,
  type ImportQuery,
  type ImportReport,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badRequest, forbidden } from '../../http/errors.ts';
import { sanitizeRichText } from '../../http/html.ts';
import { FileTooLargeError, readStored } from '../../storage/file-store.ts';
import { writeAudit } from '../audit-log/index.ts';
import { defaultPresets, insertCompetition, insertPresets, insertStage, managedCompetition, readableCompetition } from '../competitions/index.ts';
import { displayName, imageMimeOf } from '../files/index.ts';
import * as policy from '../../policy.ts';
import * as repo from './repo.ts';

type Row = NonNullable<Awaited<ReturnType<typeof repo.competitionRow>>>;
type Body = Omit<ArchiveManifest, 'files'>;

/**
 * A competition's settings as the manifest says them, of the parts taken: file references are what `refOf` makes of a
 * stored key (the key itself in a copy, the file's SHA-256 in an archive) and every date goes through `shift`.
 */
function manifestOf(c: Row, s: repo.Settings, parts: ReadonlySet<EditionPart>, refOf: (key: string) => string, shift: (iso: string) => string): Body {
  // The rows are this platform's own, made under the rules the manifest's schema states: typed as it says.
  return rawManifest(c, s, parts, refOf, shift) as unknown as Body;
}
function rawManifest(c: Row, s: repo.Settings, parts: ReadonlySet<EditionPart>, refOf: (key: string) => string, shift: (iso: string) => string) {
  const pages = parts.has('pages');
  const fees = parts.has('fees');
  const stageIndex = new Map(s.stages.map((st, i) => [st.id, i]));
  const questions = parts.has('questions') ? s.questions : [];
  const ruleOf = new Map(s.rules.map((r) => [r.questionId, r]));
  const review = parts.has('review');
  return {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    competition: {
      name: c.name,
      brand: { name: c.brandName, shortName: c.brandShortName },
      type: c.typeName,
      cover: pages && c.cover ? refOf(c.cover) : null,
      summary: pages ? c.summary : null,
      introduce: pages ? c.introduce : null,
      information: pages ? c.information : null,
      guide: pages ? c.guide : null,
      trainingUrl: pages ? c.trainingUrl : null,
      regStartTime: shift(c.regStartTime),
      regEndTime: shift(c.regEndTime),
      endTime: shift(c.endTime),
      allowIndividual: c.allowIndividual,
      minMembers: c.minMembers,
      maxMembers: c.maxMembers,
      maxTeachers: c.maxTeachers,
      fee: fees ? c.fee : 0,
      invoiceEnable: fees ? c.invoiceEnable : 0,
      worksMaxMb: c.worksMaxMb,
      worksTypes: c.worksTypes,
      eligibilityJson: c.eligibilityJson,
    },
    stages: parts.has('stages')
      ? s.stages.map((st) => ({ name: st.name, startDate: shift(st.startDate), endDate: st.endDate && shift(st.endDate), sort: st.sort }))
      : [],
    presets: parts.has('presets')
      ? s.presets.map((p) => ({
          menuCode: p.menuCode,
          name: p.name,
          enable: p.enable,
          enableStartTime: p.enableStartTime && shift(p.enableStartTime),
          enableEndTime: p.enableEndTime && shift(p.enableEndTime),
          deadlineStage: parts.has('stages') && p.deadlineStageId !== null ? (stageIndex.get(p.deadlineStageId) ?? null) : null,
          fieldList: p.fieldList,
          realName: p.realName,
        }))
      : [],
    questions: questions.map((q) => {
      const rule = review ? ruleOf.get(q.id) : undefined;
      return {
        title: q.title,
        content: q.content,
        sort: q.sort,
        judging: q.judging,
        metric: q.metric,
        idColumn: q.idColumn,
        targetColumn: q.targetColumn,
        publicPercent: q.publicPercent,
        dailyLimit: q.dailyLimit,
        salt: q.salt,
        answerFile: q.answerKey && refOf(q.answerKey),
        answerRows: q.answerRows,
        positiveLabel: q.positiveLabel,
        topK: q.topK,
        splitRule: q.splitRule,
        higherIsBetter: q.higherIsBetter,
        timeLimitSec: q.timeLimitSec,
        metricName: q.metricName,
        scorer: q.scorerKey && refOf(q.scorerKey),
        similarityFlag: q.similarityFlag,
        similarityHold: q.similarityHold,
        files: s.files.filter((f) => f.questionId === q.id).map((f) => ({ file: refOf(f.fileKey), sort: f.sort })),
        exclusions: s.exclusions
          .filter((e) => e.questionId === q.id)
          .map((e) => ({ file: refOf(e.fileKey), fileName: e.fileName, chars: e.chars, reason: e.reason })),
        review: rule
          ? {
              criteriaJson: rule.criteriaJson,
              judgesPerWork: rule.judgesPerWork,
              aggregation: rule.aggregation,
              reviewWeight: Number(rule.reviewWeight),
              testWeight: Number(rule.testWeight),
              blind: rule.blind,
              disputeDays: rule.disputeDays,
            }
          : null,
        awards: review
          ? s.awards.filter((a) => a.questionId === q.id).map((a) => ({ name: a.name, sort: a.sort, rankFrom: a.rankFrom, rankTo: a.rankTo }))
          : [],
      };
    }),
    certificateTemplates: parts.has('certificates')
      ? s.templates.map((t) => ({
          name: t.name,
          background: isBuiltin(t.backgroundKey) ? t.backgroundKey : refOf(t.backgroundKey),
          width: t.width,
          height: t.height,
          fieldsJson: t.fieldsJson,
        }))
      : [],
    notices: parts.has('notices') ? s.notices.flatMap((n) => carriedNotice(n, c.id, shift)) : [],
  };
}

/** A draft notice goes with its competition only when it is to the competition's participants (never to named people). */
function carriedNotice(n: repo.Settings['notices'][number], competitionId: number, shift: (iso: string) => string) {
  const target = JSON.parse(n.targetJson) as { scope: string; competitionId?: number };
  if (target.scope !== 'competition' || target.competitionId !== competitionId) return [];
  const { competitionId: _, ...rest } = target;
  return [
    {
      kind: n.kind,
      title: n.title,
      content: n.content,
      targetJson: JSON.stringify(rest),
      publishAt: n.publishAt && shift(n.publishAt),
      byEmail: n.byEmail,
      bySms: n.bySms,
    },
  ];
}

/**
 * What each file of a manifest is, by where the settings use it: its purpose and who may read it (an answer file stays
 * private whatever an archive says). An import files them so, never as the archive claims.
 */
function rolesOf(b: Body) {
  const roles = new Map<string, { purpose: string; visibility: 'public' | 'private' }>();
  const put = (ref: string | null, purpose: string, visibility: 'public' | 'private') => {
    if (ref && !isBuiltin(ref) && !roles.has(ref)) roles.set(ref, { purpose, visibility });
  };
  for (const q of b.questions) {
    put(q.answerFile, 'answer', 'private');
    put(q.scorer, 'scorer', 'private');
    for (const e of q.exclusions) put(e.file, 'similarity', 'private');
  }
  put(b.competition.cover, 'cover', 'public');
  for (const q of b.questions) for (const f of q.files) put(f.file, 'questionData', 'public');
  for (const t of b.certificateTemplates) put(t.background, 'certificate', 'public');
  return roles;
}

/** The stored keys a manifest body names (before they are made references). */
const keysOf = (b: Body): string[] => [
  ...new Set(
    [
      b.competition.cover,
      ...b.questions.flatMap((q) => [q.answerFile, q.scorer, ...q.files.map((f) => f.file), ...q.exclusions.map((e) => e.file)]),
      ...b.certificateTemplates.map((t) => t.background),
    ].filter((k): k is string => Boolean(k) && !isBuiltin(k!)),
  ),
];

interface Placement {
  name: string;
  orgId: number;
  brandId: number;
  typeId: number | null;
  /** The stored key a reference names. */
  keyOf: (ref: string) => string;
  edition?: { previousId: number; seriesId: number; shiftDays: number };
  /** Same-key copies of the answers as loaded (scoring/prepared.ts), by position of the question: a copy keeps them. */
  prepared?: { answerIndexKey: string | null; answerIndexTag: string | null }[];
}

/** Writes a manifest's settings as a new draft competition (in the caller's transaction); its id. */
async function writeDraft(trx: Db, ctx: AuthedCtx, m: Body, at: Placement): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const c = m.competition;
  const ref = (r: string | null) => (r === null ? null : at.keyOf(r));
  const id = await insertCompetition(trx, {
    name: at.name,
    brandId: at.brandId,
    typeId: at.typeId,
    orgId: at.orgId,
    cover: ref(c.cover),
    summary: c.summary,
    introduce: sanitizeRichText(c.introduce),
    information: sanitizeRichText(c.information),
    guide: sanitizeRichText(c.guide),
    trainingUrl: c.trainingUrl,
    regStartTime: c.regStartTime,
    regEndTime: c.regEndTime,
    endTime: c.endTime,
    allowIndividual: c.allowIndividual,
    invoiceEnable: c.invoiceEnable,
    minMembers: c.minMembers,
    maxMembers: c.maxMembers,
    maxTeachers: c.maxTeachers,
    fee: c.fee,
    worksMaxMb: c.worksMaxMb,
    worksTypes: c.worksTypes,
    eligibilityJson: c.eligibilityJson,
    auditStatus: AUDIT_STATUS.draft,
    auditReply: null,
    createdBy: ctx.actor.userId,
    createdAt: now,
    updatedAt: now,
    previousId: at.edition?.previousId ?? null,
    seriesId: at.edition?.seriesId ?? null,
    shiftDays: at.edition?.shiftDays ?? null,
    recheckJson: at.edition ? JSON.stringify(RECHECK_AFTER_COPY) : null,
  });
  const stageIds: number[] = [];
  for (const st of m.stages) stageIds.push(await insertStage(trx, { competitionId: id, ...st }));
  await insertPresets(
    trx,
    m.presets.length
      ? m.presets.map(({ deadlineStage, ...p }) => ({
          ...p,
          competitionId: id,
          deadlineStageId: deadlineStage === null ? null : (stageIds[deadlineStage] ?? null),
        }))
      : defaultPresets(id),
  );
  for (const [i, q] of m.questions.entries()) {
    const qid = await repo.insertQuestion(trx, {
      competitionId: id,
      title: q.title,
      content: sanitizeRichText(q.content),
      reviewed: 0,
      sort: q.sort,
      createdAt: now,
      updatedAt: now,
      creatorId: ctx.actor.userId,
      judging: q.judging,
      metric: q.metric,
      idColumn: q.idColumn,
      targetColumn: q.targetColumn,
      publicPercent: q.publicPercent,
      dailyLimit: q.dailyLimit,
      salt: q.salt,
      answerKey: ref(q.answerFile),
      answerRows: q.answerRows,
      positiveLabel: q.positiveLabel,
      topK: q.topK,
      splitRule: q.splitRule,
      higherIsBetter: q.higherIsBetter,
      timeLimitSec: q.timeLimitSec,
      metricName: q.metricName,
      scorerKey: ref(q.scorer),
      similarityFlag: q.similarityFlag,
      similarityHold: q.similarityHold,
      answerIndexKey: at.prepared?.[i]?.answerIndexKey ?? null,
      answerIndexTag: at.prepared?.[i]?.answerIndexTag ?? null,
    });
    await repo.insertQuestionFiles(
      trx,
      q.files.map((f) => ({ questionId: qid, fileKey: at.keyOf(f.file), sort: f.sort })),
    );
    await repo.insertExclusions(
      trx,
      q.exclusions.map((e) => ({ questionId: qid, fileKey: at.keyOf(e.file), fileName: e.fileName, chars: e.chars, reason: e.reason, createdAt: now })),
    );
    if (q.review) await repo.insertReviewRule(trx, { questionId: qid, ...q.review, calculatedAt: null, confirmedAt: null, updatedAt: now });
    await repo.insertAwardLevels(
      trx,
      q.awards.map((a) => ({ questionId: qid, ...a })),
    );
  }
  for (const t of m.certificateTemplates) {
    await repo.insertTemplate(trx, {
      competitionId: id,
      name: t.name,
      backgroundKey: isBuiltin(t.background) ? t.background : at.keyOf(t.background),
      width: t.width,
      height: t.height,
      fieldsJson: t.fieldsJson,
      updatedAt: now,
    });
  }
  for (const n of m.notices) {
    await repo.insertNotice(trx, {
      kind: n.kind,
      title: n.title,
      content: sanitizeRichText(n.content),
      targetJson: JSON.stringify({ ...JSON.parse(n.targetJson), competitionId: id }),
      competitionId: id,
      orgId: at.orgId,
      publishAt: n.publishAt,
      publishedAt: null,
      source: null,
      deliveryCeiling: null,
      deliveredAt: null,
      authorId: ctx.actor.userId,
      byEmail: n.byEmail,
      bySms: n.bySms,
      createdAt: now,
      updatedAt: now,
    });
  }
  return id;
}

/** What a copied edition's checklist asks its organiser to recheck until they say it is done (readiness.ts). */
export const RECHECK_AFTER_COPY = ['dates', 'fee'] as const;

// ---- 复制为新一届 --------------------------------------------------------------------------------------------------------

/**
 * Copies a competition the caller manages as its next edition: a draft of the same organisation, linked to it, with the
 * parts ticked and every date moved by the offset. Files are shared by key (no bytes are copied); people, teams, orders,
 * submissions, works, grades and certificates are never copied.
 */
export async function cloneEdition(ctx: AuthedCtx, id: number, body: CloneBody) {
  const from = await managedCompetition(ctx, id);
  const parts = new Set(body.parts);
  const newId = await ctx.db.transaction().execute(async (trx) => {
    // Read in the transaction that writes the copy, the rows naming files held: an answer file replaced at the same
    // instant is either the one copied and kept for the copy, or already the new one.
    if (ctx.dialect === 'postgres') await repo.lockFileHolders(trx, id);
    const row = (await repo.competitionRow(trx, id))!;
    const settings = await repo.settingsOf(trx, id);
    const m = manifestOf(
      row,
      settings,
      parts,
      (key) => key,
      (iso) => shiftDate(iso, body.shiftYears, body.shiftDays),
    );
    const shiftDays = shiftedDays(row.regStartTime, body.shiftYears, body.shiftDays);
    const created = await writeDraft(trx, ctx, m, {
      name: body.name,
      orgId: from.orgId,
      brandId: row.brandId,
      typeId: row.typeId,
      keyOf: (key) => key,
      edition: { previousId: id, seriesId: row.seriesId ?? id, shiftDays },
      prepared: parts.has('questions') ? settings.questions.map((q) => ({ answerIndexKey: q.answerIndexKey, answerIndexTag: q.answerIndexTag })) : undefined,
    });
    await writeAudit(
      ctx,
      {
        action: 'competition.clone',
        entity: 'competition',
        entityId: created,
        after: { from: id, parts: body.parts, shiftYears: body.shiftYears, shiftDays: body.shiftDays },
      },
      trx,
    );
    return created;
  });
  return { id: newId };
}

/**
 * Every edition of the competition's line, oldest first. The public sees the editions that were online; the line's
 * organisers and the platform see drafts too.
 */
export async function editions(ctx: Ctx, id: number): Promise<Edition[]> {
  const c = await readableCompetition(ctx, id);
  const row = (await repo.competitionRow(ctx.db, id))!;
  const all = await repo.editionsOf(ctx.db, row.seriesId ?? id);
  const manages = policy.manages(ctx, c);
  return all
    .map((e, i) => ({ ...e, edition: i + 1, current: e.id === id }))
    .filter((e) => e.current || manages || e.auditStatus === AUDIT_STATUS.online || e.auditStatus === AUDIT_STATUS.offline);
}

// ---- The archive ------------------------------------------------------------------------------------------------------

const hex = (s: string) => /^[0-9a-f]{64}$/.test(s);

/**
 * A competition's whole settings as an archive: `manifest.json` (files named by SHA-256), `report.json` (what is never
 * carried), and `files/<sha256>` for each file. What `sendZip` streams.
 */
export async function archiveOf(ctx: Ctx, id: number) {
  const c = await managedCompetition(ctx, id);
  const row = (await repo.competitionRow(ctx.db, id))!;
  const all = await repo.settingsOf(ctx.db, id);
  // Answer files and scoring programs are served to nobody while the contest runs, not even its organisers: the archive
  // holds them once the competition has ended, or when the platform exports it.
  const secrets = policy.isPlatform(ctx) || c.endTime < ctx.clock.now().toISOString();
  const settings = secrets ? all : { ...all, questions: all.questions.map((q) => ({ ...q, answerKey: null, answerRows: null, scorerKey: null })) };
  const body = manifestOf(
    row,
    settings,
    new Set(EDITION_PART_KEYS),
    (key) => key,
    (iso) => iso,
  );
  const keys = keysOf(body);
  const records = new Map((await repo.filesByKey(ctx.db, keys)).map((f) => [f.key, f]));
  const files: ArchiveManifest['files'] = {};
  const shaOf = new Map<string, string>();
  const excluded = new Map(settings.exclusions.map((e) => [e.fileKey, e.fileName]));
  for (const key of keys) {
    const f = records.get(key);
    if (f && hex(f.sha256)) {
      shaOf.set(key, f.sha256);
      files[f.sha256] = { name: f.originalName, mime: f.mime, size: Number(f.size), visibility: f.visibility, purpose: f.purpose };
      continue;
    }
    // A file kept without a record of its own (a 查重 exclusion): its digest is read from the store.
    const hash = createHash('sha256');
    let size = 0;
    try {
      for await (const chunk of await ctx.storage.get(key)) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
    } catch {
      throw new AppError(409, `文件“${excluded.get(key) ?? key}”在存储中缺失，无法导出；请重新上传该文件后再试`);
    }
    const sha = hash.digest('hex');
    shaOf.set(key, sha);
    files[sha] = {
      name: excluded.get(key) ?? path.basename(key),
      mime: 'application/octet-stream',
      size,
      visibility: 'private',
      purpose: key.split('/')[0] || 'import',
    };
  }
  const refd = manifestOf(
    row,
    settings,
    new Set(EDITION_PART_KEYS),
    (key) => shaOf.get(key)!,
    (iso) => iso,
  );
  const manifest: ArchiveManifest = { ...refd, files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) };
  const held = all.questions.some((q) => q.answerKey || q.scorerKey) && !secrets;
  // (A read: like any download, it writes nothing; what it may hold is decided above.)
  return {
    fileName: `${c.name}-竞赛包.zip`,
    manifest,
    report: {
      notCarried: [
        ARCHIVE_NEVER_CARRIED,
        ...(held ? ['答案文件与评分程序：竞赛进行中不导出（竞赛结束后导出，或由平台管理员导出时包含）'] : []),
        ...notCarriedOf(settings),
      ],
    },
    /** One stored file per SHA-256: the archive holds each content once. */
    files: [...new Map([...shaOf].map(([key, sha]) => [sha, key]))].map(([sha, key]) => ({ key, sha })),
  };
}

/** What of this competition's settings stays behind, by name: people the settings point at. */
function notCarriedOf(s: repo.Settings): string[] {
  const out: string[] = [];
  const personal = s.notices.filter((n) => (JSON.parse(n.targetJson) as { scope: string }).scope !== 'competition').length;
  if (personal) out.push(`${personal} 条发给指定用户或队伍的草稿通知（指向本平台的人员）`);
  if (s.questions.some((q) => q.creatorId !== null)) out.push('赛题的出题人（新平台上由导入者担任）');
  return out;
}

/** Refuses an archive with the reason, in words an organiser can act on. */
const refuse = (why: string) => badRequest(`竞赛包无法导入：${why}`, { file: why });

/** At most this many entries in an archive, and this much unpacked in all (a zip bomb is refused before anything is read). */
const MAX_ENTRIES = 5_000;
const MAX_UNPACKED_BYTES = 2 * 1024 * 1024 * 1024;

/** The entries of a zip on disk: their names and a way to open each. */
async function zipEntries(file: string): Promise<{ names: Map<string, yauzl.Entry>; open: (e: yauzl.Entry) => Promise<Readable>; close: () => void }> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z!))),
  );
  const names = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      if (names.size >= MAX_ENTRIES) {
        zip.close();
        reject(refuse(`压缩包中的文件过多（超过${MAX_ENTRIES}个）`));
        return;
      }
      names.set(e.fileName, e);
      zip.readEntry();
    });
    zip.once('end', () => resolve());
    zip.once('error', reject);
    zip.readEntry();
  });
  return {
    names,
    open: (e) => new Promise((resolve, reject) => zip.openReadStream(e, (err, s) => (err ? reject(err) : resolve(s!)))),
    close: () => zip.close(),
  };
}

/**
 * Imports an archive as a draft of the caller's organisation (the platform names one): its files are stored again here
 * (each checked against its SHA-256), its brand matched by name unless one is chosen, and the report says what did not
 * come with it. Nothing is written unless all of it is.
 */
export async function importArchive(ctx: AuthedCtx, content: Readable, target: ImportQuery): Promise<ImportReport> {
  const orgId = policy.isPlatform(ctx) ? (target.orgId ?? ctx.actor.orgId) : ctx.actor.orgId;
  if (!orgId)
    throw policy.isPlatform(ctx) ? badRequest('请选择导入到哪个组织', { orgId: '请选择导入到哪个组织' }) : forbidden('您的账号尚未关联组织，不能导入竞赛');
  if (!(await repo.orgExists(ctx.db, orgId))) throw badRequest('所选组织不存在', { orgId: '所选组织不存在' });
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'contest-import-'));
  const stored: string[] = [];
  try {
    const file = path.join(dir, 'archive.zip');
    let size = 0;
    const max = ARCHIVE_MAX_MB * 1024 * 1024;
    await pipeline(
      content,
      async function* (src: AsyncIterable<Buffer>) {
        for await (const chunk of src) {
          size += chunk.length;
          if (size > max) throw new AppError(413, `竞赛包不能超过${ARCHIVE_MAX_MB}MB`);
          yield chunk;
        }
      },
      fs.createWriteStream(file, { mode: 0o600 }),
    );
    const zip = await zipEntries(file).catch((err: unknown) => {
      throw err instanceof AppError ? err : refuse('文件不是有效的zip压缩包');
    });
    try {
      const entry = zip.names.get('manifest.json');
      if (!entry) throw refuse('缺少 manifest.json');
      if (entry.uncompressedSize > 20 * 1024 * 1024) throw refuse('manifest.json 过大');
      const chunks: Buffer[] = [];
      try {
        for await (const c of await zip.open(entry)) chunks.push(c as Buffer);
      } catch {
        throw refuse('manifest.json 读取失败，压缩包可能已损坏');
      }
      let raw: unknown;
      try {
        raw = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        throw refuse('manifest.json 不是有效的JSON');
      }
      const parsed = archiveManifestSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw refuse(`manifest.json 第 ${issue.path.join('.') || '（根）'} 项有误：${issue.message}`);
      }
      const m = parsed.data;
      const named = new Set(keysOf(m));
      for (const ref of named) if (!m.files[ref]) throw refuse(`文件 ${ref.slice(0, 12)}… 未在 files 中列出`);
      const notCarried: string[] = [];
      const brand = target.brandId ? await repo.brandById(ctx.db, target.brandId) : await repo.brandNamed(ctx.db, m.competition.brand);
      if (!brand) {
        throw badRequest(target.brandId ? '所选品牌不存在' : `本平台没有品牌“${m.competition.brand.name}”，请选择导入到哪个品牌`, {
          brandId: target.brandId ? '所选品牌不存在' : '请选择品牌',
        });
      }
      if (brand.name !== m.competition.brand.name) notCarried.push(`品牌“${m.competition.brand.name}”：已导入到本平台的品牌“${brand.name}”`);
      const type = m.competition.type ? await repo.typeNamed(ctx.db, m.competition.type) : undefined;
      if (m.competition.type && !type) notCarried.push(`竞赛类型“${m.competition.type}”：本平台没有同名类型，已留空`);

      // The files, stored here; each must be what the manifest says it is.
      const keyOf = new Map<string, string>();
      const now = ctx.clock.now().toISOString();
      const unpacked = [...named].reduce((n, ref) => n + (zip.names.get(`files/${ref}`)?.uncompressedSize ?? 0), 0);
      if (unpacked > MAX_UNPACKED_BYTES) throw refuse(`解压后的文件共 ${Math.round(unpacked / 1024 / 1024)}MB，超过 ${MAX_UNPACKED_BYTES / 1024 / 1024}MB`);
      const roles = rolesOf(m);
      const mimes = new Map<string, string>();
      for (const ref of named) {
        const meta = m.files[ref];
        const role = roles.get(ref)!;
        const e = zip.names.get(`files/${ref}`);
        if (!e) throw refuse(`缺少文件 files/${ref.slice(0, 12)}…（${meta.name}）`);
        let put;
        try {
          put = await ctx.storage.put(await zip.open(e), { prefix: role.purpose === 'questionData' ? 'question-data' : role.purpose, maxBytes: max });
        } catch (err) {
          if (err instanceof FileTooLargeError) throw refuse(`文件 ${meta.name} 过大`);
          throw refuse(`文件 ${meta.name} 读取失败`);
        }
        stored.push(put.key);
        if (put.sha256 !== ref) throw refuse(`文件 ${meta.name} 与清单中的校验值不符，竞赛包可能已损坏`);
        // A picture shown on pages (a cover, a certificate background) must be one, whatever the manifest says.
        if (role.visibility === 'public' && role.purpose !== 'questionData') {
          const mime = imageMimeOf(await readStored(ctx.storage, put.key, 12));
          if (!mime) throw refuse(`文件 ${meta.name} 应为PNG或JPEG图片`);
          mimes.set(ref, mime);
        }
        keyOf.set(ref, put.key);
      }
      const id = await ctx.db.transaction().execute(async (trx) => {
        for (const [ref, key] of keyOf) {
          const meta = m.files[ref];
          const role = roles.get(ref)!;
          await repo.insertFile(trx, {
            key,
            originalName: displayName(meta.name),
            // (Data files are served as attachments: a plain data type is kept, anything else is a byte stream.)
            mime:
              mimes.get(ref) ??
              (role.visibility === 'private' || /^(text\/(csv|plain)|application\/[a-z0-9.+-]+)$/.test(meta.mime) ? meta.mime : 'application/octet-stream'),
            size: meta.size,
            sha256: ref,
            ownerId: ctx.actor.userId,
            visibility: role.visibility,
            purpose: role.purpose,
            createdAt: now,
          });
        }
        const created = await writeDraft(trx, ctx, m, {
          name: m.competition.name,
          orgId,
          brandId: brand.id,
          typeId: type?.id ?? null,
          keyOf: (ref) => keyOf.get(ref)!,
        });
        await writeAudit(
          ctx,
          { action: 'competition.import', entity: 'competition', entityId: created, after: { name: m.competition.name, files: keyOf.size } },
          trx,
        );
        return created;
      });
      stored.length = 0;
      if (m.questions.length) notCarried.push('赛题的出题人：由导入者担任；评审专家请在「评审管理」中重新指定');
      return { id, name: m.competition.name, files: keyOf.size, notCarried: [ARCHIVE_NEVER_CARRIED, ...notCarried] };
    } finally {
      zip.close();
    }
  } finally {
    for (const key of stored) await ctx.storage.delete(key).catch(() => undefined);
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
