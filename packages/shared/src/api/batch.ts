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
  /** Why the skipped rows were skipped and what they are, when the action names them (e.g. the unpaid teams). */
  skippedWhy: z.string().optional(),
  skippedNames: z.array(z.string()).optional(),
});
export type BatchResult = z.infer<typeof batchResultSchema>;

/** How many skipped rows a batch's sentence names; the rest are counted. */
export const BATCH_NAMES_SHOWN = 10;

/**
 * The sentence both the server's reply and the page show, e.g. 「已通过 28 条，2 条已被处理」, or with the skipped
 * rows named 「已通过 3 条，2 条尚未缴费，已跳过：批量队1、批量队2」.
 */
export function batchResultText(verb: string, r: Pick<BatchResult, 'done' | 'decided' | 'skipped' | 'notFound' | 'skippedWhy' | 'skippedNames'>) {
  const parts = [`已${verb} ${r.done} 条`];
  if (r.decided) parts.push(`${r.decided} 条已被处理`);
  if (r.skipped) {
    const names = r.skippedNames ?? [];
    const named = names.length ? `：${names.slice(0, BATCH_NAMES_SHOWN).join('、')}${names.length > BATCH_NAMES_SHOWN ? ` 等${names.length}个` : ''}` : '';
    parts.push(`${r.skipped} 条${r.skippedWhy ?? '不符合条件'}，已跳过${named}`);
  }
  if (r.notFound) parts.push(`${r.notFound} 条不存在`);
  return parts.join('，');
}

/** Counts the outcomes of a batch. */
export function batchResult(results: BatchResult['results']): BatchResult {
  const count = (o: BatchOutcome) => results.filter((r) => r.outcome === o).length;
  return { done: count('done'), decided: count('decided'), skipped: count('skipped'), notFound: count('notFound'), results };
}

/** `GET /api/system/todo`: what waits for the caller, in the caller's organisation (the platform: everywhere). */
export const todoCountsSchema = z.object({
  /** Each count is null when the caller may not act on it (lacks the action's permission code). */
  /** Organisations' applications waiting for a decision (the platform). */
  applicationsToReview: z.number().int().nullable(),
  competitionsToAudit: z.number().int().nullable(),
  /** Questions added to a competition after its approval, waiting for their own review. */
  questionsToReview: z.number().int().nullable(),
  registrationsToReview: z.number().int().nullable(),
  transfersToConfirm: z.number().int().nullable(),
  invoicesToIssue: z.number().int().nullable(),
  disputesToAnswer: z.number().int().nullable(),
  /** Judges with at least one assignment not yet submitted. */
  judgesNotFinished: z.number().int().nullable(),
});
export type TodoCounts = z.infer<typeof todoCountsSchema>;

/** How many days the home page's registration trend covers, today included. */
export const TREND_DAYS = 14;

/** The key figures of a competition running now (registration open or in progress). */
export const runningCompetitionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  registrations: z.number().int(),
  /** Registrations approved. */
  approved: z.number().int(),
  /** Orders paid. */
  paid: z.number().int(),
  /** Teams that submitted works. */
  submissions: z.number().int(),
  /** Review assignments submitted, of all. */
  reviewsDone: z.number().int(),
  reviewsTotal: z.number().int(),
  /** Registrations made on each of the last `TREND_DAYS` days (Beijing calendar days), oldest first, today last. */
  daily: z.array(z.number().int()),
});
export type RunningCompetition = z.infer<typeof runningCompetitionSchema>;

/** A question with disputes of its grades waiting for an answer: where the to-do 待答复成绩申诉 leads. */
export const todoDisputeQuestionSchema = z.object({
  questionId: z.number().int(),
  questionTitle: z.string(),
  competitionName: z.string(),
  pending: z.number().int(),
});
export type TodoDisputeQuestion = z.infer<typeof todoDisputeQuestionSchema>;

/** A question added after its competition's approval, waiting for review: where the to-do 待审核赛题 leads. */
export const todoReviewQuestionSchema = z.object({
  questionId: z.number().int(),
  questionTitle: z.string(),
  competitionId: z.number().int(),
  competitionName: z.string(),
});
export type TodoReviewQuestion = z.infer<typeof todoReviewQuestionSchema>;

export const todoSchema = z.object({
  counts: todoCountsSchema,
  running: z.array(runningCompetitionSchema),
  /** The Beijing dates (YYYY-MM-DD) of the running competitions' `daily` figures, oldest first. */
  days: z.array(z.string()),
  /** The questions behind `counts.disputesToAnswer` (empty when the caller may not answer disputes), most waiting first. */
  disputeQuestions: z.array(todoDisputeQuestionSchema),
  /** The questions behind `counts.questionsToReview`, oldest first (empty when the caller may not review them). */
  reviewQuestions: z.array(todoReviewQuestionSchema),
});
export type Todo = z.infer<typeof todoSchema>;

/**
 * `GET /api/review/works/dispute/page/{questionId}`'s query with the filter the to-do 待答复成绩申诉 opens:
 * `status=0` lists the disputes waiting for an answer.
 */
export const disputePageQuery = pageQuery.extend({
  status: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(0, '申诉状态须为0（待答复）或1（已答复）').max(1, '申诉状态须为0（待答复）或1（已答复）').optional(),
  ),
});
export type DisputePageQuery = z.infer<typeof disputePageQuery>;

/** `GET /api/system/todo/judges`: the judges who have not submitted every work given to them, by question. */
export const unfinishedJudgesQuery = pageQuery.extend({
  competitionId: z.coerce.number().int().positive().optional(),
});
export type UnfinishedJudgesQuery = z.infer<typeof unfinishedJudgesQuery>;

export const unfinishedJudgeSchema = z.object({
  questionId: z.number().int(),
  questionTitle: z.string(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  judgeId: z.number().int(),
  username: z.string(),
  userName: z.string().nullable(),
  /** Works given to the judge on this question, and those submitted. */
  assigned: z.number().int(),
  submitted: z.number().int(),
});
export type UnfinishedJudge = z.infer<typeof unfinishedJudgeSchema>;
