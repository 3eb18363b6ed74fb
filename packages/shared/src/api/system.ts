import { z } from 'zod';
import { ALL_PERMISSION_CODES, isPermissionCode } from '../permissions.ts';
import { passwordField } from './auth.ts';
import { pageQuery } from './common.ts';

export const userListQuery = pageQuery.extend({
  keyword: z.string().trim().max(100, '关键字过长').optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
  roleId: z.coerce.number().int().positive().optional(),
  orgId: z.coerce.number().int().positive().optional(),
});
export type UserListQuery = z.infer<typeof userListQuery>;

export interface UserListItem {
  id: number;
  username: string;
  userName: string | null;
  phone: string | null;
  email: string | null;
  status: number;
  orgId: number | null;
  orgName: string | null;
  roles: { id: number; code: string; name: string }[];
  createdAt: string;
  lastLoginAt: string | null;
}

export const userStatusBody = z.strictObject({
  status: z.union([z.literal(0), z.literal(1)], { error: '状态须为0（停用）或1（启用）' }),
});
export const resetPasswordBody = z.strictObject({ password: passwordField });
export const userRolesBody = z.strictObject({
  roleIds: z.array(z.number().int().positive(), { error: '请选择角色' }).max(20, '角色过多'),
});
export const userOrgBody = z.strictObject({
  orgId: z.number().int().positive().nullable(),
});

export interface Role {
  id: number;
  code: string;
  name: string;
  description: string | null;
  builtin: boolean;
  permissions: string[];
  userCount: number;
}

const permissionCode = z
  .string()
  // Kept a plain string on the wire (a role's codes come back as strings): checked, not narrowed.
  .refine((c): boolean => isPermissionCode(c), '未知的权限编码');

export const roleBody = z.strictObject({
  code: z
    .string({ error: '请输入角色编码' })
    .trim()
    .regex(/^[a-zA-Z][a-zA-Z0-9_-]{1,31}$/, '角色编码须为2至32位字母、数字、下划线或短横线，且以字母开头'),
  name: z.string({ error: '请输入角色名称' }).trim().min(1, '请输入角色名称').max(50, '角色名称不能超过50个字符'),
  description: z.string().trim().max(200, '描述不能超过200个字符').nullable().optional(),
  permissions: z.array(permissionCode).max(ALL_PERMISSION_CODES.length),
});
export const roleUpdateBody = roleBody.omit({ code: true });
export type RoleBody = z.infer<typeof roleBody>;
export type RoleUpdateBody = z.infer<typeof roleUpdateBody>;

export interface OrgOption {
  id: number;
  name: string;
}

export interface Dashboard {
  users: number;
  activeUsers: number;
  roles: number;
  organisations: number;
  sessions: number;
}
