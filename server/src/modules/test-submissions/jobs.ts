import { z } from 'zod';
import { defineJob } from '../../jobs/define.ts';
import { releaseHeld, rescoreSome, rescoringGaveUp, scoreQueued, scoringGaveUp } from './service.ts';

/**
 * Scores one test submission (in the program lane when its question is scored by an own program); after the last failed
 * attempt the submission fails and its team is told.
 */
export const scoreJob = defineJob({
  id: 'test.score',
  payload: z.object({ submissionId: z.number().int().positive() }),
  run: (deps, { submissionId }, { lane }) => scoreQueued(deps, submissionId, lane),
  failed: (deps, { submissionId }) => scoringGaveUp(deps, submissionId),
});

/**
 * Scores again the submissions of a question whose metric, public share or answer file changed (`version` is the
 * question's scoring version after the change), a batch per run; a later change supersedes it.
 */
export const rescoreJob = defineJob({
  id: 'test.rescore',
  payload: z.object({ questionId: z.number().int().positive(), version: z.number().int().positive() }),
  run: (deps, { questionId, version }, { lane }) => rescoreSome(deps, questionId, version, lane),
  failed: (deps, { questionId, version }) => rescoringGaveUp(deps, questionId, version),
});

/**
 * Stores the failure of a file sent now once the longest its program's runs could take has passed since its scoring
 * began (issue 32: the time a failure shows tells nothing of which rows are public); its attempt is given back then.
 */
export const releaseJob = defineJob({
  id: 'test.release',
  payload: z.object({ submissionId: z.number().int().positive(), version: z.number().int().nonnegative(), reason: z.string(), log: z.string().nullable() }),
  run: (deps, payload) => releaseHeld(deps, payload),
  failed: (deps, { submissionId }) => scoringGaveUp(deps, submissionId),
});
