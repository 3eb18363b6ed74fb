/**
 * Test (prediction) submissions, scored automatically, and the leaderboards (spec paths under /api/review/test).
 * What other modules may use: the boards' ranking, which grades read for the test score.
 */
export { rankTeams, startRescoring } from './service.ts';
