import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { systemClock, type Clock, type Deps } from '../context.ts';
import { aesCipher, loadSecretKey } from '../crypto/secrets.ts';
import type { Database_ } from '../db/database.ts';
import type { JobRegistry } from '../jobs/define.ts';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from '../limits/rate-limiter.ts';
import { memoryNoticeHub, redisNoticeHub } from '../realtime/hub.ts';
import type { FileStore } from '../storage/file-store.ts';
import { localFileStore } from '../storage/local.ts';
import { s3FileStore } from '../storage/s3.ts';
import { smtpMailer } from '../mail/smtp.ts';
import { recordSimulated } from '../modules/sms/index.ts';
import { smsSimulator } from '../sms/simulator.ts';
import { wechatSimulator } from '../wechat/simulator.ts';
import { idCheckSimulator } from '../idcheck/simulator.ts';
import { simulatorRegister } from '../modules/real-names/index.ts';
import { JOBS } from './jobs.ts';

export interface DepsOptions {
  config: Config;
  database: Database_;
  log: FastifyBaseLogger;
  clock?: Clock;
  storage?: FileStore;
  /** A limiter of the caller's (tests share one between instances); this builder's own when absent. */
  limiter?: RateLimiter;
  /** The jobs this process's workers run; the registry's (compose/jobs.ts) when absent. Tests add their own. */
  jobs?: JobRegistry;
}

/**
 * The dependencies every service is wired with, built the same way for the server (app.ts) and the worker process
 * (worker.ts): the database, files (S3 or the data folder), the rate limiter and the real-time hub (through Redis when
 * REDIS_URL is set, so that instances and workers share them), the secrets' cipher, the job registry and the mailer (when SMTP_URL is set). `close` lets
 * go of the connections it opened.
 */
export function buildDeps(options: DepsOptions): { deps: Deps; close: () => Promise<void> } {
  const { config, database, log } = options;
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false }) : undefined;
  const limiter = options.limiter ?? (redis ? redisRateLimiter(redis, `${config.redisPrefix}rl:`) : memoryRateLimiter());
  // Notices and scoring results tell the instances' open message streams through Redis.
  const hub = redis ? redisNoticeHub(redis, (err) => log.error({ err }, 'notice channel failed'), `${config.redisPrefix}notice`) : memoryNoticeHub();
  const deps: Deps = {
    db: database.db,
    dialect: database.dialect,
    config,
    clock: options.clock ?? systemClock,
    storage:
      options.storage ??
      (config.s3 ? s3FileStore({ ...config.s3, tmpDir: path.join(config.dataDir, 'tmp', 's3') }) : localFileStore(path.join(config.dataDir, 'files'))),
    limiter,
    hub,
    log,
    cipher: aesCipher(loadSecretKey(config.secretKey, config.dataDir)),
    jobs: options.jobs ?? JOBS,
    mailer: config.mail ? smtpMailer(config.mail) : null,
    smsSimulator: null,
    wechatSimulator: config.wechat?.simulator ? wechatSimulator(config.dataDir) : null,
    idCheckSimulator: null,
  };
  // The simulator records what it receives in the platform's database, for its page: whichever process sent the text.
  if (config.sms.simulator) deps.smsSimulator = smsSimulator(config.dataDir, recordSimulated(deps));
  if (config.idcheck?.simulator) deps.idCheckSimulator = idCheckSimulator(config.dataDir, simulatorRegister(deps));
  return {
    deps,
    close: async () => {
      deps.mailer?.close();
      await deps.smsSimulator?.close();
      await deps.wechatSimulator?.close();
      await deps.idCheckSimulator?.close();
      await hub.close();
      await limiter.close();
      // The limiter closes the connection it was given; one of the caller's leaves ours to close here.
      if (options.limiter) await redis?.quit();
    },
  };
}
