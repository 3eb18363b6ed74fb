import type { Page, WorkVersion, WorksPageQuery } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type WorksListParams = ListParams<WorksPageQuery>;

/** A question's submitted works (spec §7 `/api/review/works/*`). */
export const worksUrls = {
  page: (questionId: number) => `/api/review/works/page/${questionId}`,
  zip: (questionId: number) => `/api/review/works/export/${questionId}`,
};

export const worksKeys = {
  all: (questionId: number) => ['questionWorks', questionId] as const,
  list: (questionId: number, q: WorksListParams) => [...worksKeys.all(questionId), q] as const,
};

export const worksApi = {
  list: (questionId: number, q: WorksListParams) => http.get<Page<WorkVersion>>(worksUrls.page(questionId), params(q)),
};
