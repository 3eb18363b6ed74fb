import { z } from 'zod';
import { jobType } from '../../jobs/define.ts';

/** Publishes a scheduled notice when its time comes; a notice deleted, published or moved meanwhile is left be. */
export const publishJob = jobType('notice.publish', z.object({ noticeId: z.number().int().positive() }));

/** Recipients per run of the delivery job. */
export const DELIVERY_BATCH = 2500;

/**
 * Delivers a published notice a batch of recipients per run (keyset on user id), enqueueing itself until done; the
 * notice keeps the progress.
 */
export const deliverJob = jobType('notice.deliver', z.object({ noticeId: z.number().int().positive() }));
