import { ACTION_CODES, REGISTER_STATUS, type RegisterListQuery } from '@contest/shared';
import type { Ctx } from '../../context.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/repo.ts';
import { manageable, seesAll, withoutOrg } from '../competitions/service.ts';
import { grantPrivateReads } from '../files/service.ts';
import { readableTeam } from '../teams/service.ts';
import * as repo from './repo.ts';
import { notify, teamUserIds } from '../notices/service.ts';

/** Exports are capped so one request cannot build an unbounded workbook. */
export const EXPORT_MAX = 10_000;

const scope = (ctx: Ctx) => (seesAll(ctx) ? undefined : (ctx.actor!.orgId ?? null));

export function list(ctx: Ctx, q: RegisterListQuery) {
  return repo.listRegisters(ctx.db, q, scope(ctx), q.export ? EXPORT_MAX : q.limit);
}

const isManager = (ctx: Ctx) => Boolean(ctx.actor?.permissions.has('payment:register:menu'));

/** A registration its team's members may read, and the organisers of its competition. */
export async function detail(ctx: Ctx, id: number) {
  const register = await repo.findRegister(ctx.db, id);
  if (!register) throw notFound('报名不存在');
  const team = await readableTeam(ctx, register.teamId).catch(() => {
    throw notFound('报名不存在');
  });
  return { ...withoutOrg(register), team, flows: await repo.listFlows(ctx.db, id) };
}

/** The caller's registration in a competition, or null. */
export async function mine(ctx: Ctx, competitionId: number) {
  const team = await ctx.db.selectFrom('teamMembers').select('teamId').where('competitionId', '=', competitionId).where('userId', '=', ctx.actor!.userId).executeTakeFirst();
  if (!team) return null;
  const register = await repo.findRegisterOfTeam(ctx.db, team.teamId);
  if (!register) return null;
  return { ...withoutOrg(register), flows: await repo.listFlows(ctx.db, register.id) };
}

/** Approves or rejects a pending registration; every step is recorded in the flow and the audit log. */
export async function flow(ctx: Ctx, id: number, action: 'approve' | 'reject', reason: string | null | undefined) {
  const register = await repo.findRegister(ctx.db, id);
  if (!register || (!seesAll(ctx) && register.orgId !== ctx.actor!.orgId)) throw notFound('报名不存在');
  const to = action === 'approve' ? REGISTER_STATUS.approved : REGISTER_STATUS.rejected;
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.transition(trx, id, REGISTER_STATUS.pending, to, { reason: action === 'reject' ? reason! : null, now }))) {
      throw conflict('该报名已审核，不能重复审核');
    }
    await repo.insertFlow(trx, { registerId: id, actorId: ctx.actor!.userId, action, fromStatus: REGISTER_STATUS.pending, toStatus: to, reason: reason ?? null, now });
    await writeAudit(ctx, { action: `register.${action}`, entity: 'register', entityId: id, before: { status: register.status }, after: { status: to, reason } }, trx);
  });
  await notify(
    ctx,
    await teamUserIds(ctx.db, [register.teamId]),
    action === 'approve'
      ? { title: '报名审核通过', content: `您的队伍“${register.teamName}”的报名已审核通过。`, source: 'register.approved' }
      : { title: '报名未通过审核', content: `您的队伍“${register.teamName}”的报名未通过审核：${reason ?? ''}`, source: 'register.rejected' },
  );
}

/** The attachments of a competition's registrations (one team's with `teamId`). */
export async function attachments(ctx: Ctx, competitionId: number, teamId: number | undefined) {
  await manageable(ctx, competitionId);
  const { list } = await repo.listRegisters(ctx.db, { competitionId, teamId, page: 1, limit: EXPORT_MAX }, undefined, EXPORT_MAX);
  return list.flatMap((r) => r.attachments.map((a) => ({ ...a, registerId: r.id, teamId: r.teamId, teamNo: r.teamNo, teamName: r.teamName })));
}

// The team's members and the organisers of the competition may read a registration's attachments.
grantPrivateReads('attachment', async (ctx, key) => {
  const rows = await ctx.db
    .selectFrom('registers as r')
    .innerJoin('competitions as c', 'c.id', 'r.competitionId')
    .leftJoin('teamMembers as m', (j) => j.onRef('m.teamId', '=', 'r.teamId').on('m.userId', '=', ctx.actor!.userId))
    .select(['c.orgId', 'r.attachmentsJson', 'm.userId as memberId'])
    .where('r.attachmentsJson', 'like', `%"${key}"%`)
    .execute();
  return rows.some(
    (r) => (JSON.parse(r.attachmentsJson) as string[]).includes(key) && (r.memberId !== null || (isManager(ctx) && (seesAll(ctx) || r.orgId === ctx.actor!.orgId))),
  );
});

export const AUDIT = ACTION_CODES.registerAudit;
