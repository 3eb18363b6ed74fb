import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { competitionDetailApi, competitionDetailKeys } from '#src/api/competitions.ts';

/**
 * The competition's readiness checklist (packages/shared/src/readiness.ts, computed by the server). It is read again
 * whenever anything else of the competition is (its details, stages, menus or questions saved in another tab), so the
 * checklist follows the organiser's work without a reload.
 */
export function useReadiness(id: number | null, enabled = true) {
  const client = useQueryClient();
  const key = competitionDetailKeys.part(id ?? 0, 'readiness');
  const query = useQuery({ queryKey: key, queryFn: () => competitionDetailApi.readiness(id!), enabled: Boolean(id) && enabled });
  useEffect(() => {
    if (!id || !enabled) return;
    const [root] = competitionDetailKeys.all;
    return client.getQueryCache().subscribe((event) => {
      const [of, which, part] = event.query.queryKey as unknown[];
      if (event.type !== 'updated' || event.action.type !== 'success' || of !== root || which !== id || part === 'readiness') return;
      void client.invalidateQueries({ queryKey: key, exact: true });
    });
    // `key` is derived from `id` alone.
  }, [client, id, enabled]);
  return query;
}
