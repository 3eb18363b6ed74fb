import { Readable } from 'node:stream';
import {
  CUSTOM_METRIC,
  DEFAULT_K,
  DEFAULT_POSITIVE_LABEL,
  MAX_SELECTED,
  METRIC_INFO,
  TEST_STATUS,
  sampleCsvLines,
  windowRefusal,
  windowState,
  type Metric,
  type MyTests,
  type EvaluationMetric,
  type TestSubmission,
} from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, conflict, notFound, tooMany } from '../../http/errors.ts';
import { QUEUE_COUNT_CAP, enqueue, jobsAhead, jobsQueued, lanePace, type Lane } from '../../jobs/define.ts';
import { CsvError, csvMime, readCsv, storedCsv } from '../../scoring/csv.ts';
import { FileTooLargeError } from '../../storage/file-store.ts';
import { beijing } from '../../time.ts';
import * as competitions from '../competitions/index.ts';
import { displayName, grantPrivateReads } from '../files/index.ts';
import { teamRefusal } from '../real-names/index.ts';
import { scoreJob } from './jobs.ts';
import { organiserReadsFile } from './organiser.ts';
import * as repo from './repo.ts';
import { NO_SCORING_FILE, cachedAnswers, evaluationOf, laneOf } from './scoring.ts';

/** Submitting: a team's test files, checked at upload, its list with queue places, its final selection, the sample file. */

/** The most files refused at upload a team's history keeps for a question on one day. */
export const REFUSED_ROWS_A_DAY = 20;

/** What a disqualified team is told when it tries to submit. */
export const disqualifiedText = (reason: string) => `你的队伍在该赛题的成绩已被主办方取消（原因：${reason}），不能再提交测试文件`;

/** The calendar day in Asia/Shanghai, which the daily quota counts in. */
export function beijingDay(now: Date): string {
  return beijing(now).slice(0, 10);
}

/** Why the team may not submit when the competition asks every member to have completed 实名认证 first, or null. */
async function realNameRefusal(db: Db, competitionId: number, teamId: number) {
  return (await competitions.realNameRequired(db, competitionId, 'SUBMIT_TEST')) ? teamRefusal(db, teamId, 'SUBMIT_TEST') : null;
}

/** The caller's team that chose this question, or a 404 that says what is missing. */
async function teamOfQuestion(ctx: AuthedCtx, questionId: number) {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (question?.reviewed !== 1) throw notFound('赛题不存在');
  const teamId = await repo.teamChoosing(ctx.db, ctx.actor.userId, question.competitionId, questionId);
  if (!teamId) throw notFound('您的队伍尚未选择该赛题');
  return { question, teamId };
}

/**
 * Takes a prediction file for scoring: inside the SUBMIT_TEST window when it starts and again when it has arrived whole
 * (its time is then: a body that trickles in past the deadline is refused), within the team's daily limit (a
 * conditional increment in the database), stored first and queued for the scoring job.
 */
