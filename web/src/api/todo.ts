import type { Page, UnfinishedJudge, UnfinishedJudgesQuery } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type UnfinishedJudgesParams = ListParams<UnfinishedJudgesQuery>;

/** The lists the home page's to-do items open (spec §7 `/api/system/todo/*`). */
export const todoKeys = {
  judgesAll: ['unfinishedJudges'] as const,
  judges: (q: UnfinishedJudgesParams) => [...todoKeys.judgesAll, q] as const,
};

export const todoApi = {
  /** The judges who have not submitted every work given to them, by question. */
  judges: (q: UnfinishedJudgesParams) => http.get<Page<UnfinishedJudge>>('/api/system/todo/judges', params(q)),
};
