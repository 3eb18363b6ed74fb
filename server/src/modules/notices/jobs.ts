import { z } from 'zod';
import { defineJob } from '../../jobs/define.ts';
import { deliverNext, publishScheduled } from './service.ts';

/** Publishes a scheduled notice when its time comes; a notice deleted, published or moved meanwhile is left be. */
export const publishJob = defineJob({
  id: 'notice.publish',
  payload: z.object({ noticeId: z.number().int().positive() }),
  run: (deps, { noticeId }) => publishScheduled(deps, noticeId),
});

/** Recipients per run of the delivery job. */
export const DELIVERY_BATCH = 2500;

/**
 * Delivers a published notice in batches of `batch` recipients (keyset on user id), one batch per run, enqueueing
 * itself until done; the notice keeps the progress. Tests build it with a smaller batch and pass it to the runner.
 */
export const deliveryJob = (batch = DELIVERY_BATCH) =>
  defineJob({
    id: 'notice.deliver',
    payload: z.object({ noticeId: z.number().int().positive() }),
    run: (deps, { noticeId }) => deliverNext(deps, noticeId, batch),
  });

export const deliverJob = deliveryJob();
