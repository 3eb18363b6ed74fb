import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { METRIC_INFO, type EvaluationBody, type QuestionBody, type QuestionPageQuery } from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { sanitizeRichText } from '../../http/html.ts';
import { CsvError, csvMime, storedCsv } from '../../scoring/csv.ts';
import { preparedTag, storePrepared } from '../../scoring/prepared.ts';
import { loadAnswers, type Answers, type Evaluation, type SplitRule } from '../../scoring/score.ts';
import { FileTooLargeError } from '../../storage/file-store.ts';
import { writeAudit } from '../audit-log/index.ts';
import { startRescoring } from '../test-submissions/index.ts';
import { displayName } from '../files/index.ts';
import { withoutOrg } from '../../http/reply.ts';
import * as repo from './repo.ts';
import * as policy from '../../policy.ts';

/** A question of a competition the caller manages (reviewers of the platform see every one). */
async function managedQuestion(ctx: Ctx, id: number) {
  const q = await repo.findQuestion(ctx.db, id);
  if (!q || !(policy.reviewsQuestions(ctx) || policy.actsFor(ctx, q.orgId))) throw notFound('赛题不存在');
  return q;
}

export const check = async (ctx: Ctx, id: number) => withoutOrg(await managedQuestion(ctx, id));

export async function page(ctx: AuthedCtx, q: QuestionPageQuery) {
  const { list, total } = await repo.listQuestions(ctx.db, q, policy.reviewsQuestions(ctx) ? undefined : (ctx.actor.orgId ?? null));
  return { list: list.map(withoutOrg), total };
}

export async function listOfCompetition(ctx: Ctx, competitionId: number) {
  await policy.managesCompetition(ctx, competitionId);
  return (await repo.listQuestions(ctx.db, { competitionId, page: 1, limit: 100 }, undefined)).list.map(withoutOrg);
}

const evaluationColumns = (e: EvaluationBody | null | undefined) => ({
  metric: e?.metric ?? null,
  idColumn: e?.idColumn ?? null,
  targetColumn: e?.targetColumn ?? null,
  publicPercent: e?.publicPercent ?? null,
  dailyLimit: e?.dailyLimit ?? null,
  // Kept only for the metrics that read them, so that a stray setting never differs between two equal evaluations.
  positiveLabel: e && METRIC_INFO[e.metric].option === 'positiveLabel' ? (e.positiveLabel ?? null) : null,
  topK: e && METRIC_INFO[e.metric].option === 'k' ? (e.k ?? null) : null,
});

/** The id and target columns name two different columns of the files. */
function checkColumns(e: EvaluationBody | null | undefined) {
  if (e && e.idColumn.trim() === e.targetColumn.trim()) throw badRequest('编号列与目标列不能是同一列', { targetColumn: '编号列与目标列不能是同一列' });
}

/**
 * Whether a change of setting changes the scores: anything but the column names and the daily limit (the metric, the
 * public share, and whatever the metric reads, such as a positive label or a k).
 */
function changesScores(before: EvaluationBody | null, after: EvaluationBody) {
  // Compared as stored: a setting the metric does not read (a stray positive label, say) changes nothing.
  const scoring = (e: EvaluationBody | null) => {
    const { idColumn: _id, targetColumn: _target, dailyLimit: _limit, ...rest } = evaluationColumns(e);
    return JSON.stringify(rest);
  };
  return scoring(before) !== scoring(after);
}

export async function create(ctx: AuthedCtx, competitionId: number, body: QuestionBody) {
  await policy.managesCompetition(ctx, competitionId);
  checkColumns(body.evaluation);
  const now = ctx.clock.now().toISOString();
  const id = await repo.insertQuestion(ctx.db, {
    competitionId,
    title: body.title,
    content: sanitizeRichText(body.content),
    sort: body.sort,
    reviewed: 0,
    creatorId: ctx.actor.userId,
    salt: randomBytes(16).toString('hex'),
    ...evaluationColumns(body.evaluation),
    createdAt: now,
    updatedAt: now,
  });
  await writeAudit(ctx, { action: 'question.create', entity: 'question', entityId: id, after: { ...body, content: undefined } });
  return { id };
}

type Secrets = { salt: string | null; splitRule: string };

