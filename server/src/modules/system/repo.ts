import {
  ASSIGNMENT_STATUS,
  AUDIT_STATUS,
  DISPUTE_STATUS,
  INVOICE_STATUS,
  PARTNER_STATUS,
  PAY_STATUS,
  REGISTER_STATUS,
  type UnfinishedJudgesQuery,
} from '@contest/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inOrgScope, type OrgScope } from '../../db/org-scope.ts';

/**
 * The back-office home page's read model: what waits for the caller and the running competitions' figures. Every query
 * is limited to the competitions of the caller's scope (the platform's: all).
 */

/** The cheapest query there is: whether the database answers. */
export async function ping(db: Db) {
  await sql`select 1`.execute(db);
}

/** Competitions of the scope, as a subquery of ids. */
const ofOrg = (db: Db, scope: OrgScope) => db.selectFrom('competitions').select('id').where(inOrgScope('orgId', scope));
const questionsOfOrg = (db: Db, scope: OrgScope) => db.selectFrom('questions').select('id').where('competitionId', 'in', ofOrg(db, scope));

const n = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0);

/** Questions waiting for review in competitions already approved (added after it): the audit approved the others. */
const questionsWaiting = (db: Db, scope: OrgScope) =>
  db
    .selectFrom('questions as q')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .where('q.reviewed', '=', 0)
    .where('c.auditStatus', 'in', [AUDIT_STATUS.online, AUDIT_STATUS.offline])
    .where('c.id', 'in', ofOrg(db, scope));

export const questionsToReview = async (db: Db, scope: OrgScope) =>
  n(
    await questionsWaiting(db, scope)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  );

/** The questions behind `questionsToReview`, oldest first, with their competition (where the to-do leads). */
export const questionsWaitingReview = (db: Db, scope: OrgScope, limit: number) =>
  questionsWaiting(db, scope)
    .select(['q.id as questionId', 'q.title as questionTitle', 'c.id as competitionId', 'c.name as competitionName'])
    .orderBy('q.id')
    .limit(limit)
    .execute();

/** Organisations' applications waiting for the platform's decision. */
export const applicationsToReview = async (db: Db) =>
  n(
    await db
      .selectFrom('partnerApplications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', PARTNER_STATUS.pending)
      .executeTakeFirst(),
  );

