import { z } from 'zod';
import { jobType } from '../../jobs/define.ts';

/** Delivers one message of the outbox (queued in the transaction of the event that causes it). */
export const sendJob = jobType('outbox.send', z.object({ messageId: z.number().int().positive() }).strict());
