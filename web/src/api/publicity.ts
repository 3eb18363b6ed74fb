import type { ObjectionBody, PublicResults, Publicity, PublicityBody } from '@contest/shared';
import { http } from '../common/http.ts';

/** 公示 (issue 38): a competition's 公示期 and embeds, its public award list, and objections to it. */
export const publicityKeys = {
  settings: (competitionId: number) => ['publicity', competitionId] as const,
  results: (competitionId: number) => ['publicResults', competitionId] as const,
};

export const publicityApi = {
  settings: (competitionId: number) => http.get<Publicity>(`/api/competition/publicity/${competitionId}`),
  save: (competitionId: number, body: PublicityBody) => http.put<Publicity>(`/api/competition/publicity/${competitionId}`, body),
  results: (competitionId: number) => http.get<PublicResults>(`/api/competition/results/public/${competitionId}`),
  object: (competitionId: number, body: ObjectionBody) => http.post<{ id: number }>(`/api/competition/results/objection/${competitionId}`, body),
};
