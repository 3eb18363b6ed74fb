import {
  CUSTOM_METRIC,
  DEFAULT_TIME_LIMIT_SEC,
  ANSWER_BROKEN,
  PROGRAM_FAILED,
  PROGRAM_REFUSED,
  SCORING_FAILURES_SHOWN,
  TEST_STATUS,
  type Metric,
  type RescoreProgress,
  type ScoringFailure,
  type ScoringQueue,
} from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { enqueue, jobsQueued, type JobPlace, type Lane } from '../../jobs/define.ts';
import { CsvError, storedCsv } from '../../scoring/csv.ts';
import { ProgramFailure, scoreWithProgram } from '../../scoring/custom.ts';
import { preparedTag, readPrepared } from '../../scoring/prepared.ts';
import { loadProgram } from '../../scoring/program.ts';
import { answersBytes, loadAnswers, scoreSubmission, type Answers, type Evaluation, type SplitRule } from '../../scoring/score.ts';
import { writeAudit } from '../audit-log/index.ts';
import { teamUserIds } from '../notices/index.ts';
import { releaseJob, rescoreJob, scoreJob } from './jobs.ts';
import * as repo from './repo.ts';
import * as competitions from '../competitions/index.ts';

/** What a question without an evaluation answers instead of a score. */
export const NO_SCORING_FILE = '该赛题没有自动评分，不接受测试文件';

/** Scoring: the answers cache, evaluation (built-in metrics and own programs), the jobs' handlers, rescoring, the queue's views. */

/**
 * The answers of the questions scored last, so a burst of submissions reads a large answer file once. The cache is
 * bounded by the memory the answers take (ANSWER_CACHE_MB), not by their number: the least recently used are dropped
 * first, and the newest is always kept, however large.
 */
const answersCache = new Map<string, { answers: Promise<Answers>; bytes: number }>();

export function cachedAnswers(deps: Pick<Deps, 'storage' | 'config'>, q: AnswerSource, ev: Evaluation): Promise<Answers> {
  const id = JSON.stringify([q.answerKey, ev]);
  const hit = answersCache.get(id);
  if (hit) {
    answersCache.delete(id);
    answersCache.set(id, hit);
    return hit.answers;
  }
  const entry = { answers: loadCold(deps, q, ev), bytes: 0 };
  answersCache.set(id, entry);
  entry.answers.then(
    (answers) => {
      entry.bytes = answersBytes(answers);
      let total = [...answersCache.values()].reduce((sum, e) => sum + e.bytes, 0);
      for (const [other, e] of answersCache) {
        if (total <= deps.config.answerCacheBytes) break;
        if (e === entry || !e.bytes) continue;
        answersCache.delete(other);
        total -= e.bytes;
      }
    },
    () => answersCache.get(id) === entry && answersCache.delete(id),
  );
  return entry.answers;
}

type AnswerSource = { answerKey: string; answerIndexKey: string | null; answerIndexTag: string | null };

/**
 * Answers not held in memory: read back from the form stored at upload when it was loaded under the current setting
 * (scoring/prepared.ts), else read from the CSV (an answer file uploaded before that form existed, or a failed store).
 */
async function loadCold(deps: Pick<Deps, 'storage' | 'config'>, q: AnswerSource, ev: Evaluation): Promise<Answers> {
  if (q.answerIndexKey && q.answerIndexTag === preparedTag(q.answerKey, ev)) {
    const restored = await readPrepared(deps.storage, q.answerIndexKey).catch(() => null);
    if (restored) return restored;
  }
  return loadAnswers(storedCsv(deps.storage, q.answerKey, deps.config.answerMaxBytes), ev);
}

/** The answer files held now, oldest first, with the bytes each takes (tests and the bench). */
export const cachedAnswerBytes = () => [...answersCache.values()].map((e) => e.bytes);

/** At most one word per question and BOARD_TELL_MS to every open stream: the first at once, the burst's last after. */
export const BOARD_TELL_MS = 2000;

const boardTells = new WeakMap<Deps['hub'], Map<number, { again: boolean }>>();

/**
 * A scoring finished. A scored file may move the public board, which anyone may have open: every stream hears of the
 * question (throttled, so a burst of scorings redraws a board a few times, not hundreds). A refused file changes only
 * its team's list: its members hear at once. A failing channel never undoes the score saved.
 */
