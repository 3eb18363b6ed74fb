import type { Readable } from 'node:stream';
import {
  HIGHER_IS_BETTER,
  MAX_SELECTED,
  TEST_STATUS,
  windowRefusal,
  type Leaderboard,
  type Metric,
  type MyTests,
  type TestSubmission,
} from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, conflict, notFound, tooMany } from '../../http/errors.ts';
import { enqueue } from '../../jobs/define.ts';
import { CsvError, csvBatches } from '../../scoring/csv.ts';
import { loadAnswers, scoreSubmission, type Answers, type Evaluation } from '../../scoring/score.ts';
import { FileTooLargeError } from '../../storage/file-store.ts';
import { beijing } from '../../time.ts';
import * as competitions from '../competitions/index.ts';
import { displayName, grantPrivateReads } from '../files/index.ts';
import { teamUserIds } from '../notices/index.ts';
import { scoreJob } from './jobs.ts';
import * as repo from './repo.ts';
import * as policy from '../../policy.ts';

/** What a question without an evaluation (never set, or removed after approval) answers instead of a board or a score. */
const NO_SCORING_BOARD = '该赛题没有自动评分，没有排行榜';
const NO_SCORING_FILE = '该赛题没有自动评分，不接受测试文件';

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
 * Takes a prediction file for scoring: inside the SUBMIT_TEST window, within the team's daily limit (a conditional
 * increment in the database), stored first and queued for the scoring job.
 */
export async function submit(ctx: AuthedCtx, questionId: number, content: Readable, fileName: string, maxBytes: number) {
  const { question, teamId } = await teamOfQuestion(ctx, questionId);
  const now = ctx.clock.now();
  // The shared rule (lifecycle.ts): the preset's end narrows the submission stage's end or the competition's end.
  const refusal = windowRefusal(await competitions.submissionWindowOf(ctx.db, question.competitionId, 'SUBMIT_TEST'), now);
  if (refusal) throw conflict(refusal);
  if (!question.metric) throw conflict(NO_SCORING_FILE);
  if (!question.answerKey) throw conflict('该赛题尚未开放测试');
  let stored;
  try {
    stored = await ctx.storage.put(content, { prefix: 'prediction', maxBytes });
  } catch (err) {
    if (err instanceof FileTooLargeError) throw new AppError(413, `测试文件不能超过${Math.round(maxBytes / 1024 / 1024)}MB`);
    throw err;
  }
  // A file that cannot be read as the expected CSV is refused here, before the day's quota is touched.
  const problem = await headProblem(ctx, stored.key, question.idColumn!, question.targetColumn!);
  if (problem) {
    await ctx.storage.delete(stored.key);
    throw badRequest(problem, { file: problem });
  }
  const day = beijingDay(now);
  const t = now.toISOString();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      if (!(await repo.takeQuota(trx, { teamId, questionId, day, limit: question.dailyLimit! }))) throw tooMany(`今日提交次数已用完（每天${question.dailyLimit}次），请明天再试`);
      const id = await repo.insertSubmission(trx, {
        competitionId: question.competitionId,
        questionId,
        teamId,
        userId: ctx.actor.userId,
        key: stored.key,
        fileName: displayName(fileName),
        size: stored.size,
        sha256: stored.sha256,
        day,
        now: t,
      });
      await enqueue(trx, scoreJob, { submissionId: id }, now);
      return { id, status: TEST_STATUS.queued };
    });
  } catch (err) {
    await ctx.storage.delete(stored.key);
    if (isUniqueViolation(err)) throw tooMany(`今日提交次数已用完（每天${question.dailyLimit}次），请明天再试`);
    throw err;
  }
}

/**
 * Reads the start of a stored prediction file and says what keeps it from being scored at all: not text, an unknown
 * encoding, empty, a header without the id and target columns, or no data row. Row-level problems are left to scoring.
 */
