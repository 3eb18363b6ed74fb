import { z } from 'zod';

/** Messages by email and SMS (issue 35): the kinds a person may turn off per channel, and what senders see of them. */

/**
 * In-app messages always go; email and SMS go per kind unless turned off. Messages a person asked for (a code, a link
 * to reset a password) are not among them: they always go.
 */
export const MESSAGE_KINDS = {
  notice: '竞赛通知',
  result: '审核结果、成绩与证书',
  reminder: '截止提醒',
  account: '账号与实名认证',
} as const;
export type MessageKind = keyof typeof MESSAGE_KINDS;
export const MESSAGE_KIND_KEYS = Object.keys(MESSAGE_KINDS) as [MessageKind, ...MessageKind[]];
export const MESSAGE_CHANNELS = { email: '邮件', sms: '短信' } as const;
export type MessageChannel = keyof typeof MESSAGE_CHANNELS;

const preference = z.strictObject({ kind: z.enum(MESSAGE_KIND_KEYS, { error: '消息类型不正确' }), email: z.boolean(), sms: z.boolean() });

/** `GET /api/account/message-preferences`: per kind, whether email and SMS go, and whether there is an address to send to. */
export const messagePreferencesSchema = z.object({
  kinds: z.array(z.object({ kind: z.enum(MESSAGE_KIND_KEYS), email: z.boolean(), sms: z.boolean() })),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
});
export type MessagePreferences = z.infer<typeof messagePreferencesSchema>;
/** `PUT /api/account/message-preferences`. */
export const messagePreferencesBody = z.strictObject({ kinds: z.array(preference).max(MESSAGE_KIND_KEYS.length) });

/** `POST /api/account/unsubscribe`: the token of an email's one-click unsubscribe link (also RFC 8058's POST). */
export const unsubscribeQuery = z.object({ token: z.string().max(300).optional() });
export const unsubscribeBody = z.object({ token: z.string().max(300).optional(), 'List-Unsubscribe': z.string().max(50).optional() }).optional();
export const unsubscribedSchema = z.object({ kind: z.enum(MESSAGE_KIND_KEYS), channel: z.enum(['email', 'sms']), label: z.string() });

/** How a notice's emails or texts stand in the outbox: waiting, gone, and refused (failed, bounced, or unknown). */
export const outboxCountsSchema = z.object({ queued: z.number().int(), sent: z.number().int(), failed: z.number().int() });
export type OutboxCounts = z.infer<typeof outboxCountsSchema>;
