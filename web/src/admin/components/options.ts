import { MAX_LIMIT, type Brand, type CompetitionListItem, type CompetitionType, type OrgOption, type Page } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../common/http.ts';

export const BRAND_OPTIONS_KEY = ['brandOptions'] as const;
export const TYPE_OPTIONS_KEY = ['typeOptions'] as const;
export const ORG_OPTIONS_KEY = ['orgOptions'] as const;

/**
 * Brands to choose from. Read from the public list: organisers pick a brand for their competitions
 * but do not hold `competition:brand:menu`, which the back-office brand list requires.
 */
export function useBrandOptions() {
  return useQuery({
    queryKey: BRAND_OPTIONS_KEY,
    queryFn: () => http.get<Page<Brand>>('/api/competition/brand/public/page', { limit: MAX_LIMIT }),
    select: (page) => page.list.map((b) => ({ value: b.id, label: b.name })),
    staleTime: 60_000,
  });
}

export function useTypeOptions() {
  return useQuery({
    queryKey: TYPE_OPTIONS_KEY,
    queryFn: () => http.get<CompetitionType[]>('/api/competition/type/public/list'),
    select: (types) => types.map((t) => ({ value: t.id, label: t.name })),
    staleTime: 60_000,
  });
}

/** Organisations to choose from; only the platform (who may pick any) asks for them. */
export function useOrgOptions(enabled: boolean) {
  return useQuery({
    queryKey: ORG_OPTIONS_KEY,
    queryFn: () => http.get<OrgOption[]>('/api/system/org/options'),
    select: (orgs) => orgs.map((o) => ({ value: o.id, label: o.name })),
    enabled,
    staleTime: 60_000,
  });
}


/** The competitions a back-office user manages (all of them for the platform), to filter lists by. */
export function useCompetitionOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['competitionOptions'],
    queryFn: () => http.get<Page<CompetitionListItem>>('/api/competition/listAuth', { limit: MAX_LIMIT }),
    select: (page) => page.list.map((c) => ({ value: c.id, label: c.name })),
    enabled,
    staleTime: 60_000,
  });
}
