import { z } from 'zod';
import { jobType } from '../../jobs/define.ts';

/**
 * Scores one test submission (in the program lane when its question is scored by an own program); after the last failed
 * attempt the submission fails and its team is told.
 */
export const scoreJob = jobType('test.score', z.object({ submissionId: z.number().int().positive() }));

/**
 * Scores again the submissions of a question whose metric, public share or answer file changed (`version` is the
 * question's scoring version after the change), a batch per run; a later change supersedes it.
 */
export const rescoreJob = jobType('test.rescore', z.object({ questionId: z.number().int().positive(), version: z.number().int().positive() }));

/**
 * Stores the failure of a file sent now once the longest its program's runs could take has passed since its scoring
 * began (issue 32: the time a failure shows tells nothing of which rows are public); its attempt is given back then.
 */
export const releaseJob = jobType(
  'test.release',
  z.object({ submissionId: z.number().int().positive(), version: z.number().int().nonnegative(), reason: z.string(), log: z.string().nullable() }),
);
