/**
 * 查重 (issue 37): the text of written works, their similarity within a question and with earlier editions, names
 * found under blind review, and the organiser's decisions. What other modules may use: the jobs a worker runs (a run's
 * step, the sweep after deadlines). Review reads the marks in its own repo and judges them with the shared `isHeld`.
 */
export { checkJob, sweepJob, SWEEP_EVERY_MS } from './jobs.ts';
export { check, runGaveUp, sweep } from './service.ts';
