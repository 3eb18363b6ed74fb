import { ACTION_CODES, ADMIN_MENU_CODES, AUDIT_STATUS, PLATFORM_PERMISSION, type Competition, type PermissionCode } from '@contest/shared';
import type { AuthedCtx, Ctx } from './context.ts';
import { EVERY_ORG, oneOrg, type OrgScope } from './db/org-scope.ts';
import { notFound } from './http/errors.ts';
import * as competitions from './modules/competitions/repo.ts';
import * as orders from './modules/orders/repo.ts';
import * as review from './modules/review/repo.ts';
import * as teams from './modules/teams/repo.ts';

/**
 * Who may do what to which object: the one reader of an actor's permission set below the routes (whose rule the access
 * hook checks). Services ask here and keep their own refusals: the answers are booleans, or the row with the
 * 404 an outsider gets (another organisation's object answers as missing, never as forbidden).
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

/** A competition the caller manages (its organisation's, or any for the platform); any other answers as missing. */
export async function managesCompetition(ctx: Ctx, id: number): Promise<Competition> {
  const c = await competitions.findCompetition(ctx.db, id, ctx.clock.now());
  if (!c || !actsFor(ctx, c.orgId)) throw notFound('竞赛不存在');
  return c;
}

/** Whether the caller manages the competition, without the refusal. */
export const manages = (ctx: Ctx, id: number) =>
  managesCompetition(ctx, id).then(
    () => true,
    () => false,
  );

/** Anyone reads an online competition; its organisers (competition menu) and the platform read it in any state. */
export async function readsCompetition(ctx: Ctx, id: number): Promise<Competition> {
  const c = await competitions.findCompetition(ctx.db, id, ctx.clock.now());
  if (!c) throw notFound('竞赛不存在');
  if (c.auditStatus === AUDIT_STATUS.online || isPlatform(ctx) || staffOf(ctx, c.orgId, 'organiser')) return c;
  throw notFound('竞赛不存在');
}

/** Staff in this role of the competition's organisation (or the platform's). */
export const organises = async (ctx: Ctx, competitionId: number, role: StaffRole) => isStaff(ctx, role) && (await manages(ctx, competitionId));

// ---- Teams --------------------------------------------------------------------------------------------------------

/** The caller is a member of the team. */
export const memberOf = (ctx: AuthedCtx, teamId: number) => teams.isMember(ctx.db, teamId, ctx.actor.userId);

/**
 * A team its members read, and the registration officers of its competition; anyone else is told it is missing
 * (a registration officer of another organisation: the competition is).
 */
export async function readsTeam(ctx: AuthedCtx, teamId: number) {
  const team = await teams.findTeam(ctx.db, teamId);
  if (!team) throw notFound('队伍不存在');
  if (!(await memberOf(ctx, teamId))) {
    if (!isStaff(ctx, 'registrar')) throw notFound('队伍不存在');
    await managesCompetition(ctx, team.competitionId);
  }
  return team;
}

/** A member of the team, or staff in this role of its competition's organisation. */
export const memberOrOrganiser = async (ctx: AuthedCtx, team: { id: number; competitionId: number }, role: StaffRole) =>
  (await memberOf(ctx, team.id)) || (await organises(ctx, team.competitionId, role));

// ---- Orders and invoices ------------------------------------------------------------------------------------------

/** Finance of the organisation (or the platform's) for orders or invoices. */
export const finance = (ctx: Ctx, orgId: number | null, of: 'order' | 'invoice') => staffOf(ctx, orgId, of === 'order' ? 'orderFinance' : 'invoiceFinance');

/** An order the caller may read: finance of its organisation (or the platform), or a member of its team. */
export async function readsOrder(ctx: AuthedCtx, id: number) {
  const order = await orders.findOrder(ctx.db, id);
  if (!order) throw notFound('订单不存在');
  if (finance(ctx, order.orgId, 'order') || (await memberOf(ctx, order.teamId))) return order;
  throw notFound('订单不存在');
}

// ---- Review -------------------------------------------------------------------------------------------------------

/** A work the caller was assigned to judge; anyone else's assignment answers as missing. */
export async function judgesAssignment(ctx: AuthedCtx, id: number) {
  const a = await review.findAssignmentOfJudge(ctx.db, id, ctx.actor.userId);
  if (!a) throw notFound('评审作品不存在');
  return a;
}