export async function submit(ctx: AuthedCtx, questionId: number, content: Readable, fileName: string, maxBytes: number) {
  const { question, teamId } = await teamOfQuestion(ctx, questionId);
  // The shared rule (lifecycle.ts): the preset's end narrows the submission stage's end or the competition's end.
  const window = () => competitions.submissionWindowOf(ctx.db, question.competitionId, 'SUBMIT_TEST');
  const refusal = windowRefusal(await window(), ctx.clock.now()) ?? (await realNameRefusal(ctx.db, question.competitionId, teamId));
  if (refusal) throw conflict(refusal);
  if (!question.metric) throw conflict(NO_SCORING_FILE);
  const out = await repo.disqualificationOf(ctx.db, questionId, teamId);
  if (out) throw conflict(disqualifiedText(out.reason));
  const custom = question.metric === CUSTOM_METRIC;
  if (!question.answerKey || (custom && !question.scorerKey)) throw conflict('该赛题尚未开放测试');
  let stored;
  try {
    stored = await ctx.storage.put(content, { prefix: 'prediction', maxBytes });
  } catch (err) {
    if (err instanceof FileTooLargeError) throw new AppError(413, `测试文件不能超过${Math.round(maxBytes / 1024 / 1024)}MB`);
    throw err;
  }
  // The file's time is when its last byte arrived: the window is asked again, as it may have closed meanwhile.
  const now = ctx.clock.now();
  const after = await window();
  const late = windowRefusal(after, now);
  if (late) {
    await ctx.storage.delete(stored.key);
    throw conflict(`${late}${windowState(after, now) === 'closed' ? '（文件传完时已过截止时间）' : ''}，本次提交未被接收`);
  }
  // A file that cannot be read as the expected CSV is refused here, before the day's quota is touched.
  // A prediction of several classes has a column per class instead of the target column (checked when scored); an own
  // program reads whichever columns it wants besides the id.
  const target = custom ? null : METRIC_INFO[question.metric as Metric].kind === 'classProbabilities' ? 'classes' : question.targetColumn!;
  const problem = await headProblem(ctx, stored.key, question.idColumn!, target, maxBytes);
  if (problem) {
    await ctx.storage.delete(stored.key);
    // Like a file the scorer refuses, it stays in the team's history with its problems (its bytes are not kept); it
    // costs no attempt. A team's refusals keep at most REFUSED_ROWS_A_DAY rows a question a day: a flood of bad files
    // cannot fill the table, and is still answered with the reason.
    const day = beijingDay(ctx.clock.now());
    if ((await repo.refusedToday(ctx.db, { teamId, questionId, day })) < REFUSED_ROWS_A_DAY) {
      const at = ctx.clock.now().toISOString();
      await repo.insertRefused(ctx.db, {
        competitionId: question.competitionId,
        questionId,
        teamId,
        userId: ctx.actor.userId,
        key: stored.key,
        fileName: displayName(fileName),
        size: stored.size,
        reason: problem,
        version: question.scoringVersion,
        day,
        now: at,
      });
    }
    throw badRequest(problem, { file: problem });
  }
  const mime = await csvMime(storedCsv(ctx.storage, stored.key, maxBytes));
  const day = beijingDay(now);
  const t = now.toISOString();
  try {
    const submitted = await ctx.db.transaction().execute(async (trx) => {
      if (!(await repo.takeQuota(trx, { teamId, questionId, day, limit: question.dailyLimit! })))
        throw tooMany(`今日提交次数已用完（每天${question.dailyLimit}次），请明天再试`);
      const id = await repo.insertSubmission(trx, {
        competitionId: question.competitionId,
        questionId,
        teamId,
        userId: ctx.actor.userId,
        key: stored.key,
        fileName: displayName(fileName),
        mime,
        size: stored.size,
        sha256: stored.sha256,
        day,
        now: t,
      });
      // A fair queue: the team's files already waiting for this question go first, the other teams' firsts with them.
      const waiting = await repo.teamWaiting(trx, { teamId, questionId, before: id });
      await repo.setScoreJob(trx, id, await enqueue(trx, scoreJob, { submissionId: id }, now, now, waiting, laneOf(question)));
      return { id, status: TEST_STATUS.queued };
    });
    jobsQueued();
    return submitted;
  } catch (err) {
    await ctx.storage.delete(stored.key);
    if (isUniqueViolation(err)) throw tooMany(`今日提交次数已用完（每天${question.dailyLimit}次），请明天再试`);
    throw err;
  }
}

/**
 * Reads a stored prediction file (a CSV, a .csv.gz or a .zip holding one CSV) through once and says what keeps it
 * from being scored at all: not text, an unknown encoding, too large once unpacked, a broken archive, empty, a header
 * without the id and target columns (or naming one twice), or no data row. Row-level problems are left to scoring.
 * `target` is the target column, 'classes' for a column per class, or null for the id column alone (an own program).
 */
