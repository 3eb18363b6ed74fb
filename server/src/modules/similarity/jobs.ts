import { z } from 'zod';
import { jobType } from '../../jobs/define.ts';

/** One step of a question's 查重 run: reads a batch of works, or compares them all once every work is read. */
export const checkJob = jobType('similarity.check', z.object({ questionId: z.number().int().positive() }));

/** The sweep that starts the run of each question whose works deadline has passed. */
export const sweepJob = jobType('similarity.sweep', z.object({}).strict());
export const SWEEP_EVERY_MS = 60_000;
