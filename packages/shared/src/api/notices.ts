import { z } from 'zod';
import { pageQuery } from './common.ts';
import { html, isoTime, requiredText } from './fields.ts';
import { NOTICE_KIND, type UnreadCount } from './unread.ts';
import { outboxCountsSchema } from './outbox.ts';

export const NOTICE_KIND_TEXT: Record<number, string> = { 0: '系统通知', 1: '个人消息' };
export const NOTICE_STATUS = { draft: 0, scheduled: 1, published: 2 } as const;
export const NOTICE_STATUS_TEXT: Record<number, string> = { 0: '草稿', 1: '定时发布', 2: '已发布' };

/** Who a notice reaches. */
export const noticeTarget = z.discriminatedUnion('scope', [
  /** Every user of the platform (platform administrators only). */
  z.strictObject({ scope: z.literal('all') }),
  /** The members of a competition's teams, narrowed by the state of their registration, payment or works. */
  z.strictObject({
    scope: z.literal('competition'),
    competitionId: z.number({ error: '请选择竞赛' }).int().positive('请选择竞赛'),
    registerStatus: z.enum(['pending', 'approved', 'rejected']).nullable().optional(),
    payStatus: z.enum(['paid', 'unpaid']).nullable().optional(),
    works: z.enum(['submitted', 'missing']).nullable().optional(),
  }),
  /** Chosen users, by username. */
  z.strictObject({ scope: z.literal('users'), usernames: z.array(z.string().trim().min(1).max(50)).min(1, '请填写接收人').max(500, '一次最多500位接收人') }),
  /** Every member of chosen teams, by team number. */
  z.strictObject({
    scope: z.literal('teams'),
    competitionId: z.number({ error: '请选择竞赛' }).int().positive('请选择竞赛'),
    teamNos: z.array(z.string().trim().min(1).max(20)).min(1, '请填写队伍编号').max(500, '一次最多500支队伍'),
  }),
]);
export type NoticeTarget = z.infer<typeof noticeTarget>;

/**
 * Whether a notice goes to every participant of a competition, unnarrowed: then whoever registers or joins a team later
 * gets it too (the notices module copies it to them). A notice narrowed to a state (unpaid teams, pending registrations,
 * teams with works...) or to named teams or users reaches only those of the moment it is published.
 */
export const toEveryParticipant = (target: NoticeTarget) => target.scope === 'competition' && !target.registerStatus && !target.payStatus && !target.works;

/** What the notice dialog says of those who qualify after publication, as the catch-up above treats them. */
export const laterRecipientsText = (target: NoticeTarget) =>
  toEveryParticipant(target)
    ? '之后报名或入队的参赛者也会收到这条通知（在其消息和竞赛页中，标为未读）。'
    : '接收人在发布时确定：之后才符合条件的队伍或用户不会收到。';
export const TARGET_SCOPE_TEXT: Record<NoticeTarget['scope'], string> = { all: '全体用户', competition: '竞赛参赛者', users: '指定用户', teams: '指定队伍' };
export const REGISTER_STATUS_FILTER_TEXT = { pending: '待审核', approved: '已通过', rejected: '未通过' } as const;
export const PAY_STATUS_FILTER_TEXT = { paid: '已缴费', unpaid: '未缴费' } as const;
export const WORKS_FILTER_TEXT = { submitted: '已提交作品', missing: '未提交作品' } as const;

export const noticeBody = z
  .strictObject({
    kind: z.union([z.literal(0), z.literal(1)], { error: '请选择通知类型' }),
    title: requiredText(100, '标题'),
    content: html('内容'),
    target: noticeTarget,
    /** Also by email and SMS (in-app always); absent: in-app only. */
    channels: z.strictObject({ email: z.boolean(), sms: z.boolean() }).optional(),
  })
  .superRefine((v, c) => {
    const personal = v.target.scope === 'users' || v.target.scope === 'teams';
    if (v.kind === NOTICE_KIND.personal && !personal) c.addIssue({ code: 'custom', path: ['target'], message: '个人消息须发给指定用户或队伍' });
    if (v.kind === NOTICE_KIND.system && personal) c.addIssue({ code: 'custom', path: ['target'], message: '系统通知须发给全体用户或竞赛参赛者' });
  });
