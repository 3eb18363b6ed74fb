import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  ACTION_CODES,
  AUDIT_STATUS,
  CUSTOM_METRIC,
  DEFAULT_TIME_LIMIT_SEC,
  GRADE_STATE,
  METRIC_INFO,
  SCORER_MAX_BYTES,
  judgingOf,
  realNameRequiredText,
  type EvaluationBody,
  type Judging,
  type Metric,
  type QuestionBody,
  type QuestionPageQuery,
  type ScorerTry,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { AppError, badRequest, conflict, forbidden, notFound, tooMany } from '../../http/errors.ts';
import { sanitizeRichText } from '../../http/html.ts';
import { tenantSlots } from '../../http/semaphore.ts';
import { CsvError, csvMime, storedCsv } from '../../scoring/csv.ts';
import { checkAnswerIds, ProgramFailure, scoreWithProgram } from '../../scoring/custom.ts';
import { loadProgram, ProgramError, readProgram } from '../../scoring/program.ts';
import { sandboxStatus } from '../../scoring/sandbox.ts';
import { preparedTag, storePrepared } from '../../scoring/prepared.ts';
import { loadAnswers, type Answers, type Evaluation, type SplitRule } from '../../scoring/score.ts';
import { FileTooLargeError, readStored } from '../../storage/file-store.ts';
import { writeAudit } from '../audit-log/index.ts';
import { loadRule } from '../review/index.ts';
import { startRescoring } from '../test-submissions/index.ts';
import { displayName, gatePublicReads, releaseFile } from '../files/index.ts';
import { assertVerified } from '../real-names/index.ts';
import { notify } from '../notices/index.ts';
import { holdersActingFor, holdersOf } from '../roles/index.ts';
import { withoutOrg } from '../../http/reply.ts';
import { EVERY_ORG, oneOrg } from '../../db/org-scope.ts';
import * as repo from './repo.ts';
import * as competitions from '../competitions/index.ts';
import * as policy from '../../policy.ts';

/** The questions of a competition the caller may read, as the site shows them. */
export async function publicList(ctx: Ctx, competitionId: number) {
  await competitions.readableCompetition(ctx, competitionId);
  return repo.publicQuestions(ctx.db, competitionId);
}
/** One question of a competition the caller may read, as the site shows it. */
export async function publicQuestion(ctx: Ctx, id: number) {
  const competitionId = await repo.competitionOfQuestion(ctx.db, id);
  if (competitionId === undefined) throw notFound('赛题不存在');
  await competitions.readableCompetition(ctx, competitionId);
  const [question] = await repo.publicQuestions(ctx.db, competitionId, id);
  if (!question) throw notFound('赛题不存在');
  return question;
}

/** A question of a competition the caller manages (reviewers of the platform see every one). */
async function managedQuestion(ctx: Ctx, id: number) {
  const q = await repo.findQuestion(ctx.db, id);
  if (!q || !(policy.reviewsQuestions(ctx) || policy.actsFor(ctx, q.orgId))) throw notFound('赛题不存在');
  return q;
}

export const check = async (ctx: Ctx, id: number) => withoutOrg(await managedQuestion(ctx, id));

export async function page(ctx: AuthedCtx, q: QuestionPageQuery) {
  const { list, total } = await repo.listQuestions(ctx.db, q, policy.reviewsQuestions(ctx) ? EVERY_ORG : oneOrg(ctx.actor.orgId ?? null));
  return { list: list.map(withoutOrg), total };
}

export async function listOfCompetition(ctx: Ctx, competitionId: number) {
  await competitions.managedCompetition(ctx, competitionId);
  return (await repo.listQuestions(ctx.db, { competitionId, page: 1, limit: 100 }, EVERY_ORG)).list.map(withoutOrg);
}

const isCustom = (e: EvaluationBody | null | undefined) => e?.metric === CUSTOM_METRIC;
/** The option a built-in metric reads, if any. */
const optionOf = (e: EvaluationBody | null | undefined) => (e && !isCustom(e) ? METRIC_INFO[e.metric as Metric].option : undefined);

