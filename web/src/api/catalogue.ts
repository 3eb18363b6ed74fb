import {
  MAX_LIMIT,
  type Brand,
  type BrandBody,
  type BrandNav,
  type BrandNavBody,
  type CompetitionListItem,
  type CompetitionType,
  type ManageListQuery,
  type Organisation,
  type OrganisationBody,
  type Page,
  type PageQuery,
  type PartnerApplication,
  type PartnerApplyBody,
  type TypeBody,
} from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

/** The back office's catalogue (spec §7 `/api/competition/*`): competitions, types, brands, organisations, partners. */

export type CompetitionListParams = ListParams<ManageListQuery>;
export type KeywordParams = PageQuery & { keyword?: string };
/** `recommend` goes as `'0'`/`'1'` on the wire (the schema turns it into a boolean). */
export type BrandListParams = KeywordParams & { recommend?: '0' | '1' };
export type PartnerListParams = PageQuery & { status?: number };

export const competitionKeys = {
  all: ['competitions'] as const,
  /** The competitions the caller manages (`listAuth`). */
  managed: (q: CompetitionListParams) => [...competitionKeys.all, q] as const,
  /** Every organisation's competitions, for the platform's audit. */
  auditAll: ['auditCompetitions'] as const,
  audit: (q: CompetitionListParams) => [...competitionKeys.auditAll, q] as const,
  /** The competitions the caller manages, to filter lists by. */
  options: ['competitionOptions'] as const,
};

export const competitionApi = {
  managed: (q: CompetitionListParams) => http.get<Page<CompetitionListItem>>('/api/competition/listAuth', params(q)),
  audit: (q: CompetitionListParams) => http.get<Page<CompetitionListItem>>('/api/competition/list', params(q)),
  options: () => http.get<Page<CompetitionListItem>>('/api/competition/listAuth', { limit: MAX_LIMIT }),
};

export const typeKeys = {
  all: ['types'] as const,
  list: (q: PageQuery) => [...typeKeys.all, q] as const,
  options: ['typeOptions'] as const,
};

export const typeApi = {
  list: (q: PageQuery) => http.get<Page<CompetitionType>>('/api/competition/type/public/page', params(q)),
  /** Every type, to choose from. */
  options: () => http.get<CompetitionType[]>('/api/competition/type/public/list'),
  update: (id: number, body: TypeBody) => http.put<void>(`/api/competition/type/${id}`, body),
  // Spec §7: creating a type takes its fields in the query string.
  create: (body: TypeBody) => http.post<void>('/api/competition/type/', undefined, { params: { name: body.name, sort: body.sort } }),
  remove: (id: number) => http.delete<void>(`/api/competition/type/${id}`),
};

export const brandKeys = {
  all: ['brands'] as const,
  list: (q: KeywordParams) => [...brandKeys.all, q] as const,
  recommendAll: ['recommendBrands'] as const,
  recommend: (q: BrandListParams) => [...brandKeys.recommendAll, q] as const,
  options: ['brandOptions'] as const,
  detail: (id: number | null) => ['brand', id] as const,
  nav: (id: number | null) => ['brandNav', id] as const,
  /** The participant site's recommended brands, above the full competition list. */
  recommended: ['recommendedBrands'] as const,
};

export const brandApi = {
  list: (q: KeywordParams) => http.get<Page<Brand>>('/api/competition/brand/list', params(q)),
  /** The public list (the recommend page's code does not include the back-office brand list's). */
  publicPage: (q: BrandListParams) => http.get<Page<Brand>>('/api/competition/brand/public/page', params(q)),
  create: (body: BrandBody) => http.post<void>('/api/competition/brand/', body),
  update: (id: number, body: BrandBody) => http.put<void>(`/api/competition/brand/${id}`, body),
  remove: (id: number) => http.delete<void>(`/api/competition/brand/${id}`),
  /**
   * Brands to choose from, read from the public list: organisers pick a brand for their competitions but do not hold
   * `competition:brand:menu`, which the back-office brand list requires.
   */
  options: () => http.get<Page<Brand>>('/api/competition/brand/public/page', { limit: MAX_LIMIT }),
  /** Silent for the site's header, which then shows the platform's name. */
  detail: (id: number, silent = false) => http.get<Brand>(`/api/competition/brand/public/${id}`, undefined, { silent }),
  /** The brand's own header and footer; none until first saved. */
  nav: (brandId: number) => http.get<BrandNav | null>(`/api/competition/brand/nav/byBrandId/${brandId}`),
  createNav: (body: BrandNavBody) => http.post<void>('/api/competition/brand/nav/', body),
  updateNav: (id: number, body: BrandNavBody) => http.put<void>(`/api/competition/brand/nav/${id}`, body),
  /** The brand's navigation as the participant site shows it (null: the platform's). Silent. */
  publicNav: (brandId: number) => http.get<BrandNav | null>('/api/competition/brand/nav/public/nav', { brandId }, { silent: true }),
  /** The first recommended brands, for the participant site. */
  recommended: (limit: number) => http.get<Page<Brand>>('/api/competition/brand/public/page', { recommend: 1, limit }),
  setRecommend: (id: number, recommend: boolean) => http.put<void>(`/api/competition/brand/recommend/${id}`, undefined, { params: { recommend: recommend ? 1 : 0 } }),
};

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
