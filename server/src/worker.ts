import { pino } from 'pino';
import { loadConfig } from './config.ts';
import { buildDeps } from './compose/deps.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { startWorker } from './jobs/runner.ts';

/**
 * `npm run worker`: a process that runs jobs and nothing else: no HTTP listener, so it can sit outside the load
 * balancer's pool (docs/deployment.md §6). It migrates as `npm run serve` does and polls the job table with the jobs of
 * compose/jobs.ts, periodic sweeps included (closing unpaid orders past their time); its dependencies are built as the
 * server's are (compose/deps.ts). Idle works uploads are left to the instances, which hold UPLOADS_DIR.
 *
 * SIGINT/SIGTERM: no job is claimed after the signal; the job running then may finish within a grace period, and one
 * still running after it is left to its lease, which another worker takes over once it expires. A second signal
 * exits at once.
 */
const SHUTDOWN_GRACE_MS = 20_000;

const config = loadConfig();
const log = pino({ level: config.logLevel, base: { pid: process.pid, role: 'worker' } });
const database = openDatabase({ ...config, onConnectionError: (err) => log.warn({ err }, 'database connection lost; the pool reconnects on the next query') });
await migrateToLatest(database);

const { deps, close: closeDeps } = buildDeps({ config, database, log });
const stopJobs = startWorker(deps);
log.info({ dialect: database.dialect }, 'job worker started');
// The job runner's timer does not hold the process open; this does, until a signal.
const alive = setInterval(() => undefined, 1 << 30);

let stopping = false;
async function shutdown(signal: NodeJS.Signals) {
  if (stopping) {
    log.warn({ signal }, 'second signal: exiting at once');
    process.exit(1);
  }
  stopping = true;
  log.info({ signal }, 'job worker stopping');
  let grace: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    stopJobs().then(() => true),
    new Promise<false>((resolve) => {
      grace = setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS);
    }),
  ]);
  clearTimeout(grace);
  if (!finished) log.warn({ graceMs: SHUTDOWN_GRACE_MS }, 'a job is still running: left to its lease, which another worker takes over');
  try {
    await closeDeps();
    if (finished) await database.destroy();
  } catch (err) {
    log.error({ err }, 'closing connections failed');
  }
  clearInterval(alive);
  log.info('job worker stopped');
  // pino writes to stdout asynchronously; let the last lines out before leaving.
  log.flush(() => process.exit(0));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, (s) => void shutdown(s));