const evaluationColumns = (e: EvaluationBody | null | undefined) => ({
  metric: e?.metric ?? null,
  idColumn: e?.idColumn ?? null,
  targetColumn: e?.targetColumn ?? null,
  publicPercent: e?.publicPercent ?? null,
  dailyLimit: e?.dailyLimit ?? null,
  // Kept only for the metrics that read them, so that a stray setting never differs between two equal evaluations.
  positiveLabel: optionOf(e) === 'positiveLabel' ? (e!.positiveLabel ?? null) : null,
  topK: optionOf(e) === 'k' ? (e!.k ?? null) : null,
  // An own program's direction and time limit, stored with their defaults.
  higherIsBetter: isCustom(e) ? (e!.higherIsBetter === false ? 0 : 1) : null,
  timeLimitSec: isCustom(e) ? (e!.timeLimitSec ?? DEFAULT_TIME_LIMIT_SEC) : null,
  metricName: isCustom(e) ? e!.metricName || null : null,
});

/** The id and target columns name two different columns of the files. */
function checkColumns(e: EvaluationBody | null | undefined) {
  if (e?.targetColumn !== undefined && e.idColumn.trim() === e.targetColumn.trim())
    throw badRequest('编号列与目标列不能是同一列', { targetColumn: '编号列与目标列不能是同一列' });
}

/**
 * Whether a change of setting changes the scores or their order: anything but the column names, the daily limit and a
 * program's time limit (the metric, the public share, whatever the metric reads, such as a positive label or a k, and
 * an own program's direction).
 */
function changesScores(before: EvaluationBody | null, after: EvaluationBody) {
  // Compared as stored: a setting the metric does not read (a stray positive label, say) changes nothing.
  const scoring = (e: EvaluationBody | null) => {
    const { idColumn: _id, targetColumn: _target, dailyLimit: _limit, timeLimitSec: _time, metricName: _name, ...rest } = evaluationColumns(e);
    return JSON.stringify(rest);
  };
  return scoring(before) !== scoring(after);
}

export async function create(ctx: AuthedCtx, competitionId: number, body: QuestionBody) {
  const competition = await competitions.managedCompetition(ctx, competitionId);
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
    judging: judgingOf(body.judging, body.evaluation),
    ...evaluationColumns(body.evaluation),
    createdAt: now,
    updatedAt: now,
  });
  await writeAudit(ctx, { action: 'question.create', entity: 'question', entityId: id, after: { ...body, content: undefined } });
  // The competition's audit approved its questions; one added since waits for a reviewer, who is told (and sees it on
  // the to-do home).
  if (competition.auditStatus === AUDIT_STATUS.online || competition.auditStatus === AUDIT_STATUS.offline) {
    const reviewers = (await holdersActingFor(ctx.db, ACTION_CODES.questionReview, competition.orgId)).filter((u) => u !== ctx.actor.userId);
    await notify(ctx, reviewers, {
      title: '新赛题待审核',
      content: `竞赛“${competition.name}”新增了赛题“${body.title}”，审核通过后参赛者才能看到并选择它。请在该竞赛的“赛题”页审核。`,
      source: 'question.created',
    });
  }
  return { id };
}

type Secrets = { salt: string | null; splitRule: string };

/** A built-in metric's evaluation, as the scoring engine reads it. */
function evaluationOf(e: EvaluationBody, secrets: Secrets): Evaluation {
  return {
    metric: e.metric as Metric,
    idColumn: e.idColumn,
    targetColumn: e.targetColumn!,
    publicShare: e.publicPercent / 100,
    salt: secrets.salt!,
    split: secrets.splitRule as SplitRule,
    positiveLabel: e.positiveLabel,
    k: e.k,
  };
}

/**
 * Reads the stored answer file under an evaluation setting; its problems come back as a 400 for the organiser. A
 * built-in metric loads it (answers the loaded form); an own program gets it checked for its ids only (answers null).
 */
async function checkAnswer(ctx: Ctx, key: string, evaluation: EvaluationBody, secrets: Secrets): Promise<{ rows: number; answers: Answers | null }> {
  try {
    // A CSV, .csv.gz or .zip holding one CSV; the size limit applies to the unpacked CSV.
    const file = storedCsv(ctx.storage, key, ctx.config.answerMaxBytes);
    if (isCustom(evaluation)) return { rows: await checkAnswerIds(file, evaluation.idColumn), answers: null };
    const answers = await loadAnswers(file, evaluationOf(evaluation, secrets));
    return { rows: answers.index.size, answers };
  } catch (err) {
    if (err instanceof CsvError) throw badRequest(`答案文件有误：${err.message}`, { answer: err.message });
    throw err;
  }
}

