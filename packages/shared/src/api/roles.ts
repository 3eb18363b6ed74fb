import { z } from 'zod';
import { ALL_PERMISSION_CODES, isPermissionCode } from '../permissions.ts';

/** A role as a user's record names it. */
export const roleRefSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
export type RoleRef = z.infer<typeof roleRefSchema>;

export const roleSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  builtin: z.boolean(),
  permissions: z.array(z.string()),
  userCount: z.number().int(),
});
export type Role = z.infer<typeof roleSchema>;

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
