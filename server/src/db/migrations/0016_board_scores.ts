import { HIGHER_IS_BETTER } from '@contest/shared';
import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/** The metrics of which a higher score is better (for the backfill). */
const HIGHER = Object.entries(HIGHER_IS_BETTER)
  .filter(([, higher]) => higher)
  .map(([metric]) => metric);

/**
 * Leaderboards computed where the data is (issue 22): each team's best score per board and scoring version, kept by the
 * scoring and rescoring jobs and by selections (test-submissions/repo.ts `refreshTeamBoards`), so that a board is an
 * index range read in rank order, paged, and a team's own rank a count on the same index. `rank_key` is the score,
 * negated when higher is better, so one ascending index serves every metric; `reached_by` is the submission that set the
 * score (ties go to the earlier). `questions.board_version` goes up whenever a board may have moved: the boards' cache
 * is keyed by it, so every instance sees a new score at once.
 */
export async function up(db: Kysely<unknown>, _ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('board_scores')
    .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
    .addColumn('board', 'varchar(8)', (c) => c.notNull())
    .addColumn('team_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('scoring_version', 'integer', (c) => c.notNull())
    .addColumn('score', 'double precision', (c) => c.notNull())
    .addColumn('rank_key', 'double precision', (c) => c.notNull())
    .addColumn('reached_by', 'integer', (c) => c.notNull())
    .addColumn('submissions', 'integer', (c) => c.notNull())
    .addColumn('last_at', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('board_scores_pk', ['question_id', 'board', 'team_id'])
    .execute();
  await db.schema.createIndex('board_scores_rank').on('board_scores').columns(['question_id', 'board', 'scoring_version', 'rank_key', 'reached_by']).execute();
  await db.schema
    .alterTable('questions')
    .addColumn('board_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await backfillBoards(db);
}

/**
 * Fills the boards' table from the scored submissions of each question's current version, as the boards ranked them in
 * JavaScript before: public, each team's best public score (the earliest of equals); private, the best private score of
 * the team's selected submissions, or, when it selected none, the private score of its best public submission.
 */
export async function backfillBoards(db: Kysely<unknown>): Promise<void> {
  const higher = sql.join(HIGHER.map((m) => sql.lit(m)));
  const scored = sql`
    SELECT s.id, s.question_id, s.team_id, s.public_score, s.private_score, s.selected, s.created_at, q.scoring_version,
      CASE WHEN q.metric IN (${higher}) THEN -1.0 ELSE 1.0 END AS dir,
      count(*) OVER (PARTITION BY s.question_id, s.team_id) AS n,
      first_value(s.created_at) OVER (PARTITION BY s.question_id, s.team_id ORDER BY s.id DESC) AS last_at,
      max(s.selected) OVER (PARTITION BY s.question_id, s.team_id) AS any_selected
    FROM test_submissions s JOIN questions q ON q.id = s.question_id AND q.scoring_version = s.scoring_version
    WHERE s.status = 2`;
  await sql`
    INSERT INTO board_scores (question_id, board, team_id, scoring_version, score, rank_key, reached_by, submissions, last_at)
    SELECT question_id, 'public', team_id, scoring_version, public_score, dir * public_score, id, n, last_at FROM (
      SELECT x.*, row_number() OVER (PARTITION BY question_id, team_id ORDER BY CASE WHEN public_score IS NULL THEN 1 ELSE 0 END, dir * public_score, id) AS rn
      FROM (${scored}) x
    ) y WHERE rn = 1 AND public_score IS NOT NULL`.execute(db);
  // The row that counts for the private board: a selected one with a private score, best first; else the best public one.
  await sql`
    INSERT INTO board_scores (question_id, board, team_id, scoring_version, score, rank_key, reached_by, submissions, last_at)
    SELECT question_id, 'private', team_id, scoring_version, private_score, dir * private_score, id, n, last_at FROM (
      SELECT x.*, row_number() OVER (
        PARTITION BY question_id, team_id
        ORDER BY
          CASE WHEN any_selected = 1 THEN (CASE WHEN selected = 1 AND private_score IS NOT NULL THEN 0 ELSE 1 END)
               ELSE (CASE WHEN public_score IS NOT NULL THEN 0 ELSE 1 END) END,
          CASE WHEN any_selected = 1 THEN dir * private_score ELSE dir * public_score END,
          id
      ) AS rn
      FROM (${scored}) x
    ) y
    WHERE rn = 1 AND private_score IS NOT NULL
      AND (CASE WHEN any_selected = 1 THEN selected ELSE (CASE WHEN public_score IS NOT NULL THEN 1 ELSE 0 END) END) = 1`.execute(db);
}