/**
 * Stores the answers as loaded (scoring/prepared.ts), so that scoring reads them back instead of the CSV; a store that
 * fails only costs that speed (scoring then reads the CSV), never the upload.
 */
async function prepare(ctx: Ctx, answerKey: string, answers: Answers | null, evaluation: EvaluationBody, secrets: Secrets) {
  // An own program reads the CSV itself: nothing to keep.
  if (!answers) return { answerIndexKey: null, answerIndexTag: null };
  try {
    return { answerIndexKey: await storePrepared(ctx.storage, answers), answerIndexTag: preparedTag(answerKey, evaluationOf(evaluation, secrets)) };
  } catch (err) {
    ctx.log.error({ err }, 'storing the loaded answers failed');
    return { answerIndexKey: null, answerIndexTag: null };
  }
}

/**
 * The judging an update leaves: the one it names, else the question's own while it keeps an evaluation (an `auto`
 * question stays so), else what the evaluation implies. Once grades are confirmed it cannot change: they were made by it.
 */
async function judgingAfter(ctx: Ctx, before: { id: number; judging: Judging }, body: QuestionBody): Promise<Judging> {
  const after = body.judging ?? (body.evaluation && before.judging !== 'review' ? before.judging : judgingOf(undefined, body.evaluation));
  if (after !== before.judging && (await loadRule(ctx.db, before.id)).gradeState === GRADE_STATE.confirmed) {
    throw conflict('该赛题的成绩已确认，不能再修改评判方式');
  }
  return after;
}

export async function update(ctx: Ctx, id: number, body: QuestionBody) {
  const before = await managedQuestion(ctx, id);
  checkColumns(body.evaluation);
  const judging = await judgingAfter(ctx, before, body);
  const secrets = (await repo.findScoringSecrets(ctx.db, id))!;
  let prepared: Awaited<ReturnType<typeof prepare>> | null = null;
  if (secrets.answerKey) {
    if (!body.evaluation) throw badRequest('已上传答案文件的赛题须保留评分设置', { evaluation: '已上传答案文件的赛题须保留评分设置' });
    // Files already sent name the columns as they were: renamed, those files could never be scored again.
    // (An own program reads no target column: only the id column counts for it, and a question that was scored by
    // one had none to rename.)
    const renamed =
      before.evaluation &&
      (before.evaluation.idColumn !== body.evaluation.idColumn ||
        (!isCustom(body.evaluation) && before.evaluation.targetColumn !== undefined && before.evaluation.targetColumn !== body.evaluation.targetColumn));
    if (renamed && (await repo.hasTestSubmissions(ctx.db, id))) {
      throw conflict('已有队伍提交测试结果，不能再修改编号列或目标列的列名（已提交的文件按原列名读取，改名后将无法重新评分）');
    }
    // A new metric or column names must still fit the answer file already uploaded; the answers are loaded again (and
    // stored, scoring/prepared.ts) only when what loading reads changed, not for a daily limit.
    const tag = isCustom(body.evaluation) ? null : preparedTag(secrets.answerKey, evaluationOf(body.evaluation, secrets));
    if (JSON.stringify(body.evaluation) !== JSON.stringify(before.evaluation) && (tag === null || tag !== secrets.answerIndexTag)) {
      prepared = await prepare(ctx, secrets.answerKey, (await checkAnswer(ctx, secrets.answerKey, body.evaluation, secrets)).answers, body.evaluation, secrets);
    }
  }
  // Scores computed under the old setting are scored again under the new one; until then the boards leave them out.
  const rescore = Boolean(secrets.answerKey && body.evaluation && changesScores(before.evaluation, body.evaluation));
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateQuestion(trx, id, {
      title: body.title,
      content: sanitizeRichText(body.content),
      sort: body.sort,
      judging,
      ...evaluationColumns(body.evaluation),
      ...prepared,
      updatedAt: ctx.clock.now().toISOString(),
    });
    if (rescore) await startRescoring(trx, id, ctx.clock.now());
  });
  if (prepared && secrets.answerIndexKey) await releaseFile(ctx, secrets.answerIndexKey);
  await writeAudit(ctx, {
    action: 'question.update',
    entity: 'question',
    entityId: id,
    before: { ...withoutOrg(before), content: undefined },
    after: { ...body, content: undefined },
  });
}

