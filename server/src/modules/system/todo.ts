import {
  ACTION_CODES,
  TREND_DAYS,
  type PermissionCode,
  type RunningCompetition,
  type Todo,
  type TodoDisputeQuestion,
  type UnfinishedJudge,
  type UnfinishedJudgesQuery,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import * as policy from '../../policy.ts';
import * as repo from './repo.ts';
import type { OrgScope } from '../../db/org-scope.ts';

/** How many running competitions the home page shows figures for. */
export const RUNNING_MAX = 10;
/** How many questions with disputes waiting the to-do names (the count covers them all). */
export const DISPUTE_QUESTIONS_MAX = 20;

/**
 * What waits for the caller, one COUNT query per kind, each only when the caller holds the code of the action that
 * clears it, and each limited to the competitions of the caller's organisation (the platform: all).
 */
export async function todo(ctx: AuthedCtx): Promise<Todo> {
  const db = ctx.db;
  const scope = policy.orgScope(ctx);
  const when = <T>(code: PermissionCode, run: () => Promise<T>) => (policy.holds(ctx, code) ? run() : Promise.resolve(null));

  const [
    applicationsToReview,
    competitionsToAudit,
    questionsToReview,
    registrationsToReview,
    transfersToConfirm,
    invoicesToIssue,
    disputesToAnswer,
    judgesNotFinished,
    running,
  ] = await Promise.all([
    when(ACTION_CODES.partnerAudit, () => repo.applicationsToReview(db)),
    when(ACTION_CODES.competitionAudit, () => repo.competitionsToAudit(db)),
    policy.reviewsQuestions(ctx) ? repo.questionsToReview(db, scope) : Promise.resolve(null),
    when(ACTION_CODES.registerAudit, () => repo.registrationsToReview(db, scope)),
    when(ACTION_CODES.orderEdit, () => repo.transfersToConfirm(db, scope)),
    when(ACTION_CODES.invoiceEdit, () => repo.invoicesToIssue(db, scope)),
    when(ACTION_CODES.gradeEdit, () => repo.disputesToAnswer(db, scope)),
    when(ACTION_CODES.assignEdit, () => repo.judgesNotFinished(db, scope)),
    policy.isStaff(ctx, 'organiser') ? runningCompetitions(ctx, scope) : Promise.resolve([]),
  ]);
  // Disputes are answered on each question's grade page: the to-do names the questions, so its link can lead there.
  const disputeQuestions: TodoDisputeQuestion[] = disputesToAnswer
    ? (await repo.questionsWithDisputes(db, scope, DISPUTE_QUESTIONS_MAX)).map((r) => ({ ...r, pending: Number(r.pending) }))
    : [];
  // A day's start is 16:00 UTC the day before: its Beijing date is 8 hours later.
  const days = trendDays(ctx.clock.now()).map((start) => new Date(Date.parse(start) + 8 * 3_600_000).toISOString().slice(0, 10));
  // A question added after its competition's approval waits on the competition's question list, where it is approved.
  const reviewQuestions = questionsToReview ? await repo.questionsWaitingReview(db, scope, DISPUTE_QUESTIONS_MAX) : [];
  return {
    counts: {
      applicationsToReview,
      competitionsToAudit,
      questionsToReview,
      registrationsToReview,
      transfersToConfirm,
      invoicesToIssue,
      disputesToAnswer,
      judgesNotFinished,
    },
    running,
    days,
    disputeQuestions,
    reviewQuestions,
  };
}

/**
 * The judges of the caller's organisation (the platform: all) with works given to them and not yet submitted, one
 * row per judge and question, the least advanced first: the list the to-do 未完成评审的专家 opens.
 */
export async function unfinishedJudges(ctx: AuthedCtx, query: UnfinishedJudgesQuery): Promise<{ list: UnfinishedJudge[]; total: number }> {
  const { rows, total } = await repo.unfinishedJudges(ctx.db, policy.orgScope(ctx), query);
  return { list: rows.map((r) => ({ ...r, assigned: Number(r.assigned), submitted: Number(r.submitted) })), total };
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
async function runningCompetitions(ctx: Ctx, scope: OrgScope): Promise<RunningCompetition[]> {
  const db = ctx.db;
  const now = ctx.clock.now().toISOString();
  const competitions = await repo.runningCompetitions(db, scope, now, RUNNING_MAX);
  if (!competitions.length) return [];
  const ids = competitions.map((c) => c.id);
  const days = trendDays(ctx.clock.now());
  const { registers, paid, works, reviews, daily } = await repo.runningFigures(db, ids, days);
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
