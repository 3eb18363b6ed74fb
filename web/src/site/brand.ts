import { useQuery } from '@tanstack/react-query';
import { brandApi, brandKeys } from '../api/catalogue.ts';
import { BRAND_ID_KEY } from '../common/storage.ts';

/** The brand the visitor is browsing, kept in session storage (spec §9) so competition pages keep its look. */
export function currentBrandId(): number | null {
  const v = Number(sessionStorage.getItem(BRAND_ID_KEY));
  return Number.isInteger(v) && v > 0 ? v : null;
}

export function useBrandNav(brandId: number | null) {
  return useQuery({
    queryKey: brandKeys.nav(brandId),
    queryFn: () => brandApi.publicNav(brandId!),
    enabled: brandId !== null,
    staleTime: 5 * 60_000,
  });
}