export async function setCreator(ctx: Ctx, id: number, creatorId: number) {
  await managedQuestion(ctx, id);
  if (!(await repo.userExists(ctx.db, creatorId))) throw badRequest('出题人不存在', { creatorId: '出题人不存在' });
  await repo.updateQuestion(ctx.db, id, { creatorId, updatedAt: ctx.clock.now().toISOString() });
  await writeAudit(ctx, { action: 'question.creator', entity: 'question', entityId: id, after: { creatorId } });
}

export async function review(ctx: Ctx, id: number, reviewed: boolean) {
  const q = await managedQuestion(ctx, id);
  await repo.updateQuestion(ctx.db, id, { reviewed: reviewed ? 1 : 0, updatedAt: ctx.clock.now().toISOString() });
  await writeAudit(ctx, { action: reviewed ? 'question.review' : 'question.unreview', entity: 'question', entityId: id });
  if (reviewed && !q.reviewed) {
    // Its author and the organisation's editors learn that it is public now.
    const editors = await holdersOf(ctx.db, ACTION_CODES.competitionEdit, q.orgId);
    const to = [...(q.creatorId === null ? [] : [q.creatorId]), ...editors].filter((u) => u !== ctx.actor?.userId);
    await notify(ctx, to, {
      title: '赛题已审核通过',
      content: `竞赛“${q.competitionName}”的赛题“${q.title}”已审核通过，参赛者现在可以看到并选择它。`,
      source: 'question.reviewed',
    });
  }
}

export async function remove(ctx: Ctx, id: number) {
  const before = await managedQuestion(ctx, id);
  if (await repo.isChosen(ctx.db, id)) throw conflict('已有队伍选择该赛题，不能删除');
  const secrets = await repo.findScoringSecrets(ctx.db, id);
  await repo.deleteQuestion(ctx.db, id);
  if (secrets?.answerKey) await dropHiddenFile(ctx, secrets.answerKey);
  if (secrets?.answerIndexKey) await releaseFile(ctx, secrets.answerIndexKey);
  if (secrets?.scorerKey) await dropHiddenFile(ctx, secrets.scorerKey);
  await writeAudit(ctx, { action: 'question.delete', entity: 'question', entityId: id, before: { ...withoutOrg(before), content: undefined } });
}

/** Removes one of a question's public data files. */
export async function removeFile(ctx: Ctx, id: number, fileUri: string) {
  const q = await managedQuestion(ctx, id);
  if (!q.files.some((f) => f.fileUri === fileUri)) throw notFound('数据文件不存在');
  await repo.deleteDataFile(ctx.db, id, fileUri);
  await releaseFile(ctx, fileUri);
  await writeAudit(ctx, { action: 'question.file.delete', entity: 'question', entityId: id, before: { fileUri } });
}

/** Removes a hidden file of a question (an answer file, a scoring program) and its record, unless another edition's question holds it too. */
const dropHiddenFile = (ctx: Ctx, key: string) => releaseFile(ctx, key);

/** Stores an upload under its purpose, refused with a 413 naming `what` beyond `maxBytes`. */
async function putHidden(ctx: Ctx, content: Readable, prefix: string, maxBytes: number, what: string) {
  try {
    return await ctx.storage.put(content, { prefix, maxBytes });
  } catch (err) {
    if (err instanceof FileTooLargeError) throw new AppError(413, `${what}不能超过${Math.round(maxBytes / 1024 / 1024)}MB`);
    throw err;
  }
}

/**
 * Stores the hidden answer file of a question after checking it against the evaluation setting. It is kept under its
 * own purpose, which no download route serves, and replaces the previous one.
 */
