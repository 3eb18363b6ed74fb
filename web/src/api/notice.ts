import type { Notice, NoticeBody, NoticeTarget, Page, PageQuery } from '@contest/shared';
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
  recipients: (target: NoticeTarget) => http.post<{ count: number }>('/api/message/notice/recipients', { target }, { silent: true }),
  create: (body: NoticeBody) => http.post<void>('/api/message/notice', body),
  update: (id: number, body: NoticeBody) => http.put<void>(`/api/message/notice/${id}`, body),
  /** Publishes now (`publishAt` null) or schedules. */
  publish: (id: number, publishAt: string | null) => http.post<void>(`/api/message/notice/${id}`, { publishAt }),
  remove: (id: number) => http.delete<void>(`/api/message/notice/${id}`),
};
