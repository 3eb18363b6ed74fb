import type { SimilarityDecision, SimilarityOverview, SimilarityPair, SimilarityReport } from '@contest/shared';
import { formOf, http } from '../common/http.ts';

/** 查重 of a question's written works (issue 37, `/api/review/similarity/*`), and a team's own report with its works. */
export const similarityKeys = {
  overview: (questionId: number) => ['similarity', questionId] as const,
  pair: (pairId: number) => ['similarityPair', pairId] as const,
  /** The caller's team's own report for a question (the site's works tab). */
  report: (questionId: number | undefined) => ['similarityReport', questionId] as const,
};

export const similarityApi = {
  overview: (questionId: number) => http.get<SimilarityOverview>(`/api/review/similarity/${questionId}`),
  run: (questionId: number) => http.post<SimilarityOverview>(`/api/review/similarity/run/${questionId}`),
  settings: (questionId: number, body: { flagPercent: number; holdPercent: number }) =>
    http.put<SimilarityOverview>(`/api/review/similarity/settings/${questionId}`, body),
  addExclusion: (questionId: number, file: File) =>
    http.post<SimilarityOverview>(`/api/review/similarity/exclusion/${questionId}`, formOf(file), { silent: true }),
  removeExclusion: (id: number) => http.delete<SimilarityOverview>(`/api/review/similarity/exclusion/${id}`),
  pair: (pairId: number) => http.get<SimilarityPair>(`/api/review/similarity/pair/${pairId}`),
  decide: (questionId: number, body: { teamId: number; decision: SimilarityDecision; note?: string }) =>
    http.put<SimilarityOverview>(`/api/review/similarity/decision/${questionId}`, body),
  myReport: (questionId: number) => http.get<SimilarityReport | null>(`/api/review/works/similarityReport/${questionId}`),
  uploadReport: (questionId: number, file: File, declaredRate: number) =>
    http.post<SimilarityReport>(`/api/review/works/similarityReport/${questionId}`, formOf(file), { params: { declaredRate }, silent: true }),
};