function tellScored(deps: Pick<Deps, 'hub' | 'log'>, questionId: number, team: number[] | null) {
  const say = (audience: number[] | 'all') =>
    deps.hub.notify(audience, { type: 'board', questionId }).catch((err: unknown) => deps.log.error({ err }, 'notice channel failed'));
  if (team) return void say(team);
  let open = boardTells.get(deps.hub);
  if (!open) boardTells.set(deps.hub, (open = new Map()));
  const pending = open.get(questionId);
  if (pending) {
    pending.again = true;
    return;
  }
  const entry = { again: false };
  open.set(questionId, entry);
  void say('all');
  setTimeout(() => {
    open.delete(questionId);
    if (entry.again) tellScored(deps, questionId, null);
  }, BOARD_TELL_MS).unref();
}

type ScoringQuestion = NonNullable<Awaited<ReturnType<typeof repo.scoringQuestion>>>;

/** An outcome, and for a program's failure on a file sent now, the seconds after the scoring began it is held back. */
type Evaluated = repo.Outcome & { holdSec?: number };

/** The lane a question's scoring jobs run in: its organisation's turn of the program lane, or the general lane. */
export const laneOf = (q: Pick<ScoringQuestion, 'metric' | 'orgId'>): JobPlace => (q.metric === CUSTOM_METRIC ? { lane: 'program', tenant: q.orgId ?? 0 } : {});

/**
 * Stores a scoring's outcome with the team's board rows, in one transaction under the boards' locks (repo.settle);
 * false when the question's scoring setting changed meanwhile (nothing stored: score again).
 */
const settle = (deps: Deps, v: { id: number; questionId: number; version: number; outcome: repo.Outcome }) =>
  deps.db.transaction().execute((trx) => repo.settle(trx, { ...v, at: deps.clock.now().toISOString() }));

/**
 * Scores a prediction file with the organiser's own program (scoring/custom.ts). A file that does not fit the answers
 * is the team's to fix, as with the built-in metrics; a program that fails is the platform's problem: the team reads
 * “评分失败” and a reason that says nothing of the answers, the organisers read the program's standard error.
 */
async function evaluateWithProgram(deps: Deps, fileKey: string, q: ScoringQuestion, fresh: boolean): Promise<Evaluated> {
  if (!q.scorerKey) return { reason: `${PROGRAM_FAILED}主办方尚未上传评分程序` };
  try {
    const out = await scoreWithProgram(
      {
        answer: storedCsv(deps.storage, q.answerKey!, deps.config.answerMaxBytes),
        prediction: storedCsv(deps.storage, fileKey, deps.config.testMaxBytes),
        program: await loadProgram(deps.storage, q.scorerKey),
        idColumn: q.idColumn!,
        split: { salt: q.salt!, publicShare: q.publicPercent! / 100, split: q.splitRule as SplitRule },
        timeLimitSec: q.timeLimitSec ?? DEFAULT_TIME_LIMIT_SEC,
      },
      deps.config.scorer,
    );
    return { publicScore: out.publicScore, privateScore: out.privateScore, rows: out.rows };
  } catch (err) {
    if (err instanceof CsvError) return { reason: err.message.slice(0, 2000) };
    // A file scored as it arrives gives its attempt back (scoreQueued); one scored again later was counted long ago.
    if (err instanceof ProgramFailure) {
      // The outcome of a file sent now waits for the longest its runs could have taken (issue 32): how soon a failure
      // shows must not tell its team which board's rows made the program fail.
      const hold = fresh ? { holdSec: err.runs * (q.timeLimitSec ?? DEFAULT_TIME_LIMIT_SEC) } : {};
      if (err.refusal)
        return { reason: `${PROGRAM_REFUSED}${err.message}${fresh ? '（本次提交不计入次数，请修改后重新提交）' : ''}`, log: err.stderr, ...hold };
      return {
        reason: `${PROGRAM_FAILED}${err.message}，${fresh ? '本次提交不计入次数；请检查文件是否符合赛题说明，或联系主办方' : '请联系主办方'}`,
        log: err.stderr,
        ...hold,
      };
    }
    throw err;
  }
}

