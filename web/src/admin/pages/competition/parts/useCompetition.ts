import { useQuery } from '@tanstack/react-query';
import { competitionDetailApi, competitionDetailKeys, type CompetitionDetail } from '#src/api/competitions.ts';

export type { CompetitionDetail };

/** A competition with its stages; the public read answers any state to those who may manage it. */
export function useCompetition(id: number | null) {
  return useQuery({
    queryKey: competitionDetailKeys.detail(id ?? 0),
    queryFn: () => competitionDetailApi.detail(id!),
    enabled: Boolean(id),
  });
}
