import { z } from 'zod';
import { jobType } from '../../jobs/define.ts';

/** Delivers one message of the outbox (queued in the transaction of the event that causes it). */
export const sendJob = jobType('outbox.send', z.object({ messageId: z.number().int().positive() }).strict());

/** Delivers the messages to many (a notice's, reminders), an organisation's turn at a time, from after `after`. */
export const drainJob = jobType('outbox.drain', z.object({ after: z.number().int().optional() }).strict());

/** The drain's sweep: a message a drain left (it ended as others were queued) waits at most this long. */
export const drainSweepJob = jobType('outbox.drainSweep', z.object({}).strict());