/** What a score that is not a finite number tells the team (an overflow, or a board's rows the metric cannot score). */
export const NOT_FINITE = '得分不是有限的数字（预测值可能过大，或超出该指标可计算的范围），未计入排行榜；请检查预测文件后重新提交';

/** A built-in metric's evaluation of the question, as the engine reads it. */
export const evaluationOf = (q: ScoringQuestion): Evaluation => ({
  metric: q.metric as Metric,
  idColumn: q.idColumn!,
  targetColumn: q.targetColumn!,
  publicShare: q.publicPercent! / 100,
  salt: q.salt!,
  split: q.splitRule as SplitRule,
  positiveLabel: q.positiveLabel ?? undefined,
  k: q.topK ?? undefined,
});

/**
 * Scores one prediction file under the question's current setting. A file the engine refuses, or whose score is not a
 * finite number, ends as a reason for its team, never as a job failure; a board with answer rows always gets a score.
 */
async function evaluate(deps: Deps, fileKey: string, q: ScoringQuestion, fresh = true): Promise<Evaluated> {
  if (!q.answerKey || !q.metric) throw new Error('question has no answer or metric');
  if (q.metric === CUSTOM_METRIC) return evaluateWithProgram(deps, fileKey, q, fresh);
  const ev = evaluationOf(q);
  let answers: Answers;
  try {
    answers = await cachedAnswers(deps, { answerKey: q.answerKey, answerIndexKey: q.answerIndexKey, answerIndexTag: q.answerIndexTag }, ev);
  } catch (err) {
    // An answer file accepted before a stricter reader refuses it now: the team is told, the job does not fail.
    if (!(err instanceof CsvError)) throw err;
    return { reason: `${ANSWER_BROKEN}${err.message}`.slice(0, 2000) };
  }
  try {
    const result = await scoreSubmission(storedCsv(deps.storage, fileKey, deps.config.testMaxBytes), answers, ev);
    const hasPublic = answers.isPublic.includes(1);
    const hasPrivate = answers.isPublic.includes(0);
    const fine = (score: number | null, hasRows: boolean) => (score === null ? !hasRows : Number.isFinite(score));
    if (!fine(result.publicScore, hasPublic) || !fine(result.privateScore, hasPrivate)) return { reason: NOT_FINITE };
    return result;
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    return { reason: err.message.slice(0, 2000) };
  }
}

/** Tells who may see a settled submission: a score may move the board (everyone); a refusal concerns its team. */
async function tellSettled(deps: Deps, s: { questionId: number; teamId: number }, outcome: repo.Outcome) {
  tellScored(deps, s.questionId, 'reason' in outcome ? await teamUserIds(deps.db, [s.teamId]) : null);
}

/**
 * Scores one queued submission (the scoring job, see jobs.ts); a file the engine refuses ends as failed with its
 * reasons, which is not a job failure. The outcome is stored only if the question's setting is still the one it was
 * computed under; if the setting changed meanwhile, the file is scored again under the new one. A job found in the
 * wrong lane (the question's metric changed while it waited) is moved to the right one. A program's failure is held
 * until the longest its runs could have taken since the scoring began (the release job), then stored like any other.
 */
export async function scoreQueued(deps: Deps, submissionId: number, lane: Lane = 'general') {
  const s = await repo.findSubmission(deps.db, submissionId);
  if (!s || s.status === TEST_STATUS.scored || s.status === TEST_STATUS.failed) return;
  const first = await repo.scoringQuestion(deps.db, s.questionId);
  if (!first) return;
  const place = laneOf(first);
  if ((place.lane ?? 'general') !== lane) return requeue(deps, s);
  await repo.markScoring(deps.db, s.id);
  const began = performance.now();
  for (let attempt = 0; attempt < 3; attempt++) {
    const q = attempt ? await repo.scoringQuestion(deps.db, s.questionId) : first;
    if (!q) return;
    const { holdSec, ...outcome } = await evaluate(deps, s.fileKey, q);
    const heldMs = holdSec ? holdSec * 1000 - (performance.now() - began) : 0;
    if (heldMs > 0 && 'reason' in outcome) {
      const now = deps.clock.now();
      await enqueue(
        deps.db,
        releaseJob,
        { submissionId: s.id, version: q.scoringVersion, reason: outcome.reason, log: outcome.log ?? null },
        now,
        new Date(now.getTime() + heldMs),
      );
      return;
    }
    if (await settleFresh(deps, s, q.scoringVersion, outcome)) return;
  }
  throw new Error('the question setting kept changing while the submission was scored');
}