async function headProblem(ctx: Pick<Ctx, 'storage'>, key: string, idColumn: string, target: string | null, maxBytes: number): Promise<string | null> {
  const targetColumn = target === 'classes' ? null : target;
  const check = async (batches: AsyncIterable<{ line: number; fields: string[] }[]>) => {
    let header: string[] | null = null;
    let rows = 0;
    const fail = (line: number, message: string) => new CsvError([{ line, message }]);
    for await (const batch of batches) {
      for (const { line, fields } of batch) {
        if (header) {
          rows++;
          continue;
        }
        header = fields.map((f) => f.trim());
        const shown = header.join(',').slice(0, 80);
        if (target === null && !header.includes(idColumn)) throw fail(line, `表头须包含“${idColumn}”列，当前表头为：${shown}`);
        if (target === 'classes' && !header.includes(idColumn))
          throw fail(line, `表头须包含“${idColumn}”列和每个类别一列（列名为类别标签），当前表头为：${shown}`);
        if (targetColumn !== null && (!header.includes(idColumn) || !header.includes(targetColumn)))
          throw fail(line, `表头须包含“${idColumn}”和“${targetColumn}”两列，当前表头为：${shown}`);
        const twice = [idColumn, targetColumn].find((c) => c !== null && header!.indexOf(c) !== header!.lastIndexOf(c));
        if (twice) throw fail(line, `表头中“${twice}”列出现了不止一次`);
      }
    }
    if (!header) throw fail(0, '文件为空');
    if (!rows) throw fail(0, '文件只有表头，没有预测数据');
  };
  try {
    await readCsv(storedCsv(ctx.storage, key, maxBytes), check, { same: () => true });
    return null;
  } catch (err) {
    if (err instanceof CsvError) return err.message;
    throw err;
  }
}

type Row = {
  id: number;
  questionId: number;
  teamId: number;
  username: string;
  fileName: string;
  size: number;
  status: number;
  reason: string | null;
  publicScore: number | null;
  privateScore: number | null;
  selected: number;
  createdAt: string;
  scoredAt: string | null;
  scoreJobId: number | null;
  cancelReason: string | null;
};

const toSubmission = ({ scoreJobId: _job, ...r }: Row, showPrivate: boolean): TestSubmission => ({
  ...r,
  selected: r.selected === 1,
  privateScore: showPrivate ? r.privateScore : null,
});

/** The minutes over which the queue's pace is measured for the wait estimate. */
const PACE_WINDOW_MS = 10 * 60_000;

/**
 * Adds to each waiting submission where it stands in its lane's queue and about how long it will wait: the scorings
 * before it and its own, shared by the workers taking them, at the time a scoring of the lane took lately (issue 33;
 * unknown when none finished in the last minutes). The test tab reloads while any waits, so both move as the queue does.
 */
async function withQueuePlaces(db: Db, rows: Row[], list: TestSubmission[], now: Date, lane: Lane) {
  const waiting = rows.flatMap((r, i) => (r.status === TEST_STATUS.queued && r.scoreJobId !== null ? [{ jobId: r.scoreJobId, s: list[i]! }] : []));
  if (!waiting.length) return;
  const pace = await lanePace(db, scoreJob, new Date(now.getTime() - PACE_WINDOW_MS), now, lane);
  for (const { jobId, s } of waiting) {
    const ahead = await jobsAhead(db, jobId, now);
    if (ahead === undefined) continue;
    const waitSeconds = pace.seconds === null ? null : Math.round(Math.ceil((ahead + 1) / pace.workers) * pace.seconds);
    s.queue = { ahead, waitSeconds, ...(ahead >= QUEUE_COUNT_CAP && { atLeast: true }) };
  }
}

/** The team's submissions for a question, newest first; private scores only once published. */
export async function listMine(ctx: AuthedCtx, questionId: number): Promise<MyTests> {
  const { question, teamId } = await teamOfQuestion(ctx, questionId);
  const rows = await repo.teamSubmissions(ctx.db, teamId, questionId);
  const used = await repo.usedToday(ctx.db, teamId, questionId, beijingDay(ctx.clock.now()));
  const metric = question.metric as EvaluationMetric | null;
  const option = metric && metric !== CUSTOM_METRIC ? METRIC_INFO[metric].option : undefined;
  const format =
    metric && question.idColumn && (question.targetColumn || metric === CUSTOM_METRIC)
      ? {
          metric,
          higherIsBetter: repo.higherOf(question),
          idColumn: question.idColumn,
          ...(question.targetColumn && { targetColumn: question.targetColumn }),
          // The setting the metric reads, with its default, so that the team knows what it is scored by.
          ...(option === 'positiveLabel' && { positiveLabel: question.positiveLabel ?? DEFAULT_POSITIVE_LABEL }),
          ...(option === 'k' && { k: question.topK ?? DEFAULT_K }),
          ...(question.metricName && { metricName: question.metricName }),
        }
      : null;
  const published = question.leaderboardPublished === 1;
  const list = rows.map((r) => toSubmission(r, published));
  await withQueuePlaces(ctx.db, rows, list, ctx.clock.now(), laneOf(question).lane ?? 'general');
  const disqualified = (await repo.disqualificationOf(ctx.db, questionId, teamId)) ?? null;
  const realName = await realNameRefusal(ctx.db, question.competitionId, teamId);
  return { list, dailyLimit: question.dailyLimit, usedToday: used, format, leaderboardPublished: published, disqualified, realNameRefusal: realName };
}

