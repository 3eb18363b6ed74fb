import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { CLIENT_PACKAGES, type ClientPackage, type ClientPlatform, type ClientStatus } from '@contest/shared';
import type { Ctx, Deps } from '../../context.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { FileTooLargeError, spool } from '../../storage/file-store.ts';
import { writeAudit } from '../audit-log/index.ts';
import { servedPackage } from './served-config.ts';

export { buildState, startBuild } from './build.ts';

const PLATFORMS = Object.keys(CLIENT_PACKAGES) as ClientPlatform[];

export const clientDir = (deps: Pick<Deps, 'config'>) => deps.config.clientDir;
/** Work files of builds and uploads, and the runtimes builds fetched: in the client folder, left out of backups. */
export const workDir = (deps: Pick<Deps, 'config'>) => path.join(clientDir(deps), '.tmp');
const metaFile = (deps: Pick<Deps, 'config'>, platform: ClientPlatform) => path.join(clientDir(deps), `${CLIENT_PACKAGES[platform]}.json`);
export const packageFile = (deps: Pick<Deps, 'config'>, platform: ClientPlatform) => path.join(clientDir(deps), CLIENT_PACKAGES[platform]);

/** The published packages: those with both their file and its description. */
export async function list(deps: Pick<Deps, 'config'>): Promise<ClientPackage[]> {
  const out: ClientPackage[] = [];
  for (const platform of PLATFORMS) {
    const meta = await fs.promises.readFile(metaFile(deps, platform), 'utf8').catch(() => null);
    if (meta && (await fs.promises.stat(packageFile(deps, platform)).catch(() => null))) out.push(JSON.parse(meta) as ClientPackage);
  }
  return out;
}

/** For everyone (the download-client dialog): which packages can be downloaded. */
export async function status(deps: Pick<Deps, 'config'>): Promise<ClientStatus> {
  const published = await list(deps);
  const entry = (platform: ClientPlatform) => {
    const p = published.find((x) => x.platform === platform);
    return { available: Boolean(p), size: p?.size ?? null, updatedAt: p?.updatedAt ?? null };
  };
  return { win: entry('win'), mac: entry('mac') };
}

/** Puts a finished package in place (a rename, so a download never sees half of one), then its description. */
export async function install(deps: Pick<Deps, 'config'>, meta: ClientPackage, from: string): Promise<void> {
  await fs.promises.rename(from, packageFile(deps, meta.platform));
  await fs.promises.writeFile(metaFile(deps, meta.platform), JSON.stringify(meta));
}

/**
 * Replaces a platform's package: spooled to a temporary file within the size limit (as every upload is), checked to be
 * a zip, then renamed over the old one, so a download never sees half a package. A refused upload leaves nothing.
 */
export async function upload(ctx: Ctx, platform: ClientPlatform, content: Readable, maxBytes: number): Promise<ClientPackage> {
  const dir = workDir(ctx);
  await fs.promises.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `upload-${randomBytes(8).toString('hex')}`);
  const tooLarge = () => new AppError(413, `客户端安装包不能超过${Math.round(maxBytes / 1024 / 1024)}MB`);
  try {
    const { size, sha256 } = await spool(content, temp, maxBytes).catch((err: unknown) => {
      throw err instanceof FileTooLargeError ? tooLarge() : err;
    });
    if ((content as { truncated?: boolean }).truncated) throw tooLarge();
    const head = Buffer.alloc(4);
    const file = await fs.promises.open(temp);
    await file.read(head, 0, 4, 0).finally(() => file.close());
    if (!head.equals(Buffer.from('PK\x03\x04', 'latin1'))) throw new AppError(415, '客户端安装包须为zip压缩包');
    const meta: ClientPackage = { platform, fileName: CLIENT_PACKAGES[platform], size, sha256, updatedAt: ctx.clock.now().toISOString(), source: 'upload' };
    await install(ctx, meta, temp);
    await writeAudit(ctx, { action: 'client.upload', entity: 'clientPackage', entityId: platform, after: meta });
    return meta;
  } finally {
    await fs.promises.rm(temp, { force: true });
  }
}

export function assertPlatform(value: string): ClientPlatform {
  // Own keys only: `toString` or `__proto__` are `in` every object.
  if (Object.hasOwn(CLIENT_PACKAGES, value)) return value as ClientPlatform;
  throw badRequest('平台须为win或mac');
}

/**
 * The package published under `fileName` as downloaded from `origin` (its config.json names that server), and the
 * platform the name belongs to; `download` is null when nothing is published under it.
 */
export async function download(deps: Pick<Deps, 'config'>, fileName: string, origin: string | null) {
  const platform = (Object.keys(CLIENT_PACKAGES) as ClientPlatform[]).find((p) => CLIENT_PACKAGES[p] === fileName);
  const file = platform && packageFile(deps, platform);
  const stat = file && (await fs.promises.stat(file).catch(() => null));
  if (!file || !stat) return { platform, download: null };
  const served = await servedPackage(file, origin);
  return { platform, download: { size: served?.size ?? stat.size, body: served?.body ?? fs.createReadStream(file) } };
}
