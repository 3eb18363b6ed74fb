import type { Message, Notice, NoticeBody, NoticeTarget, Page, PageQuery, UnreadCount } from '@contest/shared';
import { http } from '../common/http.ts';
import { params } from './list.ts';

/** The filters of `noticePageQuery` (kind, status, title keyword). */
export type NoticeListParams = PageQuery & { kind?: number; status?: number; keyword?: string };

/** Notices as the back office writes them (spec §7 `/api/message/notice*`). */
export const noticeUrls = { list: '/api/message/notice/page' } as const;

export const noticeKeys = {
  all: ['notices'] as const,
  list: (q: NoticeListParams) => [...noticeKeys.all, q] as const,
  /** How many users a target reaches now (not a list: a save does not change it). */
  recipients: (target: NoticeTarget | null) => ['noticeRecipients', target] as const,
};

export const noticeApi = {
  list: (q: NoticeListParams) => http.get<Page<Notice>>(noticeUrls.list, params(q)),
  /** Silent: the form says "暂时无法统计接收人数" itself. */
  recipients: (target: NoticeTarget) =>
    http.post<{ count: number; emails: number; texts: number }>('/api/message/notice/recipients', { target }, { silent: true }),
  create: (body: NoticeBody) => http.post<void>('/api/message/notice', body),
  update: (id: number, body: NoticeBody) => http.put<void>(`/api/message/notice/${id}`, body),
  /** Publishes now (`publishAt` null) or schedules. */
  publish: (id: number, publishAt: string | null) => http.post<void>(`/api/message/notice/${id}`, { publishAt }),
  remove: (id: number) => http.delete<void>(`/api/message/notice/${id}`),
};

/** A page of the caller's messages; `unreadOnly` asks for the unread ones only. */
export type MessageListParams = { page: number; limit: number; unreadOnly?: boolean };

/**
 * The caller's messages as the site shows them (spec §7 `/api/message/notice/*`). The site's header loads these (the
 * unread badge and the message stream): types only from the shared package, no zod (ARCHITECTURE §9).
 */
export const messageUrls = {
  /** The server-sent stream of unread counts and finished scorings. */
  stream: '/api/message/notice/stream',
};

export const messageKeys = {
  /** One entry for the unread counts: the header badge, the message page's tabs and mark-read replies share it. */
  unread: ['unread'] as const,
  /** Every list of messages (the message page's, a competition's announcements): refreshed when the counts change. */
  all: ['messages'] as const,
  kind: (kind: number) => [...messageKeys.all, kind] as const,
  list: (kind: number, q: MessageListParams) => [...messageKeys.kind(kind), q] as const,
  competition: (competitionId: number, page: number) => [...messageKeys.all, 'competition', competitionId, page] as const,
};

export const messageApi = {
  /** Silent: the badge just shows nothing. */
  unread: () => http.get<UnreadCount>('/api/message/notice/check/read', undefined, { silent: true }),
  list: (kind: number, { unreadOnly, ...paging }: MessageListParams) =>
    http.get<Page<Message>>(`/api/message/notice/page/${kind}`, { ...paging, unread: unreadOnly ? 1 : undefined }),
  /** The notices of a competition that reached the caller. Silent: the page shows none then. */
  competition: (competitionId: number, q: PageQuery) => http.get<Page<Message>>(`/api/message/notice/competition/${competitionId}`, { ...q }, { silent: true }),
  /** Marks one read; answers the new counts. */
  markRead: (id: number) => http.put<UnreadCount>(`/api/message/notice/user/${id}`),
  /** Marks every message of a kind read; answers the new counts. */
  markAllRead: (kind: number) => http.put<UnreadCount>('/api/message/notice/user/all', undefined, { params: { kind } }),
};
