import type { Dashboard, Page, Todo, UnfinishedJudge, UnfinishedJudgesQuery } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

/** The platform's counters on the home page (spec §7 `/api/system/dashboard`); below, the to-do items. */
export const systemKeys = {
  dashboard: ['dashboard'] as const,
};

export const systemApi = {
  dashboard: () => http.get<Dashboard>('/api/system/dashboard'),
};

export type UnfinishedJudgesParams = ListParams<UnfinishedJudgesQuery>;

/** The lists the home page's to-do items open (spec §7 `/api/system/todo/*`). */
export const todoKeys = {
  /** The home page's to-do items and running competitions. */
  summary: ['todo'] as const,
  judgesAll: ['unfinishedJudges'] as const,
  judges: (q: UnfinishedJudgesParams) => [...todoKeys.judgesAll, q] as const,
};

export const todoApi = {
  summary: () => http.get<Todo>('/api/system/todo'),
  /** The judges who have not submitted every work given to them, by question. */
  judges: (q: UnfinishedJudgesParams) => http.get<Page<UnfinishedJudge>>('/api/system/todo/judges', params(q)),
};