function evaluationOf(e: EvaluationBody, secrets: Secrets): Evaluation {
  return { metric: e.metric, idColumn: e.idColumn, targetColumn: e.targetColumn, publicShare: e.publicPercent / 100, salt: secrets.salt!, split: secrets.splitRule as SplitRule, positiveLabel: e.positiveLabel, k: e.k };
}

/** Reads the stored answer file under an evaluation setting; its problems come back as a 400 for the organiser. */
async function checkAnswer(ctx: Ctx, key: string, evaluation: EvaluationBody, secrets: Secrets) {
  try {
    // A CSV, .csv.gz or .zip holding one CSV; the size limit applies to the unpacked CSV.
    return await loadAnswers(storedCsv(ctx.storage, key, ctx.config.answerMaxBytes), evaluationOf(evaluation, secrets));
  } catch (err) {
    if (err instanceof CsvError) throw badRequest(`答案文件有误：${err.message}`, { answer: err.message });
    throw err;
  }
}

/**
 * Stores the answers as loaded (scoring/prepared.ts), so that scoring reads them back instead of the CSV; a store that
 * fails only costs that speed (scoring then reads the CSV), never the upload.
 */
async function prepare(ctx: Ctx, answerKey: string, answers: Answers, evaluation: EvaluationBody, secrets: Secrets) {
  try {
    return { answerIndexKey: await storePrepared(ctx.storage, answers), answerIndexTag: preparedTag(answerKey, evaluationOf(evaluation, secrets)) };
  } catch (err) {
    ctx.log.error({ err }, 'storing the loaded answers failed');
    return { answerIndexKey: null, answerIndexTag: null };
  }
}

export async function update(ctx: Ctx, id: number, body: QuestionBody) {
  const before = await managedQuestion(ctx, id);
  checkColumns(body.evaluation);
  const secrets = (await repo.findScoringSecrets(ctx.db, id))!;
  let prepared: Awaited<ReturnType<typeof prepare>> | null = null;
  if (secrets.answerKey) {
    if (!body.evaluation) throw badRequest('已上传答案文件的赛题须保留评分设置', { evaluation: '已上传答案文件的赛题须保留评分设置' });
    // Files already sent name the columns as they were: renamed, those files could never be scored again.
    const renamed = before.evaluation && (before.evaluation.idColumn !== body.evaluation.idColumn || before.evaluation.targetColumn !== body.evaluation.targetColumn);
    if (renamed && (await repo.hasTestSubmissions(ctx.db, id))) {
      throw conflict('已有队伍提交测试结果，不能再修改编号列或目标列的列名（已提交的文件按原列名读取，改名后将无法重新评分）');
    }
    // A new metric or column names must still fit the answer file already uploaded; the answers are loaded again (and
    // stored, scoring/prepared.ts) only when what loading reads changed, not for a daily limit.
    const tag = preparedTag(secrets.answerKey, evaluationOf(body.evaluation, secrets));
    if (JSON.stringify(body.evaluation) !== JSON.stringify(before.evaluation) && tag !== secrets.answerIndexTag) {
      prepared = await prepare(ctx, secrets.answerKey, await checkAnswer(ctx, secrets.answerKey, body.evaluation, secrets), body.evaluation, secrets);
    }
  }
  // Scores computed under the old setting are scored again under the new one; until then the boards leave them out.
  const rescore = Boolean(secrets.answerKey && body.evaluation && changesScores(before.evaluation, body.evaluation));
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateQuestion(trx, id, { title: body.title, content: sanitizeRichText(body.content), sort: body.sort, ...evaluationColumns(body.evaluation), ...prepared, updatedAt: ctx.clock.now().toISOString() });
    if (rescore) await startRescoring(trx, id, ctx.clock.now());
  });
  if (prepared && secrets.answerIndexKey) await ctx.storage.delete(secrets.answerIndexKey);
  await writeAudit(ctx, { action: 'question.update', entity: 'question', entityId: id, before: { ...withoutOrg(before), content: undefined }, after: { ...body, content: undefined } });
}

export async function setCreator(ctx: Ctx, id: number, creatorId: number) {
  await managedQuestion(ctx, id);
  if (!(await repo.userExists(ctx.db, creatorId))) throw badRequest('出题人不存在', { creatorId: '出题人不存在' });
  await repo.updateQuestion(ctx.db, id, { creatorId, updatedAt: ctx.clock.now().toISOString() });
  await writeAudit(ctx, { action: 'question.creator', entity: 'question', entityId: id, after: { creatorId } });
}

