import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { FileTooLargeError, type StoredFile } from '../../storage/file-store.ts';
import { ACTION_CODES, extensionOf, formatSize, windowRefusal, type WorkVersion, type WorksPageQuery, type WorksRules } from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import * as competitions from '../competitions/index.ts';
import * as review from '../review/index.ts';
import { displayName, grantPrivateReads } from '../files/index.ts';
import * as teams from '../teams/index.ts';
import { teamRefusal } from '../real-names/index.ts';
import * as policy from '../../policy.ts';
import * as repo from './repo.ts';
import { makeUploadServer } from './tus-server.ts';
import { uploadArea } from './upload-area.ts';

/** Parses the tus `Upload-Metadata` header: comma-separated `key base64value` pairs. */
export function parseUploadMetadata(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

/** What a team is told of a question whose result is its private board alone, which takes no works. */
const NO_WORKS = '该赛题按自动评分的私榜排名，不需要提交作品';

/** The question the caller's team chose, with the competition's works limits and the SUBMIT_WORKS window. */
async function worksContext(ctx: Pick<Ctx, 'db' | 'clock'>, userId: number, questionId: number) {
  const row = await repo.chosenQuestion(ctx.db, userId, questionId);
  if (!row) throw notFound('您的队伍尚未选择该赛题');
  // The shared rule (lifecycle.ts): the preset's end narrows the submission stage's end or the competition's end.
  const window = await competitions.submissionWindowOf(ctx.db, row.competitionId, 'SUBMIT_WORKS');
  // A question ranked by its private board alone takes no works (issue 33).
  // A competition may ask every member to have completed 实名认证 first.
  const refusal =
    row.judging === 'auto'
      ? NO_WORKS
      : (windowRefusal(window, ctx.clock.now()) ??
        ((await competitions.realNameRequired(ctx.db, row.competitionId, 'SUBMIT_WORKS')) ? await teamRefusal(ctx.db, row.teamId, 'SUBMIT_WORKS') : null));
  return {
    ...row,
    maxBytes: row.worksMaxMb * 1024 * 1024,
    types: row.worksTypes
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
    open: refusal === null,
    refusal,
    deadline: window.enabled ? window.end : null,
  };
}

export async function rules(ctx: AuthedCtx, questionId: number): Promise<WorksRules> {
  const w = await worksContext(ctx, ctx.actor.userId, questionId);
  return { questionId: w.questionId, questionTitle: w.title, maxBytes: w.maxBytes, types: w.types, open: w.open, refusal: w.refusal, deadline: w.deadline };
}

/**
 * Checks a tus creation request before any byte is stored: the team chose the question, the window is open, the
 * declared size and the file type are within the competition's limits. Records who the upload belongs to.
 */
export async function beginUpload(
  ctx: AuthedCtx,
  uploadLength: string | undefined,
  metadataHeader: string | undefined,
): Promise<{ uploadId: string; owner: string }> {
  const meta = parseUploadMetadata(metadataHeader);
  const questionId = Number(meta.questionId);
  const fileName = displayName(meta.filename ?? meta.name ?? '').trim();
  if (!Number.isInteger(questionId) || questionId <= 0) throw badRequest('请指定赛题');
  if (!fileName) throw badRequest('请指定文件名');
  const size = Number(uploadLength);
  if (!Number.isInteger(size) || size <= 0) throw badRequest('文件为空或大小未知');
  if (meta.sha256 && !/^[0-9a-f]{64}$/.test(meta.sha256)) throw badRequest('文件校验值格式不正确');
  const row = {
    uploadId: randomBytes(16).toString('hex'),
    questionId,
    userId: ctx.actor.userId,
    fileName: fileName.slice(0, 255),
    size,
    sha256: meta.sha256 ?? null,
    createdAt: ctx.clock.now().toISOString(),
  };
  if (meta.kind === 'data') {
    // A question's public data file, uploaded by an organiser of its competition: any type, a large limit.
    const competitionId = await repo.questionCompetition(ctx.db, questionId);
    if (competitionId === undefined || !policy.holds(ctx, ACTION_CODES.competitionEdit)) throw notFound('赛题不存在');
    await competitions.managedCompetition(ctx, competitionId);
    if (size > ctx.config.dataMaxBytes) throw new AppError(413, `数据文件不能超过${formatSize(ctx.config.dataMaxBytes)}`);
    await repo.insertUpload(ctx.db, { ...row, kind: 'data', competitionId, teamId: null });
    return { uploadId: row.uploadId, owner: uploadOwner({ kind: 'data', userId: row.userId, teamId: null }) };
  }
  const w = await worksContext(ctx, ctx.actor.userId, questionId);
  if (w.refusal) throw conflict(w.refusal);
  if (size > w.maxBytes) throw new AppError(413, `作品不能超过${w.worksMaxMb}MB`);
  if (!w.types.includes(extensionOf(fileName))) throw badRequest(`只能提交以下格式的作品：${w.types.join('、')}`);
  const quota = ctx.config.uploads.teamQuotaBytes;
  await ctx.db.transaction().execute(async (trx) => {
    // The team's row is locked (SQLite: the transaction holds the write lock), so two uploads started at once cannot
    // both fit in the space only one of them fits in.
    if (ctx.dialect === 'postgres') await repo.lockTeam(trx, w.teamId);
    const used = await repo.teamStorageUsed(trx, w.teamId);
    if (used + size > quota) {
      throw new AppError(
        413,
        `队伍的作品存储空间不足：上限${formatSize(quota)}，已用${formatSize(used)}（含未完成的上传），本次文件${formatSize(size)}。未完成的上传可在原页面继续完成；放弃的上传会在一周后释放空间`,
      );
    }
    await repo.insertUpload(trx, { ...row, kind: 'works', competitionId: w.competitionId, teamId: w.teamId });
  });
  return { uploadId: row.uploadId, owner: uploadOwner({ kind: 'works', userId: row.userId, teamId: w.teamId }) };
}

/** Whose share of the upload slots an upload takes: its team's, or for a question's data file its uploader's. */
const uploadOwner = (u: { kind: string; userId: number; teamId: number | null }) =>
  u.kind === 'data' || u.teamId === null ? `user:${u.userId}` : `team:${u.teamId}`;

/**
 * Drops the bytes tus holds for an upload in progress, and what it knows of them: in UPLOADS_DIR, or with S3 the
 * multipart upload and the objects under `tus/` (upload-area.ts).
 */
const removeUploadFiles = (deps: Pick<Deps, 'config'>, uploadId: string) => uploadArea(deps.config).remove(uploadId);

/**
 * A cancelled upload (tus DELETE) is dropped with its bytes before the answer, so its share of the team's quota is
 * free the moment the client hears so. The row goes first: a PATCH still running on it then finds nothing to finish.
 */
export async function cancelUpload(deps: Pick<Deps, 'db' | 'config'>, uploadId: string) {
  await repo.deleteUpload(deps.db, uploadId);
  await removeUploadFiles(deps, uploadId);
}

/**
 * Only the uploading team (for a data file: its uploader) may resume, inspect or cancel an upload. Returns whose
 * upload slots it takes.
 */
export async function assertUploadOwner(ctx: AuthedCtx, uploadId: string): Promise<string> {
  const row = await repo.uploadWithMembership(ctx.db, uploadId, ctx.actor.userId);
  const allowed = row && (row.kind === 'data' ? row.userId === ctx.actor.userId : row.memberId !== null);
  if (!allowed) throw notFound('上传不存在或已过期');
  return uploadOwner(row);
}

/** An upload in progress that has received no byte for this long is dropped, with what it had received. */
export const UPLOAD_IDLE_EXPIRY_MS = 7 * 24 * 3600_000;

/**
 * Drops the uploads in progress that were started, and last written to, more than UPLOAD_IDLE_EXPIRY_MS ago: their
 * clients are gone, and what they received would otherwise stay in the uploads folder or the bucket for ever. The last
 * write is the tus file's modification time, or with S3 the newest of the upload's objects and parts. The row goes first, by a conditional delete, so of several instances sweeping
 * at once one removes each upload, and a client coming back is told 「上传不存在或已过期」 and starts again.
 * Returns how many were dropped.
 */
export async function expireUploads(deps: Pick<Deps, 'db' | 'clock' | 'config'>): Promise<number> {
  const cutoff = deps.clock.now().getTime() - UPLOAD_IDLE_EXPIRY_MS;
  const old = await repo.uploadsStartedBefore(deps.db, new Date(cutoff).toISOString());
  let dropped = 0;
  for (const uploadId of old) {
    const lastWrite = await uploadArea(deps.config).lastWrite(uploadId);
    if (lastWrite >= cutoff) continue;
    if (!(await repo.deleteUpload(deps.db, uploadId))) continue;
    await removeUploadFiles(deps, uploadId);
    dropped++;
  }
  return dropped;
}

export class DeadlinePassed extends Error {}
class AlreadyFinished extends Error {}

/**
 * A resuming client first asks (HEAD) how far its upload got. When every byte had arrived but the server stopped
 * before recording the work, tus would answer "complete" and the client would report a success never recorded: the
 * work is recorded first. Returns the size when it recorded the work now.
 */
export async function finishIfComplete(deps: Deps, uploadId: string): Promise<number | null> {
  const u = await repo.findUpload(deps.db, uploadId);
  if (!u) return null;
  const received = await uploadArea(deps.config).received(uploadId);
  if (received !== Number(u.size)) return null;
  await finishUpload(deps, uploadId);
  return received;
}

/**
 * The last byte has arrived: stamps the time, refuses it if the window has closed by then (earlier versions stay),
 * checks the sha256 the client declared, moves the file into the store and records a new version.
 */
export async function finishUpload(deps: Deps, uploadId: string) {
  const u = await repo.findUpload(deps.db, uploadId);
  if (!u) throw notFound('上传不存在或已过期');
  const completedAt = deps.clock.now();
  const window = u.kind === 'data' ? null : await competitions.submissionWindowOf(deps.db, u.competitionId, 'SUBMIT_WORKS');
  const refusal = window && windowRefusal(window, completedAt);
  const discard = async () => {
    await removeUploadFiles(deps, uploadId);
    await repo.deleteUpload(deps.db, uploadId);
  };
  if (refusal) {
    await discard();
    throw new DeadlinePassed(`${refusal}，本次上传未被接收；此前提交的版本不受影响`);
  }
  const data = u.kind === 'data';
  // The store hashes what it writes, so the upload is read once (from UPLOADS_DIR, or from the bucket); a copy that
  // fails the declared checksum is removed.
  const stored = await deps.storage.put(await uploadArea(deps.config).read(uploadId), { prefix: data ? 'question-data' : 'works', maxBytes: Number(u.size) });
  const sha256 = stored.sha256;
  if (u.sha256 && u.sha256 !== sha256) {
    await deps.storage.delete(stored.key).catch(() => {});
    await discard();
    throw badRequest('文件校验失败，上传的内容与原文件不一致，请重新上传');
  }
  const t = completedAt.toISOString();
  const record = deps.db.transaction().execute(async (trx) => {
    // Claimed first: of two requests finishing the same upload (a resumed client's HEAD and its last PATCH), one records it.
    if (!(await repo.deleteUpload(trx, uploadId))) throw new AlreadyFinished();
    await repo.insertFile(trx, {
      key: stored.key,
      originalName: u.fileName,
      mime: 'application/octet-stream',
      size: stored.size,
      sha256: stored.sha256,
      ownerId: u.userId,
      visibility: data ? 'public' : 'private',
      purpose: data ? 'questionData' : 'works',
      createdAt: t,
    });
    if (data) {
      await repo.appendQuestionFile(trx, u.questionId, stored.key);
      return null;
    }
    const work = await repo.insertNextVersion(trx, {
      competitionId: u.competitionId,
      questionId: u.questionId,
      teamId: u.teamId!,
      userId: u.userId,
      fileKey: stored.key,
      fileName: u.fileName,
      size: stored.size,
      sha256,
      completedAt: t,
    });
    // Scores already submitted for an earlier version go back to their judges, in this same step.
    return review.versionReplaced(trx, { questionId: u.questionId, teamId: u.teamId!, workId: work.id, version: work.version, now: completedAt });
  });
  // Nothing points at the stored copy if the rows could not be written; the tus upload stays for another try.
  const recorded = await record.then(
    (replaced) => ({ replaced }),
    async (err: unknown) => {
      await deps.storage.delete(stored.key).catch(() => {});
      if (err instanceof AlreadyFinished) return null;
      throw err;
    },
  );
  if (!recorded) return;
  await removeUploadFiles(deps, uploadId);
  if (recorded.replaced) await review.tellReplaced(deps, recorded.replaced);
}

/** `counts`: whether it is its team's last version (works completing after the deadline are refused). */
const toVersion = ({ fileKey, size, counts, ...r }: repo.VersionRow): WorkVersion => ({ ...r, fileUri: fileKey, size: Number(size), counts: Boolean(counts) });

/** `GET /api/review/works/{questionId}?teamId`: a team's versions, for its members and the competition's organisers. */
export async function teamVersions(ctx: AuthedCtx, questionId: number, teamId: number | undefined) {
  const competitionId = await repo.questionCompetition(ctx.db, questionId);
  if (competitionId === undefined) throw notFound('赛题不存在');
  let team = teamId;
  const mine = await repo.teamOfUser(ctx.db, competitionId, ctx.actor.userId);
  if (!team || team !== mine) {
    if (!policy.isStaff(ctx, 'organiser')) {
      // A participant reads their own team's works; naming another team is refused, not quietly answered for their own.
      if (!mine || team) throw notFound('作品不存在');
      team = mine;
    } else {
      await competitions.managedCompetition(ctx, competitionId);
      if (!team) throw badRequest('请指定队伍', { teamId: '请指定队伍' });
    }
  }
  return (await repo.teamVersions(ctx.db, questionId, team)).map(toVersion);
}

/** The back office's list of a question's works, every version, for its organisers. */
export async function questionWorks(ctx: Ctx, questionId: number, q: WorksPageQuery, max = q.limit) {
  const competitionId = await repo.questionCompetition(ctx.db, questionId);
  if (competitionId === undefined) throw notFound('赛题不存在');
  await competitions.managedCompetition(ctx, competitionId);
  const { rows, total } = await repo.questionVersions(ctx.db, questionId, {
    ids: q.ids,
    keyword: q.keyword,
    counting: q.counting === '1',
    limit: max,
    offset: (q.page - 1) * q.limit,
  });
  return { list: rows.map(toVersion), total };
}

/** Every version of a question's works the filters keep, for its organisers, in batches: the export. */
export async function exportQuestionWorks(ctx: Ctx, questionId: number, q: { ids?: number[]; keyword?: string; counting?: '1' }, batchSize?: number) {
  const competitionId = await repo.questionCompetition(ctx.db, questionId);
  if (competitionId === undefined) throw notFound('赛题不存在');
  await competitions.managedCompetition(ctx, competitionId);
  const batches = repo.exportQuestionVersions(ctx.db, questionId, { ids: q.ids, keyword: q.keyword, counting: q.counting === '1' }, batchSize);
  return (async function* () {
    for await (const rows of batches) yield rows.map(toVersion);
  })();
}

// A work is read by its team and by the organisers of its competition; judges download theirs through the review
// centre, named by the work's code.
grantPrivateReads('works', async (ctx, key) => {
  const w = await repo.workOfFile(ctx.db, key);
  if (!w) return false;
  return teams.memberOrOrganiser(ctx, { id: w.teamId, competitionId: w.competitionId }, 'organiser');
});

/** The tus server receiving works' bytes under `path` (see tus-server.ts); a finish past the deadline is a 409. */
export const uploadServer = (deps: Deps, path: string, idOf: (req: Request) => string | undefined) =>
  makeUploadServer(deps, path, idOf, async (uploadId) => {
    await finishUpload(deps, uploadId).catch((err: unknown) => {
      throw err instanceof DeadlinePassed ? conflict(err.message) : err;
    });
  });

// ---- The team's own 查重 report (issue 37) ---------------------------------------------------------------------------

/** A report of at most this size (a 知网 or 维普 report is a PDF of a few pages). */
export const SIMILARITY_REPORT_MAX_BYTES = 20 * 1024 * 1024;

const reportView = (r: { fileName: string; declaredRate: number; createdAt: string } | undefined) =>
  r ? { fileName: r.fileName, declaredRate: r.declaredRate, createdAt: r.createdAt } : null;

export async function similarityReport(ctx: AuthedCtx, questionId: number) {
  const w = await worksContext(ctx, ctx.actor.userId, questionId);
  return reportView(await repo.findSimilarityReport(ctx.db, questionId, w.teamId));
}

/**
 * The team uploads its own report with its works, and the rate it declares (percent, one decimal): while it may still
 * submit works. A new report replaces the last.
 */
export async function uploadSimilarityReport(ctx: AuthedCtx, questionId: number, content: Readable, fileName: string, ratePercent: number) {
  const w = await worksContext(ctx, ctx.actor.userId, questionId);
  if (!w.open) throw conflict(w.refusal ?? '作品提交已截止');
  if (!/\.pdf$/i.test(fileName)) throw badRequest('请上传PDF格式的查重报告', { file: '请上传PDF格式的查重报告' });
  let stored: StoredFile;
  try {
    stored = await ctx.storage.put(content, { prefix: 'similarity-report', maxBytes: SIMILARITY_REPORT_MAX_BYTES });
  } catch (err) {
    if (err instanceof FileTooLargeError) throw badRequest('查重报告不能超过20MB', { file: '查重报告不能超过20MB' });
    throw err;
  }
  const before = await repo.findSimilarityReport(ctx.db, questionId, w.teamId);
  const now = ctx.clock.now().toISOString();
  await repo.saveSimilarityReport(ctx.db, {
    questionId,
    teamId: w.teamId,
    fileKey: stored.key,
    fileName: displayName(fileName).slice(0, 255),
    declaredRate: Math.round(ratePercent * 10),
    createdAt: now,
  });
  if (before) await ctx.storage.delete(before.fileKey).catch(() => undefined);
  return reportView(await repo.findSimilarityReport(ctx.db, questionId, w.teamId))!;
}
