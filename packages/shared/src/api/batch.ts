import { z } from 'zod';
import { pageQuery } from './common.ts';
import { text } from './fields.ts';

/** Batch work in the back office: one action over many selected rows, answered row by row. */

export const BATCH_MAX = 500;

/**
 * A list's `ids` query parameter: only these rows (comma-separated ids, at most one batch), e.g. to export the
 * selected rows. Rows the caller may not see stay out of the answer as the list's other filters keep them out.
 */
export const selectedIds = (message: string) =>
  z
    .string()
    .regex(new RegExp(`^\\d+(,\\d+){0,${BATCH_MAX - 1}}$`), message)
    .transform((v) => v.split(',').map(Number))
    .optional();

/** `POST /api/team/register/flow/batch`: approves or rejects the selected registrations, one reason for all. */
export const registerBatchBody = z
  .strictObject({
    ids: z.array(z.number().int().positive()).min(1, '请选择报名').max(BATCH_MAX, `一次最多处理${BATCH_MAX}条`),
    action: z.enum(['approve', 'reject'], { error: '请选择通过或驳回' }),
    reason: text(500, '驳回原因'),
  })
  .superRefine((v, ctx) => {
    if (v.action === 'reject' && !v.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: '请填写驳回原因' });
  });
export type RegisterBatchBody = z.infer<typeof registerBatchBody>;

/** `PUT /api/order/confirm/batch`: confirms the selected transfers whose voucher was uploaded. */
export const orderConfirmBatchBody = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1, '请选择订单').max(BATCH_MAX, `一次最多处理${BATCH_MAX}条`),
});

/** `PUT /api/invoice/reject/batch`: rejects the selected invoice applications with one reason. */
export const invoiceRejectBatchBody = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1, '请选择发票申请').max(BATCH_MAX, `一次最多处理${BATCH_MAX}条`),
  reason: z.string({ error: '请填写驳回原因' }).trim().min(1, '请填写驳回原因').max(500, '驳回原因不能超过500个字符'),
});

/**
 * What happened to one selected row: done now, already decided (by someone else, maybe at the same moment), not
 * waiting for this action (e.g. a transfer without its voucher), or not there for the caller.
 */
export const BATCH_OUTCOMES = ['done', 'decided', 'skipped', 'notFound'] as const;
export type BatchOutcome = (typeof BATCH_OUTCOMES)[number];

export const batchResultSchema = z.object({
  done: z.number().int(),
  decided: z.number().int(),
  skipped: z.number().int(),
  notFound: z.number().int(),
  results: z.array(z.object({ id: z.number().int(), outcome: z.enum(BATCH_OUTCOMES) })),
});
export type BatchResult = z.infer<typeof batchResultSchema>;

/** The sentence both the server's reply and the page show, e.g. 「已通过 28 条，2 条已被处理」. */
export function batchResultText(verb: string, r: Pick<BatchResult, 'done' | 'decided' | 'skipped' | 'notFound'>) {
  const parts = [`已${verb} ${r.done} 条`];
  if (r.decided) parts.push(`${r.decided} 条已被处理`);
  if (r.skipped) parts.push(`${r.skipped} 条不符合条件，已跳过`);
  if (r.notFound) parts.push(`${r.notFound} 条不存在`);
  return parts.join('，');
}

/** Counts the outcomes of a batch. */
export function batchResult(results: BatchResult['results']): BatchResult {
  const count = (o: BatchOutcome) => results.filter((r) => r.outcome === o).length;
  return { done: count('done'), decided: count('decided'), skipped: count('skipped'), notFound: count('notFound'), results };
}

/** `GET /api/system/todo`: what waits for the caller, in the caller's organisation (the platform: everywhere). */
export interface TodoCounts {
  /** Each count is null when the caller may not act on it (lacks the action's permission code). */
  competitionsToAudit: number | null;
  registrationsToReview: number | null;
  transfersToConfirm: number | null;
  invoicesToIssue: number | null;
  disputesToAnswer: number | null;
  /** Judges with at least one assignment not yet submitted. */
  judgesNotFinished: number | null;
}

/** How many days the home page's registration trend covers, today included. */
export const TREND_DAYS = 14;

/** The key figures of a competition running now (registration open or in progress). */
export interface RunningCompetition {
  id: number;
  name: string;
  registrations: number;
  /** Registrations approved. */
  approved: number;
  /** Orders paid. */
  paid: number;
  /** Teams that submitted works. */
  submissions: number;
  /** Review assignments submitted, of all. */
  reviewsDone: number;
  reviewsTotal: number;
  /** Registrations made on each of the last `TREND_DAYS` days (Beijing calendar days), oldest first, today last. */
  daily: number[];
}

/** A question with disputes of its grades waiting for an answer: where the to-do 待答复成绩申诉 leads. */
export interface TodoDisputeQuestion {
  questionId: number;
  questionTitle: string;
  competitionName: string;
  pending: number;
}

export interface Todo {
  counts: TodoCounts;
  running: RunningCompetition[];
  /** The Beijing dates (YYYY-MM-DD) of the running competitions' `daily` figures, oldest first. */
  days: string[];
  /** The questions behind `counts.disputesToAnswer` (empty when the caller may not answer disputes), most waiting first. */
  disputeQuestions: TodoDisputeQuestion[];
}

/**
 * `GET /api/review/works/dispute/page/{questionId}`'s query with the filter the to-do 待答复成绩申诉 opens:
 * `status=0` lists the disputes waiting for an answer.
 */
export const disputePageQuery = pageQuery.extend({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0, '申诉状态须为0（待答复）或1（已答复）').max(1, '申诉状态须为0（待答复）或1（已答复）').optional()),
});
export type DisputePageQuery = z.infer<typeof disputePageQuery>;

/** `GET /api/system/todo/judges`: the judges who have not submitted every work given to them, by question. */
export const unfinishedJudgesQuery = pageQuery.extend({
  competitionId: z.coerce.number().int().positive().optional(),
});
export type UnfinishedJudgesQuery = z.infer<typeof unfinishedJudgesQuery>;

export interface UnfinishedJudge {
  questionId: number;
  questionTitle: string;
  competitionId: number;
  competitionName: string;
  judgeId: number;
  username: string;
  userName: string | null;
  /** Works given to the judge on this question, and those submitted. */
  assigned: number;
  submitted: number;
}
