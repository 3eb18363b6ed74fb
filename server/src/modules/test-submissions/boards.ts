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
