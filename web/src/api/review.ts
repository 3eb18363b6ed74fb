import type { Assignment, AssignmentPageQuery, Certificate, CertificateTemplate, Dispute, DisputePageQuery, Grade, Page, PageQuery } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type ReviewListParams = PageQuery & { keyword?: string };
export type AssignmentListParams = ListParams<AssignmentPageQuery>;
export type DisputeListParams = ListParams<DisputePageQuery>;
/** A dispute's answer, and the judge who is to review the work again (null: none). */
export interface DisputeAnswer {
  answer: string;
  rereviewJudgeId: number | null;
}

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
};
