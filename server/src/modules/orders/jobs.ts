import { z } from 'zod';
import { jobType } from '../../jobs/define.ts';

/** Closes the unpaid orders past their time (a scheduled sweep, every minute: compose/jobs.ts). */
export const closeExpiredJob = jobType('order.closeExpired', z.object({}).strict());
