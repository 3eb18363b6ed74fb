import type { PageQuery } from '@contest/shared';

/**
 * What a list endpoint is asked for: the page and the filters of its shared query schema. The schema's `ids` (a
 * selection, sent as `1,2,3`) and `export` belong to exports, which go through `ExportButton` with the same filters.
 */
export type ListParams<Q extends PageQuery> = PageQuery & Partial<Omit<Q, 'page' | 'limit' | 'ids' | 'export'>>;

/** The query-string form of a list's params for the http client. */
export const params = (q: object) => ({ ...q }) as Record<string, string | number | boolean | undefined>;

/** A list filtered by one search box. */
export type KeywordParams = PageQuery & { keyword?: string };
