import type { CreateUserBody, OrgOption, Page, RoleRef as RoleOption, UserInfo, UserInfoUpdateBody, UserListItem, UserListQuery } from '@contest/shared';
import { http } from '../common/http.ts';
import { params, type ListParams } from './list.ts';

export type UserListParams = ListParams<UserListQuery>;
export type { RoleRef as RoleOption } from '@contest/shared';

/** Accounts as the back office manages them (spec §7 `/api/team/userinfo/list`, `/api/system/user/*`). */
export const userKeys = {
  all: ['users'] as const,
  list: (q: UserListParams) => [...userKeys.all, q] as const,
  roleOptions: ['roleOptions'] as const,
  orgOptions: ['orgOptions'] as const,
};

export const userApi = {
  list: (q: UserListParams) => http.get<Page<UserListItem>>('/api/team/userinfo/list', params(q)),
  roleOptions: () => http.get<RoleOption[]>('/api/system/role/options'),
  orgOptions: () => http.get<OrgOption[]>('/api/system/org/options'),
  /** 新增用户: answers the new account's id and name. */
  create: (body: CreateUserBody) => http.post<{ id: number; username: string }>('/api/system/user', body),
  setStatus: (id: number, status: 0 | 1) => http.put<void>(`/api/system/user/${id}/status`, { status }),
  setRoles: (id: number, roleIds: number[]) => http.put<void>(`/api/system/user/${id}/roles`, { roleIds }),
  setOrg: (id: number, orgId: number | null) => http.put<void>(`/api/system/user/${id}/org`, { orgId }),
  setPassword: (id: number, password: string) => http.put<void>(`/api/system/user/${id}/password`, { password }),
};

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
  /** Sends a link proving the profile's email to it (issue 35). */
  sendEmailVerification: () => http.post<{ email: string }>('/api/account/email/verification', {}),
  /** Opens a verification link (its page shows a refusal itself). */
  verifyEmail: (token: string) => http.post<{ email: string }>('/api/account/email/verify', { token }, { silent: true }),
  /** 忘记密码: asks for a reset link to a proved email; the answer's message is the same whether or not it has an account. */
  forgotPassword: (email: string) => http.post<null>('/api/account/password/forgot', { email }),
  /** Opens a reset link with the new password; every session of the account ends (its page shows a refusal itself). */
  resetPassword: (token: string, password: string) => http.post<null>('/api/account/password/reset', { token, password }, { silent: true }),
  /** 忘记密码 by SMS: the code sent to the account's proved phone, and the new password; every session ends. */
  resetPasswordBySms: (phone: string, code: string, password: string) => http.post<null>('/api/account/password/reset/sms', { phone, code, password }),
  /** A code proving a phone for the signed-in account. */
  sendPhoneCode: (phone: string, altcha: string) => http.post<null>('/api/account/phone/code', { phone, altcha }),
  verifyPhone: (phone: string, code: string) => http.post<{ phone: string }>('/api/account/phone/verify', { phone, code }),
  /** The first password of an account made by an SMS code. */
  setPassword: (password: string) => http.post<null>('/api/account/password/set', { password }),
  unbindWechat: () => http.delete<null>('/api/account/wechat'),
};