/**
 * Stores the outcome of a file scored as it arrived, if the question's setting is still `version` (false otherwise).
 * A file refused with a reason gives its attempt back (issue 21).
 */
async function settleFresh(deps: Deps, s: Submission, version: number, outcome: repo.Outcome) {
  if (!(await settle(deps, { id: s.id, questionId: s.questionId, version, outcome }))) return false;
  if ('reason' in outcome) await giveBack(deps, s);
  await tellSettled(deps, s, outcome);
  return true;
}

type Submission = NonNullable<Awaited<ReturnType<typeof repo.findSubmission>>>;

/**
 * A failed file gives back the attempt it took. Since failures cost nothing, what a team's failed files keep is bounded
 * (FAILED_TEST_FILES_MB, issue 32): the newest stay, to be scored again once the organisers fix a fault, and past the
 * bound the oldest are deleted, their outcomes kept.
 */
async function giveBack(deps: Deps, s: Submission) {
  await repo.releaseQuota(deps.db, s);
  let kept = 0;
  for (const f of await repo.failedFilesOf(deps.db, s.teamId)) {
    kept += Number(f.size);
    if (kept <= deps.config.failedTestFilesBytes) continue;
    await deps.db.transaction().execute((trx) => repo.markFileRemoved(trx, { id: f.id, key: f.fileKey, at: deps.clock.now().toISOString() }));
    await deps.storage.delete(f.fileKey);
  }
}

/** Queues a submission's scoring again, in the lane its question's scoring needs now. */
async function requeue(deps: Deps, s: Submission) {
  const q = await repo.scoringQuestion(deps.db, s.questionId);
  if (!q) return;
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const waiting = await repo.teamWaiting(trx, { teamId: s.teamId, questionId: s.questionId, before: s.id });
    await repo.markQueued(trx, s.id, await enqueue(trx, scoreJob, { submissionId: s.id }, now, now, waiting, laneOf(q)));
  });
  jobsQueued();
}

/**
 * The held failure of a file is due (scoreQueued): stored now, under the setting it was computed under. If that
 * setting changed meanwhile, the file is scored again instead.
 */
export async function releaseHeld(deps: Deps, p: { submissionId: number; version: number; reason: string; log: string | null }) {
  const s = await repo.findSubmission(deps.db, p.submissionId);
  if (!s || s.status !== TEST_STATUS.scoring) return;
  if (!(await settleFresh(deps, s, p.version, { reason: p.reason, ...(p.log !== null && { log: p.log }) }))) await requeue(deps, s);
}

/** The scoring job has used up its attempts: the submission fails, asking the team to submit again. */
export async function scoringGaveUp(deps: Deps, submissionId: number) {
  await deps.db.transaction().execute((trx) => repo.markFailed(trx, submissionId, '评分出错，请重新提交', deps.clock.now().toISOString()));
  const s = await repo.findSubmission(deps.db, submissionId);
  if (!s) return;
  await giveBack(deps, s);
  tellScored(deps, s.questionId, await teamUserIds(deps.db, [s.teamId]));
}

/** Submissions scored again by one run of the rescoring job; it queues itself again for the rest. */
export const RESCORE_BATCH = 10;

/**
 * The question's metric, public share or answer file changed: its scoring version goes up, so the boards rank only
 * submissions scored under the new setting, and a job scores every earlier one again. Called in the transaction that
 * saves the change.
 */
export async function startRescoring(db: Db, questionId: number, now: Date) {
  const version = await repo.bumpScoringVersion(db, questionId);
  const q = await repo.scoringQuestion(db, questionId);
  await enqueue(db, rescoreJob, { questionId, version }, now, now, 0, q ? laneOf(q) : {});
}

/**
 * One run of the rescoring job: scores again up to RESCORE_BATCH submissions settled under an older version, then
 * queues the next run if any are left. A newer change (a higher version) supersedes it: its own job does the work. Found
 * in the wrong lane (its question's metric changed), it moves to the right one.
 */
