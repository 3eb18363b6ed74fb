import type { Deps } from '../context.ts';
import type { Db } from '../db/database.ts';
import { bindJob, enqueue, hasPendingJob, type JobDefinition, type JobType } from './define.ts';

/** A periodic sweep's payload: nothing (what it sweeps is read when it runs). */
type NoPayload = Record<string, never>;

/** A sweep's place in the queue: after every job people wait for (lower numbers are taken first), so none counts it ahead. */
const SWEEP_PRIORITY = 100;

/** Scheduled sweeps by job id, as bound in the registry: what a starting worker makes sure is queued. */
const everyOf = new WeakMap<JobDefinition<NoPayload>, number>();

/**
 * A sweep run every `everyMs` as a job (issue 34: no timer of its own in any process): each run, successful or given up,
 * queues the next. Whichever worker is free takes it, so a sweep runs once per period however many processes run
 * workers; two chains started at once (two workers starting together) merge at their next run, since a run finding a
 * later one queued leaves it be. Each sweep is safe to repeat (a conditional UPDATE).
 */
export function scheduledJob(type: JobType<NoPayload>, everyMs: number, sweep: (deps: Deps) => Promise<unknown>): JobDefinition<NoPayload> {
  const next = async (deps: Deps) => {
    const now = deps.clock.now();
    if (await queuedAfter(deps.db, type, now)) return;
    await enqueue(deps.db, type, {}, now, new Date(now.getTime() + everyMs), SWEEP_PRIORITY);
  };
  const job = bindJob(type, {
    run: async (deps) => {
      await sweep(deps);
      await next(deps);
    },
    failed: next,
  });
  everyOf.set(job, everyMs);
  return job;
}

/** Queues each scheduled sweep of `jobs` that has none waiting or running, due now: a starting worker calls it. */
export async function ensureScheduled(db: Db, jobs: Iterable<JobDefinition<unknown>>, now: Date) {
  for (const job of jobs) {
    if (!everyOf.has(job as JobDefinition<NoPayload>)) continue;
    if (!(await hasPendingJob(db, job))) await enqueue(db, job as JobDefinition<NoPayload>, {}, now, now, SWEEP_PRIORITY);
  }
}

/** Whether a run of this sweep is queued for later than `now` (not the one running now). */
const queuedAfter = async (db: Db, type: JobType, now: Date) =>
  Boolean(
    await db.selectFrom('jobs').select('id').where('type', '=', type.id).where('doneAt', 'is', null).where('runAt', '>', now.toISOString()).executeTakeFirst(),
  );
