import type { Role, RoleBody, RoleUpdateBody } from '@contest/shared';
import { http } from '../common/http.ts';

/** Roles and their permissions (spec §7 `/api/system/role/*`); the options for a user's roles are in user.ts. */
export const roleKeys = {
  all: ['roles'] as const,
};

export const roleApi = {
  list: () => http.get<Role[]>('/api/system/role/list'),
  create: (body: RoleBody) => http.post<void>('/api/system/role', body),
  /** A role's code does not change. */
  update: (id: number, body: RoleUpdateBody) => http.put<void>(`/api/system/role/${id}`, body),
  remove: (id: number) => http.delete<void>(`/api/system/role/${id}`),
};
