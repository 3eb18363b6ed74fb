import { z } from 'zod';
import { jobType } from '../../jobs/define.ts';

/** The sweep that reminds teams of submission deadlines 24 hours and 1 hour before. */
export const remindJob = jobType('reminders.sweep', z.object({}).strict());

/** How often the sweep runs: a reminder goes out at most this late. */
export const REMIND_EVERY_MS = 5 * 60_000;
