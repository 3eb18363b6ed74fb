import { Readable } from 'node:stream';
import {
  CUSTOM_METRIC,
  DEFAULT_K,
  DEFAULT_POSITIVE_LABEL,
  DEFAULT_TIME_LIMIT_SEC,
  MAX_SELECTED,
  ANSWER_BROKEN,
  PROGRAM_FAILED,
  PROGRAM_REFUSED,
  SCORING_FAILURES_SHOWN,
  METRIC_INFO,
  TEST_STATUS,
  sampleCsvLines,
  windowRefusal,
  windowState,
  type Leaderboard,
  type Metric,
  type MyTests,
  type EvaluationMetric,
  type RescoreProgress,
  type ScoringFailure,
  type ScoringQueue,
  type TestSubmission,
} from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, conflict, notFound, tooMany } from '../../http/errors.ts';
import { QUEUE_COUNT_CAP, enqueue, jobsAhead, jobsQueued, lanePace, type JobPlace, type Lane } from '../../jobs/define.ts';
import { CsvError, csvMime, readCsv, storedCsv } from '../../scoring/csv.ts';
import { ProgramFailure, scoreWithProgram } from '../../scoring/custom.ts';
import { preparedTag, readPrepared } from '../../scoring/prepared.ts';
import { loadProgram } from '../../scoring/program.ts';
import { answersBytes, loadAnswers, scoreSubmission, type Answers, type Evaluation, type SplitRule } from '../../scoring/score.ts';
import { FileTooLargeError } from '../../storage/file-store.ts';
import { beijing } from '../../time.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as competitions from '../competitions/index.ts';
import { displayName, grantPrivateReads } from '../files/index.ts';
import { teamUserIds } from '../notices/index.ts';
import { releaseJob, rescoreJob, scoreJob } from './jobs.ts';
import type { BoardName } from './boards.ts';
import { readCache } from '../../http/read-cache.ts';
import { organiserReadsFile } from './organiser.ts';
import * as repo from './repo.ts';
import * as policy from '../../policy.ts';

/** What a question without an evaluation (never set, or removed after approval) answers instead of a board or a score. */
const NO_SCORING_BOARD = '该赛题没有自动评分，没有排行榜';
const NO_SCORING_FILE = '该赛题没有自动评分，不接受测试文件';
/** The most files refused at upload a team's history keeps for a question on one day. */
export const REFUSED_ROWS_A_DAY = 20;
/** What a disqualified team is told when it tries to submit. */
export const disqualifiedText = (reason: string) => `你的队伍在该赛题的成绩已被主办方取消（原因：${reason}），不能再提交测试文件`;

/** The calendar day in Asia/Shanghai, which the daily quota counts in. */
export function beijingDay(now: Date): string {
  return beijing(now).slice(0, 10);
}

/** The caller's team that chose this question, or a 404 that says what is missing. */
async function teamOfQuestion(ctx: AuthedCtx, questionId: number) {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question || question.reviewed !== 1) throw notFound('赛题不存在');
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
  const refusal = windowRefusal(await window(), ctx.clock.now());
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
      await repo.insertRefused(ctx.db, { competitionId: question.competitionId, questionId, teamId, userId: ctx.actor.userId, key: stored.key, fileName: displayName(fileName), size: stored.size, reason: problem, version: question.scoringVersion, day, now: at });
    }
    throw badRequest(problem, { file: problem });
  }
  const mime = await csvMime(storedCsv(ctx.storage, stored.key, maxBytes));
  const day = beijingDay(now);
  const t = now.toISOString();
  try {
    const submitted = await ctx.db.transaction().execute(async (trx) => {
      if (!(await repo.takeQuota(trx, { teamId, questionId, day, limit: question.dailyLimit! }))) throw tooMany(`今日提交次数已用完（每天${question.dailyLimit}次），请明天再试`);
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
        if (target === 'classes' && !header.includes(idColumn)) throw fail(line, `表头须包含“${idColumn}”列和每个类别一列（列名为类别标签），当前表头为：${shown}`);
        if (targetColumn !== null && (!header.includes(idColumn) || !header.includes(targetColumn))) throw fail(line, `表头须包含“${idColumn}”和“${targetColumn}”两列，当前表头为：${shown}`);
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

type Row = { id: number; questionId: number; teamId: number; username: string; fileName: string; size: number; status: number; reason: string | null; publicScore: number | null; privateScore: number | null; selected: number; createdAt: string; scoredAt: string | null; scoreJobId: number | null; cancelReason: string | null };
const toSubmission = ({ scoreJobId: _job, ...r }: Row, showPrivate: boolean): TestSubmission => ({ ...r, selected: r.selected === 1, privateScore: showPrivate ? r.privateScore : null });

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
  return { list, dailyLimit: question.dailyLimit, usedToday: used, format, leaderboardPublished: published, disqualified };
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
    if ((await repo.setSelected(trx, { id, teamId, questionId: row.questionId, selected })) > MAX_SELECTED) throw conflict(`最多选择${MAX_SELECTED}个提交作为最终结果`);
  });
}

