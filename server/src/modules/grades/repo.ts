import { ASSIGNMENT_STATUS, DISPUTE_STATUS, GRADE_STATE, type DisputePageQuery } from '@contest/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { GradesTable } from '../../db/schema.ts';
import { containsText } from '../../db/like.ts';
import { keysetBatches } from '../../db/batches.ts';

/**
 * Every query of grades: the computed grades, their state on the question's rule, and disputes. The award columns of a
 * grade row are written by awards (its repo), and the award's name comes from awards' index.
 */

// ---- Computing grades -----------------------------------------------------------------------------------------------

/** The teams that handed in a work for the question. */
export const teamIdsWithWorks = async (db: Db, questionId: number) =>
  (
    await db
      .selectFrom('works as w')
      .select('w.teamId')
      .distinct()
      .where('w.questionId', '=', questionId)
      // A team its organiser disqualified from the question (0027) has no grade.
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('disqualifications as d').select('d.teamId').whereRef('d.questionId', '=', 'w.questionId').whereRef('d.teamId', '=', 'w.teamId'),
          ),
        ),
      )
      .execute()
  ).map((w) => w.teamId);

/** Every assignment of the question with its state and the judge's total. */
export const assignmentTotals = (db: Db, questionId: number) =>
  db.selectFrom('reviewAssignments').select(['teamId', 'status', 'total']).where('questionId', '=', questionId).execute();

/** A grade row's computed columns (its award columns are the awards module's). */
export type GradeValues = Omit<GradesTable, 'questionId' | 'teamId' | 'awardId' | 'awardManual'>;

/** Writes the team's computed grade; its award stays as it is. */
export const upsertGrade = (db: Db, questionId: number, teamId: number, values: GradeValues) =>
  db
    .insertInto('grades')
    .values({ questionId, teamId, ...values })
    .onConflict((oc) => oc.columns(['questionId', 'teamId']).doUpdateSet(values))
    .execute();

/** Removes the grades of the question's teams but `keep` (teams no longer on its private board). */
export const deleteGradesExcept = (db: Db, questionId: number, keep: number[]) => {
  let q = db.deleteFrom('grades').where('questionId', '=', questionId);
  if (keep.length) q = q.where('teamId', 'not in', keep);
  return q.execute();
};

/** The grade state the question's rule records (none when it has no rule yet). */
export const gradeStateOf = (db: Db, questionId: number) =>
  db.selectFrom('reviewRules').select(['gradeState', 'calculatedAt', 'confirmedAt']).where('questionId', '=', questionId).executeTakeFirst();

/** The judges with assignments of the question not yet submitted, and how many. */
export const unfinishedJudges = (db: Db, questionId: number) =>
  db
    .selectFrom('reviewAssignments as a')
    .innerJoin('users as u', 'u.id', 'a.judgeId')
    .select((eb) => ['a.judgeId', 'u.username', 'u.userName', eb.fn.countAll<number>().as('pending')])
    .where('a.questionId', '=', questionId)
    .where('a.status', '!=', ASSIGNMENT_STATUS.submitted)
    .groupBy(['a.judgeId', 'u.username', 'u.userName'])
    .orderBy('a.judgeId')
    .execute();

export const pendingAssignments = async (db: Db, questionId: number) =>
  Number(
    (
      await db
        .selectFrom('reviewAssignments')
        .select((eb) => eb.fn.countAll<number>().as('pending'))
        .where('questionId', '=', questionId)
        .where('status', '!=', ASSIGNMENT_STATUS.submitted)
        .executeTakeFirstOrThrow()
    ).pending,
  );

export const markCalculated = (db: Db, questionId: number, now: string) =>
  db.updateTable('reviewRules').set({ gradeState: GRADE_STATE.calculated, calculatedAt: now }).where('questionId', '=', questionId).execute();

/** Confirms the grades; the first confirmation's time is kept (the dispute window runs from it). */
export const markConfirmed = (db: Db, questionId: number, now: string) =>
  db
    .updateTable('reviewRules')
    .set((eb) => ({ gradeState: GRADE_STATE.confirmed, calculatedAt: now, confirmedAt: eb.fn.coalesce('confirmedAt', eb.val(now)) }))
    .where('questionId', '=', questionId)
    .execute();

/** Unlocks confirmed grades for a re-review: they are computed and confirmed again afterwards. */
export const markRecalculating = (db: Db, questionId: number) =>
  db.updateTable('reviewRules').set({ gradeState: GRADE_STATE.calculated }).where('questionId', '=', questionId).execute();

export const gradedTeamIds = async (db: Db, questionId: number) =>
  (await db.selectFrom('grades').select('teamId').where('questionId', '=', questionId).execute()).map((g) => g.teamId);

