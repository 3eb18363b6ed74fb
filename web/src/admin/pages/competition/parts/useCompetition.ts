import type { Competition, Stage } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../../../common/http.ts';

export type CompetitionDetail = Competition & { stages: Stage[]; activeStageId: number };

/** Query keys under one root, so a workflow step refreshes the competition, its stages, presets and questions. */
export const competitionKey = (id: number, part?: 'stages' | 'presets' | 'questions' | 'readiness') => (part ? ['competition', id, part] : ['competition', id]);

/** A competition with its stages; the public read answers any state to those who may manage it. */
export function useCompetition(id: number | null) {
  return useQuery({
    queryKey: competitionKey(id ?? 0),
    queryFn: () => http.get<CompetitionDetail>(`/api/competition/public/${id}`),
    enabled: Boolean(id),
  });
}
