import type { UserInfo, UserInfoUpdateBody } from '@contest/shared';
import { http } from '../common/http.ts';

/**
 * The signed-in user's own account (spec §7 `/api/team/userinfo/`, `/permission`). Loaded by every entry's first
 * screen: types only from the shared package, so that no zod comes along (ARCHITECTURE §9).
 */
export const accountKeys = {
  /** The current user (null when nobody is signed in). */
  current: ['userinfo'] as const,
  permissionsAll: ['permission'] as const,
  /** By user, so that another login does not read the previous user's codes. */
  permissions: (userId: number) => [...accountKeys.permissionsAll, userId] as const,
};

export const accountApi = {
  /** Silent: a visitor is simply not signed in. */
  current: () => http.get<UserInfo | null>('/api/team/userinfo/', undefined, { silent: true }),
  permissions: () => http.get<string[]>('/api/team/userinfo/permission', undefined, { silent: true }),
  /** The profile, or only its avatar. */
  update: (body: Partial<UserInfoUpdateBody>) => http.put<void>('/api/team/userinfo/', body),
};