export async function uploadAnswer(ctx: AuthedCtx, id: number, content: Readable, originalName: string, maxBytes: number) {
  const q = await managedQuestion(ctx, id);
  if (!q.evaluation) throw badRequest('请先保存评分设置，再上传答案文件', { evaluation: '请先保存评分设置，再上传答案文件' });
  const secrets = (await repo.findScoringSecrets(ctx.db, id))!;
  const stored = await putHidden(ctx, content, 'answer', maxBytes, '答案文件');
  let checked: Awaited<ReturnType<typeof checkAnswer>>;
  try {
    checked = await checkAnswer(ctx, stored.key, q.evaluation, secrets);
  } catch (err) {
    await ctx.storage.delete(stored.key);
    throw err;
  }
  const { rows, answers } = checked;
  const mime = await csvMime(storedCsv(ctx.storage, stored.key, ctx.config.answerMaxBytes));
  const prepared = await prepare(ctx, stored.key, answers, q.evaluation, secrets);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertHiddenFile(trx, {
      key: stored.key,
      originalName: displayName(originalName),
      mime,
      size: stored.size,
      sha256: stored.sha256,
      ownerId: ctx.actor.userId,
      visibility: 'private',
      purpose: 'answer',
      createdAt: now,
    });
    await repo.updateQuestion(trx, id, { answerKey: stored.key, answerRows: rows, ...prepared, updatedAt: now });
    // A new answer file: every submission scored against the old one is scored again.
    if (secrets.answerKey) await startRescoring(trx, id, ctx.clock.now());
  });
  if (secrets.answerKey) await dropHiddenFile(ctx, secrets.answerKey);
  if (secrets.answerIndexKey) await releaseFile(ctx, secrets.answerIndexKey);
  await writeAudit(ctx, { action: 'question.answer', entity: 'question', entityId: id, after: { rows, size: stored.size, sha256: stored.sha256 } });
  return { rows };
}

/** A question scored by an own program, of a competition the caller manages; anything else is refused plainly. */
async function customQuestion(ctx: Ctx, id: number) {
  const q = await managedQuestion(ctx, id);
  if (!isCustom(q.evaluation)) throw conflict('请先将评分指标设为“自定义评分程序”并保存，再上传或试运行评分程序');
  return q;
}

/** Programs cannot run safely here: said at upload and at a try, never worked around. */
async function requireSandbox(ctx: Ctx) {
  const status = await sandboxStatus(ctx.config.scorer.runner, ctx.config.scorer.image);
  if (!status.ok) throw conflict(`服务器无法安全运行评分程序：${status.reason}。请联系平台管理员安装 bubblewrap 或配置容器运行时（SCORER_RUNNER）`);
}

/** The question's current scoring program: name, size, digest, when and by whom it was uploaded; null when none. */
export async function scorer(ctx: Ctx, id: number) {
  return (await managedQuestion(ctx, id)).scorer;
}

/**
 * Takes a question's own scoring program: a `.py` file, or a `.zip` with `score.py` at its root. Refused when no
 * sandbox can run it here (with why), or when it cannot be read. A program replacing another has every submission
 * scored again.
 */
export async function uploadScorer(ctx: AuthedCtx, id: number, content: Readable, originalName: string) {
  await customQuestion(ctx, id);
  await requireSandbox(ctx);
  const stored = await putHidden(ctx, content, 'scorer', SCORER_MAX_BYTES, '评分程序');
  try {
    if (!stored.size) throw badRequest('评分程序文件为空', { file: '评分程序文件为空' });
    await readProgram(await readStored(ctx.storage, stored.key), originalName);
  } catch (err) {
    await ctx.storage.delete(stored.key);
    if (err instanceof ProgramError) throw badRequest(err.message, { file: err.message });
    throw err;
  }
  const secrets = (await repo.findScoringSecrets(ctx.db, id))!;
  const now = ctx.clock.now().toISOString();
  const mime = originalName.toLowerCase().endsWith('.zip') ? 'application/zip' : 'text/x-python';
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertHiddenFile(trx, {
      key: stored.key,
      originalName: displayName(originalName),
      mime,
      size: stored.size,
      sha256: stored.sha256,
      ownerId: ctx.actor.userId,
      visibility: 'private',
      purpose: 'scorer',
      createdAt: now,
    });
    await repo.updateQuestion(trx, id, { scorerKey: stored.key, updatedAt: now });
    // A new program: every submission scored before (by the old one, or refused for want of one) is scored again.
    if (secrets.answerKey && (await repo.hasTestSubmissions(trx, id))) await startRescoring(trx, id, ctx.clock.now());
  });
  if (secrets.scorerKey) await dropHiddenFile(ctx, secrets.scorerKey);
  await writeAudit(ctx, {
    action: 'question.scorer',
    entity: 'question',
    entityId: id,
    after: { name: originalName, size: stored.size, sha256: stored.sha256 },
  });
  return (await managedQuestion(ctx, id)).scorer!;
}

