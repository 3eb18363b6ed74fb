import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Ctx, Deps } from '../../context.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/repo.ts';

/** The desktop client packages of spec §7, by platform. */
export const CLIENT_PACKAGES = { win: 'clientApp-win.zip', mac: 'clientApp-mac.zip' } as const;
export type ClientPlatform = keyof typeof CLIENT_PACKAGES;

export interface ClientPackage {
  platform: ClientPlatform;
  fileName: string;
  size: number;
  sha256: string;
  updatedAt: string;
}

export const clientDir = (deps: Pick<Deps, 'config'>) => deps.config.clientDir;
const metaFile = (deps: Pick<Deps, 'config'>, platform: ClientPlatform) => path.join(clientDir(deps), `${CLIENT_PACKAGES[platform]}.json`);

export async function list(deps: Pick<Deps, 'config'>): Promise<ClientPackage[]> {
  const out: ClientPackage[] = [];
  for (const platform of Object.keys(CLIENT_PACKAGES) as ClientPlatform[]) {
    const meta = await fs.promises.readFile(metaFile(deps, platform), 'utf8').catch(() => null);
    if (meta) out.push(JSON.parse(meta) as ClientPackage);
  }
  return out;
}

/**
 * Replaces a platform's package: streamed to a temporary file within the size limit, checked to be a zip, hashed,
 * then renamed over the old one, so a download never sees half a package.
 */
export async function upload(ctx: Ctx, platform: ClientPlatform, content: Readable, maxBytes: number): Promise<ClientPackage> {
  const dir = clientDir(ctx);
  await fs.promises.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.upload-${randomBytes(8).toString('hex')}`);
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  try {
    await pipeline(
      content,
      new Transform({
        transform(chunk: Buffer, _e, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new AppError(413, `客户端安装包不能超过${Math.round(maxBytes / 1024 / 1024)}MB`));
          if (head.length < 4) head = Buffer.concat([head, chunk.subarray(0, 4 - head.length)]);
          hash.update(chunk);
          done(null, chunk);
        },
      }),
      fs.createWriteStream(temp),
    );
    if ((content as { truncated?: boolean }).truncated) throw new AppError(413, `客户端安装包不能超过${Math.round(maxBytes / 1024 / 1024)}MB`);
    if (!head.equals(Buffer.from('PK\x03\x04', 'latin1'))) throw new AppError(415, '客户端安装包须为zip压缩包');
    const meta: ClientPackage = { platform, fileName: CLIENT_PACKAGES[platform], size, sha256: hash.digest('hex'), updatedAt: ctx.clock.now().toISOString() };
    await fs.promises.rename(temp, path.join(dir, CLIENT_PACKAGES[platform]));
    await fs.promises.writeFile(metaFile(ctx, platform), JSON.stringify(meta));
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
