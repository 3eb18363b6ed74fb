import type { Team, TeamInvitation } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../common/auth.ts';
import { http } from '../common/http.ts';

export const teamKey = (competitionId: number) => ['team', competitionId] as const;

/**
 * Spec §4 "Team": the team is loaded once per competition and reused from the cache; loading it brings its
 * registration along. With no team the answer carries the caller's pending invitations instead.
 */
export function useTeam(competitionId: number) {
  const { data: user } = useCurrentUser();
  return useQuery({
    queryKey: [...teamKey(competitionId), user?.id ?? 0],
    queryFn: () => http.get<{ team: Team | null; invitations: TeamInvitation[] }>(`/api/team/competition/${competitionId}/detail`),
    enabled: Boolean(user) && competitionId > 0,
    staleTime: Infinity,
  });
}

export function useReloadTeam(competitionId: number) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: teamKey(competitionId) });
}

export const joinLink = (competitionId: number, teamId: number, code: string) =>
  `${location.origin}/join/${competitionId}/${teamId}?code=${encodeURIComponent(code)}`;
