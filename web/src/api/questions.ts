import { MAX_TIME_LIMIT_SEC, type ManagedQuestion, type PublicQuestion, type QuestionBody, type Scorer, type ScorerTry } from '@contest/shared';
import { formOf, http } from '../common/http.ts';
import { competitionDetailKeys } from './competitions.ts';

/** A competition's questions as the back office manages them (spec §7 `/api/competition/question/*`). */
export const questionUrls = {
  /** The upload action of a question's hidden answer file. */
  answer: (id: number) => `/api/competition/question/${id}/answer`,
};

export const questionKeys = {
  /** One question, as the question pages share it. */
  one: (id: number | null) => ['question', id] as const,
  /** A competition's questions: part of the competition's keys, so a workflow step reloads them too. */
  list: (competitionId: number) => competitionDetailKeys.part(competitionId, 'questions'),
};

export const questionApi = {
  /** A question the caller may manage (refused otherwise). */
  check: (id: number) => http.get<ManagedQuestion>(`/api/competition/question/check/${id}`),
  list: (competitionId: number) => http.get<ManagedQuestion[]>(`/api/competition/question/list/${competitionId}`),
  create: (competitionId: number, body: QuestionBody) => http.post<{ id: number }>(`/api/competition/question/${competitionId}`, body),
  update: (id: number, body: QuestionBody) => http.put<void>(`/api/competition/question/${id}`, body),
  remove: (id: number) => http.delete<void>(`/api/competition/question/${id}`),
  removeFile: (id: number, fileUri: string) => http.delete<void>(`/api/competition/question/${id}/file`, { params: { fileUri } }),
  review: (id: number, reviewed: boolean) => http.put<void>(`/api/competition/question/review/${id}`, { reviewed }),
  /** The question's own scoring program (issue 23). */
  uploadScorer: (id: number, file: File) => http.post<Scorer>(`/api/question/scorer/${id}`, formOf(file), { silent: true }),
  /** Runs the program on a prediction file, once per board: as long as two runs may take, and the upload. */
  tryScorer: (id: number, file: File) =>
    http.post<ScorerTry>(`/api/question/scorer/try/${id}`, formOf(file), { silent: true, timeoutMs: (2 * MAX_TIME_LIMIT_SEC + 120) * 1000 }),
};

/** A competition's published questions as the participant site shows them. */
export const publicQuestionKeys = {
  list: (competitionId: number) => ['questions', competitionId] as const,
};

export const publicQuestionApi = {
  list: (competitionId: number) => http.get<PublicQuestion[]>(`/api/competition/question/public/list/${competitionId}`),
};