export const competitionsToAudit = async (db: Db) =>
  n(
    await db
      .selectFrom('competitions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('auditStatus', '=', AUDIT_STATUS.pending)
      .executeTakeFirst(),
  );

export const registrationsToReview = async (db: Db, scope: OrgScope) =>
  n(
    await db
      .selectFrom('registers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', REGISTER_STATUS.pending)
      .where('competitionId', 'in', ofOrg(db, scope))
      .executeTakeFirst(),
  );

/** Unpaid orders with a transfer voucher: finance has a transfer to confirm. */
export const transfersToConfirm = async (db: Db, scope: OrgScope) =>
  n(
    await db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('payStatus', '=', PAY_STATUS.unpaid)
      .where('voucher', 'is not', null)
      .where('competitionId', 'in', ofOrg(db, scope))
      .executeTakeFirst(),
  );

export const invoicesToIssue = async (db: Db, scope: OrgScope) =>
  n(
    await db
      .selectFrom('invoices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', INVOICE_STATUS.pending)
      .where('competitionId', 'in', ofOrg(db, scope))
      .executeTakeFirst(),
  );

export const disputesToAnswer = async (db: Db, scope: OrgScope) =>
  n(
    await db
      .selectFrom('scoreDisputes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', DISPUTE_STATUS.pending)
      .where('questionId', 'in', questionsOfOrg(db, scope))
      .executeTakeFirst(),
  );

/** Judges with a work given to them and not yet submitted, counted once each. */
export const judgesNotFinished = async (db: Db, scope: OrgScope) =>
  n(
    await db
      .selectFrom('reviewAssignments')
      .select((eb) => eb.fn.count<number>('judgeId').distinct().as('n'))
      .where('status', '!=', ASSIGNMENT_STATUS.submitted)
      .where('questionId', 'in', questionsOfOrg(db, scope))
      .executeTakeFirst(),
  );

/** The questions of the organisation with disputes waiting, one grouped query, most waiting first. */
export async function questionsWithDisputes(db: Db, scope: OrgScope, max: number) {
  let q = db
    .selectFrom('scoreDisputes as d')
    .innerJoin('questions as q', 'q.id', 'd.questionId')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .select(['q.id as questionId', 'q.title as questionTitle', 'c.name as competitionName', (eb) => eb.fn.countAll<number>().as('pending')])
    .where('d.status', '=', DISPUTE_STATUS.pending)
    .groupBy(['q.id', 'q.title', 'c.name']);
  q = q.where(inOrgScope('c.orgId', scope));
  return q.orderBy('pending', 'desc').orderBy('q.id').limit(max).execute();
}

/** One row per judge and question with works given and not yet submitted, the least advanced first, and their count. */
export async function unfinishedJudges(db: Db, scope: OrgScope, query: UnfinishedJudgesQuery) {
  let q = db
    .selectFrom('reviewAssignments as a')
    .innerJoin('questions as q', 'q.id', 'a.questionId')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .innerJoin('users as u', 'u.id', 'a.judgeId')
    .select([
      'a.questionId',
      'q.title as questionTitle',
      'q.competitionId',
      'c.name as competitionName',
      'a.judgeId',
      'u.username',
      'u.userName',
      (eb) => eb.fn.countAll<number>().as('assigned'),
      (eb) => eb.fn.sum<number>(eb.case().when('a.status', '=', ASSIGNMENT_STATUS.submitted).then(1).else(0).end()).as('submitted'),
    ])
    .groupBy(['a.questionId', 'q.title', 'q.competitionId', 'c.name', 'a.judgeId', 'u.username', 'u.userName'])
    .having((eb) => eb.fn.sum(eb.case().when('a.status', '=', ASSIGNMENT_STATUS.submitted).then(0).else(1).end()), '>', 0);
  q = q.where(inOrgScope('c.orgId', scope));
  if (query.competitionId) q = q.where('q.competitionId', '=', query.competitionId);
  const [{ total }, rows] = await Promise.all([
    db
      .selectFrom(q.as('j'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
    q
      .orderBy((eb) => eb.fn.sum(eb.case().when('a.status', '=', ASSIGNMENT_STATUS.submitted).then(1).else(0).end()))
      .orderBy('a.questionId')
      .orderBy('a.judgeId')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
  ]);
  return { rows, total: Number(total) };
}

/** Online competitions whose registration has opened and which have not ended, the soonest to end first. */
export async function runningCompetitions(db: Db, scope: OrgScope, now: string, max: number) {
  let q = db
    .selectFrom('competitions')
    .select(['id', 'name'])
    .where('auditStatus', '=', AUDIT_STATUS.online)
    .where('regStartTime', '<=', now)
    .where('endTime', '>', now);
  q = q.where(inOrgScope('orgId', scope));
  return q.orderBy('endTime').limit(max).execute();
}

/** The competitions' figures, one grouped query each: registrations (and approved), paid, teams with works, reviews, and registrations per day since `days[0]`. */
export async function runningFigures(db: Db, ids: number[], days: string[]) {
  const [registers, paid, works, reviews, daily] = await Promise.all([
    db
      .selectFrom('registers')
      .select([
        'competitionId',
        (eb) => eb.fn.countAll<number>().as('total'),
        (eb) => eb.fn.sum<number>(eb.case().when('status', '=', REGISTER_STATUS.approved).then(1).else(0).end()).as('approved'),
      ])
      .where('competitionId', 'in', ids)
      .groupBy('competitionId')
      .execute(),
    db
      .selectFrom('orders')
      .select(['competitionId', (eb) => eb.fn.countAll<number>().as('n')])
      .where('competitionId', 'in', ids)
      .where('payStatus', '=', PAY_STATUS.paid)
      .groupBy('competitionId')
      .execute(),
    db
      .selectFrom('works')
      .select(['competitionId', (eb) => eb.fn.count<number>('teamId').distinct().as('n')])
      .where('competitionId', 'in', ids)
      .groupBy('competitionId')
      .execute(),
    db
      .selectFrom('reviewAssignments as a')
      .innerJoin('questions as q', 'q.id', 'a.questionId')
      .select([
        'q.competitionId',
        (eb) => eb.fn.countAll<number>().as('total'),
        (eb) => eb.fn.sum<number>(eb.case().when('a.status', '=', ASSIGNMENT_STATUS.submitted).then(1).else(0).end()).as('done'),
      ])
      .where('q.competitionId', 'in', ids)
      .groupBy('q.competitionId')
      .execute(),
    // Registrations per competition and day: each row's day is the last day start it is not before.
    db
      .selectFrom('registers')
      .select((eb) => {
        const last = days.length - 1;
        let day = eb.case().when('createdAt', '>=', days[last]!).then(last);
        for (let i = last - 1; i >= 1; i--) day = day.when('createdAt', '>=', days[i]!).then(i);
        return ['competitionId', day.else(0).end().as('day'), eb.fn.countAll<number>().as('n')];
      })
      .where('competitionId', 'in', ids)
      .where('createdAt', '>=', days[0]!)
      .groupBy(['competitionId', 'day'])
      .execute(),
  ]);
  return { registers, paid, works, reviews, daily };
}
