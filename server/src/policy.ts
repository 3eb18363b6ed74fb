import { ACTION_CODES, ADMIN_MENU_CODES, AUDIT_STATUS, PLATFORM_PERMISSION, type PermissionCode } from '@contest/shared';
import type { AuthedCtx, Ctx } from './context.ts';
import { EVERY_ORG, oneOrg, type OrgScope } from './db/org-scope.ts';
import { notFound } from './http/errors.ts';

/**
 * Who may do what to which object: the one reader of an actor's permission set below the routes (whose rule the access
 * hook checks). It reads no database: services load the row (a competition, a team, an order, an assignment) and hand
 * it here with what they know of the caller (a member of the team or not). The answers are booleans, or the row itself
 * with the 404 an outsider gets (another organisation's object answers as missing, never as forbidden; so does a row
 * that was not found, handed as undefined).
 */

/** The caller holds the code at all: what a service offers (a to-do, a view), not which object it may touch. */
export const holds = (ctx: Ctx, code: PermissionCode) => Boolean(ctx.actor?.permissions.has(code));

/** The platform sees and acts for every organisation (PLATFORM_PERMISSION, the one definition). */
export const isPlatform = (ctx: Ctx) => holds(ctx, PLATFORM_PERMISSION);

/**
 * An organisation's staff roles by name, each with the menu that grants it: the one place where a menu code stands
 * for a role. Organisers run competitions; question keepers hold questions, grades, awards and certificates;
 * registrars review registrations; finance keeps orders or invoices.
 */
const STAFF_MENUS = {
  organiser: ADMIN_MENU_CODES.competition,
  questionKeeper: ADMIN_MENU_CODES.question,
  registrar: ADMIN_MENU_CODES.register,
  orderFinance: ADMIN_MENU_CODES.order,
  invoiceFinance: ADMIN_MENU_CODES.invoice,
} as const satisfies Record<string, PermissionCode>;
export type StaffRole = keyof typeof STAFF_MENUS;

/** The caller holds the staff role in some organisation (or the platform's). */
export const isStaff = (ctx: Ctx, role: StaffRole) => holds(ctx, STAFF_MENUS[role]);

/** Whose objects a list shows: every organisation's for the platform, else the caller's own (none without one). */
export const orgScope = (ctx: Ctx): OrgScope => (isPlatform(ctx) ? EVERY_ORG : oneOrg(ctx.actor?.orgId ?? null));

/** The caller acts for this organisation: it is theirs, or they are the platform. */
export const actsFor = (ctx: Ctx, orgId: number | null) => isPlatform(ctx) || (orgId !== null && orgId === ctx.actor?.orgId);

/** Staff of the organisation in this role: finance (orders, invoices), registrars, organisers. */
export const staffOf = (ctx: Ctx, orgId: number | null, role: StaffRole) => isStaff(ctx, role) && actsFor(ctx, orgId);

/** Platform reviewers of questions read every question, as the platform does. */
export const reviewsQuestions = (ctx: Ctx) => holds(ctx, ACTION_CODES.questionReview) || isPlatform(ctx);

// ---- Competitions -------------------------------------------------------------------------------------------------

/** What the policy reads of a competition: whose it is and whether it is online. */
export interface CompetitionRow {
  orgId: number | null;
  auditStatus: number;
}

/** The caller manages the competition: its organisation's, or any for the platform. */
export const manages = (ctx: Ctx, c: Pick<CompetitionRow, 'orgId'> | undefined): boolean => c !== undefined && actsFor(ctx, c.orgId);

/** A competition the caller manages; any other (or none) answers as missing. */
export function managesCompetition<C extends Pick<CompetitionRow, 'orgId'>>(ctx: Ctx, c: C | undefined): C {
  if (!c || !manages(ctx, c)) throw notFound('竞赛不存在');
  return c;
}

/** Anyone reads an online competition; its organisers (competition menu) and the platform read it in any state. */
export function readsCompetition<C extends CompetitionRow>(ctx: Ctx, c: C | undefined): C {
  if (c && (c.auditStatus === AUDIT_STATUS.online || isPlatform(ctx) || staffOf(ctx, c.orgId, 'organiser'))) return c;
  throw notFound('竞赛不存在');
}

/** Staff in this role of the competition's organisation (or the platform's). */
export const organises = (ctx: Ctx, c: Pick<CompetitionRow, 'orgId'> | undefined, role: StaffRole) => isStaff(ctx, role) && manages(ctx, c);

// ---- Teams --------------------------------------------------------------------------------------------------------

/**
 * A team its members read, and the registration officers of its competition's organisation; anyone else is told it
 * is missing. `member`: the caller is one of its members; `competition`: the team's competition.
 */
export function readsTeam<T>(
  ctx: Ctx,
  team: T | undefined,
  { member, competition }: { member: boolean; competition: Pick<CompetitionRow, 'orgId'> | undefined },
): T {
  if (team && (member || organises(ctx, competition, 'registrar'))) return team;
  throw notFound('队伍不存在');
}

// ---- School coordinators (院校负责人) ---------------------------------------------------------------------------------

/** An appointment as the policy reads it: whose, for which school, over which competitions. */
export interface Appointment {
  userId: number;
  schoolId: number;
  /** 'platform', 'org:<id>' or 'competition:<id>'. */
  scopeKey: string;
}

/** The caller coordinates the school in this competition: an appointment of theirs covers it (platform, organisation or itself). */
export const coordinates = (ctx: Ctx, appointments: readonly Appointment[], schoolId: number, c: { id: number; orgId: number | null }) =>
  ctx.actor !== null &&
  appointments.some(
    (a) =>
      a.userId === ctx.actor!.userId &&
      a.schoolId === schoolId &&
      (a.scopeKey === 'platform' || a.scopeKey === `competition:${c.id}` || (c.orgId !== null && a.scopeKey === `org:${c.orgId}`)),
  );

/** Who may appoint for a scope: the platform for the platform; an organiser of the competition for it or its organisation. */
export const appoints = (ctx: Ctx, scope: 'platform' | 'org' | 'competition', c: Pick<CompetitionRow, 'orgId'>) =>
  scope === 'platform' ? isPlatform(ctx) : organises(ctx, c, 'organiser');

/** Who may take an appointment back: the platform any; an organiser those of its organisation's scopes. */
export const revokes = (ctx: Ctx, a: { scopeKey: string; orgId: number | null }) =>
  isPlatform(ctx) || (a.scopeKey !== 'platform' && a.orgId !== null && staffOf(ctx, a.orgId, 'organiser'));

// ---- Orders and invoices ------------------------------------------------------------------------------------------

/** Finance of the organisation (or the platform's) for orders or invoices. */
export const finance = (ctx: Ctx, orgId: number | null, of: 'order' | 'invoice') => staffOf(ctx, orgId, of === 'order' ? 'orderFinance' : 'invoiceFinance');

/** An order the caller may read: finance of its organisation (or the platform), or (`member`) a member of its team. */
export function readsOrder<O extends { orgId: number | null }>(ctx: Ctx, order: O | undefined, member: boolean): O {
  if (order && (member || finance(ctx, order.orgId, 'order'))) return order;
  throw notFound('订单不存在');
}

// ---- Review -------------------------------------------------------------------------------------------------------

/** A work the caller was assigned to judge; anyone else's assignment answers as missing. */
export function judgesAssignment<A extends { judgeId: number }>(ctx: AuthedCtx, a: A | undefined): A {
  if (!a || a.judgeId !== ctx.actor.userId) throw notFound('评审作品不存在');
  return a;
}
