import { ASSIGNMENT_STATUS, type AssignmentPageQuery } from '@contest/shared';
import type { OrgScope } from '../../db/org-scope.ts';
import type { Db } from '../../db/database.ts';
import { containsText } from '../../db/like.ts';

/** Every query of review: the questions' rules, the expert pool, each question's judges and the assignments. */

// ---- Questions and their rules -----------------------------------------------------------------------------------

/** The question with its competition's name, as review, grades and certificates name it. */
export const findQuestion = (db: Db, questionId: number) =>
  db
    .selectFrom('questions as q')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .select(['q.id', 'q.title', 'q.competitionId', 'q.judging', 'q.metric', 'c.name as competitionName', 'c.orgId'])
    .where('q.id', '=', questionId)
    .executeTakeFirst();

export const findRule = (db: Db, questionId: number) => db.selectFrom('reviewRules').selectAll().where('questionId', '=', questionId).executeTakeFirst();

/** Whether a judge has saved or submitted a score on the question. */
export const anyScored = async (db: Db, questionId: number) =>
  Boolean(
    await db
      .selectFrom('reviewAssignments')
      .select('id')
      .where('questionId', '=', questionId)
      .where('status', '>', ASSIGNMENT_STATUS.pending)
      .limit(1)
      .executeTakeFirst(),
  );

/** Takes the question's rule row lock (a no-op update), held until the transaction ends. */
export const lockRuleRow = (db: Db, questionId: number) =>
  db
    .updateTable('reviewRules')
    .set((eb) => ({ gradeState: eb.ref('gradeState') }))
    .where('questionId', '=', questionId)
    .execute();

/**
 * The rule row a question's grade state is kept in, made when missing with the weights of a question judged by its
 * private board alone (no criteria, all weight on the test score): such a question has no rule of its own to save.
 */
export const ensureBoardRule = (db: Db, questionId: number, now: string) =>
  db
    .insertInto('reviewRules')
    .values({
      questionId,
      criteriaJson: '[]',
      judgesPerWork: 1,
      aggregation: 'mean',
      reviewWeight: 0,
      testWeight: 100,
      blind: 1,
      disputeDays: 3,
      updatedAt: now,
    })
    .onConflict((oc) => oc.column('questionId').doNothing())
    .execute();

export const upsertRule = (
  db: Db,
  questionId: number,
  values: {
    criteriaJson: string;
    judgesPerWork: number;
    aggregation: string;
    reviewWeight: number;
    testWeight: number;
    blind: number;
    disputeDays: number;
    updatedAt: string;
  },
) =>
  db
    .insertInto('reviewRules')
    .values({ questionId, ...values })
    .onConflict((oc) => oc.column('questionId').doUpdateSet(values))
    .execute();

// ---- Expert judges ------------------------------------------------------------------------------------------------

const expertRows = (db: Db) =>
  db
    .selectFrom('experts as e')
    .innerJoin('users as u', 'u.id', 'e.userId')
    .select((eb) => [
      'e.userId',
      'e.orgId',
      'u.username',
      'u.userName',
      'e.organization',
      'e.speciality',
      'e.title',
      'e.createdAt',
      eb
        .selectFrom('questionJudges as j')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('j.userId', '=', 'e.userId')
        .as('questions'),
      eb
        .selectFrom('reviewAssignments as a')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('a.judgeId', '=', 'e.userId')
        .as('assigned'),
      eb
        .selectFrom('reviewAssignments as a')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('a.judgeId', '=', 'e.userId')
        .where('a.status', '=', ASSIGNMENT_STATUS.submitted)
        .as('submitted'),
    ]);
export type ExpertRow = Awaited<ReturnType<ReturnType<typeof expertRows>['executeTakeFirstOrThrow']>>;

/** The experts a scope sees: every one for the platform, else its organisation's (none without one) and the platform's. */
function visibleExperts(db: Db, scope: OrgScope) {
  const query = expertRows(db);
  if (scope.all) return query;
  const { orgId } = scope;
  return query.where((eb) => (orgId === null ? eb('e.orgId', 'is', null) : eb.or([eb('e.orgId', 'is', null), eb('e.orgId', '=', orgId)])));
}

const expertMatches = (k: string) => [
  containsText('u.username', k),
  containsText('u.userName', k),
  containsText('e.organization', k),
  containsText('e.speciality', k),
];

