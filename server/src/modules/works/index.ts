/**
 * Works: the teams' submitted files, uploaded through tus and kept as numbered versions (spec paths under /api/review/works).
 * What other modules may use: the sweep that drops uploads left unfinished, and how long an upload may stay idle.
 * Other modules read the works table in their own repos (review's assignments, grades, notices' targets); nothing
 * here needs to be called for that.
 */
export { UPLOAD_IDLE_EXPIRY_MS, expireUploads } from './service.ts';
