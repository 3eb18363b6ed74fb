import type { z } from 'zod';
import type { Deps } from '../context.ts';
import type { Db } from '../db/database.ts';

/**
 * The lanes workers take jobs from (issue 32): organisers' programs in a lane of their own, so that no program, however
 * slow, holds back any other job (built-in scoring above all); everything else in the general lane.
 */
export type Lane = 'general' | 'program';

/** Where a job is queued: the program lane with the organisation it runs for (0 for none), or the general lane. */
export type JobPlace = { lane: 'program'; tenant: number } | { lane?: 'general' };

/**
 * A kind of job as its module declares it in `jobs.ts`: its id (the `type` column) and the zod schema of its payload.
 * Services enqueue it by this declaration alone; what runs it is bound to it in one registry (compose/jobs.ts), so a
 * module's `jobs.ts` never imports its service and no service imports what runs its jobs.
 */
export interface JobType<P = unknown> {
  readonly id: string;
  readonly payload: z.ZodType<P>;
}

export function jobType<P>(id: string, payload: z.ZodType<P>): JobType<P> {
  return Object.freeze({ id, payload });
}

/** What runs a kind of job, and optionally what to do when it has used up its attempts. */
export interface JobHandler<P> {
  /** `run.lane` is the lane the job was taken from. */
  run(deps: Deps, payload: P, run: { lane: Lane }): Promise<void>;
  /** Called once when the job has used up its attempts (never for a payload that fails the schema). */
  failed?(deps: Deps, payload: P, error: string): Promise<void>;
}

/**
 * A kind of job bound to its handler: what the registry and the runner hold. `enqueue` takes the declaration, so a
 * payload that does not fit does not compile; the runner checks the stored payload against the schema before running.
 */
export interface JobDefinition<P = unknown> extends JobType<P>, JobHandler<P> {}

/** Any definition, whatever its payload: what the registry and the runner hold. */
export type AnyJob = JobDefinition<unknown>;

export function bindJob<P>(type: JobType<P>, handler: JobHandler<P>): JobDefinition<P> {
  return Object.freeze({ id: type.id, payload: type.payload, run: handler.run, ...(handler.failed && { failed: handler.failed }) });
}

/** A declaration and its handler in one, for jobs that only tests run. */
export const defineJob = <P>(definition: JobDefinition<P>): JobDefinition<P> => bindJob(definition, definition);

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
 * Adds a job due at `runAt` (by default at once), in the lane `place` names. The payload is checked against the
 * definition here too, so a payload that slipped past the types is refused where it is made rather than when it runs.
 */
export async function enqueue<P>(
  db: Db,
  job: JobType<P>,
  payload: NoInfer<P>,
  now: Date,
  runAt: Date = now,
  priority = 0,
  place: JobPlace = {},
): Promise<number> {
  job.payload.parse(payload);
  const { id } = await db
    .insertInto('jobs')
    .values({
      type: job.id,
      payload: JSON.stringify(payload),
      runAt: runAt.toISOString(),
      createdAt: now.toISOString(),
      priority,
      lane: place.lane === 'program' ? 'program' : null,
      tenant: place.lane === 'program' ? place.tenant : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The idle workers of this process, woken when a job has been queued here (startWorker). */
const queuedListeners = new Set<() => void>();
export function onJobsQueued(listener: () => void) {
  queuedListeners.add(listener);
  return () => void queuedListeners.delete(listener);
}
/**
 * Tells this process's workers that a job is waiting (call it once the transaction that queued it has committed), so
 * that they take it now rather than at their next poll. Workers of other processes poll (every second).
 */
export function jobsQueued() {
  for (const listener of queuedListeners) listener();
}

/** Whether a job of this kind is waiting or running (not done, not failed for good). */
export const hasPendingJob = async (db: Db, job: JobType) =>
  Boolean(await db.selectFrom('jobs').select('id').where('type', '=', job.id).where('doneAt', 'is', null).executeTakeFirst());

/** Jobs counted ahead of a waiting one at most: past it a place reads “more than”, and a poll's count stays bounded. */
export const QUEUE_COUNT_CAP = 1000;

/**
 * Where a pending job stands in its lane's queue: how many due jobs come before it, counted up to QUEUE_COUNT_CAP (a
 * count of the cap means at least that many). In the general lane that is the workers' order (priority, then oldest
 * first). The program lane serves organisations in turn, so before the job come its own organisation's jobs ahead of it
 * (k) and, of every other organisation waiting, as many as k + 1 turns give it. Undefined when it is no longer pending
 * (running or done).
 */
export async function jobsAhead(db: Db, jobId: number, now: Date): Promise<number | undefined> {
  const row = await db.selectFrom('jobs').select(['id', 'priority', 'lane', 'tenant']).where('id', '=', jobId).where('doneAt', 'is', null).executeTakeFirst();
  if (!row) return undefined;
  const t = now.toISOString();
  // Before it in its lane's order (runner.ts): due now, with a lower priority, or the same and older. (A job backing off
  // after a failure waits for its time, and is not counted.)
  let ahead = db
    .selectFrom('jobs')
    .select('id')
    .where('doneAt', 'is', null)
    .where('runAt', '<=', t)
    .where((eb) => eb.or([eb('priority', '<', row.priority), eb.and([eb('priority', '=', row.priority), eb('id', '<', row.id)])]));
  ahead = row.lane === 'program' ? ahead.where('lane', '=', 'program').where('tenant', '=', row.tenant) : ahead.where('lane', 'is', null);
  const { n } = await db
    .selectFrom(ahead.limit(QUEUE_COUNT_CAP).as('ahead'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const own = Number(n);
  if (row.lane !== 'program') return own;
  const others = await db
    .selectFrom('jobs')
    .select(['tenant', (eb) => eb.fn.countAll<number>().as('n')])
    .where('lane', '=', 'program')
    .where('doneAt', 'is', null)
    .where('runAt', '<=', t)
    .where('tenant', '<>', row.tenant)
    .groupBy('tenant')
    .execute();
  return Math.min(
    QUEUE_COUNT_CAP,
    others.reduce((sum, o) => sum + Math.min(Number(o.n), own + 1), own),
  );
}

/**
 * The pace of a lane for jobs of this kind: how long one took on average among those finished (done, not failed)
 * between `since` and `until` (null when none did), and how many run at once now (at least one: the workers taking
 * them). A waiting job waits about (jobs before it + 1) / workers such runs.
 */
export async function lanePace(db: Db, job: JobType, since: Date, until: Date, lane: Lane = 'general'): Promise<{ seconds: number | null; workers: number }> {
  const laneIs = (q: typeof base) => q.where('lane', lane === 'program' ? '=' : 'is', lane === 'program' ? 'program' : null);
  const base = db.selectFrom('jobs').where('type', '=', job.id);
  const done = await laneIs(base)
    .select((eb) => eb.fn.avg<number>('runMs').as('ms'))
    .where('failed', '=', 0)
    .where('runMs', 'is not', null)
    .where('doneAt', '>=', since.toISOString())
    .where('doneAt', '<=', until.toISOString())
    .executeTakeFirstOrThrow();
  const running = await laneIs(base)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('doneAt', 'is', null)
    .where('lockedUntil', '>=', until.toISOString())
    .executeTakeFirstOrThrow();
  return { seconds: done.ms === null ? null : Number(done.ms) / 1000, workers: Math.max(1, Number(running.n)) };
}
