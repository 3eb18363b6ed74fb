import { GRADE_STATE, TEST_STATUS, higherIsBetterOf } from '@contest/shared';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';
import { teamBoardRows, type BoardName } from './boards.ts';

/** Every query of test (prediction) submissions: the submissions, the daily quota and the question's evaluation. */

/** The question's evaluation setting and state, as scoring and the boards read them. */
export const scoringQuestion = (db: Db, questionId: number) =>
  db
    .selectFrom('questions as q')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .select([
      'q.id',
      'q.competitionId',
      'c.orgId',
      'q.reviewed',
      'q.metric',
      'q.idColumn',
      'q.targetColumn',
      'q.publicPercent',
      'q.dailyLimit',
      'q.positiveLabel',
      'q.topK',
      'q.higherIsBetter',
      'q.timeLimitSec',
      'q.metricName',
      'q.scorerKey',
      'q.salt',
      'q.splitRule',
      'q.answerKey',
      'q.answerIndexKey',
      'q.answerIndexTag',
      'q.leaderboardPublished',
      'q.scoringVersion',
      'q.boardVersion',
    ])
    .where('q.id', '=', questionId)
    .executeTakeFirst();

/** The user's team in the competition, when it chose the question. */
export const teamChoosing = async (db: Db, userId: number, competitionId: number, questionId: number) =>
  (
    await db
      .selectFrom('teamMembers as m')
      .innerJoin('teamChoices as c', 'c.teamId', 'm.teamId')
      .select('m.teamId')
      .where('m.userId', '=', userId)
      .where('m.competitionId', '=', competitionId)
      .where('c.questionId', '=', questionId)
      .executeTakeFirst()
  )?.teamId;

