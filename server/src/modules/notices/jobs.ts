import { z } from 'zod';
import { defineJob } from '../../jobs/define.ts';
import { publishScheduled } from './service.ts';

/** Publishes a scheduled notice when its time comes; a notice deleted, published or moved meanwhile is left be. */
export const publishJob = defineJob({
  id: 'notice.publish',
  payload: z.object({ noticeId: z.number().int().positive() }),
  run: (deps, { noticeId }) => publishScheduled(deps, noticeId),
});