export async function expertPage(db: Db, scope: OrgScope, q: { page: number; limit: number; keyword?: string }) {
  let query = visibleExperts(db, scope);
  if (q.keyword) query = query.where((eb) => eb.or(expertMatches(q.keyword!)));
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy('e.createdAt', 'desc')
    .orderBy('e.userId', 'desc')
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { rows, total: Number(total) };
}

export const findExpert = (db: Db, scope: OrgScope, userId: number) => visibleExperts(db, scope).where('e.userId', '=', userId).executeTakeFirst();

/** Visible experts not yet on the question's list, matching the keyword: the first 50 by username. */
export function judgeCandidates(db: Db, scope: OrgScope, questionId: number, keyword: string | undefined) {
  let query = visibleExperts(db, scope).where('e.userId', 'not in', db.selectFrom('questionJudges').select('userId').where('questionId', '=', questionId));
  if (keyword) query = query.where((eb) => eb.or(expertMatches(keyword)));
  return query.orderBy('u.username').limit(50).execute();
}

/** Which of these users are experts the caller sees. */
export const visibleExpertIds = async (db: Db, scope: OrgScope, userIds: number[]) =>
  (await visibleExperts(db, scope).clearSelect().select('e.userId').where('e.userId', 'in', userIds).execute()).map((e) => e.userId);

export const userIdByUsernameKey = async (db: Db, key: string) =>
  (await db.selectFrom('users').select('id').where('usernameKey', '=', key).executeTakeFirst())?.id;

