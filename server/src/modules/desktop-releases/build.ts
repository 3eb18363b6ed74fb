import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildInChild, type BuildStep } from '@contest/desktop/build.ts';
import type { Ctx, Deps } from '../../context.ts';
import { conflict } from '../../http/errors.ts';
import { enqueue, hasPendingJob } from '../../jobs/define.ts';
import { writeAudit } from '../audit-log/index.ts';
import { CLIENT_PACKAGES, type ClientBuild, type ClientPackage } from '@contest/shared';
import { buildJob } from './jobs.ts';
import { install, workDir } from './service.ts';

/**
 * Building the desktop client packages on the server (desktop/build.ts in a child process, the runtimes from the npm
 * registry npm is configured with), as a job: the back office starts it and follows its progress, so a platform can
 * offer its client without anyone running a command.
 */
/** A build that has not finished by then is stopped (a registry that stalls must not hold the worker for ever). */
const BUILD_TIMEOUT_MS = 30 * 60_000;

const IDLE: ClientBuild = { state: 'idle', done: 0, total: 0, step: null, error: null, platformUrl: null, requestedAt: null, finishedAt: null };
const stateFile = (deps: Pick<Deps, 'config'>) => path.join(workDir(deps), 'build.json');

async function readState(deps: Pick<Deps, 'config'>): Promise<ClientBuild> {
  const text = await fs.promises.readFile(stateFile(deps), 'utf8').catch(() => null);
  return text ? { ...IDLE, ...(JSON.parse(text) as Partial<ClientBuild>) } : IDLE;
}

async function writeState(deps: Pick<Deps, 'config'>, state: ClientBuild): Promise<void> {
  await fs.promises.mkdir(workDir(deps), { recursive: true });
  const temp = `${stateFile(deps)}.${randomBytes(4).toString('hex')}`;
  await fs.promises.writeFile(temp, JSON.stringify(state));
  await fs.promises.rename(temp, stateFile(deps));
}

const pendingJob = (deps: Pick<Deps, 'db'>) => hasPendingJob(deps.db, buildJob);

/** The last build as the back office shows it. */
export async function buildState(deps: Pick<Deps, 'config' | 'db'>): Promise<ClientBuild> {
  const state = await readState(deps);
  // A build said to be under way whose job is gone (a restored database, a worker killed at the wrong moment).
  if (['queued', 'running', 'retrying'].includes(state.state) && !(await pendingJob(deps)))
    return { ...state, state: 'failed', error: state.error ?? '生成已中断，请重新生成' };
  return state;
}

/** Starts a build of both packages for `platformUrl`; one at a time. */
export async function startBuild(ctx: Ctx, address: string): Promise<ClientBuild> {
  if (await pendingJob(ctx)) throw conflict('客户端正在生成中，请稍候');
  const platformUrl = new URL(address).origin;
  const now = ctx.clock.now().toISOString();
  // Written before the job exists, so that a worker taking it at once is not overwritten by 'queued'.
  const state: ClientBuild = { ...IDLE, state: 'queued', platformUrl, requestedAt: now };
  await writeState(ctx, state);
  await enqueue(ctx.db, buildJob, { platformUrl, requestedAt: now }, ctx.clock.now());
  await writeAudit(ctx, { action: 'client.build', entity: 'clientPackage', entityId: null, after: { platformUrl } });
  return state;
}

const OS_NAMES = { win: 'Windows', mac: 'Mac' } as const;

/**
 * The build's environment: the system's and npm's settings (registry, proxy, cache, certificates), without the
 * platform's connection strings and secrets, which neither it nor npm needs.
 */
const PLATFORM_SECRET = /^(DATABASE_URL|REDIS_URL|S3_|OIDC_)|SECRET|PASSWORD|PRIVATE_KEY/i;
const buildEnv = (env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(env).filter(([k]) => /^npm_config_/i.test(k) || !PLATFORM_SECRET.test(k)));

function stepText(s: BuildStep): string {
  switch (s.stage) {
    case 'bundle':
      return '打包客户端程序';
    case 'runtime': {
      const os = s.target === 'mac' ? `${OS_NAMES.mac}（${s.arch === 'arm64' ? 'Apple 芯片' : 'Intel 芯片'}）` : OS_NAMES.win;
      return `获取 ${os} 运行环境 Node.js ${s.version}`;
    }
    case 'zip':
      return `压缩 ${s.file}`;
    case 'done':
      return '完成';
  }
}

/** The reason in words an administrator can act on, with the technical one after it. */
function failureText(message: string): string {
  const raw = message.replace(/\s+/g, ' ').trim().slice(0, 600);
  if (/\bnpm\b.*ENOENT|ENOENT.*\bnpm\b/.test(raw)) return `服务器上没有 npm，无法下载 Node.js 运行环境，请改为上传安装包（${raw}）`;
  if (/ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|network|registry not reachable/i.test(raw))
    return `无法连接 npm 仓库下载 Node.js 运行环境，请检查服务器的网络或 npm 仓库设置（${raw}）`;
  if (/operation was aborted/i.test(raw)) return `生成超过 ${BUILD_TIMEOUT_MS / 60_000} 分钟仍未完成，已停止（${raw}）`;
  if (/no Node \d+\.x runtime published/.test(raw)) return `npm 仓库中找不到所需的 Node.js 运行环境（${raw}）`;
  return `生成失败（${raw}）`;
}

/** The build job's work (see jobs.ts). */
export async function runBuild(deps: Deps, payload: { platformUrl: string; requestedAt: string }) {
  const base: ClientBuild = { ...IDLE, state: 'running', platformUrl: payload.platformUrl, requestedAt: payload.requestedAt, step: '准备' };
  await writeState(deps, base);
  const staging = path.join(workDir(deps), `build-${randomBytes(6).toString('hex')}`);
  // Progress is written in order, and all of it before the outcome.
  let progress = Promise.resolve();
  let total = 0;
  try {
    const result = await buildInChild({
      outDir: staging,
      cacheDir: path.join(workDir(deps), 'runtimes'),
      platformUrl: payload.platformUrl,
      signal: AbortSignal.timeout(BUILD_TIMEOUT_MS),
      env: buildEnv(process.env),
      log: (line) => deps.log.info({ clientBuild: line }, 'client build'),
      onStep: (s) => {
        total = s.total;
        progress = progress.then(() => writeState(deps, { ...base, done: s.done, total: s.total, step: stepText(s) })).catch(() => undefined);
      },
    });
    await progress;
    const now = deps.clock.now().toISOString();
    for (const z of result.zips) {
      const meta: ClientPackage = {
        platform: z.target,
        fileName: CLIENT_PACKAGES[z.target],
        size: z.size,
        sha256: z.sha256,
        updatedAt: now,
        source: 'build',
        platformUrl: payload.platformUrl,
        nodeVersion: [...new Set(z.runtimes.map((r) => r.version))].join('、'),
      };
      await install(deps, meta, z.file);
    }
    await writeState(deps, { ...base, state: 'done', done: total, total, step: '完成', finishedAt: now });
  } catch (err) {
    await progress;
    const current = await readState(deps);
    await writeState(deps, { ...current, state: 'retrying', error: failureText((err as Error).message) });
    throw err;
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}

/** The build job has used up its attempts: the back office shows the build as failed, with the last reason. */
export async function buildGaveUp(deps: Deps) {
  const current = await readState(deps);
  await writeState(deps, { ...current, state: 'failed', finishedAt: deps.clock.now().toISOString() });
}
