import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  ASSIGNMENT_STATUS,
  AUDIT_STATUS,
  DISPUTE_STATUS,
  INVOICE_STATUS,
  PAY_STATUS,
  REGISTER_STATUS,
  TREND_DAYS,
  type PermissionCode,
  type RunningCompetition,
  type Todo,
  type TodoDisputeQuestion,
  type UnfinishedJudge,
  type UnfinishedJudgesQuery,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import * as policy from '../../policy.ts';

/** How many running competitions the home page shows figures for. */
export const RUNNING_MAX = 10;
/** How many questions with disputes waiting the to-do names (the count covers them all). */
export const DISPUTE_QUESTIONS_MAX = 20;

type Scope = number | null | undefined;

/** Competitions of the organisation (`undefined`: all), as a subquery of ids. */
const ofOrg = (db: Db, orgId: Scope) => {
  let q = db.selectFrom('competitions').select('id');
  if (orgId !== undefined) q = q.where('orgId', '=', orgId ?? -1);
  return q;
};

const n = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0);

/**
 * What waits for the caller, one COUNT query per kind, each only when the caller holds the code of the action that
 * clears it, and each limited to the competitions of the caller's organisation (the platform: all).
 */
export async function todo(ctx: AuthedCtx): Promise<Todo> {
  const db = ctx.db;
  const orgId: Scope = policy.orgScope(ctx);
  const when = <T>(code: PermissionCode, run: () => Promise<T>) => (policy.holds(ctx, code) ? run() : Promise.resolve(null));
  const questionsOfOrg = () => db.selectFrom('questions').select('id').where('competitionId', 'in', ofOrg(db, orgId));

  const [competitionsToAudit, registrationsToReview, transfersToConfirm, invoicesToIssue, disputesToAnswer, judgesNotFinished, running] = await Promise.all([
    when(ACTION_CODES.competitionAudit, async () =>
      n(await db.selectFrom('competitions').select((eb) => eb.fn.countAll<number>().as('n')).where('auditStatus', '=', AUDIT_STATUS.pending).executeTakeFirst()),
    ),
    when(ACTION_CODES.registerAudit, async () =>
      n(
        await db
          .selectFrom('registers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', REGISTER_STATUS.pending)
          .where('competitionId', 'in', ofOrg(db, orgId))
          .executeTakeFirst(),
      ),
    ),
    when(ACTION_CODES.orderEdit, async () =>
      n(
        await db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('payStatus', '=', PAY_STATUS.unpaid)
          .where('voucher', 'is not', null)
          .where('competitionId', 'in', ofOrg(db, orgId))
          .executeTakeFirst(),
      ),
    ),
    when(ACTION_CODES.invoiceEdit, async () =>
      n(
        await db
          .selectFrom('invoices')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', INVOICE_STATUS.pending)
          .where('competitionId', 'in', ofOrg(db, orgId))
          .executeTakeFirst(),
      ),
    ),
    when(ACTION_CODES.gradeEdit, async () =>
      n(
        await db
          .selectFrom('scoreDisputes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', DISPUTE_STATUS.pending)
          .where('questionId', 'in', questionsOfOrg())
          .executeTakeFirst(),
      ),
    ),
    when(ACTION_CODES.assignEdit, async () =>
      n(
        await db
          .selectFrom('reviewAssignments')
          .select((eb) => eb.fn.count<number>('judgeId').distinct().as('n'))
          .where('status', '!=', ASSIGNMENT_STATUS.submitted)
          .where('questionId', 'in', questionsOfOrg())
          .executeTakeFirst(),
      ),
    ),
    policy.holds(ctx, ADMIN_MENU_CODES.competition) ? runningCompetitions(ctx, orgId) : Promise.resolve([]),
  ]);
  // Disputes are answered on each question's grade page: the to-do names the questions, so its link can lead there.
  const disputeQuestions = disputesToAnswer ? await questionsWithDisputes(db, orgId) : [];
  // A day's start is 16:00 UTC the day before: its Beijing date is 8 hours later.
  const days = trendDays(ctx.clock.now()).map((start) => new Date(Date.parse(start) + 8 * 3_600_000).toISOString().slice(0, 10));
  return { counts: { competitionsToAudit, registrationsToReview, transfersToConfirm, invoicesToIssue, disputesToAnswer, judgesNotFinished }, running, days, disputeQuestions };
}

/** The questions of the organisation with disputes waiting, one grouped query, most waiting first. */
async function questionsWithDisputes(db: Db, orgId: Scope): Promise<TodoDisputeQuestion[]> {
  let q = db
    .selectFrom('scoreDisputes as d')
    .innerJoin('questions as q', 'q.id', 'd.questionId')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .select(['q.id as questionId', 'q.title as questionTitle', 'c.name as competitionName', (eb) => eb.fn.countAll<number>().as('pending')])
    .where('d.status', '=', DISPUTE_STATUS.pending)
    .groupBy(['q.id', 'q.title', 'c.name']);
  if (orgId !== undefined) q = q.where('c.orgId', '=', orgId ?? -1);
  const rows = await q.orderBy('pending', 'desc').orderBy('q.id').limit(DISPUTE_QUESTIONS_MAX).execute();
  return rows.map((r) => ({ ...r, pending: Number(r.pending) }));
}

