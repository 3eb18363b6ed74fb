import type { Organisation, OrganisationBody, Page, PageQuery, PartnerApplication, PartnerApplyBody } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type KeywordParams } from './list.ts';

/** Organisations and partner applications (spec §7 `/api/competition/organization*`, `/partner*`). */
export type PartnerListParams = PageQuery & { status?: number };

export const organisationKeys = {
  all: ['organisations'] as const,
  list: (q: KeywordParams) => [...organisationKeys.all, q] as const,
};

export const organisationApi = {
  list: (q: KeywordParams) => http.get<Page<Organisation>>('/api/competition/organization/page', params(q)),
  create: (body: OrganisationBody) => http.post<void>('/api/competition/organization/', body),
  update: (id: number, body: OrganisationBody) => http.put<void>(`/api/competition/organization/${id}`, body),
  remove: (id: number) => http.delete<void>(`/api/competition/organization/${id}`),
};

export const partnerKeys = {
  all: ['partnerApplications'] as const,
  list: (q: PartnerListParams) => [...partnerKeys.all, q] as const,
  /** The caller's own applications (the site's user centre). */
  mine: ['myApplications'] as const,
};

export const partnerApi = {
  list: (q: PartnerListParams) => http.get<Page<PartnerApplication>>('/api/competition/partner/page', params(q)),
  audit: (id: number, approve: boolean, reason?: string) => http.put<void>(`/api/competition/partner/audit/${id}`, { approve, reason }),
  mine: () => http.get<Page<PartnerApplication>>('/api/competition/partner/mine'),
  apply: (body: PartnerApplyBody) => http.post<void>('/api/competition/partner/apply', body),
};
