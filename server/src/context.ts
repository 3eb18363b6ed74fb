import type { PermissionCode } from '@contest/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Cipher } from './crypto/secrets.ts';
import type { SmsSimulator } from './sms/simulator.ts';
import type { WechatSimulator } from './wechat/simulator.ts';
import type { IdCheckSimulator } from './idcheck/simulator.ts';
import type { Db, Dialect_ } from './db/database.ts';
import type { JobRegistry } from './jobs/define.ts';
import type { Mailer } from './mail/smtp.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import type { NoticeHub } from './realtime/hub.ts';
import type { FileStore } from './storage/file-store.ts';

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** What every service is wired with, built once per app. */
export interface Deps {
  db: Db;
  dialect: Dialect_;
  config: Config;
  clock: Clock;
  storage: FileStore;
  limiter: RateLimiter;
  /** Tells open message streams of new or read messages, across server instances. */
  hub: NoticeHub;
  log: FastifyBaseLogger;
  cipher: Cipher;
  /** The kinds of job this process's workers run, each bound to its handler (compose/jobs.ts). */
  jobs: JobRegistry;
  /** Email through SMTP_URL; null when no mail server is configured. */
  mailer: Mailer | null;
  /** With SMS_SIMULATOR on (never in production): the simulator every text goes to. */
  smsSimulator: SmsSimulator | null;
  /** With WECHAT_SIMULATOR on (never in production): the WeChat open platform's stand-in. */
  wechatSimulator: WechatSimulator | null;
  /** With IDCHECK_SIMULATOR on (never in production): Aliyun 实人认证's stand-in. */
  idCheckSimulator: IdCheckSimulator | null;
}

export interface Actor {
  userId: number;
  username: string;
  orgId: number | null;
  permissions: ReadonlySet<PermissionCode>;
  sessionId: string;
  via: 'cookie' | 'bearer';
  csrfToken: string;
}

/** A service call's context: the dependencies plus who is asking and from where. */
export interface Ctx extends Deps {
  actor: Actor | null;
  ip: string;
  userAgent: string | null;
}

/** The context of a route whose rule is USER or a permission: the access hook has refused anonymous callers. */
export interface AuthedCtx extends Ctx {
  actor: Actor;
}

export const isAuthed = (ctx: Ctx): ctx is AuthedCtx => ctx.actor !== null;

/**
 * A request's context: the app's dependencies and who is calling. Written out field by field, not spread from `deps`:
 * the spread cost about a third of what a small public read takes.
 */
export function requestCtx(deps: Deps, actor: Actor | null, req: { ip: string; headers: { 'user-agent'?: string } }): Ctx {
  const { db, dialect, config, clock, storage, limiter, hub, log, cipher, jobs, mailer, smsSimulator, wechatSimulator, idCheckSimulator } = deps;
  return {
    db,
    dialect,
    config,
    clock,
    storage,
    limiter,
    hub,
    log,
    cipher,
    jobs,
    mailer,
    smsSimulator,
    wechatSimulator,
    idCheckSimulator,
    actor,
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
  };
}

export const iso = (d: Date) => d.toISOString();
