import type { z } from 'zod';
import type { Deps } from '../context.ts';
import type { Db } from '../db/database.ts';

/**
 * A kind of job, declared once in its module's `jobs.ts`: its id (the `type` column), the zod schema of its payload,
 * its handler and, optionally, what to do when it has used up its attempts. `enqueue` takes the definition, so a
 * payload that does not fit does not compile; the runner checks the stored payload against the schema before running.
 *
 * This file imports no module, so services may import `enqueue` and their own `jobs.ts` without a cycle through the
 * registry (which imports every `jobs.ts`).
 */
export interface JobDefinition<P = unknown> {
  readonly id: string;
  readonly payload: z.ZodType<P>;
  run(deps: Deps, payload: P): Promise<void>;
  /** Called once when the job has used up its attempts (never for a payload that fails the schema). */
  failed?(deps: Deps, payload: P, error: string): Promise<void>;
}

/** Any definition, whatever its payload: what the registry and the runner hold. */
export type AnyJob = JobDefinition<unknown>;

export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return Object.freeze({ ...definition });
}

/** Job definitions by id; refuses two definitions with one id. */
export type JobRegistry = ReadonlyMap<string, AnyJob>;
export function jobRegistry(definitions: readonly AnyJob[]): JobRegistry {
  const byId = new Map<string, AnyJob>();
  for (const job of definitions) {
    if (byId.has(job.id)) throw new Error(`Two job definitions have the id ${job.id}`);
    byId.set(job.id, job);
  }
  return byId;
}

/**
 * Adds a job due at `runAt` (by default at once). The payload is checked against the definition here too, so a
 * payload that slipped past the types is refused where it is made rather than when it runs.
 */
export async function enqueue<P>(db: Db, job: JobDefinition<P>, payload: NoInfer<P>, now: Date, runAt: Date = now, priority = 0): Promise<number> {
  job.payload.parse(payload);
  const { id } = await db
    .insertInto('jobs')
    .values({ type: job.id, payload: JSON.stringify(payload), runAt: runAt.toISOString(), createdAt: now.toISOString(), priority })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Whether a job of this kind is waiting or running (not done, not failed for good). */
export const hasPendingJob = async (db: Db, job: AnyJob) => Boolean(await db.selectFrom('jobs').select('id').where('type', '=', job.id).where('doneAt', 'is', null).executeTakeFirst());

/** Jobs counted ahead of a waiting one at most: past it a place reads “more than”, and a poll's count stays bounded. */
export const QUEUE_COUNT_CAP = 1000;

/**
 * Where a pending job stands in the queue (workers take due jobs by priority, then oldest first, whatever their kind):
 * how many due jobs come before it, counted up to QUEUE_COUNT_CAP (a count of the cap means at least that many).
 * Undefined when it is no longer pending (running or done).
 */
export async function jobsAhead(db: Db, jobId: number, now: Date): Promise<number | undefined> {
  const row = await db.selectFrom('jobs').select(['id', 'priority']).where('id', '=', jobId).where('doneAt', 'is', null).executeTakeFirst();
  if (!row) return undefined;
  // Before it in the workers' order (runner.ts `claim`): due now, with a lower priority, or the same and older. (A job
  // backing off after a failure waits for its time, and is not counted.)
  const ahead = db
    .selectFrom('jobs')
    .select('id')
    .where('doneAt', 'is', null)
    .where('runAt', '<=', now.toISOString())
    .where((eb) => eb.or([eb('priority', '<', row.priority), eb.and([eb('priority', '=', row.priority), eb('id', '<', row.id)])]))
    .limit(QUEUE_COUNT_CAP)
    .as('ahead');
  const { n } = await db
    .selectFrom(ahead)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** How many jobs of this kind finished (done, not failed) between `since` and `until`: the queue's recent pace. */
export async function jobsDoneSince(db: Db, job: AnyJob, since: Date, until: Date): Promise<number> {
  const { n } = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '=', job.id)
    .where('failed', '=', 0)
    .where('doneAt', '>=', since.toISOString())
    .where('doneAt', '<=', until.toISOString())
    .executeTakeFirstOrThrow();
  return Number(n);
}
