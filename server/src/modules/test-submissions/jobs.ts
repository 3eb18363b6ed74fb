import { z } from 'zod';
import { defineJob } from '../../jobs/define.ts';
import { scoreQueued, scoringGaveUp } from './service.ts';

/** Scores one test submission; after the last failed attempt the submission fails and its team is told. */
export const scoreJob = defineJob({
  id: 'test.score',
  payload: z.object({ submissionId: z.number().int().positive() }),
  run: (deps, { submissionId }) => scoreQueued(deps, submissionId),
  failed: (deps, { submissionId }) => scoringGaveUp(deps, submissionId),
});