/**
 * How long a board's page may be kept by one process (team names changed elsewhere show within it). Scores never wait:
 * the cache is keyed by the question's board version, which every stored score and selection raises in the database.
 */
const BOARD_TTL_MS = 5_000;
const boardReads = readCache(['teams'], BOARD_TTL_MS);

/**
 * The public board ranks each team's best public score; the private board, once published, ranks the best private
 * score among the submissions the team selected (or, when it selected none, of its best public submission). Read a page
 * at a time from the boards' table (repo.refreshTeamBoards keeps it), cached per question, board and page; the caller's
 * team's row and rank come with it, read on their own.
 */
export async function leaderboard(ctx: Ctx, questionId: number, query: { board: BoardName; page: number; limit: number }): Promise<Leaderboard> {
  const { board, page, limit } = query;
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question || question.reviewed !== 1) throw notFound('赛题不存在');
  await policy.readsCompetition(ctx, question.competitionId);
  // The question exists but its organiser set no evaluation (or removed it): there is no board to show.
  if (!question.metric) throw notFound(NO_SCORING_BOARD);
  const metric = question.metric as EvaluationMetric;
  const higher = repo.higherOf(question);
  const published = question.leaderboardPublished === 1;
  // Before publication the private board is closed to everyone but its organisers: an ordinary answer that says so,
  // with no entries (no names, scores or counts), rather than an error the page would have to tell apart.
  const named = question.metricName ? { metricName: question.metricName } : {};
  if (board === 'private' && !published && !(await policy.manages(ctx, question.competitionId))) {
    return { board, metric, ...named, higherIsBetter: higher, published, entries: [], total: 0 };
  }
  const version = question.scoringVersion;
  const key = [questionId, board, version, question.boardVersion, published, page, limit].join(' ');
  const view = await boardReads(ctx, key, async () => {
    const offset = (page - 1) * limit;
    const [rows, total, rescoring] = await Promise.all([
      repo.boardPage(ctx.db, { questionId, board, version, offset, limit }),
      repo.boardTotal(ctx.db, { questionId, board, version }),
      repo.rescoringPending(ctx.db, questionId, version),
    ]);
    return { rescoring, total, entries: rows.map((e, i) => ({ rank: offset + i + 1, ...e })) };
  });
  const teamId = ctx.actor ? await repo.teamChoosing(ctx.db, ctx.actor.userId, question.competitionId, questionId) : undefined;
  const mine = teamId ? await repo.boardRowOf(ctx.db, { questionId, board, version, teamId }) : undefined;
  return { board, metric, ...named, higherIsBetter: higher, published, ...view, ...(mine && { mine }) };
}

/**
 * Each team's board score, best first, from the boards' table. Ties go to the team that reached its score first: each
 * team's earliest submission with its board score is the one that counts, and of two teams tied, the earlier of those
 * ranks first (as on Kaggle). Grades read the private board.
 */
export const rankTeams = (db: Db, questionId: number, board: BoardName) => repo.wholeBoard(db, questionId, board);

/** Whether the question's boards rank a higher score first (its metric's direction, or its own program's). */
export async function boardHigherIsBetter(db: Db, questionId: number) {
  const q = await repo.scoringQuestion(db, questionId);
  return q ? repo.higherOf(q) : true;
}

/** Publishes the question's private board: done with the confirmation of its grades (issue 33), which it ranks. */
export const publishPrivateBoard = (db: Db, questionId: number) => repo.setLeaderboardPublished(db, questionId, true);

/**
 * The private board goes out with the grades, in one step (issue 33): it is not published on its own before the grades
 * are confirmed, and not withdrawn after. Withdrawing one published before (by an earlier version) is still allowed.
 */
export async function publish(ctx: Ctx, questionId: number, published: boolean) {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question) throw notFound('赛题不存在');
  await policy.managesCompetition(ctx, question.competitionId);
  const confirmed = await repo.gradesConfirmed(ctx.db, questionId);
  if (published && !confirmed) throw conflict(PRIVATE_WITH_GRADES);
  if (!published && confirmed) throw conflict('该赛题的成绩已确认公布，私榜随成绩公布，不能撤回');
  await repo.setLeaderboardPublished(ctx.db, questionId, published);
}
export const PRIVATE_WITH_GRADES = '私榜在确认成绩时与成绩一同公布，请在该赛题的“成绩”页确认成绩';

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
const laneOf = (q: Pick<ScoringQuestion, 'metric' | 'orgId'>): JobPlace => (q.metric === CUSTOM_METRIC ? { lane: 'program', tenant: q.orgId ?? 0 } : {});


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
      if (err.refusal) return { reason: `${PROGRAM_REFUSED}${err.message}${fresh ? '（本次提交不计入次数，请修改后重新提交）' : ''}`, log: err.stderr, ...hold };
      return { reason: `${PROGRAM_FAILED}${err.message}，${fresh ? '本次提交不计入次数；请检查文件是否符合赛题说明，或联系主办方' : '请联系主办方'}`, log: err.stderr, ...hold };
    }
    throw err;
  }
}