// ---- The grade list -------------------------------------------------------------------------------------------------

const gradeRows = (db: Db) =>
  db
    .selectFrom('grades as g')
    .innerJoin('teams as t', 't.id', 'g.teamId')
    .select([
      'g.questionId',
      'g.teamId',
      't.teamNo',
      't.name as teamName',
      't.groupName',
      't.schoolName',
      'g.reviewScoresJson',
      'g.reviewScore',
      'g.judgesDone',
      'g.judgesTotal',
      'g.testScore',
      'g.testPoints',
      'g.finalScore',
      'g.rank',
      'g.awardId',
      'g.awardManual',
    ]);
export type GradeRow = Awaited<ReturnType<ReturnType<typeof gradeRows>['executeTakeFirstOrThrow']>>;

/** A page of the question's grades: ranked teams first, by rank, then the rest by team number; `max` rows at most. */
export async function gradePage(db: Db, questionId: number, q: { page: number; limit: number; keyword?: string; groupName?: string }, max: number) {
  let query = gradeRows(db).where('g.questionId', '=', questionId);
  if (q.groupName) query = query.where('t.groupName', '=', q.groupName);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) => eb.or([containsText('t.name', k), containsText('t.teamNo', k)]));
  }
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy((eb) => eb.case().when('g.rank', 'is', null).then(1).else(0).end())
    .orderBy('g.rank')
    .orderBy('t.teamNo')
    .limit(max)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { rows, total: Number(total) };
}

/**
 * Every grade of the question in `gradePage`'s order (ranked teams by rank, then the rest, each by team number), in
 * batches: the exports. Keyset on (ranked or not, rank, team number); the team number is unique.
 */
export function exportGradeRows(db: Db, questionId: number, size?: number) {
  const all = gradeRows(db).where('g.questionId', '=', questionId);
  return keysetBatches(
    (after: { rank: number | null; teamNo: string } | undefined, limit) => {
      let query = all;
      if (after && after.rank === null) query = query.where('g.rank', 'is', null).where('t.teamNo', '>', after.teamNo);
      else if (after) {
        const { rank, teamNo } = after;
        query = query.where((eb) =>
          eb.or([eb('g.rank', 'is', null), eb('g.rank', '>', rank!), eb.and([eb('g.rank', '=', rank!), eb('t.teamNo', '>', teamNo)])]),
        );
      }
      return query
        .orderBy((eb) => eb.case().when('g.rank', 'is', null).then(1).else(0).end())
        .orderBy('g.rank')
        .orderBy('t.teamNo')
        .limit(limit)
        .execute();
    },
    (r) => ({ rank: r.rank, teamNo: r.teamNo }),
    size,
  );
}

export const gradeView = (db: Db, questionId: number, teamId: number) =>
  gradeRows(db).where('g.questionId', '=', questionId).where('g.teamId', '=', teamId).executeTakeFirstOrThrow();

// ---- What a team sees -------------------------------------------------------------------------------------------------

/** The user's team in the competition. */
export const teamIdOf = async (db: Db, competitionId: number, userId: number) =>
  (await db.selectFrom('teamMembers').select('teamId').where('competitionId', '=', competitionId).where('userId', '=', userId).executeTakeFirst())?.teamId;

/** The team's grades on confirmed (or once confirmed) questions, with how many teams got a final score. */
export const teamGradeRows = (db: Db, teamId: number) =>
  db
    .selectFrom('grades as g')
    .innerJoin('questions as q', 'q.id', 'g.questionId')
    .innerJoin('reviewRules as r', 'r.questionId', 'g.questionId')
    .innerJoin('teams as t', 't.id', 'g.teamId')
    .select((eb) => [
      'g.questionId',
      't.groupName',
      'q.title as questionTitle',
      'q.judging',
      'r.reviewWeight',
      'r.testWeight',
      'r.aggregation',
      'g.reviewScore',
      'g.testScore',
      'g.testPoints',
      'q.leaderboardPublished',
      'g.finalScore',
      'g.rank',
      'g.awardId',
      'r.gradeState',
      'r.confirmedAt',
      'r.disputeDays',
      eb
        .selectFrom('grades as o')
        .innerJoin('teams as ot', 'ot.id', 'o.teamId')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('o.questionId', '=', 'g.questionId')
        // Counted within the team's group: each group is ranked on its own.
        .where(sql<boolean>`coalesce(ot.group_name, '') = coalesce(t.group_name, '')`)
        .where('o.finalScore', 'is not', null)
        .as('teams'),
    ])
    .where('g.teamId', '=', teamId)
    .where('r.confirmedAt', 'is not', null)
    .orderBy('q.sort')
    .orderBy('q.id')
    .execute();