export const roleId = async (db: Db, code: string) => (await db.selectFrom('roles').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;

export const insertExpert = (
  db: Db,
  v: { userId: number; orgId: number | null; organization: string; speciality: string | null; title: string | null; createdAt: string },
) => db.insertInto('experts').values(v).execute();

export const grantRole = (db: Db, userId: number, roleId: number) =>
  db
    .insertInto('userRoles')
    .values({ userId, roleId })
    .onConflict((oc) => oc.columns(['userId', 'roleId']).doNothing())
    .execute();

export const revokeRole = (db: Db, userId: number, roleId: number) =>
  db.deleteFrom('userRoles').where('userId', '=', userId).where('roleId', '=', roleId).execute();

export const updateExpert = (db: Db, userId: number, v: { organization: string; speciality: string | null; title: string | null }) =>
  db.updateTable('experts').set(v).where('userId', '=', userId).execute();

export const deleteExpert = (db: Db, userId: number) => db.deleteFrom('experts').where('userId', '=', userId).execute();

// ---- A question's judges -----------------------------------------------------------------------------------------

export const questionJudgeRows = (db: Db, questionId: number) =>
  db
    .selectFrom('questionJudges as j')
    .innerJoin('experts as e', 'e.userId', 'j.userId')
    .innerJoin('users as u', 'u.id', 'j.userId')
    .select((eb) => [
      'e.userId',
      'u.username',
      'u.userName',
      'e.organization',
      'e.speciality',
      'e.title',
      eb
        .selectFrom('reviewAssignments as a')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('a.judgeId', '=', 'j.userId')
        .whereRef('a.questionId', '=', 'j.questionId')
        .as('assigned'),
      eb
        .selectFrom('reviewAssignments as a')
        .select((s) => s.fn.countAll<number>().as('n'))
        .whereRef('a.judgeId', '=', 'j.userId')
        .whereRef('a.questionId', '=', 'j.questionId')
        .where('a.status', '=', ASSIGNMENT_STATUS.submitted)
        .as('submitted'),
    ])
    .where('j.questionId', '=', questionId)
    .orderBy('j.createdAt')
    .orderBy('j.userId')
    .execute();

/** Puts the users on the question's list; those already on it stay as they are. */
export const insertJudges = (db: Db, questionId: number, userIds: number[], now: string) =>
  db
    .insertInto('questionJudges')
    .values(userIds.map((userId) => ({ questionId, userId, createdAt: now })))
    .onConflict((oc) => oc.columns(['questionId', 'userId']).doNothing())
    .execute();

export const judgeHasAssignment = async (db: Db, questionId: number, judgeId: number) =>
  Boolean(
    await db.selectFrom('reviewAssignments').select('id').where('questionId', '=', questionId).where('judgeId', '=', judgeId).limit(1).executeTakeFirst(),
  );

/** Takes the user off the question's list; false when it was not on it. */
export const deleteJudge = async (db: Db, questionId: number, userId: number) =>
  Number((await db.deleteFrom('questionJudges').where('questionId', '=', questionId).where('userId', '=', userId).executeTakeFirst()).numDeletedRows) > 0;

/** The question's judges with the organisation their conflicts of interest are checked against. */
export const judgesOf = (db: Db, questionId: number) =>
  db
    .selectFrom('questionJudges as j')
    .innerJoin('experts as e', 'e.userId', 'j.userId')
    .select(['e.userId', 'e.organization'])
    .where('j.questionId', '=', questionId)
    .orderBy('e.userId')
    .execute();

// ---- Teams' people -------------------------------------------------------------------------------------------------

/** The teams' members, leader first, with their registration form and profile. */
export const teamMemberRows = (db: Db, teamIds: number[]) =>
  db
    .selectFrom('teamMembers as m')
    .innerJoin('users as u', 'u.id', 'm.userId')
    .select(['m.teamId', 'm.userId', 'm.infoJson', 'u.username', 'u.userName', 'u.verifiedName', 'u.organization'])
    .where('m.teamId', 'in', teamIds)
    .orderBy('m.leader', 'desc')
    .orderBy('m.createdAt')
    .execute();

export const teamTeacherRows = (db: Db, teamIds: number[]) =>
  db.selectFrom('teamTeachers').select(['id', 'teamId', 'name', 'organization']).where('teamId', 'in', teamIds).orderBy('sort').orderBy('id').execute();

// ---- Assignments ---------------------------------------------------------------------------------------------------

/** The teams that handed in a work for the question, by id. */
export const teamsWithWorks = (db: Db, questionId: number) =>
  db
    .selectFrom('works as w')
    .innerJoin('teams as t', 't.id', 'w.teamId')
    .select(['t.id', 't.teamNo'])
    .distinct()
    .where('w.questionId', '=', questionId)
    .orderBy('t.id')
    .execute();

/**
 * 查重 (issue 37) as assignment needs it: the question's hold threshold, whether a run is under way, and each team's
 * mark on its latest work (a mark on a version the team has replaced since is not listed).
 */
export async function similarityState(db: Db, questionId: number) {
  const [q, run, marks] = await Promise.all([
    db.selectFrom('questions').select('similarityHold').where('id', '=', questionId).executeTakeFirstOrThrow(),
    db.selectFrom('similarityRuns').select(['status', 'startedAt']).where('questionId', '=', questionId).executeTakeFirst(),
    db
      .selectFrom('similarityMarks as m')
      .innerJoin('works as w', 'w.id', 'm.workId')
      .select(['m.teamId', 'm.topShare', 'm.codeShare', 'm.identityJson', 'm.decision'])
      .where('m.questionId', '=', questionId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('works as n')
              .select('n.id')
              .whereRef('n.teamId', '=', 'm.teamId')
              .whereRef('n.questionId', '=', 'm.questionId')
              .whereRef('n.version', '>', 'w.version'),
          ),
        ),
      )
      .execute(),
  ]);
  // The last work completed after the last run started: a run has not read it.
  const unread =
    run?.startedAt == null || run.status === 'failed'
      ? true
      : Boolean(
          await db.selectFrom('works').select('id').where('questionId', '=', questionId).where('completedAt', '>', run.startedAt).limit(1).executeTakeFirst(),
        );
  return { holdPercent: q.similarityHold, running: run?.status === 'queued' || run?.status === 'running', failed: run?.status === 'failed', unread, marks };
}

/** Takes a team's work away from its judges (查重 decided it is not to be judged); answers how many tasks went. */
export const deleteTeamAssignments = async (db: Db, questionId: number, teamId: number) =>
  Number((await db.deleteFrom('reviewAssignments').where('questionId', '=', questionId).where('teamId', '=', teamId).executeTakeFirst()).numDeletedRows);

export const assignmentsOf = (db: Db, questionId: number) =>
  db.selectFrom('reviewAssignments').select(['teamId', 'judgeId', 'code', 'rereview']).where('questionId', '=', questionId).execute();

export async function insertAssignments(
  db: Db,
  rows: { questionId: number; teamId: number; judgeId: number; code: string; createdAt: string; updatedAt: string }[],
) {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('reviewAssignments')
      .values(rows.slice(i, i + 500))
      .execute();
}