export async function rescoreSome(deps: Deps, questionId: number, version: number, lane: Lane = 'general') {
  const q = await repo.scoringQuestion(deps.db, questionId);
  if (!q || q.scoringVersion !== version) return;
  const place = laneOf(q);
  if ((place.lane ?? 'general') !== lane)
    return void (await enqueue(deps.db, rescoreJob, { questionId, version }, deps.clock.now(), deps.clock.now(), 0, place));
  const batch = await repo.staleSubmissions(deps.db, questionId, version, RESCORE_BATCH);
  for (const s of batch) {
    const outcome = !q.answerKey || !q.metric ? { reason: NO_SCORING_FILE } : await evaluate(deps, s.fileKey, q, false);
    if (!(await settle(deps, { id: s.id, questionId, version, outcome }))) return;
    if ('reason' in outcome) await tellSettled(deps, s, outcome);
  }
  if (batch.length) tellScored(deps, questionId, null);
  if (batch.length === RESCORE_BATCH) await enqueue(deps.db, rescoreJob, { questionId, version }, deps.clock.now(), deps.clock.now(), 0, place);
}

/**
 * The rescoring job used up its attempts. Submissions are scored again oldest first and each leaves the stale ones once
 * stored, so the oldest stale submission is the one that kept failing (its file unreadable, say): it alone fails, asking
 * for a new submission, and the job goes on with the rest.
 */
export async function rescoringGaveUp(deps: Deps, questionId: number, version: number) {
  const [s] = await repo.staleSubmissions(deps.db, questionId, version, 1);
  if (!s) return;
  const outcome = { reason: '重新评分出错，请重新提交' };
  if (!(await settle(deps, { id: s.id, questionId, version, outcome }))) return;
  await tellSettled(deps, s, outcome);
  const q = await repo.scoringQuestion(deps.db, questionId);
  await enqueue(deps.db, rescoreJob, { questionId, version }, deps.clock.now(), deps.clock.now(), 0, q ? laneOf(q) : {});
}

/**
 * Scores again every settled submission of the question, asked by its organisers (the answer file was corrected, the
 * scoring had a fault): the question's scoring version goes up and the rescoring job does the work, as after a change of
 * setting. Answers the progress at its start; nothing starts when there is nothing to score.
 */
export async function rescoreAll(ctx: AuthedCtx, questionId: number): Promise<RescoreProgress> {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question) throw notFound('赛题不存在');
  await competitions.managedCompetition(ctx, question.competitionId);
  if (!question.metric) throw conflict('该赛题没有自动评分');
  if (!question.answerKey) throw conflict('该赛题尚未上传答案文件，无法评分');
  const { total } = await repo.rescoreProgress(ctx.db, questionId, question.scoringVersion);
  if (!total) return { total: 0, done: 0, running: false };
  await ctx.db.transaction().execute((trx) => startRescoring(trx, questionId, ctx.clock.now()));
  await writeAudit(ctx, { action: 'question.rescore', entity: 'question', entityId: questionId, after: { submissions: total } });
  return { total, done: 0, running: true };
}

/** A competition's scoring queue for its organisers: waiting, being scored, failed in the last hour. */
export async function competitionQueue(ctx: Ctx, competitionId: number): Promise<ScoringQueue> {
  await competitions.managedCompetition(ctx, competitionId);
  const now = ctx.clock.now();
  return repo.competitionQueue(ctx.db, competitionId, new Date(now.getTime() - 3600_000).toISOString(), now.toISOString());
}

/** A competition's latest failed submissions, with an own program's standard error, for its organisers. */
export async function competitionFailures(ctx: Ctx, competitionId: number): Promise<ScoringFailure[]> {
  await competitions.managedCompetition(ctx, competitionId);
  return repo.recentFailures(ctx.db, competitionId, SCORING_FAILURES_SHOWN);
}

/** How far the scoring again of a question's submissions has gone, for its organisers. */
export async function rescoring(ctx: Ctx, questionId: number): Promise<RescoreProgress> {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question) throw notFound('赛题不存在');
  await competitions.managedCompetition(ctx, question.competitionId);
  const { total, done } = await repo.rescoreProgress(ctx.db, questionId, question.scoringVersion);
  return { total, done, running: done < total };
}
