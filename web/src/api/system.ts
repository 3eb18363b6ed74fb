import type { Dashboard } from '@contest/shared';
import { http } from '../common/http.ts';

/** The platform's counters on the home page (spec §7 `/api/system/dashboard`); the to-do items are in todo.ts. */
export const systemKeys = {
  dashboard: ['dashboard'] as const,
};

export const systemApi = {
  dashboard: () => http.get<Dashboard>('/api/system/dashboard'),
};
