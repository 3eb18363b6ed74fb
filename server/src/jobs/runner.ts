import { randomBytes } from 'node:crypto';
import type { Deps } from '../context.ts';
import type { Db } from '../db/database.ts';

/**
 * The job table runner (ARCHITECTURE §7). A job is claimed by a conditional UPDATE that sets a lease, so two workers
 * never run the same job; a worker that dies leaves its lease to expire and the job is claimed again. Failures retry
 * with backoff; after the last attempt the job is marked failed and its handler's `failed` hook runs.
 */
export interface JobHandler {
  run(deps: Deps, payload: unknown): Promise<void>;
  /** Called once when the job has used up its attempts. */
  failed?(deps: Deps, payload: unknown, error: string): Promise<void>;
}

const handlers = new Map<string, JobHandler>();
export function registerJob(type: string, handler: JobHandler) {
  handlers.set(type, handler);
}

export const MAX_ATTEMPTS = 3;
const LEASE_MS = 5 * 60_000;
const backoffMs = (attempts: number) => 5_000 * 2 ** (attempts - 1);

/** Adds a job due at `runAt` (by default at once). */
export async function enqueue(db: Db, type: string, payload: unknown, now: Date, runAt: Date = now) {
  const { id } = await db
    .insertInto('jobs')
    .values({ type, payload: JSON.stringify(payload), runAt: runAt.toISOString(), createdAt: now.toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Claims the oldest due job for `worker`, or nothing; safe against any number of competing workers. */
export async function claim(db: Db, worker: string, now: Date) {
  const t = now.toISOString();
  for (let tries = 0; tries < 5; tries++) {
    const due = await db
      .selectFrom('jobs')
      .select('id')
      .where('doneAt', 'is', null)
      .where('runAt', '<=', t)
      .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<', t)]))
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!due) return null;
    const job = await db
      .updateTable('jobs')
      .set((eb) => ({ lockedBy: worker, lockedUntil: new Date(now.getTime() + LEASE_MS).toISOString(), attempts: eb('attempts', '+', 1) }))
      .where('id', '=', due.id)
      .where('doneAt', 'is', null)
      .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<', t)]))
      .returningAll()
      .executeTakeFirst();
    if (job) return job;
  }
  return null;
}

/**
 * Runs due jobs one after another until none is left; returns how many ran. While a job runs its lease is renewed
 * every `renewMs`, so a job longer than the lease is not taken for abandoned and run a second time elsewhere.
 */
export async function runDueJobs(deps: Deps, worker = `w-${randomBytes(4).toString('hex')}`, { renewMs = LEASE_MS / 3 } = {}): Promise<number> {
  let ran = 0;
  for (;;) {
    const now = deps.clock.now();
    const job = await claim(deps.db, worker, now);
    if (!job) return ran;
    ran++;
    const handler = handlers.get(job.type);
    const payload = JSON.parse(job.payload) as unknown;
    const renew = setInterval(() => {
      deps.db
        .updateTable('jobs')
        .set({ lockedUntil: new Date(deps.clock.now().getTime() + LEASE_MS).toISOString() })
        .where('id', '=', job.id)
        .where('lockedBy', '=', worker)
        .where('doneAt', 'is', null)
        .execute()
        .catch((err: unknown) => deps.log.warn({ err, jobId: job.id }, 'renewing a job lease failed'));
    }, renewMs);
    renew.unref();
    try {
      if (!handler) throw new Error(`no handler for job type ${job.type}`);
      await handler.run(deps, payload);
      clearInterval(renew);
      await deps.db.updateTable('jobs').set({ doneAt: deps.clock.now().toISOString(), lockedUntil: null, lastError: null }).where('id', '=', job.id).execute();
    } catch (err) {
      clearInterval(renew);
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      deps.log.error({ err, jobId: job.id, type: job.type, attempt: job.attempts }, 'job failed');
      const last = job.attempts >= MAX_ATTEMPTS;
      const later = new Date(deps.clock.now().getTime() + backoffMs(job.attempts)).toISOString();
      await deps.db
        .updateTable('jobs')
        .set(last ? { doneAt: deps.clock.now().toISOString(), failed: 1, lockedUntil: null, lastError: message } : { runAt: later, lockedUntil: null, lastError: message })
        .where('id', '=', job.id)
        .execute();
      if (last) await handler?.failed?.(deps, payload, message);
    }
  }
}

/** Polls for due jobs in this process; the returned function stops it. */
export function startWorker(deps: Deps, intervalMs = 1000): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    runDueJobs(deps)
      .catch((err) => deps.log.error({ err }, 'job runner failed'))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
