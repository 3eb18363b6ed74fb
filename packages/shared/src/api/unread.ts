/**
 * What the participant's header needs of messages: the unread counts, the tab the bell opens and the message stream's
 * events. Kept apart from notices.ts, whose zod schemas would bring zod onto the site's first screen (ARCHITECTURE §9).
 */

/** The two kinds of spec §3: 0 a system notice (everyone, or a competition's users), 1 a personal message. */
export const NOTICE_KIND = { system: 0, personal: 1 } as const;

/** `GET /check/read` (spec §3: unread message has person, system, total). */
export interface UnreadCount {
  person: number;
  system: number;
  total: number;
}

/**
 * The message stream's events (`GET /api/message/notice/stream`, server-sent): `unread` carries the user's
 * {@link UnreadCount}; `board` says a scoring finished on a question, whose leaderboard and submission list an open
 * test tab then reloads. Its data is {@link BoardEvent}.
 */
export const STREAM_EVENT = { unread: 'unread', board: 'board' } as const;
export interface BoardEvent {
  questionId: number;
}

/**
 * The message tab the header bell opens: the one holding the unread items. When both hold some, personal messages win:
 * they are the user's own (an invitation, a review result, a payment) and usually ask for an action, while system
 * notices also show on their competition's page. With nothing unread, the system notices (the page's first tab).
 */
export function unreadKind(counts: Pick<UnreadCount, 'person' | 'system'> | null | undefined): number {
  return counts && counts.person > 0 ? NOTICE_KIND.personal : NOTICE_KIND.system;
}