export async function review(ctx: Ctx, id: number, reviewed: boolean) {
  const before = await managedQuestion(ctx, id);
  if (reviewed && !before.evaluation) throw conflict('请先完成评分设置再审核');
  await repo.updateQuestion(ctx.db, id, { reviewed: reviewed ? 1 : 0, updatedAt: ctx.clock.now().toISOString() });
  await writeAudit(ctx, { action: reviewed ? 'question.review' : 'question.unreview', entity: 'question', entityId: id });
}

export async function remove(ctx: Ctx, id: number) {
  const before = await managedQuestion(ctx, id);
  if (await repo.isChosen(ctx.db, id)) throw conflict('已有队伍选择该赛题，不能删除');
  const secrets = await repo.findScoringSecrets(ctx.db, id);
  await repo.deleteQuestion(ctx.db, id);
  if (secrets?.answerKey) await dropAnswer(ctx, secrets.answerKey);
  if (secrets?.answerIndexKey) await ctx.storage.delete(secrets.answerIndexKey);
  await writeAudit(ctx, { action: 'question.delete', entity: 'question', entityId: id, before: { ...withoutOrg(before), content: undefined } });
}

/** Removes one of a question's public data files. */
export async function removeFile(ctx: Ctx, id: number, fileUri: string) {
  const q = await managedQuestion(ctx, id);
  if (!q.files.some((f) => f.fileUri === fileUri)) throw notFound('数据文件不存在');
  await repo.deleteDataFile(ctx.db, id, fileUri);
  await ctx.storage.delete(fileUri);
  await writeAudit(ctx, { action: 'question.file.delete', entity: 'question', entityId: id, before: { fileUri } });
}

async function dropAnswer(ctx: Ctx, key: string) {
  await repo.deleteFileRecord(ctx.db, key);
  await ctx.storage.delete(key);
}

/**
 * Stores the hidden answer file of a question after checking it against the evaluation setting. It is kept under its
 * own purpose, which no download route serves, and replaces the previous one.
 */
export async function uploadAnswer(ctx: AuthedCtx, id: number, content: Readable, originalName: string, maxBytes: number) {
  const q = await managedQuestion(ctx, id);
  if (!q.evaluation) throw badRequest('请先保存评分设置，再上传答案文件', { evaluation: '请先保存评分设置，再上传答案文件' });
  const secrets = (await repo.findScoringSecrets(ctx.db, id))!;
  let stored;
  try {
    stored = await ctx.storage.put(content, { prefix: 'answer', maxBytes });
  } catch (err) {
    if (err instanceof FileTooLargeError) throw new AppError(413, `答案文件不能超过${Math.round(maxBytes / 1024 / 1024)}MB`);
    throw err;
  }
  let answers: Answers;
  try {
    answers = await checkAnswer(ctx, stored.key, q.evaluation, secrets);
  } catch (err) {
    await ctx.storage.delete(stored.key);
    throw err;
  }
  const rows = answers.index.size;
  const mime = await csvMime(storedCsv(ctx.storage, stored.key, ctx.config.answerMaxBytes));
  const prepared = await prepare(ctx, stored.key, answers, q.evaluation, secrets);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertAnswerFile(trx, { key: stored.key, originalName: displayName(originalName), mime, size: stored.size, sha256: stored.sha256, ownerId: ctx.actor.userId, visibility: 'private', purpose: 'answer', createdAt: now });
    await repo.updateQuestion(trx, id, { answerKey: stored.key, answerRows: rows, ...prepared, updatedAt: now });
    // A new answer file: every submission scored against the old one is scored again.
    if (secrets.answerKey) await startRescoring(trx, id, ctx.clock.now());
  });
  if (secrets.answerKey) await dropAnswer(ctx, secrets.answerKey);
  if (secrets.answerIndexKey) await ctx.storage.delete(secrets.answerIndexKey);
  await writeAudit(ctx, { action: 'question.answer', entity: 'question', entityId: id, after: { rows, size: stored.size, sha256: stored.sha256 } });
  return { rows };
}
