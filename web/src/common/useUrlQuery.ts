import { DEFAULT_LIMIT, MAX_LIMIT } from '@contest/shared';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** How a filter is read from the address: a whole number (ids, statuses) or a text. */
type Kind = 'number' | 'text';

type Filters = Record<string, number | string | undefined>;
export type UrlQuery<F extends Filters> = { page: number; limit: number } & Partial<F>;

const wholeNumber = (v: string | null) => (v !== null && /^\d{1,9}$/.test(v) ? Number(v) : undefined);

/**
 * A list's filters and page, kept in the address (`#/financial/invoice?status=0&competitionId=3`): a link (the home
 * page's to-do list) opens the list already filtered, what is filtered shows in the list's own controls and is removed
 * there, and the browser's back and forward buttons walk through the filters chosen. Values that do not parse are
 * ignored, as if absent. Filters are read in the order `fields` names them.
 */
export function useUrlQuery<F extends Filters>(fields: { [K in keyof F]-?: Kind }) {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  const query = useMemo(() => {
    const limit = wholeNumber(params.get('limit'));
    const q: Record<string, number | string | undefined> = {
      page: Math.max(wholeNumber(params.get('page')) ?? 1, 1),
      limit: limit && limit <= MAX_LIMIT ? limit : DEFAULT_LIMIT,
    };
    for (const [name, kind] of Object.entries(fields) as [string, Kind][]) {
      const raw = params.get(name);
      q[name] = kind === 'number' ? wholeNumber(raw) : raw?.trim() || undefined;
    }
    return q as UrlQuery<F>;
    // The fields are a constant of each page; the address is what changes.
  }, [key]);

  /** Replaces the whole query: the filters given (undefined or empty: none) and the page (1 and 20 stay implicit). */
  const setQuery = useCallback(
    (next: UrlQuery<F>) => {
      const out = new URLSearchParams();
      for (const [name, value] of Object.entries(next)) {
        if (value === undefined || value === null || value === '') continue;
        if ((name === 'page' && value === 1) || (name === 'limit' && value === DEFAULT_LIMIT)) continue;
        out.set(name, String(value));
      }
      setParams(out);
    },
    [setParams],
  );

  /** The filters alone, as a key that changes when they do (for forms that read their initial values once). */
  const filtersKey = JSON.stringify(Object.keys(fields).map((f) => query[f]));
  return { query, setQuery, filtersKey };
}
