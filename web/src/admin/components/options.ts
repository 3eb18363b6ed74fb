import { useQuery } from '@tanstack/react-query';
import { brandApi, brandKeys, typeApi, typeKeys } from '../../api/catalogue.ts';
import { competitionApi, competitionKeys } from '../../api/competitions.ts';
import { userApi, userKeys } from '../../api/users.ts';

/** The options' keys, for the pages whose writes change them. */
export const BRAND_OPTIONS_KEY = brandKeys.options;
export const TYPE_OPTIONS_KEY = typeKeys.options;
export const ORG_OPTIONS_KEY = userKeys.orgOptions;

/**
 * Brands to choose from. Read from the public list: organisers pick a brand for their competitions
 * but do not hold `competition:brand:menu`, which the back-office brand list requires.
 */
export function useBrandOptions() {
  return useQuery({
    queryKey: BRAND_OPTIONS_KEY,
    queryFn: brandApi.options,
    select: (page) => page.list.map((b) => ({ value: b.id, label: b.name })),
    staleTime: 60_000,
  });
}

export function useTypeOptions() {
  return useQuery({
    queryKey: TYPE_OPTIONS_KEY,
    queryFn: typeApi.options,
    select: (types) => types.map((t) => ({ value: t.id, label: t.name })),
    staleTime: 60_000,
  });
}

/** Organisations to choose from; only the platform (who may pick any) asks for them. */
export function useOrgOptions(enabled: boolean) {
  return useQuery({
    queryKey: ORG_OPTIONS_KEY,
    queryFn: userApi.orgOptions,
    select: (orgs) => orgs.map((o) => ({ value: o.id, label: o.name })),
    enabled,
    staleTime: 60_000,
  });
}

/** The competitions a back-office user manages (all of them for the platform), to filter lists by. */
export function useCompetitionOptions(enabled: boolean) {
  return useQuery({
    queryKey: competitionKeys.options,
    queryFn: competitionApi.options,
    select: (page) => page.list.map((c) => ({ value: c.id, label: c.name })),
    enabled,
    staleTime: 60_000,
  });
}
