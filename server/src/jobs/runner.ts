import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Deps } from '../context.ts';
import type { Db } from '../db/database.ts';
import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../db/schema.ts';
import { onJobsQueued, type JobRegistry, type Lane } from './define.ts';
import { ensureScheduled } from './schedule.ts';

/**
 * The job table runner (ARCHITECTURE §7). A job is claimed by a conditional UPDATE that sets a lease, so two workers
 * never run the same job; a worker that dies leaves its lease to expire and the job is claimed again. Failures retry
 * with backoff; after the last attempt the job is marked failed and its definition's `failed` hook runs. A stored
 * payload that does not fit its definition's schema fails the job at once, without running it: no attempt could
 * succeed. Jobs are declared with `jobType` in their module's jobs.ts and bound to their handlers in compose/jobs.ts; `enqueue` is in define.ts.
 */
export const MAX_ATTEMPTS = 3;
/**
 * A job whose worker died is claimed again a minute after the last renewal (renewed every third of it while it runs);
 * JOB_LEASE_SECONDS changes it.
 */
const LEASE_MS = 60_000;
const backoffMs = (attempts: number) => 5_000 * 2 ** (attempts - 1);

export interface RunOptions {
  /** How often a running job's lease is renewed. */
  renewMs?: number;
  /** The lane to take jobs from; every lane when none is given (tests drain the whole queue). */
  lane?: Lane;
  /** The job definitions to run (tests add their own); the registry's by default. */
  jobs?: JobRegistry;
  /** Asked before each claim: once true, the runner takes no more jobs and returns. */
  stopping?: () => boolean;
}

/** The stored payload as its schema reads it, or why it cannot be run, in one line for the job row and the log. */
function readPayload(text: string, schema: z.ZodType): { payload: unknown } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { problem: 'payload is not JSON' };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { payload: parsed.data };
  const issues = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(payload)'}: ${i.message}`);
  return { problem: `payload does not match the job's schema (${issues.join('; ')})` };
}

const unlocked = (t: string) => (eb: ExpressionBuilder<DB, 'jobs'>) => eb.or([eb('jobs.lockedUntil', 'is', null), eb('jobs.lockedUntil', '<', t)]);

/**
 * The next due job of `lane` (of any lane when none is given, as tests drain the queue). The general lane is taken by
 * priority, then oldest first. The program lane serves organisations in turn: the one with the fewest programs
 * running goes first (an organisation runs a second program at once only when no other has one waiting), then the one
 * served least recently, and within an organisation by priority, then oldest first.
 */
async function nextDue(db: Db, t: string, lane: Lane | undefined) {
  if (lane !== 'program') {
    let q = db.selectFrom('jobs').select('id').where('doneAt', 'is', null).where('runAt', '<=', t).where(unlocked(t));
    if (lane === 'general') q = q.where('lane', 'is', null);
    // By priority (a team's later submissions wait behind the other teams' firsts: 0019), then oldest first.
    return q.orderBy('priority').orderBy('id').limit(1).executeTakeFirst();
  }
  const running = db
    .selectFrom('jobs')
    .select(['tenant', (eb) => eb.fn.countAll<number>().as('n')])
    .where('lane', '=', 'program')
    .where('doneAt', 'is', null)
    .where('lockedUntil', '>=', t)
    .groupBy('tenant')
    .as('r');
  return db
    .selectFrom('jobs')
    .leftJoin(running, 'r.tenant', 'jobs.tenant')
    .leftJoin('jobTurns as turn', 'turn.tenant', 'jobs.tenant')
    .select('jobs.id')
    .where('jobs.lane', '=', 'program')
    .where('jobs.doneAt', 'is', null)
    .where('jobs.runAt', '<=', t)
    .where(unlocked(t))
    .orderBy(sql`coalesce(r.n, 0)`)
    .orderBy(sql`coalesce(turn.last_claim_at, '')`)
    .orderBy('jobs.priority')
    .orderBy('jobs.id')
    .limit(1)
    .executeTakeFirst();
}

/** Claims the next due job of `lane` for `worker` (see nextDue), or nothing; safe against any number of competing workers. */
export async function claim(db: Db, worker: string, now: Date, leaseMs = LEASE_MS, lane?: Lane) {
  const t = now.toISOString();
  for (let tries = 0; tries < 5; tries++) {
    const due = await nextDue(db, t, lane);
    if (!due) return null;
    const job = await db
      .updateTable('jobs')
      .set((eb) => ({ lockedBy: worker, lockedUntil: new Date(now.getTime() + leaseMs).toISOString(), attempts: eb('attempts', '+', 1) }))
      .where('id', '=', due.id)
      .where('doneAt', 'is', null)
      .where(unlocked(t))
      .returningAll()
      .executeTakeFirst();
    if (!job) continue;
    if (job.lane === 'program' && job.tenant !== null) {
      await db
        .insertInto('jobTurns')
        .values({ tenant: job.tenant, lastClaimAt: t })
        .onConflict((oc) => oc.column('tenant').doUpdateSet({ lastClaimAt: t }))
        .execute();
    }
    return job;
  }
  return null;
}

