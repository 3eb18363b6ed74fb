import { z } from 'zod';
import { jobType } from '../../jobs/define.ts';

/** Writes a question's certificates; `origin` is the public address their verification QR codes point to. */
export const generateJob = jobType('certificate.generate', z.object({ questionId: z.number().int().positive(), origin: z.string().min(1) }));
