import type { BatchResult, Page, Register, RegisterDetail, RegisterListQuery } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type RegisterListParams = ListParams<RegisterListQuery>;
export type { RegisterDetail } from '@contest/shared';
export type RegisterDecision = 'approve' | 'reject';

/** Registrations as the back office reviews them (spec §7 `/api/team/register/*`). */
export const registerUrls = { list: '/api/team/register/list' } as const;

export const registerKeys = {
  all: ['registers'] as const,
  list: (q: RegisterListParams) => [...registerKeys.all, q] as const,
  details: ['register'] as const,
  detail: (id: number) => [...registerKeys.details, id] as const,
};

export const registerApi = {
  list: (q: RegisterListParams) => http.get<Page<Register>>(registerUrls.list, params(q)),
  detail: (id: number) => http.get<RegisterDetail>(`/api/team/register/${id}`),
  decide: (id: number, action: RegisterDecision, reason?: string) => http.post<void>(`/api/team/register/flow/${id}`, { action, reason }),
  decideBatch: (ids: number[], action: RegisterDecision, reason?: string) => http.post<BatchResult>('/api/team/register/flow/batch', { ids, action, reason }),
};
