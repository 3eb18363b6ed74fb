import type { ClientBuild, ClientPackage, ClientPlatform, ClientStatus } from '@contest/shared';
import { http } from '../common/http.ts';

/** The desktop client's packages (spec §7 `/api/system/client*`). */
export const clientUrls = {
  /** The upload action of a platform's package. */
  upload: (platform: ClientPlatform) => `/api/system/client/${platform}`,
};

export const clientKeys = {
  /** The packages (invalidate with `exact: true`: the build's state is under the same root). */
  packages: ['system', 'client'] as const,
  build: ['system', 'client', 'build'] as const,
};

export const clientApi = {
  packages: () => http.get<ClientPackage[]>('/api/system/client'),
  build: () => http.get<ClientBuild>('/api/system/client/build'),
  startBuild: () => http.post<ClientBuild>('/api/system/client/build'),
  /** Which packages are published. Silent: when unknown, the download dialog offers the links anyway. */
  status: () => http.get<ClientStatus>('/api/system/client/status', undefined, { silent: true }),
};
