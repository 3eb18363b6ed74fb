/** The desktop client packages (spec §7), served at `/profile/{file name}`. */
export const CLIENT_PACKAGES = { win: 'clientApp-win.zip', mac: 'clientApp-mac.zip' } as const;
export type ClientPlatform = keyof typeof CLIENT_PACKAGES;

/** What a visitor is told where a package is missing: the download-client dialog, and a direct request of the file. */
export const CLIENT_NOT_PUBLISHED = '客户端尚未发布，请联系管理员在 系统管理 → 客户端版本 中生成';

/** `GET /api/system/client`: a published package. */
export interface ClientPackage {
  platform: ClientPlatform;
  fileName: string;
  size: number;
  sha256: string;
  updatedAt: string;
  /** Built on this server (`build`) or uploaded (`upload`); absent on packages published before builds existed. */
  source?: 'build' | 'upload';
  /** Built packages: the platform address written into their config.json, and their Node runtime version. */
  platformUrl?: string;
  nodeVersion?: string;
}

/** `GET /api/system/client/status`: which packages the platform offers. */
export type ClientStatus = Record<ClientPlatform, { available: boolean; size: number | null; updatedAt: string | null }>;

/** `GET /api/system/client/build`: the last build on the server. */
export interface ClientBuild {
  /** `retrying`: an attempt failed (`error`), the job runner tries again shortly. */
  state: 'idle' | 'queued' | 'running' | 'retrying' | 'done' | 'failed';
  /** Steps finished, of `total` (0 until the build has started). */
  done: number;
  total: number;
  /** The step under way, in words. */
  step: string | null;
  error: string | null;
  /** The platform address the packages will carry. */
  platformUrl: string | null;
  requestedAt: string | null;
  finishedAt: string | null;
}
