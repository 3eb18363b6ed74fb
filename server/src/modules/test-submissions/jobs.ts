import { z } from 'zod';
import { defineJob } from '../../jobs/define.ts';
import { rescoreSome, rescoringGaveUp, scoreQueued, scoringGaveUp } from './service.ts';

/** Scores one test submission; after the last failed attempt the submission fails and its team is told. */
export const scoreJob = defineJob({
  id: 'test.score',
  payload: z.object({ submissionId: z.number().int().positive() }),
  run: (deps, { submissionId }) => scoreQueued(deps, submissionId),
  failed: (deps, { submissionId }) => scoringGaveUp(deps, submissionId),
});

/**
 * Scores again the submissions of a question whose metric, public share or answer file changed (`version` is the
 * question's scoring version after the change), a batch per run; a later change supersedes it.
 */
export const rescoreJob = defineJob({
  id: 'test.rescore',
  payload: z.object({ questionId: z.number().int().positive(), version: z.number().int().positive() }),
  run: (deps, { questionId, version }) => rescoreSome(deps, questionId, version),
  failed: (deps, { questionId, version }) => rescoringGaveUp(deps, questionId, version),
});