/** The team picks up to MAX_SELECTED scored submissions for the final ranking. */
export async function select(ctx: AuthedCtx, id: number, selected: boolean) {
  const row = await repo.findSubmission(ctx.db, id);
  if (!row) throw notFound('提交记录不存在');
  const { teamId } = await teamOfQuestion(ctx, row.questionId).catch(() => {
    throw notFound('提交记录不存在');
  });
  if (teamId !== row.teamId) throw notFound('提交记录不存在');
  if (selected && row.status !== TEST_STATUS.scored) throw conflict('只有已评分的提交可以作为最终结果');
  if (selected && row.cancelledAt) throw conflict('该提交的成绩已被主办方取消，不能作为最终结果');
  await ctx.db.transaction().execute(async (trx) => {
    // Counted under the team's row lock, so two selections made at once are counted one after the other.
    if ((await repo.setSelected(trx, { id, teamId, questionId: row.questionId, selected })) > MAX_SELECTED)
      throw conflict(`最多选择${MAX_SELECTED}个提交作为最终结果`);
  });
}

/**
 * A sample prediction file with every id of the test set, in the answer file's order, and a made-up value that fits
 * the metric (for several classes, a column per class the answers hold): what a team fills in. For the team that chose
 * the question and its organisers; a question scored by an own program has none (its columns are the program's).
 */
export async function sampleFile(deps: Pick<Deps, 'storage' | 'config'>, ctx: AuthedCtx, questionId: number): Promise<Readable> {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question) throw notFound('赛题不存在');
  const member = question.reviewed === 1 && (await repo.teamChoosing(ctx.db, ctx.actor.userId, question.competitionId, questionId));
  if (!member && !(await competitions.isManaged(ctx, question.competitionId))) throw notFound('您的队伍尚未选择该赛题');
  if (!question.metric) throw conflict(NO_SCORING_FILE);
  if (question.metric === CUSTOM_METRIC) throw conflict('该赛题由主办方的评分程序评分，预测文件的列见赛题说明，没有示例文件');
  if (!question.answerKey) throw conflict('该赛题尚未开放测试');
  const answers = await cachedAnswers(
    deps,
    { answerKey: question.answerKey, answerIndexKey: question.answerIndexKey, answerIndexTag: question.answerIndexTag },
    evaluationOf(question),
  );
  const format = { metric: question.metric as EvaluationMetric, idColumn: question.idColumn!, targetColumn: question.targetColumn ?? undefined };
  const kind = METRIC_INFO[question.metric as Metric].kind;
  const classes = kind === 'classProbabilities' && Array.isArray(answers.truth) ? [...new Set(answers.truth)].sort() : undefined;
  // The answer's own labels (two of them), so that the sample's values are ones it can match.
  const labels = kind === 'label' && Array.isArray(answers.truth) ? [...new Set(answers.truth.map(String))].sort().slice(0, 2) : undefined;
  function* ids() {
    for (let row = 0; row < answers.index.size; row++) yield answers.index.idAt(row);
  }
  // A BOM, so that Excel opens the UTF-8 file with the right encoding.
  return Readable.from(
    (function* () {
      yield '\uFEFF';
      yield* sampleCsvLines(format, ids(), classes, labels);
    })(),
  );
}

// The team's members may read back their own prediction files, and the competition's organisers any of them.
grantPrivateReads('prediction', async (ctx, key) => (await repo.memberOfFileTeam(ctx.db, key, ctx.actor.userId)) || organiserReadsFile(ctx, key));