/** Takes one of the day's attempts: a conditional increment, so parallel uploads never pass the limit. */
export async function takeQuota(db: Db, v: { teamId: number; questionId: number; day: string; limit: number }): Promise<boolean> {
  const taken = await db
    .insertInto('testQuota')
    .values({ teamId: v.teamId, questionId: v.questionId, day: v.day, used: 1 })
    .onConflict((oc) =>
      oc
        .columns(['teamId', 'questionId', 'day'])
        .doUpdateSet((eb) => ({ used: eb('testQuota.used', '+', 1) }))
        .where('testQuota.used', '<', v.limit),
    )
    .executeTakeFirst();
  return Number(taken.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Gives back the attempt a submission took: a file refused with a reason never counts against the day's limit. */
export const releaseQuota = (db: Db, v: { teamId: number; questionId: number; day: string }) =>
  db
    .updateTable('testQuota')
    .set((eb) => ({ used: eb('used', '-', 1) }))
    .where('teamId', '=', v.teamId)
    .where('questionId', '=', v.questionId)
    .where('day', '=', v.day)
    .where('used', '>', 0)
    .execute();

export const usedToday = async (db: Db, teamId: number, questionId: number, day: string) =>
  (await db.selectFrom('testQuota').select('used').where('teamId', '=', teamId).where('questionId', '=', questionId).where('day', '=', day).executeTakeFirst())
    ?.used ?? 0;

/** How many of the team's submissions for the question wait to be scored, before the submission `before`. */
export async function teamWaiting(db: Db, v: { teamId: number; questionId: number; before: number }) {
  const { n } = await db
    .selectFrom('testSubmissions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('teamId', '=', v.teamId)
    .where('questionId', '=', v.questionId)
    .where('status', '=', TEST_STATUS.queued)
    .where('id', '<', v.before)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Records the job that scores a submission sent just now. */
export const setScoreJob = (db: Db, id: number, jobId: number) => db.updateTable('testSubmissions').set({ scoreJobId: jobId }).where('id', '=', id).execute();

/** The stored prediction file's record and the queued submission; returns the submission's id. */
export async function insertSubmission(
  db: Db,
  v: {
    competitionId: number;
    questionId: number;
    teamId: number;
    userId: number;
    key: string;
    fileName: string;
    mime: string;
    size: number;
    sha256: string;
    day: string;
    now: string;
  },
) {
  await db
    .insertInto('files')
    .values({
      key: v.key,
      originalName: v.fileName,
      mime: v.mime,
      size: v.size,
      sha256: v.sha256,
      ownerId: v.userId,
      visibility: 'private',
      purpose: 'prediction',
      createdAt: v.now,
    })
    .execute();
  const { id } = await db
    .insertInto('testSubmissions')
    .values({
      competitionId: v.competitionId,
      questionId: v.questionId,
      teamId: v.teamId,
      userId: v.userId,
      fileKey: v.key,
      fileName: v.fileName,
      size: v.size,
      status: TEST_STATUS.queued,
      day: v.day,
      createdAt: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * A file refused at upload (it could not be read as the expected CSV): a failed submission with its problems and no
 * file (`file_removed_at`), so that the team's history shows it like a refusal of the scorer. No attempt is taken.
 */
export async function insertRefused(
  db: Db,
  v: {
    competitionId: number;
    questionId: number;
    teamId: number;
    userId: number;
    key: string;
    fileName: string;
    size: number;
    reason: string;
    version: number;
    day: string;
    now: string;
  },
) {
  await db
    .insertInto('testSubmissions')
    .values({
      competitionId: v.competitionId,
      questionId: v.questionId,
      teamId: v.teamId,
      userId: v.userId,
      fileKey: v.key,
      fileName: v.fileName,
      size: v.size,
      status: TEST_STATUS.failed,
      reason: v.reason,
      scoringVersion: v.version,
      day: v.day,
      createdAt: v.now,
      scoredAt: v.now,
      fileRemovedAt: v.now,
    })
    .execute();
}

/** How many of the team's files for the question were refused at upload on `day` (never queued: no job). */
export const refusedToday = async (db: Db, v: { teamId: number; questionId: number; day: string }) =>
  Number(
    (
      await db
        .selectFrom('testSubmissions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('teamId', '=', v.teamId)
        .where('questionId', '=', v.questionId)
        .where('day', '=', v.day)
        .where('status', '=', TEST_STATUS.failed)
        .where('scoreJobId', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A team's submissions for a question, newest first, with who sent each. */
export const teamSubmissions = (db: Db, teamId: number, questionId: number) =>
  db
    .selectFrom('testSubmissions as s')
    .innerJoin('users as u', 'u.id', 's.userId')
    .select([
      's.id',
      's.questionId',
      's.teamId',
      'u.username',
      's.fileName',
      's.size',
      's.status',
      's.reason',
      's.publicScore',
      's.privateScore',
      's.selected',
      's.createdAt',
      's.scoredAt',
      's.scoreJobId',
      's.cancelReason',
    ])
    .where('s.teamId', '=', teamId)
    .where('s.questionId', '=', questionId)
    .orderBy('s.id', 'desc')
    .execute();

export const findSubmission = (db: Db, id: number) =>
  db
    .selectFrom('testSubmissions')
    .select(['id', 'competitionId', 'questionId', 'teamId', 'fileKey', 'fileName', 'status', 'day', 'cancelledAt'])
    .where('id', '=', id)
    .executeTakeFirst();

/** A team's failed submissions that still have their file, newest first, with its size. */
export const failedFilesOf = (db: Db, teamId: number) =>
  db
    .selectFrom('testSubmissions')
    .select(['id', 'fileKey', 'size'])
    .where('teamId', '=', teamId)
    .where('status', '=', TEST_STATUS.failed)
    .where('fileRemovedAt', 'is', null)
    .orderBy('id', 'desc')
    .execute();

/**
 * A failed submission's file is given up: its file's record goes and the submission says when (the caller deletes the
 * stored bytes). Its outcome stays. In the caller's transaction.
 */
export async function markFileRemoved(trx: Db, v: { id: number; key: string; at: string }) {
  await trx.updateTable('testSubmissions').set({ fileRemovedAt: v.at }).where('id', '=', v.id).execute();
  await trx.deleteFrom('files').where('key', '=', v.key).execute();
}

/** Puts a submission back in the queue (its job was moved to another lane, or its setting changed while it was held). */
export const markQueued = (db: Db, id: number, jobId: number) =>
  db.updateTable('testSubmissions').set({ status: TEST_STATUS.queued, scoreJobId: jobId }).where('id', '=', id).execute();

/**
 * Marks a submission selected or not and counts the team's selections for the question, in the caller's transaction;
 * the team's private row follows. Locks are taken in the order every board write takes them (the question's row, then
 * the team's, then the submission's: see `settle`), so two selections made at once are counted one after the other and
 * a selection never deadlocks with a scoring.
 */
export async function setSelected(trx: Db, v: { id: number; teamId: number; questionId: number; selected: boolean }) {
  const q = await lockBoards(trx, v.questionId);
  await lockTeam(trx, v.teamId);
  await trx
    .updateTable('testSubmissions')
    .set({ selected: v.selected ? 1 : 0 })
    .where('id', '=', v.id)
    .execute();
  const { n } = await trx
    .selectFrom('testSubmissions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('teamId', '=', v.teamId)
    .where('questionId', '=', v.questionId)
    .where('selected', '=', 1)
    .executeTakeFirstOrThrow();
  if (q) await refreshTeamBoards(trx, { questionId: v.questionId, teamId: v.teamId, ...q });
  return Number(n);
}

/**
 * Locks the question's row (an update, which both databases lock) and raises its board version, which the boards'
 * cache is keyed by; answers the scoring version and whether a higher score is better.
 */
async function lockBoards(trx: Db, questionId: number) {
  const q = await trx
    .updateTable('questions')
    .set((eb) => ({ boardVersion: eb('boardVersion', '+', 1) }))
    .where('id', '=', questionId)
    .returning(['scoringVersion', 'metric', 'higherIsBetter'])
    .executeTakeFirst();
  return q && { version: q.scoringVersion, higher: higherOf(q) };
}

/** Whether a question's boards rank a higher score first: its metric's direction, or the one its own program was given. */
export const higherOf = (q: { metric: string | null; higherIsBetter: number | null }) =>
  q.metric ? higherIsBetterOf({ metric: q.metric, higherIsBetter: q.higherIsBetter === null ? null : q.higherIsBetter === 1 }) : true;

/** The team's row lock (a no-op update): a team's board rows are written one writer at a time. */
const lockTeam = (trx: Db, teamId: number) =>
  trx
    .updateTable('teams')
    .set((eb) => ({ memberCount: eb.ref('memberCount') }))
    .where('id', '=', teamId)
    .execute();

/**
 * Writes the team's rows of the boards' table (0016) from its scored submissions of `version`: its best score on each
 * board (boards.ts), or no row where it has none. Called under the question's and the team's row locks.
 */
export async function refreshTeamBoards(trx: Db, v: { questionId: number; teamId: number; version: number; higher: boolean }) {
  // A disqualified team is on no board; a submission whose score was cancelled counts for nothing (0027).
  const out = await disqualificationOf(trx, v.questionId, v.teamId);
  const rows = out
    ? []
    : await trx
        .selectFrom('testSubmissions')
        .select(['id', 'publicScore', 'privateScore', 'selected', 'createdAt'])
        .where('teamId', '=', v.teamId)
        .where('questionId', '=', v.questionId)
        .where('status', '=', TEST_STATUS.scored)
        .where('scoringVersion', '=', v.version)
        .where('cancelledAt', 'is', null)
        .orderBy('id')
        .execute();
  const boards = teamBoardRows(rows, v.higher);
  for (const board of ['public', 'private'] as const) {
    const row = boards[board];
    if (!row) {
      await trx.deleteFrom('boardScores').where('questionId', '=', v.questionId).where('board', '=', board).where('teamId', '=', v.teamId).execute();
      continue;
    }
    const values = { scoringVersion: v.version, ...row };
    await trx
      .insertInto('boardScores')
      .values({ questionId: v.questionId, board, teamId: v.teamId, ...values })
      .onConflict((oc) => oc.columns(['questionId', 'board', 'teamId']).doUpdateSet(values))
      .execute();
  }
}

/** One page of a board of the question's `version`, best first, with the team names. */
export const boardPage = (db: Db, v: { questionId: number; board: BoardName; version: number; offset: number; limit: number; group?: string }) =>
  db
    .selectFrom('boardScores as b')
    .innerJoin('teams as t', 't.id', 'b.teamId')
    .select(['b.teamId', 't.name as teamName', 't.groupName', 'b.score', 'b.submissions', 'b.lastAt'])
    .where('b.questionId', '=', v.questionId)
    .where('b.board', '=', v.board)
    .where('b.scoringVersion', '=', v.version)
    .$if(v.group !== undefined, (q) => q.where('t.groupName', '=', v.group!))
    .orderBy('b.rankKey')
    .orderBy('b.reachedBy')
    .limit(v.limit)
    .offset(v.offset)
    .execute();

/** How many teams a board of the question's `version` ranks. */
export const boardTotal = async (db: Db, v: { questionId: number; board: BoardName; version: number; group?: string }) =>
  Number(
    (
      await db
        .selectFrom('boardScores as b')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('b.questionId', '=', v.questionId)
        .where('b.board', '=', v.board)
        .where('b.scoringVersion', '=', v.version)
        .$if(v.group !== undefined, (q) => q.innerJoin('teams as t', 't.id', 'b.teamId').where('t.groupName', '=', v.group!))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A team's row on a board of the question's `version` and its rank (1 + the rows ahead of it), without the board. */
export async function boardRowOf(db: Db, v: { questionId: number; board: BoardName; version: number; teamId: number; group?: string }) {
  const row = await db
    .selectFrom('boardScores as b')
    .innerJoin('teams as t', 't.id', 'b.teamId')
    .select(['b.teamId', 't.name as teamName', 't.groupName', 'b.score', 'b.submissions', 'b.lastAt', 'b.rankKey', 'b.reachedBy'])
    .where('b.questionId', '=', v.questionId)
    .where('b.board', '=', v.board)
    .where('b.teamId', '=', v.teamId)
    .where('b.scoringVersion', '=', v.version)
    .executeTakeFirst();
  if (!row || (v.group !== undefined && row.groupName !== v.group)) return undefined;
  const { ahead } = await db
    .selectFrom('boardScores as b')
    .select((eb) => eb.fn.countAll<number>().as('ahead'))
    .where('b.questionId', '=', v.questionId)
    .where('b.board', '=', v.board)
    .where('b.scoringVersion', '=', v.version)
    .where((eb) => eb.or([eb('b.rankKey', '<', row.rankKey), eb.and([eb('b.rankKey', '=', row.rankKey), eb('b.reachedBy', '<', row.reachedBy)])]))
    .$if(v.group !== undefined, (q) => q.innerJoin('teams as t', 't.id', 'b.teamId').where('t.groupName', '=', v.group!))
    .executeTakeFirstOrThrow();
  const { rankKey: _rankKey, reachedBy: _reachedBy, ...entry } = row;
  return { rank: Number(ahead) + 1, ...entry };
}

/** A whole board of the question's current scoring version, best first (grades read the private board). */
export const wholeBoard = (db: Db, questionId: number, board: BoardName) =>
  db
    .selectFrom('boardScores as b')
    .innerJoin('teams as t', 't.id', 'b.teamId')
    .innerJoin('questions as q', (j) => j.onRef('q.id', '=', 'b.questionId').onRef('q.scoringVersion', '=', 'b.scoringVersion'))
    .select(['b.teamId', 't.name as teamName', 'b.score', 'b.submissions', 'b.lastAt'])
    .where('b.questionId', '=', questionId)
    .where('b.board', '=', board)
    .orderBy('b.rankKey')
    .orderBy('b.reachedBy')
    .execute();

export const setLeaderboardPublished = (db: Db, questionId: number, published: boolean) =>
  db
    .updateTable('questions')
    .set({ leaderboardPublished: published ? 1 : 0 })
    .where('id', '=', questionId)
    .execute();

export const markScoring = (db: Db, id: number) => db.updateTable('testSubmissions').set({ status: TEST_STATUS.scoring }).where('id', '=', id).execute();

/** How a scoring ended: the scores, or why there are none (with, when an own program failed, the end of its standard error for the organisers). */
/** The fingerprints of a question's scored files under its current setting (not cancelled), for duplicate accounts. */
export const fingerprintsOf = (db: Db, questionId: number) =>
  db
    .selectFrom('testSubmissions as s')
    .innerJoin('questions as q', (j) => j.onRef('q.id', '=', 's.questionId').onRef('q.scoringVersion', '=', 's.scoringVersion'))
    .innerJoin('teams as t', 't.id', 's.teamId')
    .select(['s.id', 's.teamId', 't.teamNo', 't.name as teamName', 's.fileName', 's.privateScore', 's.createdAt', 's.fingerprint'])
    .where('s.questionId', '=', questionId)
    .where('s.status', '=', TEST_STATUS.scored)
    .where('s.cancelledAt', 'is', null)
    .where('s.fingerprint', 'is not', null)
    // Teams already disqualified from the question are settled.
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('disqualifications as d').select('d.teamId').whereRef('d.questionId', '=', 's.questionId').whereRef('d.teamId', '=', 's.teamId'))),
    )
    .orderBy('s.id')
    .execute();

export type Outcome = { publicScore: number | null; privateScore: number | null; rows: number; fingerprint?: string } | { reason: string; log?: string };

/**
 * Stores a scoring's outcome, stamped with the scoring version it was computed under, if that is still the question's
 * version; answers false (storing nothing) when the setting changed meanwhile, so the caller scores again. The question's
 * row is locked first (an update, which both databases lock), so a change of setting, which bumps the version under
 * the same lock, is seen either before or after, never in between. The team's board rows follow in the same
 * transaction (the caller's), under the team's row lock (the order every board write takes: question, team, submission).
 */
export async function settle(trx: Db, v: { id: number; questionId: number; version: number; outcome: Outcome; at: string }): Promise<boolean> {
  const q = await lockBoards(trx, v.questionId);
  if (!q || q.version !== v.version) return false;
  const s = await findSubmission(trx, v.id);
  if (!s) return true;
  await lockTeam(trx, s.teamId);
  const o = v.outcome;
  await trx
    .updateTable('testSubmissions')
    .set(
      'reason' in o
        ? {
            status: TEST_STATUS.failed,
            reason: o.reason,
            scorerLog: o.log ?? null,
            publicScore: null,
            privateScore: null,
            fingerprint: null,
            scoredAt: v.at,
            scoringVersion: v.version,
          }
        : {
            status: TEST_STATUS.scored,
            publicScore: o.publicScore,
            privateScore: o.privateScore,
            rows: o.rows,
            fingerprint: o.fingerprint ?? null,
            reason: null,
            scorerLog: null,
            scoredAt: v.at,
            scoringVersion: v.version,
          },
    )
    .where('id', '=', v.id)
    .execute();
  await refreshTeamBoards(trx, { questionId: v.questionId, teamId: s.teamId, ...q });
  return true;
}

/**
 * The job gave up: the submission fails under the question's current version (the time it was scored is unknown); its
 * team's board rows follow, under the locks `settle` takes, in the caller's transaction.
 */
export async function markFailed(trx: Db, id: number, reason: string, at: string) {
  const s = await findSubmission(trx, id);
  if (!s) return;
  const q = await lockBoards(trx, s.questionId);
  if (!q) return;
  await lockTeam(trx, s.teamId);
  await trx.updateTable('testSubmissions').set({ status: TEST_STATUS.failed, reason, scoredAt: at, scoringVersion: q.version }).where('id', '=', id).execute();
  await refreshTeamBoards(trx, { questionId: s.questionId, teamId: s.teamId, ...q });
}

/** Raises the question's scoring version (a change of metric, public share or answer file); answers the new one. */
export const bumpScoringVersion = async (db: Db, questionId: number) =>
  (
    await db
      .updateTable('questions')
      .set((eb) => ({ scoringVersion: eb('scoringVersion', '+', 1) }))
      .where('id', '=', questionId)
      .returning('scoringVersion')
      .executeTakeFirstOrThrow()
  ).scoringVersion;

const SETTLED = [TEST_STATUS.scored, TEST_STATUS.failed];

/**
 * Settled submissions of the question scored under an older version than `version`, oldest first: those that still
 * have their file (a file that failed on arrival was deleted; its team sends it again).
 */
export const staleSubmissions = (db: Db, questionId: number, version: number, limit: number) =>
  db
    .selectFrom('testSubmissions')
    .select(['id', 'questionId', 'teamId', 'fileKey', 'status'])
    .where('questionId', '=', questionId)
    .where('status', 'in', SETTLED)
    .where('scoringVersion', '<', version)
    .where('fileRemovedAt', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();

/** Of the question's settled submissions that have their file, how many there are and how many are scored under its current version. */
export async function rescoreProgress(db: Db, questionId: number, version: number) {
  const r = await db
    .selectFrom('testSubmissions')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number>(eb.case().when('scoringVersion', '=', version).then(1).else(0).end()).as('done')])
    .where('questionId', '=', questionId)
    .where('status', 'in', SETTLED)
    .where('fileRemovedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return { total: Number(r.total), done: Number(r.done ?? 0) };
}

/**
 * Whether some settled submission of the question is still scored under an older version (the board is being
 * re-scored). Versions only go up, so this is one seek on (question_id, scoring_version), cheap enough for every read of
 * a board, where counting all of a question's submissions is not.
 */
export async function rescoringPending(db: Db, questionId: number, version: number) {
  const stale = await db
    .selectFrom('testSubmissions')
    .select('id')
    .where('questionId', '=', questionId)
    .where('scoringVersion', '<', version)
    .where('status', 'in', SETTLED)
    .where('fileRemovedAt', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return stale !== undefined;
}

/** Whether the user is a member of the team that sent the prediction file. */
export const memberOfFileTeam = async (db: Db, key: string, userId: number) =>
  Boolean(
    await db
      .selectFrom('testSubmissions as s')
      .innerJoin('teamMembers as m', (j) => j.onRef('m.teamId', '=', 's.teamId').on('m.userId', '=', userId))
      .select('s.id')
      .where('s.fileKey', '=', key)
      .executeTakeFirst(),
  );

/**
 * A competition's scoring queue as its organisers watch it: submissions waiting, being scored, and failed (refused or
 * given up) between `since` and `until`.
 */
export async function competitionQueue(db: Db, competitionId: number, since: string, until: string) {
  const rows = await db
    .selectFrom('testSubmissions')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('competitionId', '=', competitionId)
    .where((eb) =>
      eb.or([
        eb('status', 'in', [TEST_STATUS.queued, TEST_STATUS.scoring]),
        eb.and([eb('status', '=', TEST_STATUS.failed), eb('scoredAt', '>=', since), eb('scoredAt', '<=', until)]),
      ]),
    )
    .groupBy('status')
    .execute();
  const count = (status: number) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { waiting: count(TEST_STATUS.queued), running: count(TEST_STATUS.scoring), failedLastHour: count(TEST_STATUS.failed) };
}

/**
 * The competition's latest failed submissions, newest first, for its organisers: the reason the team read and, when an
 * own program failed, the end of its standard error.
 */
export const recentFailures = (db: Db, competitionId: number, limit: number) =>
  db
    .selectFrom('testSubmissions as s')
    .innerJoin('questions as q', 'q.id', 's.questionId')
    .innerJoin('teams as t', 't.id', 's.teamId')
    .select(['s.id', 'q.title as questionTitle', 't.name as teamName', 's.fileName', 's.reason', 's.scorerLog', 's.scoredAt'])
    .where('s.competitionId', '=', competitionId)
    .where('s.status', '=', TEST_STATUS.failed)
    .orderBy('s.scoredAt', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();

// ---- The organisers' view and their 取消成绩 (issue 33) -------------------------------------------------------------

/** The team's disqualification from the question, if any. */
export const disqualificationOf = (db: Db, questionId: number, teamId: number) =>
  db.selectFrom('disqualifications').select(['reason', 'createdAt']).where('questionId', '=', questionId).where('teamId', '=', teamId).executeTakeFirst();

/** The teams disqualified from the question, latest first, with who decided. */
export const disqualifiedTeams = (db: Db, questionId: number) =>
  db
    .selectFrom('disqualifications as d')
    .innerJoin('teams as t', 't.id', 'd.teamId')
    .innerJoin('users as u', 'u.id', 'd.userId')
    .select(['d.teamId', 't.name as teamName', 'd.reason', 'u.username', 'd.createdAt'])
    .where('d.questionId', '=', questionId)
    .orderBy('d.createdAt', 'desc')
    .execute();

/** Whether the question's grades are confirmed (its results are out): scores then stay as they were published. */
export const gradesConfirmed = async (db: Db, questionId: number) =>
  (await db.selectFrom('reviewRules').select('gradeState').where('questionId', '=', questionId).executeTakeFirst())?.gradeState === GRADE_STATE.confirmed;

export type SubmissionFilter = { keyword?: string; teamId?: number; status?: number; cancelled?: boolean };

function filtered(db: Db, questionId: number, f: SubmissionFilter) {
  let q = db.selectFrom('testSubmissions as s').innerJoin('teams as t', 't.id', 's.teamId').where('s.questionId', '=', questionId);
  if (f.teamId) q = q.where('s.teamId', '=', f.teamId);
  if (f.keyword) q = q.where(containsText('t.name', f.keyword));
  if (f.status !== undefined) q = q.where('s.status', '=', f.status);
  if (f.cancelled) q = q.where('s.cancelledAt', 'is not', null);
  return q;
}

/** One page of every team's submissions for the question, newest first, as its organisers see them. */
export async function questionSubmissions(db: Db, questionId: number, f: SubmissionFilter & { offset: number; limit: number }) {
  const [rows, { n }] = await Promise.all([
    filtered(db, questionId, f)
      .innerJoin('users as u', 'u.id', 's.userId')
      .select([
        's.id',
        's.questionId',
        's.teamId',
        't.name as teamName',
        'u.username',
        's.fileName',
        's.fileKey',
        's.fileRemovedAt',
        's.size',
        's.status',
        's.reason',
        's.publicScore',
        's.privateScore',
        's.selected',
        's.createdAt',
        's.scoredAt',
        's.scorerLog',
        's.cancelReason',
        's.cancelledAt',
      ])
      .orderBy('s.id', 'desc')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    filtered(db, questionId, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(n) };
}

/**
 * Cancels (with the reason) or restores a submission's score and rewrites its team's board rows, under the locks every
 * board write takes (the question's row, then the team's). Answers whether anything changed.
 */
export async function setCancelled(trx: Db, v: { id: number; questionId: number; teamId: number; reason: string | null; at: string }) {
  const q = await lockBoards(trx, v.questionId);
  await lockTeam(trx, v.teamId);
  const { numUpdatedRows } = await trx
    .updateTable('testSubmissions')
    .set(v.reason === null ? { cancelReason: null, cancelledAt: null } : { cancelReason: v.reason, cancelledAt: v.at, selected: 0 })
    .where('id', '=', v.id)
    .where('cancelledAt', v.reason === null ? 'is not' : 'is', null)
    .executeTakeFirst();
  if (q) await refreshTeamBoards(trx, { questionId: v.questionId, teamId: v.teamId, ...q });
  return Number(numUpdatedRows) > 0;
}

/** Disqualifies (with the reason) or restores a team on the question and rewrites its board rows, as above. */
export async function setDisqualified(trx: Db, v: { questionId: number; teamId: number; userId: number; reason: string | null; at: string }) {
  const q = await lockBoards(trx, v.questionId);
  await lockTeam(trx, v.teamId);
  let changed: boolean;
  if (v.reason === null) {
    const { numDeletedRows } = await trx
      .deleteFrom('disqualifications')
      .where('questionId', '=', v.questionId)
      .where('teamId', '=', v.teamId)
      .executeTakeFirst();
    changed = Number(numDeletedRows) > 0;
  } else {
    const r = await trx
      .insertInto('disqualifications')
      .values({ questionId: v.questionId, teamId: v.teamId, reason: v.reason, userId: v.userId, createdAt: v.at })
      .onConflict((oc) => oc.columns(['questionId', 'teamId']).doNothing())
      .returning('teamId')
      .executeTakeFirst();
    changed = r !== undefined;
  }
  if (q) await refreshTeamBoards(trx, { questionId: v.questionId, teamId: v.teamId, ...q });
  return changed;
}

/** Whether the team chose the question (so it can be disqualified from it), and its name. */
export const teamOnQuestion = (db: Db, questionId: number, teamId: number) =>
  db
    .selectFrom('teamChoices as c')
    .innerJoin('teams as t', 't.id', 'c.teamId')
    .select(['t.id', 't.name'])
    .where('c.questionId', '=', questionId)
    .where('c.teamId', '=', teamId)
    .executeTakeFirst();

/** The question's title and competition, for the organisers' messages. */
export const questionNames = (db: Db, questionId: number) =>
  db
    .selectFrom('questions as q')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .select(['q.id', 'q.title', 'q.competitionId', 'c.name as competitionName'])
    .where('q.id', '=', questionId)
    .executeTakeFirst();

/** The competition a prediction file was sent to. */
export const competitionOfFile = async (db: Db, key: string) =>
  (await db.selectFrom('testSubmissions').select('competitionId').where('fileKey', '=', key).executeTakeFirst())?.competitionId;
