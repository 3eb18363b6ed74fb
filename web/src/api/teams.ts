import type { JoinView, RegistrationInfo, TeamDetail as MyTeam, TeamRegisterBody, TeamTeacher } from '@contest/shared';
import { http } from '../common/http.ts';

/** A team as a join link or an invitation shows it (JoinView), and the caller's team or invitations (TeamDetail). */
export type { JoinView, TeamDetail as MyTeam } from '@contest/shared';

/** Teams and their members as the participants keep them (spec §7 `/api/team/*`). */
export const teamKeys = {
  all: ['team'] as const,
  /** Everything about the caller's team in a competition: a change to the team invalidates this. */
  competition: (competitionId: number) => [...teamKeys.all, competitionId] as const,
  /** By user, so that another login does not read the previous user's team. */
  mine: (competitionId: number, userId: number) => [...teamKeys.competition(competitionId), userId] as const,
  /** A team as a join link (with its code) or an invitation shows it. */
  join: (teamId: number, code: string | undefined) => ['join', teamId, code] as const,
};

export const teamApi = {
  mine: (competitionId: number) => http.get<MyTeam>(`/api/team/competition/${competitionId}/detail`),
  /** Silent: the join page says why the team cannot be shown. */
  join: (teamId: number, code: string | undefined) => http.get<JoinView>(`/api/team/team/${teamId}`, code ? { code } : undefined, { silent: true }),
  /** Registers the caller (a new team, or alone); with a fee the answer names the order to pay. */
  register: (competitionId: number, body: TeamRegisterBody) =>
    http.post<{ teamId: number; orderId: number | null }>(`/api/team/register/${competitionId}`, body),
  /** The leader's changes: the team's name (null for an individual entry) and the leader's own form. */
  update: (teamId: number, body: { teamName: string | null | undefined; info: RegistrationInfo }) => http.put<void>(`/api/team/update/${teamId}`, body),
  updateTeachers: (teamId: number, teacherList: Omit<TeamTeacher, 'id'>[]) => http.put<void>(`/api/team/updateTeacher/${teamId}`, { teacherList }),
  chooseQuestion: (teamId: number, questionId: number) => http.put<void>(`/api/team/choiceQuestion/${teamId}`, { questionId }),
  /** A member's own form. */
  updateMember: (teamId: number, info: RegistrationInfo) => http.put<void>(`/api/team/member/${teamId}`, { info }),
  /** Removes a member, or the caller leaves. */
  removeMember: (teamId: number, userId: number) => http.delete<void>(`/api/team/member/${teamId}`, { params: { userId } }),
  /** Invites by username or phone number. */
  invite: (teamId: number, account: string) => http.post<void>('/api/team/member/invitation', { teamId, account }),
  /** Joins by a pending invitation, or by the join link's code. */
  agree: (teamId: number, code: string | undefined, info: RegistrationInfo) =>
    http.post<void>(`/api/team/member/agree/${teamId}${code ? `?code=${encodeURIComponent(code)}` : ''}`, { info }),
  refuse: (teamId: number) => http.put<void>(`/api/team/member/refuse/${teamId}`),
};
