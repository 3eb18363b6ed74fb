/**
 * Test (prediction) submissions, scored automatically, and the leaderboards (spec paths under /api/review/test).
 * What other modules may use: the boards' ranking and its direction, which grades read for the test score.
 */
export { boardHigherIsBetter, rankTeams, startRescoring } from './service.ts';