/**
 * Tries of programs running at once in this process: each is a sandbox of up to SCORER_MEMORY_MB, so a few at most, and
 * one per organisation, so that one organisation's slow programs never hold every slot (issue 32).
 */
export const TRIES_AT_ONCE = 2;
export const TRIES_PER_ORG = 1;
const trySlots = tenantSlots(TRIES_AT_ONCE, TRIES_PER_ORG);
const orgKey = (orgId: number | null) => String(orgId ?? 'platform');
/** Tries running now in this process, in all or of one organisation (tests watch a try start). */
export const triesRunning = (orgId?: number | null) => trySlots.held(orgId === undefined ? undefined : orgKey(orgId));

/**
 * Runs the question's program on a prediction file as scoring would, without a submission: answers both boards'
 * scores, or the failure with the end of the program's standard error (and the other board's score when it ran well).
 * A prediction that does not fit the answers is a 400 saying why, as a team would be told.
 */
export async function tryScorer(ctx: AuthedCtx, id: number, content: Readable, maxBytes: number): Promise<ScorerTry> {
  const q = await customQuestion(ctx, id);
  const secrets = (await repo.findScoringSecrets(ctx.db, id))!;
  if (!secrets.scorerKey) throw conflict('请先上传评分程序');
  if (!secrets.answerKey) throw conflict('请先上传答案文件：试运行时评分程序读取答案文件');
  await requireSandbox(ctx);
  const slot = trySlots.take(orgKey(q.orgId));
  if (slot === 'own') throw tooMany('本单位已有一个评分程序正在试运行，请等它结束后再试');
  if (slot === 'busy') throw tooMany('正在试运行的评分程序较多，请稍后再试');
  let stored: { key: string } | null = null;
  try {
    stored = await putHidden(ctx, content, 'trial', maxBytes, '测试文件');
    const e = q.evaluation!;
    const out = await scoreWithProgram(
      {
        answer: storedCsv(ctx.storage, secrets.answerKey, ctx.config.answerMaxBytes),
        prediction: storedCsv(ctx.storage, stored.key, maxBytes),
        program: await loadProgram(ctx.storage, secrets.scorerKey),
        idColumn: e.idColumn,
        split: { salt: secrets.salt!, publicShare: e.publicPercent / 100, split: secrets.splitRule as SplitRule },
        timeLimitSec: e.timeLimitSec ?? DEFAULT_TIME_LIMIT_SEC,
      },
      ctx.config.scorer,
    );
    return { ok: true, publicScore: out.publicScore, privateScore: out.privateScore, message: null, stderr: out.stderr, seconds: out.seconds };
  } catch (err) {
    if (err instanceof CsvError) throw badRequest(`预测文件有误：${err.message}`, { file: err.message });
    if (err instanceof ProgramFailure) {
      const part = err.board === 'public' ? '公榜' : '私榜';
      const message = err.refusal ? `${part}部分：评分程序拒绝了该文件，队伍会看到“${err.message}”` : `${part}部分运行失败：${err.message}`;
      return {
        ok: false,
        publicScore: err.partial.publicScore,
        privateScore: err.partial.privateScore,
        message,
        stderr: err.stderr,
        seconds: err.partial.seconds,
      };
    }
    throw err;
  } finally {
    slot();
    if (stored) await ctx.storage.delete(stored.key);
  }
}

// A competition may keep its data for people who completed 实名认证 (its 赛题与数据 menu's setting); its staff always read it.
// A file editions share is kept as strictly as the strictest of them keeps it.
gatePublicReads('questionData', async (ctx, key) => {
  for (const competitionId of await repo.competitionsOfDataFile(ctx.db, key)) {
    if (!(await competitions.realNameRequired(ctx.db, competitionId, 'QUES_AND_DATA'))) continue;
    if (!ctx.actor) throw forbidden(`${realNameRequiredText('QUES_AND_DATA')}（请先登录）`);
    if (await competitions.isManaged(ctx, competitionId)) continue;
    await assertVerified(ctx.db, ctx.actor.userId, 'QUES_AND_DATA');
  }
});
