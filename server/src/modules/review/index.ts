/**
 * Review: each question's rule, the expert pool, the question's judges and the assignment of works to them.
 * What other modules may use: the question as review names it, its rule (read, or under its row lock), the eligibility
 * of a judge for a work, each team's people (for grades exports and certificates), and what a new works version does to
 * the scores already submitted for an earlier one, and an assignment's row (judging asks the policy whose it is).
 */
export {
  assertEligible,
  assertNotConfirmed,
  loadRule,
  lockGradeRule,
  lockRule,
  managedQuestion,
  questionOf,
  teamPeople,
  tellReplaced,
  versionReplaced,
  withdrawFromReview,
  type ReplacedScores,
  type TeamPeople,
} from './service.ts';
export { findAssignment } from './repo.ts';
