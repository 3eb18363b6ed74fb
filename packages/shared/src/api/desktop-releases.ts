import { z } from 'zod';

/** The desktop client packages (spec §7), served at `/profile/{file name}`. */
export const CLIENT_PACKAGES = { win: 'clientApp-win.zip', mac: 'clientApp-mac.zip' } as const;
export type ClientPlatform = keyof typeof CLIENT_PACKAGES;

/** What a visitor is told where a package is missing: the download-client dialog, and a direct request of the file. */
export const CLIENT_NOT_PUBLISHED = '客户端尚未发布，请联系管理员在 系统管理 → 客户端版本 中生成';

/** `GET /api/system/client`: a published package. */
export const clientPackageSchema = z.object({
  platform: z.enum(['win', 'mac']),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  updatedAt: z.string(),
  /** Built on this server (`build`) or uploaded (`upload`); absent on packages published before builds existed. */
  source: z.enum(['build', 'upload']).optional(),
  /** Built packages: the platform address written into their config.json, and their Node runtime version. */
  platformUrl: z.string().optional(),
  nodeVersion: z.string().optional(),
});
export type ClientPackage = z.infer<typeof clientPackageSchema>;

/** `GET /api/system/client/status`: which packages the platform offers. */
const clientAvailability = z.object({ available: z.boolean(), size: z.number().int().nullable(), updatedAt: z.string().nullable() });
export const clientStatusSchema = z.object({ win: clientAvailability, mac: clientAvailability });
export type ClientStatus = z.infer<typeof clientStatusSchema>;

/** `GET /api/system/client/build`: the last build on the server. */
export const clientBuildSchema = z.object({
  /** `retrying`: an attempt failed (`error`), the job runner tries again shortly. */
  state: z.enum(['idle', 'queued', 'running', 'retrying', 'done', 'failed']),
  /** Steps finished, of `total` (0 until the build has started). */
  done: z.number().int(),
  total: z.number().int(),
  /** The step under way, in words. */
  step: z.string().nullable(),
  error: z.string().nullable(),
  /** The platform address the packages will carry. */
  platformUrl: z.string().nullable(),
  requestedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type ClientBuild = z.infer<typeof clientBuildSchema>;