/**
 * The judges of the caller's organisation (the platform: all) with works given to them and not yet submitted, one
 * row per judge and question, the least advanced first: the list the to-do 未完成评审的专家 opens.
 */
export async function unfinishedJudges(ctx: AuthedCtx, query: UnfinishedJudgesQuery): Promise<{ list: UnfinishedJudge[]; total: number }> {
  const db = ctx.db;
  const orgId: Scope = policy.orgScope(ctx);
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
  if (orgId !== undefined) q = q.where('c.orgId', '=', orgId ?? -1);
  if (query.competitionId) q = q.where('q.competitionId', '=', query.competitionId);
  const [{ total }, rows] = await Promise.all([
    db.selectFrom(q.as('j')).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    q
      .orderBy((eb) => eb.fn.sum(eb.case().when('a.status', '=', ASSIGNMENT_STATUS.submitted).then(1).else(0).end()))
      .orderBy('a.questionId')
      .orderBy('a.judgeId')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute(),
  ]);
  return { list: rows.map((r) => ({ ...r, assigned: Number(r.assigned), submitted: Number(r.submitted) })), total: Number(total) };
}

/**
 * The start of each of the last `TREND_DAYS` Beijing calendar days (UTC+8, no daylight saving), oldest first, as the
 * ISO strings the tables store, which compare as times.
 */
export function trendDays(now: Date): string[] {
  const DAY = 86_400_000;
  const BEIJING = 8 * 3_600_000;
  const today = Math.floor((now.getTime() + BEIJING) / DAY) * DAY - BEIJING;
  return Array.from({ length: TREND_DAYS }, (_, i) => new Date(today - (TREND_DAYS - 1 - i) * DAY).toISOString());
}

/** Online competitions whose registration has opened and which have not ended, with one grouped query per figure. */
async function runningCompetitions(ctx: Ctx, orgId: Scope): Promise<RunningCompetition[]> {
  const db = ctx.db;
  const now = ctx.clock.now().toISOString();
  let q = db
    .selectFrom('competitions')
    .select(['id', 'name'])
    .where('auditStatus', '=', AUDIT_STATUS.online)
    .where('regStartTime', '<=', now)
    .where('endTime', '>', now);
  if (orgId !== undefined) q = q.where('orgId', '=', orgId ?? -1);
  const competitions = await q.orderBy('endTime').limit(RUNNING_MAX).execute();
  if (!competitions.length) return [];
  const ids = competitions.map((c) => c.id);
  const days = trendDays(ctx.clock.now());
  const [registers, paid, works, reviews, daily] = await Promise.all([
    db
      .selectFrom('registers')
      .select(['competitionId', (eb) => eb.fn.countAll<number>().as('total'), (eb) => eb.fn.sum<number>(eb.case().when('status', '=', REGISTER_STATUS.approved).then(1).else(0).end()).as('approved')])
      .where('competitionId', 'in', ids)
      .groupBy('competitionId')
      .execute(),
    db.selectFrom('orders').select(['competitionId', (eb) => eb.fn.countAll<number>().as('n')]).where('competitionId', 'in', ids).where('payStatus', '=', PAY_STATUS.paid).groupBy('competitionId').execute(),
    db.selectFrom('works').select(['competitionId', (eb) => eb.fn.count<number>('teamId').distinct().as('n')]).where('competitionId', 'in', ids).groupBy('competitionId').execute(),
    db
      .selectFrom('reviewAssignments as a')
      .innerJoin('questions as q', 'q.id', 'a.questionId')
      .select(['q.competitionId', (eb) => eb.fn.countAll<number>().as('total'), (eb) => eb.fn.sum<number>(eb.case().when('a.status', '=', ASSIGNMENT_STATUS.submitted).then(1).else(0).end()).as('done')])
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
  const by = <R extends { competitionId: number }>(rows: R[]) => new Map(rows.map((r) => [r.competitionId, r]));
  const [r, p, w, v] = [by(registers), by(paid), by(works), by(reviews)];
  const trend = new Map(ids.map((id) => [id, Array<number>(days.length).fill(0)]));
  for (const row of daily) trend.get(row.competitionId)![Number(row.day)] = Number(row.n);
  return competitions.map((c) => ({
    id: c.id,
    name: c.name,
    registrations: Number(r.get(c.id)?.total ?? 0),
    approved: Number(r.get(c.id)?.approved ?? 0),
    paid: Number(p.get(c.id)?.n ?? 0),
    submissions: Number(w.get(c.id)?.n ?? 0),
    reviewsDone: Number(v.get(c.id)?.done ?? 0),
    reviewsTotal: Number(v.get(c.id)?.total ?? 0),
    daily: trend.get(c.id)!,
  }));
}
