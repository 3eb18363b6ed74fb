import type {
  AssignResult,
  Assignment,
  AssignmentPageQuery,
  Certificate,
  CertificateTemplate,
  Dispute,
  DisputePageQuery,
  Expert,
  Grade,
  Page,
  PageQuery,
  QuestionJudge,
  ReviewRule,
  ReviewRuleBody,
} from '@contest/shared';
import { confirmOptions, type Confirmable } from './confirmable.ts';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type ReviewListParams = PageQuery & { keyword?: string; groupName?: string };
export type AssignmentListParams = ListParams<AssignmentPageQuery>;
export type DisputeListParams = ListParams<DisputePageQuery>;
/** A dispute's answer, and the judge who is to review the work again (null: none). */
export interface DisputeAnswer {
  answer: string;
  rereviewJudgeId: number | null;
}
/** An expert of the pool who may be added to a question's judges. */
export type JudgeCandidate = Pick<Expert, 'userId' | 'username' | 'userName' | 'organization'>;

/**
 * Keys of everything about one question's review (judges, rule, grades, awards, certificates): a write that may
 * change any of it invalidates `reviewKey(questionId)`.
 */
export const reviewKey = (questionId: number, ...part: unknown[]) => ['review', questionId, ...part];

export const reviewKeys = {
  question: (questionId: number) => reviewKey(questionId),
  grades: (questionId: number, q: ReviewListParams) => reviewKey(questionId, 'grades', q),
  assignments: (questionId: number, q: AssignmentListParams) => reviewKey(questionId, 'assignments', q),
  disputes: (questionId: number, q: DisputeListParams) => reviewKey(questionId, 'disputes', q),
  certificatesAll: (questionId: number) => reviewKey(questionId, 'certificates'),
  certificates: (questionId: number, q: ReviewListParams) => reviewKey(questionId, 'certificates', q),
  certRun: (questionId: number) => reviewKey(questionId, 'certRun'),
  judges: (questionId: number) => reviewKey(questionId, 'judges'),
  candidates: (questionId: number, keyword: string) => reviewKey(questionId, 'candidates', keyword),
  rule: (questionId: number) => reviewKey(questionId, 'rule'),
  /** A competition's certificate templates (not one question's). */
  templatesAll: ['certTemplates'] as const,
  templates: (competitionId: number, q: PageQuery) => [...reviewKeys.templatesAll, competitionId, q] as const,
};

/** A question's grades and certificates (spec §7 `/api/review/works/grade/*`, `/api/review/certificate/*`). */
export const reviewUrls = {
  grades: (questionId: number) => `/api/review/works/grade/${questionId}`,
  assignments: (questionId: number) => `/api/review/assign/page/${questionId}`,
  disputes: (questionId: number) => `/api/review/works/dispute/page/${questionId}`,
  certificates: (questionId: number) => `/api/review/certificate/export/${questionId}`,
  /** Every judge's scores of every work, as xlsx. */
  reviewExport: (questionId: number) => `/api/review/works/review/export/${questionId}`,
};

export const reviewApi = {
  grades: (questionId: number, q: ReviewListParams) => http.get<Page<Grade>>(reviewUrls.grades(questionId), params(q)),
  assignments: (questionId: number, q: AssignmentListParams) => http.get<Page<Assignment>>(reviewUrls.assignments(questionId), params(q)),
  reopen: (assignmentId: number) => http.post<void>(`/api/review/assign/reopen/${assignmentId}`),
  /** Computes the question's grades from the submitted scores (again, until they are confirmed). */
  calculate: (questionId: number) => http.post<void>(`/api/review/works/calcFinalScore/${questionId}`),
  /** Locks the grades and publishes them to the teams. */
  confirm: (questionId: number) => http.post<void>(`/api/review/works/confirmFinalScore/${questionId}`),
  disputes: (questionId: number, q: DisputeListParams) => http.get<Page<Dispute>>(reviewUrls.disputes(questionId), params(q)),
  answerDispute: (disputeId: number, body: DisputeAnswer) => http.put<void>(`/api/review/works/dispute/${disputeId}`, body),
  certificates: (questionId: number, q: ReviewListParams) => http.get<Page<Certificate>>(reviewUrls.certificates(questionId), params(q)),
  templates: (competitionId: number, q: PageQuery) => http.get<Page<CertificateTemplate>>(`/api/review/certificate/page/${competitionId}`, params(q)),
  useTemplate: (questionId: number, templateId: number) => http.post<void>(`/api/review/certificate/relation/${questionId}`, { templateId }),
  removeTemplate: (templateId: number) => http.delete<void>(`/api/review/certificate/${templateId}`),
  /** The question's judges with their workload. */
  judges: (questionId: number) => http.get<QuestionJudge[]>(`/api/review/judge/${questionId}`),
  candidates: (questionId: number, keyword: string) =>
    http.get<JudgeCandidate[]>(`/api/review/judge/candidates/${questionId}`, { keyword: keyword || undefined }),
  addJudges: (questionId: number, userIds: number[]) => http.post<void>(`/api/review/judge/${questionId}`, { userIds }),
  removeJudge: (questionId: number, userId: number) => http.delete<void>(`/api/review/judge/${questionId}/${userId}`),
  /** Gives the works that lack judges to the question's judges. */
  /** `early` confirms assigning while works can still be replaced (the server asks first). */
  autoAssign: (questionId: number, o: Confirmable<'early'> = {}) =>
    http.post<AssignResult>(`/api/review/works/${questionId}`, undefined, confirmOptions('early', o)),
  reassign: (assignmentId: number, judgeId: number) => http.put<void>(`/api/review/assign/${assignmentId}`, { judgeId }),
  rule: (questionId: number) => http.get<ReviewRule>(`/api/review/rules/${questionId}`),
  saveRule: (questionId: number, body: ReviewRuleBody) => http.put<void>(`/api/review/rules/${questionId}`, body),
};

export type ExpertListParams = PageQuery & { keyword?: string };
export interface ExpertDetails {
  organization: string;
  speciality: string | null;
  title: string | null;
}

/** The pool of expert judges (spec §7 `/api/review/expert*`). */
export const expertKeys = {
  all: ['experts'] as const,
  list: (q: ExpertListParams) => [...expertKeys.all, q] as const,
};

export const expertApi = {
  list: (q: ExpertListParams) => http.get<Page<Expert>>('/api/review/expert/page', params(q)),
  add: (body: ExpertDetails & { username: string }) => http.post<void>('/api/review/expert', body),
  update: (userId: number, body: ExpertDetails) => http.put<void>(`/api/review/expert/${userId}`, body),
  remove: (userId: number) => http.delete<void>(`/api/review/expert/${userId}`),
};
