import { AUDIT_STATUS, GRADE_STATE, listedSchoolKey } from '@contest/shared';
import type { Db } from '../../db/database.ts';

/** Every query of school coordinators: appointments, and what a coordinator's dashboard reads of its school's teams. */

export async function insertAppointment(
  db: Db,
  v: { userId: number; schoolId: number; scopeKey: string; orgId: number | null; competitionId: number | null; appointedBy: number; now: string },
) {
  const row = await db
    .insertInto('schoolCoordinators')
    .values({
      userId: v.userId,
      schoolId: v.schoolId,
      scopeKey: v.scopeKey,
      orgId: v.orgId,
      competitionId: v.competitionId,
      appointedBy: v.appointedBy,
      createdAt: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const findAppointment = (db: Db, id: number) => db.selectFrom('schoolCoordinators').selectAll().where('id', '=', id).executeTakeFirst();

export const deleteAppointment = (db: Db, id: number) => db.deleteFrom('schoolCoordinators').where('id', '=', id).execute();

/** The appointments that cover a competition: the platform's, its organisation's and its own. */
export const appointmentsCovering = (db: Db, c: { id: number; orgId: number }) =>
  db
    .selectFrom('schoolCoordinators as a')
    .innerJoin('users as u', 'u.id', 'a.userId')
    .innerJoin('schools as s', 's.id', 'a.schoolId')
    .select(['a.id', 'a.userId', 'u.username', 'u.verifiedName', 'u.userName', 'a.schoolId', 's.name as schoolName', 'a.scopeKey', 'a.orgId', 'a.createdAt'])
    .where('a.scopeKey', 'in', ['platform', `org:${c.orgId}`, `competition:${c.id}`])
    .orderBy('s.name')
    .orderBy('a.id')
    .execute();

/** A user's appointments (the policy's facts), with the school's name. */
export const appointmentsOf = (db: Db, userId: number) =>
  db
    .selectFrom('schoolCoordinators as a')
    .innerJoin('schools as s', 's.id', 'a.schoolId')
    .select(['a.userId', 'a.schoolId', 's.name as schoolName', 'a.scopeKey', 'a.orgId', 'a.competitionId'])
    .where('a.userId', '=', userId)
    .orderBy('a.id')
    .execute();

/**
 * The online competitions an appointment covers (the platform's: every one), newest first, with the school's teams in
 * each; at most 200.
 */
export function competitionsCovered(db: Db, a: { schoolId: number; scopeKey: string; orgId: number | null; competitionId: number | null }) {
  let q = db
    .selectFrom('competitions as c')
    .select((eb) => [
      'c.id',
      'c.name',
      'c.eligibilityJson',
      eb
        .selectFrom('teams as t')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('t.competitionId', '=', 'c.id')
        .where('t.schoolKey', '=', listedSchoolKey(a.schoolId))
        .as('teams'),
    ])
    .where('c.auditStatus', '=', AUDIT_STATUS.online);
  if (a.scopeKey.startsWith('org:')) q = q.where('c.orgId', '=', a.orgId!);
  else if (a.scopeKey.startsWith('competition:')) q = q.where('c.id', '=', a.competitionId!);
  return q.orderBy('c.regStartTime', 'desc').orderBy('c.id', 'desc').limit(200).execute();
}

/** The user an organiser names by username (else the users module's account of a proved phone number). */
export const userByUsernameKey = (db: Db, usernameKey: string) =>
  db.selectFrom('users').select(['id', 'status']).where('usernameKey', '=', usernameKey).executeTakeFirst();

export const schoolName = async (db: Db, id: number) => (await db.selectFrom('schools').select('name').where('id', '=', id).executeTakeFirst())?.name;

// ---- The dashboard ------------------------------------------------------------------------------------------------------

/** The school's teams in a competition with their registration and order, by team number. */
export const schoolTeams = (db: Db, competitionId: number, schoolId: number) =>
  db
    .selectFrom('teams as t')
    .leftJoin('registers as r', 'r.teamId', 't.id')
    .leftJoin('orders as o', 'o.id', 'r.orderId')
    .leftJoin('schoolOrders as so', 'so.id', 'o.schoolOrderId')
    .select([
      't.id as teamId',
      't.teamNo',
      't.name as teamName',
      't.groupName',
      'r.id as registerId',
      'r.status',
      'r.schoolStatus',
      'r.reason',
      'o.payStatus',
      'o.voucher',
      'so.orderNo as schoolOrderNo',
    ])
    .where('t.competitionId', '=', competitionId)
    .where('t.schoolKey', '=', listedSchoolKey(schoolId))
    .orderBy('t.teamNo')
    .execute();

/** How many works files and test submissions each team sent. */
export async function submissionCounts(db: Db, teamIds: number[]) {
  if (!teamIds.length) return { works: [], tests: [] };
  const works = await db
    .selectFrom('works')
    .select((eb) => ['teamId', eb.fn.countAll<number>().as('n')])
    .where('teamId', 'in', teamIds)
    .groupBy('teamId')
    .execute();
  const tests = await db
    .selectFrom('testSubmissions')
    .select((eb) => ['teamId', eb.fn.countAll<number>().as('n')])
    .where('teamId', 'in', teamIds)
    .groupBy('teamId')
    .execute();
  return { works, tests };
}

/** The teams' confirmed results: question, rank and award. */
export const confirmedResults = (db: Db, teamIds: number[]) =>
  teamIds.length
    ? db
        .selectFrom('grades as g')
        .innerJoin('questions as q', 'q.id', 'g.questionId')
        .innerJoin('reviewRules as rr', 'rr.questionId', 'g.questionId')
        .leftJoin('awardLevels as a', 'a.id', 'g.awardId')
        .select(['g.teamId', 'q.title as questionTitle', 'g.rank', 'a.name as awardName'])
        .where('g.teamId', 'in', teamIds)
        // As the team reads them: confirmed, and not back under re-check after a dispute.
        .where('rr.confirmedAt', 'is not', null)
        .where('rr.gradeState', '=', GRADE_STATE.confirmed)
        .orderBy('q.sort')
        .execute()
    : Promise.resolve([]);

/** Every certificate written for the school's teams in a competition (members' and teachers'), by team and holder. */
export const schoolCertificates = (db: Db, competitionId: number, schoolId: number) =>
  db
    .selectFrom('certificates as c')
    .innerJoin('teams as t', 't.id', 'c.teamId')
    .select(['c.id', 'c.certNo', 'c.holderName', 'c.awardName', 'c.fileKey', 't.teamNo', 't.name as teamName'])
    .where('c.competitionId', '=', competitionId)
    .where('t.schoolKey', '=', listedSchoolKey(schoolId))
    .where('c.fileKey', '!=', '')
    .orderBy('t.teamNo')
    .orderBy('c.id')
    .execute();