/** What a score that is not a finite number tells the team (an overflow, or a board's rows the metric cannot score). */
export const NOT_FINITE = '得分不是有限的数字（预测值可能过大，或超出该指标可计算的范围），未计入排行榜；请检查预测文件后重新提交';

/** A built-in metric's evaluation of the question, as the engine reads it. */
const evaluationOf = (q: ScoringQuestion): Evaluation => ({
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
 * A sample prediction file with every id of the test set, in the answer file's order, and a made-up value that fits
 * the metric (for several classes, a column per class the answers hold): what a team fills in. For the team that chose
 * the question and its organisers; a question scored by an own program has none (its columns are the program's).
 */
export async function sampleFile(deps: Pick<Deps, 'storage' | 'config'>, ctx: AuthedCtx, questionId: number): Promise<Readable> {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question) throw notFound('赛题不存在');
  const member = question.reviewed === 1 && (await repo.teamChoosing(ctx.db, ctx.actor.userId, question.competitionId, questionId));
  if (!member && !(await policy.manages(ctx, question.competitionId))) throw notFound('您的队伍尚未选择该赛题');
  if (!question.metric) throw conflict(NO_SCORING_FILE);
  if (question.metric === CUSTOM_METRIC) throw conflict('该赛题由主办方的评分程序评分，预测文件的列见赛题说明，没有示例文件');
  if (!question.answerKey) throw conflict('该赛题尚未开放测试');
  const answers = await cachedAnswers(deps, { answerKey: question.answerKey, answerIndexKey: question.answerIndexKey, answerIndexTag: question.answerIndexTag }, evaluationOf(question));
  const format = { metric: question.metric as EvaluationMetric, idColumn: question.idColumn!, targetColumn: question.targetColumn ?? undefined };
  const classes = METRIC_INFO[question.metric as Metric].kind === 'classProbabilities' && Array.isArray(answers.truth) ? [...new Set(answers.truth)].sort() : undefined;
  function* ids() {
    for (let row = 0; row < answers.index.size; row++) yield answers.index.idAt(row);
  }
  // A BOM, so that Excel opens the UTF-8 file with the right encoding.
  return Readable.from((function* () {
    yield '\uFEFF';
    yield* sampleCsvLines(format, ids(), classes);
  })());
}

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
      await enqueue(deps.db, releaseJob, { submissionId: s.id, version: q.scoringVersion, reason: outcome.reason, log: outcome.log ?? null }, now, new Date(now.getTime() + heldMs));
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
  if (!(await repo.settle(deps.db, { id: s.id, questionId: s.questionId, version, outcome, at: deps.clock.now().toISOString() }))) return false;
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
    await repo.markFileRemoved(deps.db, { id: f.id, key: f.fileKey, at: deps.clock.now().toISOString() });
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
  await repo.markFailed(deps.db, submissionId, '评分出错，请重新提交', deps.clock.now().toISOString());
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
  if ((place.lane ?? 'general') !== lane) return void (await enqueue(deps.db, rescoreJob, { questionId, version }, deps.clock.now(), deps.clock.now(), 0, place));
  const batch = await repo.staleSubmissions(deps.db, questionId, version, RESCORE_BATCH);
  for (const s of batch) {
    const outcome = !q.answerKey || !q.metric ? { reason: NO_SCORING_FILE } : await evaluate(deps, s.fileKey, q, false);
    if (!(await repo.settle(deps.db, { id: s.id, questionId, version, outcome, at: deps.clock.now().toISOString() }))) return;
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
  if (!(await repo.settle(deps.db, { id: s.id, questionId, version, outcome, at: deps.clock.now().toISOString() }))) return;
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
  await policy.managesCompetition(ctx, question.competitionId);
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
  await policy.managesCompetition(ctx, competitionId);
  const now = ctx.clock.now();
  return repo.competitionQueue(ctx.db, competitionId, new Date(now.getTime() - 3600_000).toISOString(), now.toISOString());
}

/** A competition's latest failed submissions, with an own program's standard error, for its organisers. */
export async function competitionFailures(ctx: Ctx, competitionId: number): Promise<ScoringFailure[]> {
  await policy.managesCompetition(ctx, competitionId);
  return repo.recentFailures(ctx.db, competitionId, SCORING_FAILURES_SHOWN);
}

/** How far the scoring again of a question's submissions has gone, for its organisers. */
export async function rescoring(ctx: Ctx, questionId: number): Promise<RescoreProgress> {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question) throw notFound('赛题不存在');
  await policy.managesCompetition(ctx, question.competitionId);
  const { total, done } = await repo.rescoreProgress(ctx.db, questionId, question.scoringVersion);
  return { total, done, running: done < total };
}

// The team's members may read back their own prediction files, and the competition's organisers any of them.
grantPrivateReads('prediction', async (ctx, key) => (await repo.memberOfFileTeam(ctx.db, key, ctx.actor.userId)) || organiserReadsFile(ctx, key));
