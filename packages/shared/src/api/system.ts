import { z } from 'zod';
import type { AdminRoute as MenuRoute } from '../menu.ts';
import { ALL_PERMISSION_CODES, isPermissionCode, type PermissionCode } from '../permissions.ts';
import { passwordField, registerBody } from './auth.ts';
import { roleRefSchema } from './userinfo.ts';
import { pageQuery } from './common.ts';

export const userListQuery = pageQuery.extend({
  keyword: z.string().trim().max(100, '关键字过长').optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
  roleId: z.coerce.number().int().positive().optional(),
  orgId: z.coerce.number().int().positive().optional(),
});
export type UserListQuery = z.infer<typeof userListQuery>;

export const userListItemSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  userName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.number().int(),
  orgId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  roles: z.array(roleRefSchema),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

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
/**
 * `POST /api/system/user`: the administrator's 新增用户: an account as sign-up makes it (name, password, phone, email),
 * with a real name, an organisation and roles (the participant's when none is given).
 */
export const createUserBody = registerBody.extend({
  userName: z.string({ error: '姓名须为文本' }).trim().max(50, '姓名至多50个字').optional(),
  orgId: userOrgBody.shape.orgId.optional(),
  roleIds: userRolesBody.shape.roleIds.optional(),
});
export type CreateUserBody = z.infer<typeof createUserBody>;

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

export const orgOptionSchema = z.object({ id: z.number().int(), name: z.string() });
export type OrgOption = z.infer<typeof orgOptionSchema>;

/**
 * The home page's counters. `platform`: the whole platform's. `organisation`: an organiser's own organisation — its
 * users, the roles those users hold and their live sessions; `organisations` is then null (there is only its own).
 */
export const dashboardSchema = z.object({
  scope: z.enum(['platform', 'organisation']),
  users: z.number().int(),
  activeUsers: z.number().int(),
  roles: z.number().int(),
  organisations: z.number().int().nullable(),
  sessions: z.number().int(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** `GET /api/health`: the database answers (a 503 carries `status: 'down'`). */
export const healthSchema = z.object({ status: z.enum(['ok', 'down']), database: z.enum(['sqlite', 'postgres']) });
export type Health = z.infer<typeof healthSchema>;

const permissionCodeSchema = z.enum(ALL_PERMISSION_CODES as [PermissionCode, ...PermissionCode[]]);

/** `GET /api/system/menu/routers`: the back-office routes the caller may open (menu.ts's {@link MenuRoute}). */
export const adminRouteSchema = z.object({
  path: z.string(),
  name: z.string(),
  component: z.string().optional(),
  redirect: z.string().optional(),
  hidden: z.boolean().optional(),
  alwaysShow: z.boolean().optional(),
  meta: z.object({
    title: z.string(),
    icon: z.string().optional(),
    permission: z.union([permissionCodeSchema, z.array(permissionCodeSchema)]).optional(),
    affix: z.boolean().optional(),
    activeMenu: z.string().optional(),
  }),
  get children(): z.ZodOptional<z.ZodArray<typeof adminRouteSchema>> {
    return z.array(adminRouteSchema).optional();
  },
});
/** menu.ts keeps its own zod-free declaration of a route; the two must agree both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _routesAgree: Same<z.infer<typeof adminRouteSchema>, MenuRoute> = true;
void _routesAgree;

/** `POST /api/file/upload/*`: the stored file, referred to by `fileUri` in the record it belongs to. */
export const uploadedFileSchema = z.object({ fileUri: z.string(), size: z.number().int(), name: z.string() });
export type UploadedFile = z.infer<typeof uploadedFileSchema>;
/** `POST /api/file/upload/avatar` and `/image`: a public picture, shown by its `fileUri`. */
export const uploadedImageSchema = uploadedFileSchema.pick({ fileUri: true, size: true });
export type UploadedImage = z.infer<typeof uploadedImageSchema>;
/**
 * The file a download sends (spec §7 Files): the query of `GET /api/file/common/download`, and the form-encoded body of
 * its `POST` (`fileUri=…`, nothing else).
 */
export const fileDownloadBody = z.strictObject({ fileUri: z.string({ error: '请指定文件' }).min(1, '请指定文件').max(200) });
