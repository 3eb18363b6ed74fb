import type { Page, WorkVersion, WorksPageQuery, WorksRules } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type WorksListParams = ListParams<WorksPageQuery>;

/** A question's submitted works (spec §7 `/api/review/works/*`). */
export const worksUrls = {
  page: (questionId: number) => `/api/review/works/page/${questionId}`,
  zip: (questionId: number) => `/api/review/works/export/${questionId}`,
  /** The tus endpoint of resumable uploads: a team's works, or a question's data files (`kind: 'data'`). */
  upload: '/api/review/works/upload',
};

export const worksKeys = {
  all: (questionId: number) => ['questionWorks', questionId] as const,
  list: (questionId: number, q: WorksListParams) => [...worksKeys.all(questionId), q] as const,
  /** The caller's team's versions of its works for a question (the site's works tab). */
  mine: (questionId: number | undefined) => ['works', questionId] as const,
  /** What a question accepts and until when (the site's works tab). */
  rules: (questionId: number | undefined) => ['worksRules', questionId] as const,
};

export const worksApi = {
  list: (questionId: number, q: WorksListParams) => http.get<Page<WorkVersion>>(worksUrls.page(questionId), params(q)),
  mine: (questionId: number) => http.get<WorkVersion[]>(`/api/review/works/${questionId}`),
  rules: (questionId: number) => http.get<WorksRules>(`/api/review/works/rules/${questionId}`),
};
