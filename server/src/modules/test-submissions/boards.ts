import type { EvaluationMetric, Leaderboard } from '@contest/shared';
import type { Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { readCache } from '../../http/read-cache.ts';
import * as repo from './repo.ts';
import * as competitions from '../competitions/index.ts';

/**
 * What one team's submissions put on a question's boards (the rule the boards' table keeps, repo.refreshTeamBoards).
 * The public board takes the team's best public score; the private board the best private score among the submissions
 * the team selected or, when it selected none, the private score of its best public submission. Of equal scores the
 * earliest submission is the one that counts (`reachedBy`), and of two teams tied the earlier of those ranks first.
 */

export type BoardName = 'public' | 'private';

/** A team's scored submission of the question's current scoring version. */
export interface ScoredRow {
  id: number;
  publicScore: number | null;
  privateScore: number | null;
  selected: number;
  createdAt: string;
}

export interface TeamBoardRow {
  score: number;
  /** The score, negated when higher is better: a board ranks by rankKey, then reachedBy, both ascending. */
  rankKey: number;
  reachedBy: number;
  submissions: number;
  lastAt: string;
}

/** The team's row on each board, or null when it has no score there. `rows` come oldest first (by id). */
export function teamBoardRows(rows: readonly ScoredRow[], higher: boolean): Record<BoardName, TeamBoardRow | null> {
  if (!rows.length) return { public: null, private: null };
  const better = (a: number, b: number) => (higher ? a > b : a < b);
  // Rows come oldest first and only a strictly better score replaces the best so far: the earliest of equals is kept.
  const pick = (list: readonly ScoredRow[], key: 'publicScore' | 'privateScore') =>
    list.filter((r) => r[key] !== null).reduce<ScoredRow | null>((best, r) => (!best || better(r[key]!, best[key]!) ? r : best), null);
  const row = (by: ScoredRow | null, score: number | null | undefined): TeamBoardRow | null =>
    by && score !== null && score !== undefined
      ? { score, rankKey: higher ? -score : score, reachedBy: by.id, submissions: rows.length, lastAt: rows[rows.length - 1]!.createdAt }
      : null;
  const bestPublic = pick(rows, 'publicScore');
  const chosen = rows.filter((r) => r.selected === 1);
  const privateBy = chosen.length ? pick(chosen, 'privateScore') : bestPublic;
  return { public: row(bestPublic, bestPublic?.publicScore), private: row(privateBy, privateBy?.privateScore) };
}

// ---- The boards as read and published ------------------------------------------------------------------------

/** What a question without an evaluation (never set, or removed after approval) answers instead of a board or a score. */
const NO_SCORING_BOARD = '该赛题没有自动评分，没有排行榜';

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
export async function leaderboard(
  ctx: Ctx,
  questionId: number,
  query: { board: BoardName; page: number; limit: number; group?: string },
): Promise<Leaderboard> {
  const { board, page, limit, group } = query;
  const question = await repo.scoringQuestion(ctx.db, questionId);
  if (question?.reviewed !== 1) throw notFound('赛题不存在');
  const competition = await competitions.readableCompetition(ctx, question.competitionId);
  // Each group has its own board as well (issue 36): the page offers them.
  const e = competition.eligibility;
  const groups = e.groupMode === 'none' ? {} : { groups: e.groupList.map((g) => g.name) };
  // The question exists but its organiser set no evaluation (or removed it): there is no board to show.
  if (!question.metric) throw notFound(NO_SCORING_BOARD);
  const metric = question.metric as EvaluationMetric;
  const higher = repo.higherOf(question);
  const published = question.leaderboardPublished === 1;
  // Before publication the private board is closed to everyone but its organisers: an ordinary answer that says so,
  // with no entries (no names, scores or counts), rather than an error the page would have to tell apart.
  const named = question.metricName ? { metricName: question.metricName } : {};
  if (board === 'private' && !published && !(await competitions.isManaged(ctx, question.competitionId))) {
    return { board, metric, ...named, ...groups, higherIsBetter: higher, published, entries: [], total: 0 };
  }
  const version = question.scoringVersion;
  const key = [questionId, board, version, question.boardVersion, published, page, limit, group ?? ''].join(' ');
  const view = await boardReads(ctx, key, async () => {
    const offset = (page - 1) * limit;
    const [rows, total, rescoring] = await Promise.all([
      repo.boardPage(ctx.db, { questionId, board, version, offset, limit, group }),
      repo.boardTotal(ctx.db, { questionId, board, version, group }),
      repo.rescoringPending(ctx.db, questionId, version),
    ]);
    return { rescoring, total, entries: rows.map((e, i) => ({ rank: offset + i + 1, ...e })) };
  });
  const teamId = ctx.actor ? await repo.teamChoosing(ctx.db, ctx.actor.userId, question.competitionId, questionId) : undefined;
  // With a group asked for, the board is that group's (issue 36): ranks count within it.
  const mine = teamId ? await repo.boardRowOf(ctx.db, { questionId, board, version, teamId, group }) : undefined;
  return { board, metric, ...named, ...groups, higherIsBetter: higher, published, ...view, ...(mine && { mine }) };
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
  await competitions.managedCompetition(ctx, question.competitionId);
  const confirmed = await repo.gradesConfirmed(ctx.db, questionId);
  if (published && !confirmed) throw conflict(PRIVATE_WITH_GRADES);
  if (!published && confirmed) throw conflict('该赛题的成绩已确认公布，私榜随成绩公布，不能撤回');
  await repo.setLeaderboardPublished(ctx.db, questionId, published);
}

export const PRIVATE_WITH_GRADES = '私榜在确认成绩时与成绩一同公布，请在该赛题的“成绩”页确认成绩';