/**
 * Runs due jobs one after another until none is left; returns how many ran. While a job runs its lease is renewed
 * every `renewMs`, so a job longer than the lease is not taken for abandoned and run a second time elsewhere.
 */
export async function runDueJobs(
  deps: Deps,
  worker = `w-${randomBytes(4).toString('hex')}`,
  { renewMs, jobs = deps.jobs, stopping, lane }: RunOptions = {},
): Promise<number> {
  const leaseMs = deps.config.jobLeaseMs;
  const renewEvery = renewMs ?? leaseMs / 3;
  let ran = 0;
  for (;;) {
    if (stopping?.()) return ran;
    const now = deps.clock.now();
    const job = await claim(deps.db, worker, now, leaseMs, lane);
    if (!job) return ran;
    ran++;
    const definition = jobs.get(job.type);
    const read = definition ? readPayload(job.payload, definition.payload) : { payload: undefined };
    if ('problem' in read) {
      // No attempt could run it: failed at once, and no `failed` hook, which would get the same payload.
      deps.log.error({ jobId: job.id, type: job.type, problem: read.problem }, 'job failed without running: its stored payload is malformed');
      await deps.db
        .updateTable('jobs')
        .set({ doneAt: deps.clock.now().toISOString(), failed: 1, lockedUntil: null, lastError: read.problem.slice(0, 1000) })
        .where('id', '=', job.id)
        .execute();
      continue;
    }
    const { payload } = read;
    const renew = setInterval(() => {
      deps.db
        .updateTable('jobs')
        .set({ lockedUntil: new Date(deps.clock.now().getTime() + leaseMs).toISOString() })
        .where('id', '=', job.id)
        .where('lockedBy', '=', worker)
        .where('doneAt', 'is', null)
        .execute()
        .catch((err: unknown) => deps.log.warn({ err, jobId: job.id }, 'renewing a job lease failed'));
    }, renewEvery);
    renew.unref();
    const began = performance.now();
    try {
      if (!definition) throw new Error(`no definition for job type ${job.type}`);
      await definition.run(deps, payload, { lane: job.lane === 'program' ? 'program' : 'general' });
      clearInterval(renew);
      const runMs = Math.round(performance.now() - began);
      await deps.db
        .updateTable('jobs')
        .set({ doneAt: deps.clock.now().toISOString(), lockedUntil: null, lastError: null, runMs })
        .where('id', '=', job.id)
        .execute();
    } catch (err) {
      clearInterval(renew);
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      deps.log.error({ err, jobId: job.id, type: job.type, attempt: job.attempts }, 'job failed');
      const last = job.attempts >= MAX_ATTEMPTS;
      const later = new Date(deps.clock.now().getTime() + backoffMs(job.attempts)).toISOString();
      await deps.db
        .updateTable('jobs')
        .set(
          last
            ? { doneAt: deps.clock.now().toISOString(), failed: 1, lockedUntil: null, lastError: message }
            : { runAt: later, lockedUntil: null, lastError: message },
        )
        .where('id', '=', job.id)
        .execute();
      if (last && definition?.failed) {
        await definition
          .failed(deps, payload, message)
          .catch((hookErr: unknown) => deps.log.error({ err: hookErr, jobId: job.id, type: job.type }, 'the failed hook of a job failed'));
      }
    }
  }
}

/**
 * Polls for due jobs in this process: `concurrency` slots of the general lane (SCORING_CONCURRENCY) and
 * `programConcurrency` of the program lane (PROGRAM_CONCURRENCY), each claiming and running its lane's jobs one after
 * another, so a long scoring holds one slot and the others go on. A job queued by this process (`jobsQueued`) wakes the
 * idle slots at once instead of at the next poll. The returned function stops it: no job is claimed after it is called,
 * and the promise it returns settles when the jobs running then have finished.
 */
export function startWorker(
  deps: Deps,
  {
    intervalMs = 1000,
    jobs = deps.jobs,
    concurrency = deps.config.scoringConcurrency,
    programConcurrency = deps.config.programConcurrency,
  }: { intervalMs?: number; jobs?: JobRegistry; concurrency?: number; programConcurrency?: number } = {},
): () => Promise<void> {
  let stopped = false;
  const lanes: Lane[] = [...Array<Lane>(Math.max(1, concurrency)).fill('general'), ...Array<Lane>(Math.max(0, programConcurrency)).fill('program')];
  const running: (Promise<void> | null)[] = lanes.map(() => null);
  const poll = () => {
    if (stopped) return;
    running.forEach((slot, i) => {
      if (slot) return;
      running[i] = runDueJobs(deps, undefined, { jobs, stopping: () => stopped, lane: lanes[i] })
        .then(
          () => undefined,
          (err: unknown) => deps.log.error({ err }, 'job runner failed'),
        )
        .finally(() => {
          running[i] = null;
        });
    });
  };
  // The periodic sweeps among these jobs are queued if none is (a first start, or jobs cleared by hand).
  ensureScheduled(deps.db, jobs.values(), deps.clock.now()).then(poll, (err: unknown) => deps.log.error({ err }, 'scheduling sweeps failed'));
  const timer = setInterval(poll, intervalMs);
  timer.unref();
  const unsubscribe = onJobsQueued(poll);
  return async () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    await Promise.all(running);
  };
}