async function headProblem(ctx: Pick<Ctx, 'storage'>, key: string, idColumn: string, targetColumn: string): Promise<string | null> {
  const stream = await ctx.storage.get(key);
  try {
    let header: string[] | null = null;
    for await (const batch of csvBatches(stream)) {
      for (const { fields } of batch) {
        if (header) return null;
        header = fields.map((f) => f.trim());
        if (!header.includes(idColumn) || !header.includes(targetColumn)) return `表头须包含“${idColumn}”和“${targetColumn}”两列，当前表头为：${header.join(',').slice(0, 80)}`;
      }
    }
    return header ? '文件只有表头，没有预测数据' : '文件为空';
  } catch (err) {
    if (err instanceof CsvError) return err.message;
    throw err;
  } finally {
    stream.destroy();
  }
}

type Row = { id: number; questionId: number; teamId: number; username: string; fileName: string; size: number; status: number; reason: string | null; publicScore: number | null; privateScore: number | null; selected: number; createdAt: string; scoredAt: string | null };
const toSubmission = (r: Row, showPrivate: boolean): TestSubmission => ({ ...r, selected: r.selected === 1, privateScore: showPrivate ? r.privateScore : null });

/** The team's submissions for a question, newest first; private scores only once published. */
export async function listMine(ctx: AuthedCtx, questionId: number): Promise<MyTests> {
  const { question, teamId } = await teamOfQuestion(ctx, questionId);
  const rows = await repo.teamSubmissions(ctx.db, teamId, questionId);
  const used = await repo.usedToday(ctx.db, teamId, questionId, beijingDay(ctx.clock.now()));
  const metric = question.metric as Metric | null;
  const format = metric && question.idColumn && question.targetColumn ? { metric, higherIsBetter: HIGHER_IS_BETTER[metric], idColumn: question.idColumn, targetColumn: question.targetColumn } : null;
  const published = question.leaderboardPublished === 1;
  return { list: rows.map((r) => toSubmission(r, published)), dailyLimit: question.dailyLimit, usedToday: used, format, leaderboardPublished: published };
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
  await ctx.db.transaction().execute(async (trx) => {
    // Counted under the team's row lock, so two selections made at once are counted one after the other.
    if ((await repo.setSelected(trx, { id, teamId, questionId: row.questionId, selected })) > MAX_SELECTED) throw conflict(`最多选择${MAX_SELECTED}个提交作为最终结果`);
  });
}

/**
 * The public board ranks each team's best public score; the private board, once published, ranks the best private
 * score among the submissions the team selected (or, when it selected none, of its best public submission).
 */
export async function leaderboard(ctx: Ctx, questionId: number, board: 'public' | 'private'): Promise<Leaderboard> {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question || question.reviewed !== 1) throw notFound('赛题不存在');
  await policy.readsCompetition(ctx, question.competitionId);
  // The question exists but its organiser set no evaluation (or removed it): there is no board to show.
  if (!question.metric) throw notFound(NO_SCORING_BOARD);
  const metric = question.metric as Metric;
  const higher = HIGHER_IS_BETTER[metric];
  const published = question.leaderboardPublished === 1;
  // Before publication the private board is closed to everyone but its organisers: an ordinary answer that says so,
  // with no entries (no names, scores or counts), rather than an error the page would have to tell apart.
  if (board === 'private' && !published && !(await policy.manages(ctx, question.competitionId))) {
    return { board, metric, higherIsBetter: higher, published, entries: [] };
  }
  const entries = await rankTeams(ctx.db, questionId, higher, board);
  return { board, metric, higherIsBetter: higher, published, entries: entries.map((e, i) => ({ rank: i + 1, ...e })) };
}

