import {
  MAX_LIMIT,
  type Brand,
  type BrandBody,
  type BrandNav,
  type BrandNavBody,
  type CompetitionType,
  type Page,
  type PageQuery,
  type TypeBody,
} from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type KeywordParams } from './list.ts';

/** The catalogue (spec §7 `/api/competition/type*`, `/brand*`): competition types and brands with their navigation. */

export type { KeywordParams } from './list.ts';
/** `recommend` goes as `'0'`/`'1'` on the wire (the schema turns it into a boolean). */
export type BrandListParams = KeywordParams & { recommend?: '0' | '1' };

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
  setRecommend: (id: number, recommend: boolean) =>
    http.put<void>(`/api/competition/brand/recommend/${id}`, undefined, { params: { recommend: recommend ? 1 : 0 } }),
};
