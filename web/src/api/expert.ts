import type { Expert, Page, PageQuery } from '@contest/shared';
import { http } from '../common/http.ts';
import { params } from './list.ts';

export type ExpertListParams = PageQuery & { keyword?: string };
export interface ExpertDetails {
  organization: string;
  speciality: string | null;
  title: string | null;
}

/** The pool of expert judges (spec §7 `/api/review/expert*`). */
export const expertKeys = {
  all: ['experts'] as const,
  list: (q: ExpertListParams) => [...expertKeys.all, q] as const,
};

export const expertApi = {
  list: (q: ExpertListParams) => http.get<Page<Expert>>('/api/review/expert/page', params(q)),
  add: (body: ExpertDetails & { username: string }) => http.post<void>('/api/review/expert', body),
  update: (userId: number, body: ExpertDetails) => http.put<void>(`/api/review/expert/${userId}`, body),
  remove: (userId: number) => http.delete<void>(`/api/review/expert/${userId}`),
};
