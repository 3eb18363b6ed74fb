import type { Readiness } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { http } from '../../../../common/http.ts';
import { competitionKey } from './useCompetition.ts';

/**
 * The competition's readiness checklist (packages/shared/src/readiness.ts, computed by the server). It is read again
 * whenever anything else of the competition is (its details, stages, menus or questions saved in another tab), so the
 * checklist follows the organiser's work without a reload.
 */
export function useReadiness(id: number | null, enabled = true) {
  const client = useQueryClient();
  const key = competitionKey(id ?? 0, 'readiness');
  const query = useQuery({ queryKey: key, queryFn: () => http.get<Readiness>(`/api/competition/readiness/${id}`), enabled: Boolean(id) && enabled });
  useEffect(() => {
    if (!id || !enabled) return;
    return client.getQueryCache().subscribe((event) => {
      const [root, of, part] = event.query.queryKey as unknown[];
      if (event.type !== 'updated' || event.action.type !== 'success' || root !== 'competition' || of !== id || part === 'readiness') return;
      void client.invalidateQueries({ queryKey: key, exact: true });
    });
    // `key` is derived from `id` alone.
  }, [client, id, enabled]);
  return query;
}
