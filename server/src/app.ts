import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type RouteOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Clock, Deps } from './context.ts';
import { buildDeps } from './compose/deps.ts';
import type { Database_ } from './db/database.ts';
import { PUBLIC, describeRule, type RegisteredRoute } from './http/access.ts';
import type { App } from './http/app-types.ts';
import { registerAuth } from './http/auth.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { AppError, DATABASE_UNAVAILABLE, STATUS_MESSAGES, STORAGE_FULL, isStorageFull } from './http/errors.ts';
import { isDatabaseUnavailable, isValueOutOfRange } from './db/errors.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import { authRoutes, oidcRoutes, wechatRoutes } from './modules/auth/routes.ts';
import { wechatSimulatorRoutes } from './wechat/simulator.ts';
import { resolveActor } from './modules/auth/index.ts';
import { catalogueRoutes } from './modules/catalogue/routes.ts';
import { competitionRoutes } from './modules/competitions/routes.ts';
import { invoiceRoutes } from './modules/invoices/routes.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { orgRoutes } from './modules/orgs/routes.ts';
import { paymentRoutes } from './modules/payments/routes.ts';
import { simulatorRoutes } from './payments/simulator.ts';
import { smsRoutes, smsSimulatorRoutes } from './modules/sms/routes.ts';
import { idCheckSimulatorRoutes, realNameRoutes } from './modules/real-names/routes.ts';
import { schoolRoutes } from './modules/schools/routes.ts';
import { coordinatorRoutes } from './modules/coordinators/routes.ts';
import { outboxRoutes } from './modules/outbox/routes.ts';
import { registrationRoutes } from './modules/registrations/routes.ts';
import { teamRoutes } from './modules/teams/routes.ts';
import { testSubmissionRoutes } from './modules/test-submissions/routes.ts';
import { worksRoutes } from './modules/works/routes.ts';
import { expireUploads } from './modules/works/service.ts';
import { reviewRoutes } from './modules/review/routes.ts';
import { judgingRoutes } from './modules/judging/routes.ts';
import { gradeRoutes } from './modules/grades/routes.ts';
import { awardRoutes } from './modules/awards/routes.ts';
import { similarityRoutes } from './modules/similarity/routes.ts';
import { editionRoutes } from './modules/editions/routes.ts';
import { publicityRoutes } from './modules/publicity/routes.ts';
import { certificateRoutes } from './modules/certificates/routes.ts';
import type { JobRegistry } from './jobs/define.ts';
import { startWorker } from './jobs/runner.ts';
import { noticeRoutes } from './modules/notices/routes.ts';
import { desktopReleaseRoutes } from './modules/desktop-releases/routes.ts';
import { questionRoutes } from './modules/questions/routes.ts';
import { fileRoutes } from './modules/files/routes.ts';
import { roleRoutes } from './modules/roles/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import type { FileStore } from './storage/file-store.ts';
import { responseSerializer } from './http/serialize.ts';
import { refuseNonNumericParams } from './http/numeric-params.ts';
import { FILE_REPLY } from './http/reply.ts';

export interface BuildOptions {
  config: Config;
  database: Database_;
  clock?: Clock;
  storage?: FileStore;
  limiter?: RateLimiter;
  /** Where logs go (tests capture them); stdout when absent. */
  logStream?: Writable;
  /** Extra routes for tests of the route registry itself. */
  extraRoutes?: (app: App) => void;
  /** The jobs this instance's worker runs (JOB_WORKER); the registry's (compose/jobs.ts) when absent. Tests add their own. */
  jobs?: JobRegistry;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The module whose routes.ts declared the route (set when the module is mounted). */
    module?: string;
  }
}

/** What a route's reply is declared to be in its schema: JSON through a response schema, a file or stream, a redirect, or undeclared. */
export type ReplyKind = 'json' | 'file' | 'redirect' | null;
export type RouteEntry = RegisteredRoute & { module: string; reply: ReplyKind };

