import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** A PEM given inline, or the path of a file holding it. */
const readKey = (value: string) => (value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : readFileSync(path.resolve(value), 'utf8'));

const bool = z.enum(['0', '1', 'true', 'false', 'yes', 'no']).transform((v) => v === '1' || v === 'true' || v === 'yes');

/** `false` (no proxy), a hop count, or the proxies' addresses (IPs or CIDR ranges). */
export type TrustProxy = false | number | string[];

/**
 * TRUST_PROXY: `0`/`false` for none, a number of proxy hops, or a comma-separated list of proxy addresses. "Trust every
 * hop" (`true`) is refused: it would let any client choose its own address by sending `X-Forwarded-For`.
 * Returns the value, or the reason it is refused.
 */
export function parseTrustProxy(raw: string): TrustProxy | string {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false' || v === 'no') return false;
  if (v === 'true' || v === 'yes')
    return 'TRUST_PROXY must be a hop count (e.g. 1) or the proxies\' addresses, not "true": trusting every hop lets clients forge their address';
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = entries.filter((x) => {
    const [address, bits, ...rest] = x.split('/');
    const family = net.isIP(address ?? '');
    if (!family || rest.length) return true;
    if (bits === undefined) return false;
    return !/^\d+$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128);
  });
  if (bad.length || !entries.length) return `TRUST_PROXY: not a hop count or an IP address/CIDR range: ${bad.join(', ') || raw}`;
  return entries;
}

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  UPLOADS_DIR: z.string().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres://')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must start with redis://')
    .optional(),
  REDIS_PREFIX: z.string().default('contest:'),
  S3_ENDPOINT: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'S3_ENDPOINT must start with http:// or https://')
    .optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  CONTEST_ADMIN_PASSWORD: z.string().min(1).optional(),
  SEED_DEMO: bool.default(true),
  PUBLIC_URL: z.string().url().optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 30),
  COOKIE_SECURE: bool.default(false),
  TRUST_PROXY: z
    .string()
    .default('0')
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(10).default(3600),
  CONNECTION_TIMEOUT_SECONDS: z.coerce.number().int().min(5).default(60),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(72),
  UPLOAD_IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  UPLOAD_SLOTS: z.coerce.number().int().positive().default(24),
  UPLOAD_SLOTS_PER_TEAM: z.coerce.number().int().positive().default(3),
  TEAM_STORAGE_QUOTA_MB: z.coerce.number().int().positive().default(2048),
  FAILED_TEST_FILES_MB: z.coerce.number().int().min(0).default(200),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(30),
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  INVITATION_MAX_PER_USER: z.coerce.number().int().positive().default(30),
  INVITATION_WINDOW_MINUTES: z.coerce.number().positive().default(60),
  PUBLIC_WRITE_WINDOW_MINUTES: z.coerce.number().positive().default(10),
  REGISTER_MAX_PER_IP: z.coerce.number().int().positive().default(60),
  SSO_MAX_PER_IP: z.coerce.number().int().positive().default(120),
  PAYMENT_NOTIFY_MAX_PER_IP: z.coerce.number().int().positive().default(600),
  CERT_VERIFY_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(30),
  PAYMENT_NOTIFY_STORED_PER_IP: z.coerce.number().int().positive().default(200),
  PAYMENT_NOTIFY_BODY_MAX_BYTES: z.coerce.number().int().min(256).default(8192),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  AVATAR_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024),
  DOCUMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  ANSWER_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  TEST_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024 * 1024),
  ANSWER_CACHE_MB: z.coerce.number().int().positive().default(1024),
  EVENT_LOOP_REPORT: z.string().optional(),
  DATA_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024 * 1024),
  JOB_WORKER: bool.default(true),
  SCORING_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  PROGRAM_CONCURRENCY: z.coerce.number().int().min(0).max(32).default(1),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  SCORER_RUNNER: z.enum(['bwrap', 'docker', 'podman']).default('bwrap'),
  SCORER_IMAGE: z.string().min(1).default('python:3-slim'),
  SCORER_MEMORY_MB: z.coerce.number().int().min(64).max(65536).default(2048),
  SCORER_WORK_DIR: z.string().min(1).optional(),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().default('统一身份认证'),
  ACCOUNT_SECURITY_URL: z.string().default('/userCenter/accountSet'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  SECRET_KEY: z.string().min(32).optional(),
  NODE_ENV: z.string().optional(),
  ORDER_TIMEOUT_MINUTES: z.coerce.number().int().positive().default(30),
  /** A school's 统一缴费 order with no transfer voucher is closed after this, its teams' orders given back (issue 36). */
  SCHOOL_ORDER_TIMEOUT_HOURS: z.coerce.number().int().positive().default(72),
  /** Email (issue 35): the SMTP server (`smtp://user:pass@host:587`, `smtps://…:465`); none: email is not sent. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('竞赛平台 <noreply@localhost>'),
  /** DKIM signing of outgoing mail, when all three are set (the private key PEM, or a file path holding it). */
  DKIM_DOMAIN: z.string().optional(),
  DKIM_SELECTOR: z.string().optional(),
  DKIM_PRIVATE_KEY: z.string().optional(),
  /** What the mail provider allows: at most this many emails a minute from all workers together. */
  MAIL_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** Text messages (issue 35): at most this many SMS a minute from all workers together (the provider's limit). */
  SMS_PER_MINUTE: z.coerce.number().int().positive().default(300),
  /** Verification codes one address may ask for in an hour (each phone also: 1 a minute, 10 a day). */
  SMS_CODES_PER_IP_HOUR: z.coerce.number().int().positive().default(30),
  /** 微信扫码登录 (issue 35): the website application of the WeChat open platform (open.weixin.qq.com). */
  WECHAT_LOGIN_APP_ID: z.string().min(1).optional(),
  WECHAT_LOGIN_APP_SECRET: z.string().min(1).optional(),
  /** The development WeChat simulator (never on in production): sign-ins go to it, with its own app id and secret. */
  WECHAT_SIMULATOR: bool.default(false),
  /** The development SMS simulator: every text goes to it (never on in production). */
  SMS_SIMULATOR: bool.default(false),
  /** 实名核验 (issue 35): the AccessKey of an Aliyun account with 实人认证 (Id2MetaVerify) opened. */
  IDCHECK_ACCESS_KEY_ID: z.string().min(1).optional(),
  IDCHECK_ACCESS_KEY_SECRET: z.string().min(1).optional(),
  /** The development ID-check simulator: every check goes to it (never on in production). */
  IDCHECK_SIMULATOR: bool.default(false),
  PAYMENT_SIMULATOR: bool.default(false),
  STRICT_RESPONSES: bool.default(false),
  CERT_FONT: z.string().optional(),
  CLIENT_DIR: z.string().optional(),
  CLIENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(300 * 1024 * 1024),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** Resumable (tus) uploads in progress; one directory all instances share when there are several. */
  uploadsDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** Prefix of every Redis key and channel, so that several platforms (or test runs) can share one Redis. */
  redisPrefix: string;
  /** Files in an S3-compatible bucket instead of DATA_DIR/files. */
  s3?: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };
  adminPassword?: string;
  seedDemo: boolean;
  publicUrl?: string;
  sessionTtlMs: number;
  tokenTtlMs: number;
  cookieSecure: boolean;
  /** Which hops in front of the server are proxies whose `X-Forwarded-For` is believed: none, a count, or addresses. */
  trustProxy: TrustProxy;
  /** Node's HTTP timeouts (ms): a whole request, an idle socket, an idle kept-alive socket. */
  requestTimeoutMs: number;
  connectionTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Works uploads: a body that sends nothing for this long is cut off; slots in all and per team (or uploader). */
  uploads: { idleTimeoutMs: number; slots: number; slotsPerTeam: number; teamQuotaBytes: number };
  login: { maxFailuresPerAccount: number; maxFailuresPerIp: number; windowMs: number };
  /** Team invitations one user may send per window: each costs a lookup of a username or phone number. */
  invitations: { maxPerUser: number; windowMs: number };
  /** Per-IP limits of writes anyone may send without logging in (registration, single sign-on, payment notifications), per window. */
  publicWrites: { windowMs: number; registerPerIp: number; ssoPerIp: number; paymentNotifyPerIp: number; certVerifyFailuresPerIp: number };
  /** Payment notifications kept for audit: rows per source IP per window (beyond those that pay), and bytes of each body. */
  paymentNotifyStore: { perIp: number; bodyMaxBytes: number };
  bodyLimit: number;
  avatarMaxBytes: number;
  documentMaxBytes: number;
  answerMaxBytes: number;
  testMaxBytes: number;
  /** What a team's failed test files may keep in all (for rescoring once a fault is fixed); past it the oldest go. */
  failedTestFilesBytes: number;
  /** Memory the loaded answer files of recent questions may hold together (the newest one is always kept). */
  answerCacheBytes: number;
  /** A file the server appends each second's longest event-loop delay to (the bench); unset: not measured. */
  eventLoopReport?: string;
  /** A question's public data file. */
  dataMaxBytes: number;
  /** Run the job worker in this process (`npm start`); off where a separate worker runs jobs. */
  jobWorker: boolean;
  /** Jobs of the general lane (built-in scorings above all) one worker process runs at once. */
  scoringConcurrency: number;
  /** Jobs of the program lane (organisers' own programs) one worker process runs at once, beside the general lane's. */
  programConcurrency: number;
  /** Organisers' own scoring programs (issue 23): the sandbox, its image (docker, podman), memory and host folder. */
  scorer: { runner: 'bwrap' | 'docker' | 'podman'; image: string; memoryBytes: number; workDir: string; hidden: string[] };
  /** How long a claimed job is held before another worker may take it, unless renewed (a dead worker's job). */
  jobLeaseMs: number;
  oidc?: { issuer: string; clientId: string; clientSecret: string; name: string };
  accountSecurityUrl: string;
  logLevel: string;
  webDist: string;
  secretKey?: string;
  production: boolean;
  /** Unpaid orders older than this are closed by the order sweeper. */
  orderTimeoutMs: number;
  /** Unpaid school orders (统一缴费) without a transfer voucher older than this are closed by the same sweeper. */
  schoolOrderTimeoutMs: number;
  /** The development payment simulator: never on in production. */
  paymentSimulator: boolean;
  /** Email through SMTP (issue 35); absent: emails in the outbox fail with 未配置邮件服务器. */
  mail?: { smtpUrl: string; from: string; dkim?: { domainName: string; keySelector: string; privateKey: string } };
  /** At most this many emails a minute, across workers. */
  mailPerMinute: number;
  /** 微信扫码登录: the open platform's website application, or the development simulator (its own app id and secret). */
  wechat?: { simulator: true } | { simulator: false; appId: string; appSecret: string };
  /** 实名核验 (issue 35): the simulator, or the Aliyun 实人认证 key; absent, 居民身份证 are reviewed by hand too. */
  idcheck?: { simulator: true } | { simulator: false; accessKeyId: string; accessKeySecret: string };
  /** Text messages: the provider's rate across workers, codes per address an hour, and whether texts go to the simulator. */
  sms: { perMinute: number; codesPerIpHour: number; simulator: boolean };
  /**
   * A reply carrying a field its route's response schema does not declare fails (500) instead of losing the field:
   * on in tests, so a schema that drifted from its handler shows; off in production, where the field is dropped.
   */
  strictResponses: boolean;
  /** The CJK font certificates are written with (TTF or OTF). */
  certFont: string;
  /** Where the desktop client packages served at `/profile/...` are kept. */
  clientDir: string;
  clientMaxBytes: number;
};

