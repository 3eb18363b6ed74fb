/**
 * Questions: a competition's problems, their files and audit. What other modules may use: the questions a readiness
 * check reads, and marking them reviewed when the competition is approved.
 */
export { markReviewed, readinessQuestions } from './repo.ts';
