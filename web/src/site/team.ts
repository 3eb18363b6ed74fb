import { useQuery, useQueryClient } from '@tanstack/react-query';
import { teamApi, teamKeys } from '../api/teams.ts';
import { useCurrentUser } from '../common/auth.ts';

/**
 * Spec §4 "Team": the team is loaded once per competition and reused from the cache; loading it brings its
 * registration along. With no team the answer carries the caller's pending invitations instead.
 */
export function useTeam(competitionId: number) {
  const { data: user } = useCurrentUser();
  return useQuery({
    queryKey: teamKeys.mine(competitionId, user?.id ?? 0),
    queryFn: () => teamApi.mine(competitionId),
    enabled: Boolean(user) && competitionId > 0,
    staleTime: Infinity,
  });
}

export function useReloadTeam(competitionId: number) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: teamKeys.competition(competitionId) });
}

export const joinLink = (competitionId: number, teamId: number, code: string) =>
  `${location.origin}/join/${competitionId}/${teamId}?code=${encodeURIComponent(code)}`;
