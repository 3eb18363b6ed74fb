/**
 * Award certificates: templates, the generating run of each question, the written PDFs and the public check (spec
 * paths under /api/review/certificate).
 * What other modules may use: the generating job (for the job registry) and the short code printed beside a
 * certificate's number.
 */
export { generateJob } from './jobs.ts';
export { formatShortCode, shortCode } from './service.ts';
export { generate, generationGaveUp } from './service.ts';