/** Each team's board score, best first (ties: the earlier last submission first). Grades read the private board. */
export async function rankTeams(db: Db, questionId: number, higher: boolean, board: 'public' | 'private') {
  const rows = await repo.scoredSubmissions(db, questionId);
  const better = (a: number, b: number) => (higher ? a > b : a < b);
  const byTeam = new Map<number, { teamName: string; rows: typeof rows }>();
  for (const r of rows) {
    const entry = byTeam.get(r.teamId) ?? { teamName: r.teamName, rows: [] };
    entry.rows.push(r);
    byTeam.set(r.teamId, entry);
  }
  const pick = (list: typeof rows, key: 'publicScore' | 'privateScore') =>
    list.filter((r) => r[key] !== null).reduce<(typeof rows)[number] | null>((best, r) => (!best || better(r[key]!, best[key]!) ? r : best), null);
  const entries = [...byTeam.entries()].flatMap(([teamId, { teamName, rows: list }]) => {
    let score: number | null;
    if (board === 'public') score = pick(list, 'publicScore')?.publicScore ?? null;
    else {
      const chosen = list.filter((r) => r.selected === 1);
      score = chosen.length ? pick(chosen, 'privateScore')?.privateScore ?? null : pick(list, 'publicScore')?.privateScore ?? null;
    }
    return score === null ? [] : [{ teamId, teamName, score, submissions: list.length, lastAt: list[list.length - 1]!.createdAt }];
  });
  entries.sort((a, b) => (a.score === b.score ? a.lastAt.localeCompare(b.lastAt) : better(a.score, b.score) ? -1 : 1));
  return entries;
}

export async function publish(ctx: Ctx, questionId: number, published: boolean) {
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (!question) throw notFound('赛题不存在');
  await policy.managesCompetition(ctx, question.competitionId);
  await repo.setLeaderboardPublished(ctx.db, questionId, published);
}

/** The answers of the last questions scored, so a burst of submissions reads a large answer file once. */
const answersCache = new Map<string, Promise<Answers>>();
function cachedAnswers(deps: Deps, key: string, ev: Evaluation): Promise<Answers> {
  const id = JSON.stringify([key, ev]);
  let hit = answersCache.get(id);
  if (!hit) {
    hit = deps.storage.get(key).then((stream) => loadAnswers(stream, ev));
    hit.catch(() => answersCache.delete(id));
    answersCache.set(id, hit);
    while (answersCache.size > 2) answersCache.delete(answersCache.keys().next().value!);
  }
  return hit;
}

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

/**
 * Scores one queued submission (the scoring job, see jobs.ts); a file the engine refuses ends as failed with its
 * reasons, which is not a job failure.
 */
export async function scoreQueued(deps: Deps, submissionId: number) {
  const s = await repo.findSubmission(deps.db, submissionId);
  if (!s || s.status === TEST_STATUS.scored || s.status === TEST_STATUS.failed) return;
  const q = await repo.scoringQuestion(deps.db, s.questionId);
  if (!q?.answerKey || !q.metric) throw new Error('question has no answer or metric');
  await repo.markScoring(deps.db, s.id);
  const ev: Evaluation = { metric: q.metric as Metric, idColumn: q.idColumn!, targetColumn: q.targetColumn!, publicShare: q.publicPercent! / 100, salt: q.salt! };
  const answers = await cachedAnswers(deps, q.answerKey, ev);
  try {
    const result = await scoreSubmission(await deps.storage.get(s.fileKey), answers, ev);
    await repo.markScored(deps.db, s.id, { publicScore: result.publicScore, privateScore: result.privateScore, rows: result.rows, at: deps.clock.now().toISOString() });
    tellScored(deps, s.questionId, null);
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    await repo.markFailed(deps.db, s.id, err.message.slice(0, 2000), deps.clock.now().toISOString());
    tellScored(deps, s.questionId, await teamUserIds(deps.db, [s.teamId]));
  }
}

/** The scoring job has used up its attempts: the submission fails, asking the team to submit again. */
export async function scoringGaveUp(deps: Deps, submissionId: number) {
  await repo.markFailed(deps.db, submissionId, '评分出错，请重新提交', null);
  const s = await repo.findSubmission(deps.db, submissionId);
  if (s) tellScored(deps, s.questionId, await teamUserIds(deps.db, [s.teamId]));
}

// The team's members may read back their own prediction files.
grantPrivateReads('prediction', (ctx, key) => repo.memberOfFileTeam(ctx.db, key, ctx.actor.userId));