function replyKind(route: RouteOptions): ReplyKind {
  const response = route.schema?.response as Record<string, { description?: string }> | undefined;
  if (response?.[302]) return 'redirect';
  const ok = response?.[200];
  if (!ok) return null;
  return ok.description === FILE_REPLY ? 'file' : 'json';
}

export interface BuiltApp {
  app: FastifyInstance;
  deps: Deps;
  /** Every route with its declared access rule and its module, for the access-matrix test and docs/routes.md. */
  routes: RouteEntry[];
}

const SAFE_URL = (url: string) => url.split('?')[0];

/** What busboy (inside @fastify/multipart) throws for a malformed form, as plain Errors without a status. */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data|The needle cannot .*|Unsupported Content-Type\.)$/;

function fieldErrors(err: FastifyError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const v of err.validation ?? []) {
    const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const unknownKeys = v.keyword === 'unrecognized_keys' ? ((v.params as { keys?: string[] }).keys ?? []) : [];
    for (const key of unknownKeys) fields[path ? `${path}.${key}` : key] ??= `不支持的字段：${key}`;
    if (unknownKeys.length === 0) fields[path || '_'] ??= v.message ?? '格式不正确';
  }
  return fields;
}

export async function buildApp(options: BuildOptions): Promise<BuiltApp> {
  const { config } = options;
  const app = Fastify({
    // A hop count trusts that many addresses nearest the server (the first is the socket's); anything a client wrote
    // into X-Forwarded-For before them is never taken as its address.
    trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < (config.trustProxy as number) : config.trustProxy,
    bodyLimit: config.bodyLimit,
    // A request must arrive whole within requestTimeout; a socket on which nothing moves either way for
    // connectionTimeout is closed (uploads manage their own idle limit, see modules/works/routes.ts); a kept-alive
    // socket waits keepAliveTimeout for its next request, longer than a proxy's upstream keep-alive.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // A URL the router cannot take (a malformed percent-escape, an over-long path parameter) is refused before any
    // route runs; it still gets the envelope with a Chinese message.
    frameworkErrors: (err, _req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      return (reply as FastifyReply).code(status).send({ status, message: STATUS_MESSAGES[status] ?? STATUS_MESSAGES[400]!, data: null });
    },
    logger: {
      level: config.logLevel,
      stream: options.logStream,
      // Secrets and personal data never reach the log: no headers carrying credentials, no query strings, no bodies.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[hidden]' },
      serializers: {
        req: (req) => ({ method: req.method, url: SAFE_URL(req.url), reqId: req.id, ip: req.ip }),
      },
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;
  // Headers must arrive within 30 s (Node's default is 60 s), so a client trickling header lines holds a socket briefly.
  app.server.headersTimeout = Math.min(30_000, config.requestTimeoutMs);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer(config.strictResponses));

  const { deps, close: closeDeps } = buildDeps({ ...options, log: app.log });

  const routes: RouteEntry[] = [];
  const seen: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    seen.push(route as RouteOptions);
    refuseNonNumericParams(route as RouteOptions);
  });
  // The app refuses to start when any route lacks its access rule.
  app.addHook('onReady', async () => {
    const missing = seen.filter((r) => !r.config?.rule).map((r) => `${String(r.method)} ${r.url}`);
    if (missing.length) throw new Error(`Routes without an access rule: ${missing.join(', ')}`);
    const foreign = seen.filter((r) => r.config?.foreign && !('access' in r.config.rule! && r.config.rule.access === 'public'));
    if (foreign.length) throw new Error(`Foreign routes must be public: ${foreign.map((r) => r.url).join(', ')}`);
    for (const r of seen) {
      for (const method of [r.method].flat()) {
        if (method === 'HEAD' && r.exposeHeadRoute !== false && seen.some((o) => o.url === r.url && [o.method].flat().includes('GET'))) continue;
        routes.push({ method, url: r.url, rule: r.config!.rule!, module: r.config!.module ?? 'app', reply: replyKind(r) });
      }
    }
    app.log.debug({ routes: routes.map((r) => `${r.method} ${r.url} ${describeRule(r.rule)}`) }, 'routes');
  });
  // Every minute, uploads in progress left idle for a week are dropped: by each instance, which holds UPLOADS_DIR (a
  // worker process may not). Unpaid orders past their time are a scheduled job (compose/jobs.ts).
  const sweeper = setInterval(() => {
    expireUploads(deps).catch((err) => app.log.error({ err }, 'dropping idle uploads failed'));
  }, 60_000);
  sweeper.unref();
  const stopWorker = config.jobWorker ? startWorker(deps) : () => {};
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    stopWorker();
    await closeDeps();
  });

  // Set when the request arrives, so that every reply carries it, errors included; a plain hook, not an async one,
  // because it runs on every request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.raw.setHeader('x-request-id', req.id);
    done();
  });

  await app.register(fastifyCookie);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // antd writes its styles at run time.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        // The desktop client's download bridge listens on the loopback interface (desktop/README.md).
        'connect-src': ["'self'", 'http://127.0.0.1:*', 'http://localhost:*'],
        'frame-ancestors': ["'self'"],
        'upgrade-insecure-requests': config.cookieSecure ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyMultipart, { limits: { files: 1, fields: 10, fieldSize: 1024, parts: 12 } });

  await app.register(fastifySwagger, {
    openapi: { info: { title: '竞赛平台 API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  // Third-party routes (docs, static files) are public by declaration, like any other route.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), rule: PUBLIC };
    });
    await scope.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
    if (fs.existsSync(path.join(config.webDist, 'index.html'))) {
      await scope.register(fastifyStatic, {
        root: config.webDist,
        index: ['index.html'],
        // Built assets carry a content hash in their names; the entry pages must always be asked for again.
        // (This version hands the Fastify reply, typed as a Node response, to the callback.)
        setHeaders: (res, filePath) => {
          const reply = res as unknown as { header(name: string, value: string): void };
          reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).send({ status: err.status, message: err.message, data: err.fields ? { fields: err.fields } : null });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = fieldErrors(err as FastifyError);
      const first = Object.entries(fields)[0];
      const message = first ? first[1] : STATUS_MESSAGES[400]!;
      return reply.code(400).send({ status: 400, message, data: { fields } });
    }
    // Faults of the machine rather than of the request: the caller can only wait and try again.
    if (isStorageFull(err)) {
      req.log.error({ err }, 'storage full');
      return reply.code(507).send({ status: 507, message: STORAGE_FULL, data: null });
    }
    if (isDatabaseUnavailable(err)) {
      req.log.error({ err }, 'database unavailable');
      return reply.code(503).send({ status: 503, message: DATABASE_UNAVAILABLE, data: null });
    }
    if (isValueOutOfRange(err)) {
      return reply.code(400).send({ status: 400, message: '提交的数值超出范围或包含无法保存的字符，请检查后重试', data: null });
    }
    // The multipart parser's own errors carry no status: a malformed form (no boundary, cut short) is the sender's.
    if (!err.statusCode && MALFORMED_MULTIPART.test(err.message)) {
      return reply.code(400).send({ status: 400, message: '上传的表单格式不正确，请重新选择文件上传', data: null });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      req.log.error({ err }, 'request failed');
      return reply.code(500).send({ status: 500, message: `${STATUS_MESSAGES[500]}（请求编号 ${req.id}）`, data: null });
    }
    const message =
      err instanceof SyntaxError || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? '请求体不是合法的JSON' : (STATUS_MESSAGES[status] ?? STATUS_MESSAGES[400]!);
    return reply.code(status).send({ status, message, data: null });
  });

  const indexHtml = path.join(config.webDist, 'index.html');
  app.setNotFoundHandler({}, (req, reply) => {
    const url = SAFE_URL(req.url);
    // Page paths have no file extension; a missing script or image must stay a 404, not become the page.
    const isPage = !url.startsWith('/api/') && !url.startsWith('/assets/') && !/\.[a-z0-9]+$/i.test(url);
    if ((req.method === 'GET' || req.method === 'HEAD') && isPage && fs.existsSync(indexHtml)) {
      // The participant site routes in the browser: any other page path gets its entry.
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(fs.createReadStream(indexHtml));
    }
    return reply.code(404).send({ status: 404, message: STATUS_MESSAGES[404], data: null });
  });

  registerAuth(app as unknown as FastifyInstance, deps, resolveActor);
  /** A module's routes, each stamped with the module's name (the route registry, docs/routes.md). */
  const mount = (module: string, register: (scope: App) => void) =>
    app.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.config = { ...(route.config as object), module };
      });
      register(scope as unknown as App);
    });
  mount('auth', (scope) => authRoutes(scope, deps));
  mount('auth', (scope) => oidcRoutes(scope, deps));
  if (config.wechat) mount('auth', (scope) => wechatRoutes(scope, deps));
  if (deps.wechatSimulator) mount('auth', (scope) => wechatSimulatorRoutes(scope, deps.wechatSimulator!));
  mount('users', (scope) => userRoutes(scope));
  mount('roles', (scope) => roleRoutes(scope));
  mount('system', (scope) => systemRoutes(scope, deps));
  mount('files', (scope) => fileRoutes(scope, deps));
  mount('orgs', (scope) => orgRoutes(scope));
  mount('catalogue', (scope) => catalogueRoutes(scope));
  mount('competitions', (scope) => competitionRoutes(scope));
  mount('editions', (scope) => editionRoutes(scope));
  mount('publicity', (scope) => publicityRoutes(scope));
  mount('questions', (scope) => questionRoutes(scope, deps));
  mount('teams', (scope) => teamRoutes(scope));
  mount('registrations', (scope) => registrationRoutes(scope));
  mount('orders', (scope) => orderRoutes(scope));
  mount('payments', (scope) => paymentRoutes(scope));
  mount('invoices', (scope) => invoiceRoutes(scope));
  mount('test-submissions', (scope) => testSubmissionRoutes(scope, deps));
  mount('works', (scope) => worksRoutes(scope, deps));
  mount('review', (scope) => reviewRoutes(scope));
  mount('judging', (scope) => judgingRoutes(scope, deps));
  mount('grades', (scope) => gradeRoutes(scope));
  mount('awards', (scope) => awardRoutes(scope));
  mount('similarity', (scope) => similarityRoutes(scope));
  mount('certificates', (scope) => certificateRoutes(scope, deps));
  mount('notices', (scope) => noticeRoutes(scope, deps));
  mount('desktop-releases', (scope) => desktopReleaseRoutes(scope, deps));
  mount('sms', (scope) => smsRoutes(scope));
  mount('outbox', (scope) => outboxRoutes(scope));
  if (deps.smsSimulator) mount('sms', (scope) => smsSimulatorRoutes(scope));
  mount('real-names', (scope) => realNameRoutes(scope));
  mount('schools', (scope) => schoolRoutes(scope));
  mount('coordinators', (scope) => coordinatorRoutes(scope));
  if (deps.idCheckSimulator) mount('real-names', (scope) => idCheckSimulatorRoutes(scope));
  if (config.paymentSimulator) mount('payments', (scope) => simulatorRoutes(scope, deps));
  app.get('/user/manager', { config: { rule: PUBLIC }, schema: { hide: true } }, async (_req, reply) => reply.redirect('/backadmin.html#/system/user'));

  options.extraRoutes?.(app);

  await app.ready();
  return { app: app as unknown as FastifyInstance, deps, routes };
}