export const hasGrade = async (db: Db, questionId: number, teamId: number) =>
  Boolean(await db.selectFrom('grades').select('teamId').where('questionId', '=', questionId).where('teamId', '=', teamId).executeTakeFirst());

// ---- Disputes ---------------------------------------------------------------------------------------------------------

const disputeRows = (db: Db) =>
  db
    .selectFrom('scoreDisputes as d')
    .innerJoin('teams as t', 't.id', 'd.teamId')
    .innerJoin('users as u', 'u.id', 'd.userId')
    .select([
      'd.id',
      'd.questionId',
      'd.teamId',
      't.teamNo',
      't.name as teamName',
      'u.username',
      'd.reason',
      'd.status',
      'd.answer',
      'd.rereview',
      'd.createdAt',
      'd.answeredAt',
      'd.kind',
      'd.attachmentKey',
      'u.verifiedName',
    ]);
export type DisputeRow = Awaited<ReturnType<ReturnType<typeof disputeRows>['executeTakeFirstOrThrow']>>;

/** The team's own disputes (not the 公示 objections others filed about it). */
export const teamDisputes = (db: Db, teamId: number) => disputeRows(db).where('d.teamId', '=', teamId).where('d.kind', '=', 'dispute').execute();

export const disputeView = (db: Db, id: number) => disputeRows(db).where('d.id', '=', id).executeTakeFirstOrThrow();

export const findDispute = (db: Db, id: number) => db.selectFrom('scoreDisputes').selectAll().where('id', '=', id).executeTakeFirst();

/** Files the dispute; a second one of the team on the question is a unique violation. Returns its id. */
export const insertDispute = async (db: Db, v: { questionId: number; teamId: number; userId: number; reason: string; createdAt: string }) =>
  (await db.insertInto('scoreDisputes').values(v).returning('id').executeTakeFirstOrThrow()).id;

/** A page of the question's disputes, pending first, newest first. */
export async function disputePage(db: Db, questionId: number, q: DisputePageQuery) {
  let query = disputeRows(db).where('d.questionId', '=', questionId);
  if (q.status !== undefined) query = query.where('d.status', '=', q.status);
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy('d.status')
    .orderBy('d.id', 'desc')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { rows, total: Number(total) };
}

/** Answers a pending dispute; false when it was already answered. */
export const answerPending = async (db: Db, id: number, v: { answer: string; rereview: number; answeredBy: number; answeredAt: string }) =>
  Number(
    (
      await db
        .updateTable('scoreDisputes')
        .set({ status: DISPUTE_STATUS.answered, ...v })
        .where('id', '=', id)
        .where('status', '=', DISPUTE_STATUS.pending)
        .executeTakeFirst()
    ).numUpdatedRows,
  ) > 0;

export const assignmentCodes = async (db: Db, questionId: number) =>
  new Set((await db.selectFrom('reviewAssignments').select('code').where('questionId', '=', questionId).execute()).map((a) => a.code));

/** Gives the team's work to one more judge, as a re-review. */
export const insertRereview = (db: Db, v: { questionId: number; teamId: number; judgeId: number; code: string; now: string }) =>
  db
    .insertInto('reviewAssignments')
    .values({ questionId: v.questionId, teamId: v.teamId, judgeId: v.judgeId, code: v.code, rereview: 1, createdAt: v.now, updatedAt: v.now })
    .execute();

/** The names of award levels by id, for the award each grade row shows. */
export async function awardNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await db.selectFrom('awardLevels').select(['id', 'name']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Each team's group among those given (issue 36): grades are ranked within it. */
export async function teamGroups(db: Db, teamIds: number[]): Promise<Map<number, string | null>> {
  const out = new Map<number, string | null>();
  for (let i = 0; i < teamIds.length; i += 500) {
    const rows = await db
      .selectFrom('teams')
      .select(['id', 'groupName'])
      .where('id', 'in', teamIds.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.id, r.groupName);
  }
  return out;
}

/** The question's grades counted by the teams' school and award: the results grouped by school (issue 36). */
export const gradesBySchool = (db: Db, questionId: number) =>
  db
    .selectFrom('grades as g')
    .innerJoin('teams as t', 't.id', 'g.teamId')
    .leftJoin('awardLevels as a', 'a.id', 'g.awardId')
    .select((eb) => ['t.schoolName', 'a.name as awardName', 'a.sort as awardSort', eb.fn.countAll<number>().as('n'), eb.fn.min('g.rank').as('bestRank')])
    .where('g.questionId', '=', questionId)
    .groupBy(['t.schoolName', 'a.name', 'a.sort'])
    .execute();
