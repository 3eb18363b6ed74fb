import type { Certificate, CertificateCheck, CertificateRun, CertificateTemplate, Grade, Page, TemplateBody } from '@contest/shared';
import { http } from '../common/http.ts';
import { reviewKey, reviewUrls } from './review.ts';

/**
 * Certificate templates and runs as the back office manages them (spec §7 `/api/review/certificate/*`); the template
 * list and a question's certificates are in review.ts.
 */
export const certificateUrls = {
  /** The upload action of a template's background image. */
  background: '/api/review/certificate/cert/imgUrl',
  download: (id: number) => `/api/review/certificate/cert/certificate/download/${id}`,
};

export const certificateKeys = {
  templatesAll: ['certTemplate'] as const,
  template: (id: number) => [...certificateKeys.templatesAll, id],
  run: (questionId: number) => reviewKey(questionId, 'certRun'),
  /** The first written certificate of a question and its best-ranked team, for a template's preview. */
  previewHolder: (questionId: number) => ['certPreviewHolder', questionId],
  previewTeam: (questionId: number) => ['certPreviewTeam', questionId],
  /** The participant site's: the caller's certificates, a team's, and a public check of one. */
  mine: ['certificates', 'mine'] as const,
  team: (teamId: number | undefined) => ['certificates', 'team', teamId] as const,
  check: (certNo: string, code: string) => ['certificateCheck', certNo, code] as const,
};

export const certificateApi = {
  template: (id: number) => http.get<CertificateTemplate>(`/api/review/certificate/${id}`),
  createTemplate: (competitionId: number, body: TemplateBody) => http.post<void>(`/api/review/certificate/${competitionId}`, body),
  updateTemplate: (id: number, body: TemplateBody) => http.put<void>(`/api/review/certificate/${id}`, body),
  /** Which template the question uses and how far generating its certificates is. */
  run: (questionId: number) => http.get<CertificateRun>(`/api/review/certificate/cert/push/${questionId}`),
  generate: (questionId: number) => http.post<void>(`/api/review/certificate/cert/push/${questionId}`),
  /** Silent: without them the preview shows sample values. */
  previewHolder: (questionId: number) => http.get<Page<Certificate>>(reviewUrls.certificates(questionId), { page: 1, limit: 1 }, { silent: true }),
  previewTeam: (questionId: number) => http.get<Page<Grade>>(reviewUrls.grades(questionId), { page: 1, limit: 1 }, { silent: true }),
  /** The caller's certificates across competitions. */
  mine: () => http.get<Certificate[]>('/api/review/certificate/cert/list'),
  /** The certificates of a team's members and teachers. */
  team: (teamId: number) => http.get<Certificate[]>(`/api/review/certificate/person/${teamId}`),
  /** Public: a certificate by its number and verification code. Silent: the page says why there is none. */
  verify: (certNo: string, code: string) =>
    http.get<CertificateCheck>(`/api/review/certificate/public/verify/${encodeURIComponent(certNo)}`, { code }, { silent: true }),
};
