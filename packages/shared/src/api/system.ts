import { z } from 'zod';
import type { AdminRoute as MenuRoute } from '../menu.ts';
import { ALL_PERMISSION_CODES, type PermissionCode } from '../permissions.ts';

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
