import type { AwardLevel, AwardLevelsBody, GradeOverview, MyGrade, SchoolResult, TeamAward } from '@contest/shared';
import { http } from '../common/http.ts';
import { reviewKey } from './review.ts';

/**
 * A question's grade summary and awards (spec §7 `/api/review/works/grade/*`, `/api/review/works/awards/*`); its
 * grades, calculation and disputes are in review.ts. Keys are part of the question's review keys (`reviewKey`).
 */
export const gradeUrls = {
  exportGrades: (questionId: number) => `/api/review/works/exportGrade/${questionId}`,
  exportPrizes: (questionId: number) => `/api/review/works/exportPrize/${questionId}`,
};

export const gradeKeys = {
  summary: (questionId: number) => reviewKey(questionId, 'summary'),
  awards: (questionId: number) => reviewKey(questionId, 'awards'),
  schools: (questionId: number) => reviewKey(questionId, 'schools'),
};

export const gradeApi = {
  /** Where the question's grades stand (the calculate / confirm steps gate awarding). */
  summary: (questionId: number) => http.get<GradeOverview>(`/api/review/works/grade/summary/${questionId}`),
  awards: (questionId: number) => http.get<AwardLevel[]>(`/api/review/works/awards/${questionId}`),
  /** The question's results grouped by the teams' school. */
  schools: (questionId: number) => http.get<SchoolResult[]>(`/api/review/works/grade/schools/${questionId}`),
  saveAwards: (questionId: number, body: AwardLevelsBody) => http.put<void>(`/api/review/works/awards/${questionId}`, body),
  /** Gives the awards by rank. */
  applyAwards: (questionId: number) => http.post<void>(`/api/review/works/awards/apply/${questionId}`),
  /** A team's award chosen by hand (null: none). */
  setTeamAward: (questionId: number, teamId: number, awardId: number | null) =>
    http.put<void>(`/api/review/works/awards/team/${questionId}`, { teamId, awardId }),
};

/** A team's grades, disputes and awards as the participant site shows them. */
export const myGradeKeys = {
  /** The caller's team's confirmed grades in a competition, with its disputes. */
  grades: (competitionId: number) => ['myGrade', competitionId] as const,
  awards: (teamId: number | undefined) => ['teamAwards', teamId] as const,
};

export const myGradeApi = {
  grades: (competitionId: number) => http.get<MyGrade[]>(`/api/review/works/myGrade/${competitionId}`),
  /** The team's one dispute of a question's grade. */
  dispute: (questionId: number, body: { reason: string }) => http.post<void>(`/api/review/works/disputeScore/${questionId}`, body),
  awards: (teamId: number) => http.get<TeamAward[]>(`/api/review/works/list/awards/${teamId}`),
};