const assignmentRows = (db: Db) =>
  db
    .selectFrom('reviewAssignments as a')
    .innerJoin('teams as t', 't.id', 'a.teamId')
    .innerJoin('users as u', 'u.id', 'a.judgeId')
    .leftJoin('works as sw', 'sw.id', 'a.workId')
    .select([
      'a.id',
      'a.questionId',
      'a.teamId',
      't.teamNo',
      't.name as teamName',
      'a.judgeId',
      'u.username as judgeUsername',
      'u.userName as judgeName',
      'a.code',
      'a.status',
      'a.total',
      'a.rereview',
      'a.updatedAt',
      'a.submittedAt',
      'a.scoresJson',
      'a.comment',
    ])
    // The version the score was submitted for, and the team's counting (last) version now.
    .select((eb) => [
      'sw.version as scoredVersion',
      eb
        .selectFrom('works as cw')
        .select((w) => w.fn.max('cw.version').as('v'))
        .whereRef('cw.questionId', '=', 'a.questionId')
        .whereRef('cw.teamId', '=', 'a.teamId')
        .as('currentVersion'),
    ]);
export type AssignmentRow = Awaited<ReturnType<ReturnType<typeof assignmentRows>['executeTakeFirstOrThrow']>>;

/** A page of the question's assignments by team number; `max` rows at most (the export takes them all). */
export async function assignmentPage(db: Db, questionId: number, q: AssignmentPageQuery, max: number) {
  let query = assignmentRows(db).where('a.questionId', '=', questionId);
  if (q.judgeId) query = query.where('a.judgeId', '=', q.judgeId);
  if (q.status !== undefined) query = query.where('a.status', '=', q.status);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) =>
      eb.or([containsText('t.name', k), containsText('t.teamNo', k), containsText('a.code', k), containsText('u.username', k), containsText('u.userName', k)]),
    );
  }
  const { total } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy('t.teamNo')
    .orderBy('a.id')
    .limit(max)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { rows, total: Number(total) };
}

export const assignmentView = (db: Db, id: number) => assignmentRows(db).where('a.id', '=', id).executeTakeFirstOrThrow();

/** An assignment of a work to a judge (whose it is, the policy judges). */
export const findAssignment = (db: Db, id: number) => db.selectFrom('reviewAssignments').selectAll().where('id', '=', id).executeTakeFirst();

export const isAssigned = async (db: Db, questionId: number, teamId: number, judgeId: number) =>
  Boolean(
    await db
      .selectFrom('reviewAssignments')
      .select('id')
      .where('questionId', '=', questionId)
      .where('teamId', '=', teamId)
      .where('judgeId', '=', judgeId)
      .executeTakeFirst(),
  );

export const assignmentStatus = async (db: Db, id: number) =>
  (await db.selectFrom('reviewAssignments').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

/** Gives the assignment to another judge, starting over. */
export const reassignTo = (db: Db, id: number, judgeId: number, now: string) =>
  db
    .updateTable('reviewAssignments')
    .set({ judgeId, status: ASSIGNMENT_STATUS.pending, scoresJson: '[]', comment: null, total: null, workId: null, updatedAt: now })
    .where('id', '=', id)
    .execute();

/** Sets a submitted assignment back to draft; false when it was not submitted. */
export const reopenSubmitted = async (db: Db, id: number, now: string) =>
  Number(
    (
      await db
        .updateTable('reviewAssignments')
        .set({ status: ASSIGNMENT_STATUS.draft, submittedAt: null, updatedAt: now })
        .where('id', '=', id)
        .where('status', '=', ASSIGNMENT_STATUS.submitted)
        .executeTakeFirst()
    ).numUpdatedRows,
  ) > 0;

/** The submitted scores of a team's works on a question, with the version each was for. */
export const submittedOfTeam = (db: Db, questionId: number, teamId: number) =>
  db
    .selectFrom('reviewAssignments')
    .select(['id', 'judgeId', 'code', 'workId'])
    .where('questionId', '=', questionId)
    .where('teamId', '=', teamId)
    .where('status', '=', ASSIGNMENT_STATUS.submitted)
    .execute();

/** 「数据队（T0012）」: a team as a message names it. */
export async function teamLabel(db: Db, teamId: number) {
  const t = await db.selectFrom('teams').select(['name', 'teamNo']).where('id', '=', teamId).executeTakeFirstOrThrow();
  return `${t.name}（${t.teamNo}）`;
}