export type NoticeBody = z.infer<typeof noticeBody>;

/** `POST /{id}`: publish now, or at a later moment through the job runner. */
export const publishNoticeBody = z.strictObject({ publishAt: isoTime.nullable().optional() });

/** Who a notice reaches, as replies carry it (the same shapes as {@link noticeTarget}, unchecked). */
export const noticeTargetSchema = z.discriminatedUnion('scope', [
  z.object({ scope: z.literal('all') }),
  z.object({
    scope: z.literal('competition'),
    competitionId: z.number().int(),
    registerStatus: z.enum(['pending', 'approved', 'rejected']).nullable().optional(),
    payStatus: z.enum(['paid', 'unpaid']).nullable().optional(),
    works: z.enum(['submitted', 'missing']).nullable().optional(),
  }),
  z.object({ scope: z.literal('users'), usernames: z.array(z.string()) }),
  z.object({ scope: z.literal('teams'), competitionId: z.number().int(), teamNos: z.array(z.string()) }),
]);

/** A notice as the back office lists it. */
export const noticeSchema = z.object({
  id: z.number().int(),
  kind: z.number().int(),
  title: z.string(),
  content: z.string().nullable(),
  target: noticeTargetSchema,
  competitionName: z.string().nullable(),
  status: z.number().int(),
  publishAt: z.string().nullable(),
  publishedAt: z.string().nullable(),
  /** Set for messages the platform sends by itself (invitation, review result, payment...). */
  source: z.string().nullable(),
  /** How many users it is to reach: counted when published, exact once delivered. */
  recipients: z.number().int(),
  /** Copies in users' boxes so far; the job delivers a large audience in batches. */
  delivered: z.number().int(),
  /** When delivery finished; null while it is under way (or not yet published). */
  deliveredAt: z.string().nullable(),
  /** Copies read (a counter kept as recipients read them). */
  reads: z.number().int(),
  author: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Also sent by email and SMS, to recipients with a verified address who take that kind of message. */
  channels: z.object({ email: z.boolean(), sms: z.boolean() }),
  /** How those emails and texts stand in the outbox (zeros until published). */
  messages: z.object({ email: outboxCountsSchema, sms: outboxCountsSchema }),
});
export type Notice = z.infer<typeof noticeSchema>;

/** `POST /recipients`: how many users a target reaches now. */
export const recipientCountSchema = z.object({
  count: z.number().int(),
  /** Of them, how many an email would reach (a verified email, notices by email not turned off), and a text. */
  emails: z.number().int(),
  texts: z.number().int(),
});

export const noticePageQuery = pageQuery.extend({
  kind: z.coerce.number().int().min(0).max(1).optional(),
  status: z.coerce.number().int().min(0).max(2).optional(),
  keyword: z.string().trim().max(100).optional(),
});

/** One message in a user's box. */
export const messageSchema = z.object({
  id: z.number().int(),
  kind: z.number().int(),
  title: z.string(),
  content: z.string().nullable(),
  publishedAt: z.string(),
  read: z.boolean(),
});
export type Message = z.infer<typeof messageSchema>;

/**
 * `GET /check/read` and the mark-read replies: {@link UnreadCount}, whose declaration stays in zod-free unread.ts
 * (the site's first screen); the check below keeps the two in step.
 */
export const unreadCountSchema = z.object({ person: z.number().int(), system: z.number().int(), total: z.number().int() });
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _unreadAgrees: Same<z.infer<typeof unreadCountSchema>, UnreadCount> = true;
void _unreadAgrees;
export const messagePageQuery = pageQuery.extend({ unread: z.enum(['1']).optional() });