/** Reads the one configuration object from the environment; nothing else reads process.env. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const oidcParts = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET];
  if (oidcParts.some(Boolean) && !oidcParts.every(Boolean)) {
    throw new Error('Invalid configuration: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together');
  }
  const s3Parts = [e.S3_ENDPOINT, e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY];
  if (s3Parts.some(Boolean) && !s3Parts.every(Boolean)) {
    throw new Error('Invalid configuration: S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  }
  if (e.WECHAT_SIMULATOR && e.NODE_ENV === 'production') {
    throw new Error('Invalid configuration: WECHAT_SIMULATOR must not be on when NODE_ENV=production');
  }
  if (Boolean(e.WECHAT_LOGIN_APP_ID) !== Boolean(e.WECHAT_LOGIN_APP_SECRET)) {
    throw new Error('Invalid configuration: WECHAT_LOGIN_APP_ID and WECHAT_LOGIN_APP_SECRET go together');
  }
  if (e.IDCHECK_SIMULATOR && e.NODE_ENV === 'production') {
    throw new Error('Invalid configuration: IDCHECK_SIMULATOR must not be on when NODE_ENV=production');
  }
  if (Boolean(e.IDCHECK_ACCESS_KEY_ID) !== Boolean(e.IDCHECK_ACCESS_KEY_SECRET)) {
    throw new Error('Invalid configuration: IDCHECK_ACCESS_KEY_ID and IDCHECK_ACCESS_KEY_SECRET go together');
  }
  if (e.SMS_SIMULATOR && e.NODE_ENV === 'production') {
    throw new Error('Invalid configuration: SMS_SIMULATOR must not be on when NODE_ENV=production');
  }
  if (e.PAYMENT_SIMULATOR && e.NODE_ENV === 'production') {
    throw new Error('Invalid configuration: PAYMENT_SIMULATOR must not be on when NODE_ENV=production');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    uploadsDir: path.resolve(e.UPLOADS_DIR ?? path.join(e.DATA_DIR, 'uploads')),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    s3:
      e.S3_ENDPOINT && e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { endpoint: e.S3_ENDPOINT, bucket: e.S3_BUCKET, region: e.S3_REGION, accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    adminPassword: e.CONTEST_ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    sessionTtlMs: e.SESSION_TTL_HOURS * 3600_000,
    tokenTtlMs: e.TOKEN_TTL_HOURS * 3600_000,
    cookieSecure: e.COOKIE_SECURE,
    trustProxy: e.TRUST_PROXY,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    connectionTimeoutMs: e.CONNECTION_TIMEOUT_SECONDS * 1000,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    uploads: {
      idleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT_SECONDS * 1000,
      slots: e.UPLOAD_SLOTS,
      slotsPerTeam: e.UPLOAD_SLOTS_PER_TEAM,
      teamQuotaBytes: e.TEAM_STORAGE_QUOTA_MB * 1024 * 1024,
    },
    login: {
      maxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
      windowMs: e.LOGIN_WINDOW_MINUTES * 60_000,
    },
    invitations: { maxPerUser: e.INVITATION_MAX_PER_USER, windowMs: e.INVITATION_WINDOW_MINUTES * 60_000 },
    publicWrites: {
      windowMs: e.PUBLIC_WRITE_WINDOW_MINUTES * 60_000,
      registerPerIp: e.REGISTER_MAX_PER_IP,
      ssoPerIp: e.SSO_MAX_PER_IP,
      paymentNotifyPerIp: e.PAYMENT_NOTIFY_MAX_PER_IP,
      certVerifyFailuresPerIp: e.CERT_VERIFY_MAX_FAILURES_PER_IP,
    },
    paymentNotifyStore: { perIp: e.PAYMENT_NOTIFY_STORED_PER_IP, bodyMaxBytes: e.PAYMENT_NOTIFY_BODY_MAX_BYTES },
    bodyLimit: e.BODY_LIMIT_BYTES,
    avatarMaxBytes: e.AVATAR_MAX_BYTES,
    documentMaxBytes: e.DOCUMENT_MAX_BYTES,
    answerMaxBytes: e.ANSWER_MAX_BYTES,
    testMaxBytes: e.TEST_MAX_BYTES,
    failedTestFilesBytes: e.FAILED_TEST_FILES_MB * 1024 * 1024,
    answerCacheBytes: e.ANSWER_CACHE_MB * 1024 * 1024,
    eventLoopReport: e.EVENT_LOOP_REPORT,
    dataMaxBytes: e.DATA_MAX_BYTES,
    jobWorker: e.JOB_WORKER,
    scoringConcurrency: e.SCORING_CONCURRENCY,
    programConcurrency: e.PROGRAM_CONCURRENCY,
    scorer: {
      runner: e.SCORER_RUNNER,
      image: e.SCORER_IMAGE,
      memoryBytes: e.SCORER_MEMORY_MB * 1024 * 1024,
      // Outside the data directory: the unprivileged user programs run as must reach it, and nothing else there.
      workDir: e.SCORER_WORK_DIR ?? path.join(os.tmpdir(), 'contest-scoring'),
      // The platform's own folders (its code and node_modules, data, uploads, client packages): a program sees none of
      // them even when one lies inside the system folders it is shown (an install under /usr/local, say).
      hidden: [
        ...new Set([
          path.resolve(import.meta.dirname, '../..'),
          path.resolve(e.DATA_DIR),
          path.resolve(e.UPLOADS_DIR ?? path.join(e.DATA_DIR, 'uploads')),
          path.resolve(e.CLIENT_DIR ?? path.join(e.DATA_DIR, 'client')),
        ]),
      ],
    },
    jobLeaseMs: e.JOB_LEASE_SECONDS * 1000,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, name: e.OIDC_NAME }
        : undefined,
    accountSecurityUrl: e.ACCOUNT_SECURITY_URL,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    secretKey: e.SECRET_KEY,
    clientDir: path.resolve(e.CLIENT_DIR ?? path.join(e.DATA_DIR, 'client')),
    clientMaxBytes: e.CLIENT_MAX_BYTES,
    certFont: e.CERT_FONT
      ? path.resolve(e.CERT_FONT)
      : path.join(path.dirname(createRequire(import.meta.url).resolve('@embedpdf/fonts-sc')), '../fonts/NotoSansHans-Regular.otf'),
    production: e.NODE_ENV === 'production',
    orderTimeoutMs: e.ORDER_TIMEOUT_MINUTES * 60_000,
    schoolOrderTimeoutMs: e.SCHOOL_ORDER_TIMEOUT_HOURS * 3600_000,
    paymentSimulator: e.PAYMENT_SIMULATOR,
    mail: e.SMTP_URL
      ? {
          smtpUrl: e.SMTP_URL,
          from: e.MAIL_FROM,
          ...(e.DKIM_DOMAIN &&
            e.DKIM_SELECTOR &&
            e.DKIM_PRIVATE_KEY && { dkim: { domainName: e.DKIM_DOMAIN, keySelector: e.DKIM_SELECTOR, privateKey: readKey(e.DKIM_PRIVATE_KEY) } }),
        }
      : undefined,
    mailPerMinute: e.MAIL_PER_MINUTE,
    wechat: e.WECHAT_SIMULATOR
      ? { simulator: true }
      : e.WECHAT_LOGIN_APP_ID
        ? { simulator: false, appId: e.WECHAT_LOGIN_APP_ID, appSecret: e.WECHAT_LOGIN_APP_SECRET! }
        : undefined,
    idcheck: e.IDCHECK_SIMULATOR
      ? { simulator: true as const }
      : e.IDCHECK_ACCESS_KEY_ID
        ? { simulator: false as const, accessKeyId: e.IDCHECK_ACCESS_KEY_ID, accessKeySecret: e.IDCHECK_ACCESS_KEY_SECRET! }
        : undefined,
    sms: { perMinute: e.SMS_PER_MINUTE, codesPerIpHour: e.SMS_CODES_PER_IP_HOUR, simulator: e.SMS_SIMULATOR },
    strictResponses: e.STRICT_RESPONSES,
  };
}
