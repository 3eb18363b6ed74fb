import { z } from 'zod';
import { jobType } from '../../jobs/define.ts';

/** Builds the desktop client packages for `platformUrl` (see build.ts). */
export const buildJob = jobType('client.build', z.object({ platformUrl: z.string().min(1), requestedAt: z.string().min(1) }));
