/**
 * Test (prediction) submissions, scored automatically, and the leaderboards (spec paths under /api/review/test).
 * What other modules may use: the boards' ranking and its direction, which grades read for the test score, and the
 * private board's publication, which the confirmation of grades does; the public board as anyone reads it (embeds).
 */
export { boardHigherIsBetter, leaderboard, publishPrivateBoard, rankTeams, startRescoring } from './service.ts';
export { releaseJob, rescoreJob, scoreJob } from './jobs.ts';
export { releaseHeld, rescoreSome, rescoringGaveUp, scoreQueued, scoringGaveUp } from './service.ts';
