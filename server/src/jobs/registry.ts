import { generateJob } from '../modules/certificates/jobs.ts';
import { buildJob } from '../modules/desktop-releases/jobs.ts';
import { deliverJob, publishJob } from '../modules/notices/jobs.ts';
import { releaseJob, rescoreJob, scoreJob } from '../modules/test-submissions/jobs.ts';
import { jobRegistry, type AnyJob } from './define.ts';

/**
 * Every kind of job the platform runs, listed here and nowhere else: a worker runs exactly these (a job of a type not
 * listed fails after its attempts). Each is defined in its module's jobs.ts; importing a module registers nothing.
 */
export const JOB_DEFINITIONS: readonly AnyJob[] = [scoreJob, rescoreJob, releaseJob, generateJob, publishJob, deliverJob, buildJob];

export const JOBS = jobRegistry(JOB_DEFINITIONS);
