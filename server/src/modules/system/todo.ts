import { ACTION_CODES, ASSIGNMENT_STATUS, AUDIT_STATUS, DISPUTE_STATUS, INVOICE_STATUS, PAY_STATUS, REGISTER_STATUS, type RunningCompetition, type Todo } from '@contest/shared';
import type { Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { seesAll } from '../competitions/service.ts';

/** How many running competitions the home page shows figures for. */
export const RUNNING_MAX = 10;

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
export async function todo(ctx: Ctx): Promise<Todo> {
  const db = ctx.db;
  const orgId: Scope = seesAll(ctx) ? undefined : (ctx.actor!.orgId ?? null);
  const can = (code: string) => ctx.actor!.permissions.has(code);
  const when = <T>(code: string, run: () => Promise<T>) => (can(code) ? run() : Promise.resolve(null));
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
    can('competition:competition:menu') ? runningCompetitions(ctx, orgId) : Promise.resolve([]),
  ]);
  return { counts: { competitionsToAudit, registrationsToReview, transfersToConfirm, invoicesToIssue, disputesToAnswer, judgesNotFinished }, running };
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
  const [registers, paid, works, reviews] = await Promise.all([
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
  ]);
  const by = <R extends { competitionId: number }>(rows: R[]) => new Map(rows.map((r) => [r.competitionId, r]));
  const [r, p, w, v] = [by(registers), by(paid), by(works), by(reviews)];
  return competitions.map((c) => ({
    id: c.id,
    name: c.name,
    registrations: Number(r.get(c.id)?.total ?? 0),
    approved: Number(r.get(c.id)?.approved ?? 0),
    paid: Number(p.get(c.id)?.n ?? 0),
    submissions: Number(w.get(c.id)?.n ?? 0),
    reviewsDone: Number(v.get(c.id)?.done ?? 0),
    reviewsTotal: Number(v.get(c.id)?.total ?? 0),
  }));
}
