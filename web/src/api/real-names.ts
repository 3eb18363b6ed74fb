import type { Page, RealNameAuditBody, RealNameBody, RealNameDetail, RealNameListQuery, RealNameRow, RealNameView } from '@contest/shared';
import { http } from '../common/http.ts';

/** 实名认证 (issue 35): a person's own standing and attempt, and the platform's review queue. */
export const realNameKeys = {
  mine: ['realName'] as const,
  list: (q: Partial<RealNameListQuery>) => ['realNameList', q] as const,
  detail: (id: number) => ['realNameDetail', id] as const,
};

export const realNameApi = {
  mine: () => http.get<RealNameView>('/api/account/realname'),
  submit: (body: RealNameBody) => http.post<RealNameView>('/api/account/realname', body),
  list: (q: Partial<RealNameListQuery>) => http.get<Page<RealNameRow>>('/api/system/realname/list', { ...q }),
  detail: (id: number) => http.get<RealNameDetail>(`/api/system/realname/${id}`),
  audit: (id: number, body: RealNameAuditBody) => http.post<void>(`/api/system/realname/${id}/audit`, body),
};
