import {
  ACTION_CODES,
  REGISTER_STATUS,
  SCHOOL_FIRST_TEXT,
  SCHOOL_STATUS,
  paidOrFree,
  batchResult,
  type BatchResult,
  type RegisterBatchBody,
  type RegisterListQuery,
  type RegistrationInfo,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import { withoutOrg } from '../../http/reply.ts';
import { grantPrivateReads } from '../files/index.ts';
import { EVERY_ORG } from '../../db/org-scope.ts';
import * as repo from './repo.ts';
import { notify, teamUserIds, tellStaff } from '../notices/index.ts';
import * as competitions from '../competitions/index.ts';
import * as policy from '../../policy.ts';

/**
 * What other modules do, in the transaction, when a registration is refused (by the organiser or the school): teams
 * give back the places the team held under the eligibility rules. Registrations never read teams; teams register here.
 */
const refusedHooks: ((db: Db, teamId: number) => Promise<void>)[] = [];
export const whenRefused = (hook: (db: Db, teamId: number) => Promise<void>) => void refusedHooks.push(hook);
const refused = async (db: Db, teamId: number) => {
  for (const hook of refusedHooks) await hook(db, teamId);
};

export function list(ctx: AuthedCtx, q: RegisterListQuery) {
  return repo.listRegisters(ctx.db, q, policy.orgScope(ctx), q.limit);
}

/** Every registration of the list's filters, in the caller's organisation's competitions, in batches: the export. */
export function exportList(ctx: AuthedCtx, q: RegisterListQuery, batchSize?: number) {
  return repo.exportRegisters(ctx.db, q, policy.orgScope(ctx), batchSize);
}

/**
 * A registration with its review flow, for its detail page: the teams module shows it with the team (readable by the
 * team's members and the competition's organisers), so the team's rules stay there. Undefined when there is none.
 */
export async function registerWithFlows(db: Db, id: number) {
  const register = await repo.findRegister(db, id);
  if (!register) return undefined;
  return { register: withoutOrg(register), flows: await repo.listFlows(db, id) };
}

/** The caller's registration in a competition, or null. */
export async function mine(ctx: AuthedCtx, competitionId: number) {
  const teamId = await repo.teamOfUser(ctx.db, competitionId, ctx.actor.userId);
  if (!teamId) return null;
  const register = await repo.findRegisterOfTeam(ctx.db, teamId);
  if (!register) return null;
  return { ...withoutOrg(register), flows: await repo.listFlows(ctx.db, register.id) };
}

/**
 * Moves one pending registration to approved or rejected: a conditional UPDATE (only while still pending) with its flow
 * and audit rows in one transaction, then the team's message. Returns false, changing nothing and telling no one, when
 * the registration was already decided, so two reviewers (or a batch and a single click) decide and notify it once.
 */
async function decide(ctx: AuthedCtx, register: repo.RegisterWithOrg, action: 'approve' | 'reject', reason: string | null | undefined): Promise<boolean> {
  const to = action === 'approve' ? REGISTER_STATUS.approved : REGISTER_STATUS.rejected;
  const now = ctx.clock.now().toISOString();
  const id = register.id;
  const moved = await ctx.db.transaction().execute(async (trx) => {
    if (
      !(await repo.transition(trx, id, REGISTER_STATUS.pending, to, { reason: action === 'reject' ? reason! : null, now, schoolPassed: action === 'approve' }))
    )
      return false;
    if (action === 'reject') await refused(trx, register.teamId);
    await repo.insertFlow(trx, {
      registerId: id,
      actorId: ctx.actor.userId,
      action,
      fromStatus: REGISTER_STATUS.pending,
      toStatus: to,
      reason: reason ?? null,
      now,
    });
    await writeAudit(
      ctx,
      { action: `register.${action}`, entity: 'register', entityId: id, before: { status: register.status }, after: { status: to, reason } },
      trx,
    );
    return true;
  });
  if (!moved) return false;
  await notify(
    ctx,
    await teamUserIds(ctx.db, [register.teamId]),
    action === 'approve'
      ? { title: '报名审核通过', content: `您的队伍“${register.teamName}”的报名已审核通过。`, source: 'register.approved' }
      : { title: '报名未通过审核', content: `您的队伍“${register.teamName}”的报名未通过审核：${reason ?? ''}`, source: 'register.rejected' },
  );
  return true;
}

/** Approves or rejects a pending registration; every step is recorded in the flow and the audit log. */
export async function flow(ctx: AuthedCtx, id: number, action: 'approve' | 'reject', reason: string | null | undefined) {
  const register = await repo.findRegister(ctx.db, id);
  if (!register || !policy.actsFor(ctx, register.orgId)) throw notFound('报名不存在');
  // 两级审核: the organiser approves what the school passed (and may refuse at any time).
  if (action === 'approve' && register.status === REGISTER_STATUS.pending && register.schoolStatus === SCHOOL_STATUS.pending) throw conflict(SCHOOL_FIRST_TEXT);
  if (!(await decide(ctx, register, action, reason))) throw conflict('该报名已审核，不能重复审核');
}

/**
 * Approves or rejects the selected registrations with one reason, each exactly as a single review would, and says per
 * id what happened: done, already decided (by anyone, also in a parallel request), or not found (another
 * organisation's, or gone). The per-id answers only name ids the caller sent.
 */
export async function flowBatch(ctx: AuthedCtx, body: RegisterBatchBody): Promise<BatchResult> {
  const ids = [...new Set(body.ids)];
  const found = new Map((await repo.findRegisters(ctx.db, ids, policy.orgScope(ctx))).map((r) => [r.id, r]));
  // A selection with nothing of the caller's is refused as a single review of it would be.
  if (!found.size) throw notFound('报名不存在');
  const results: BatchResult['results'] = [];
  const unpaid: string[] = [];
  const atSchool: string[] = [];
  for (const id of ids) {
    const register = found.get(id);
    if (!register) results.push({ id, outcome: 'notFound' });
    else if (register.status !== REGISTER_STATUS.pending) results.push({ id, outcome: 'decided' });
    else if (body.action === 'approve' && register.schoolStatus === SCHOOL_STATUS.pending) {
      results.push({ id, outcome: 'skipped' });
      atSchool.push(`${register.teamName}（${register.teamNo}）`);
    } else if (body.action === 'approve' && !paidOrFree(register)) {
      // A batch approves only what a reviewer would approve without a second look: an unpaid team waits to be
      // approved one by one (the single approval warns about it) or until it has paid.
      results.push({ id, outcome: 'skipped' });
      unpaid.push(`${register.teamName}（${register.teamNo}）`);
    } else results.push({ id, outcome: (await decide(ctx, register, body.action, body.reason)) ? 'done' : 'decided' });
  }
  const skippedWhy = [unpaid.length ? '尚未缴费' : '', atSchool.length ? '待学校审核' : ''].filter(Boolean).join('或');
  return { ...batchResult(results), ...(skippedWhy ? { skippedWhy, skippedNames: [...unpaid, ...atSchool] } : {}) };
}

// ---- 两级审核: the school's level (issue 36) ------------------------------------------------------------------------

export const schoolReviewTarget = (db: Db, id: number) => repo.schoolReviewTarget(db, id);
type SchoolTarget = NonNullable<Awaited<ReturnType<typeof repo.schoolReviewTarget>>>;

/**
 * The school's decision on a registration waiting for it (the coordinators module checked the caller coordinates its
 * school): passed, it goes on to the organiser, who is told; refused, the registration is refused with the school's
 * reason, as an organiser's refusal is. Either way the team is told, and the step is in the flow and the audit log.
 * False, changing nothing, when it was no longer waiting for the school.
 */
export async function decideAtSchool(ctx: AuthedCtx, target: SchoolTarget, action: 'approve' | 'reject', reason: string | null | undefined) {
  const now = ctx.clock.now().toISOString();
  const to = action === 'approve' ? SCHOOL_STATUS.approved : SCHOOL_STATUS.rejected;
  const moved = await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.schoolTransition(trx, target.id, to, { reason: action === 'reject' ? reason! : null, now }))) return false;
    const toStatus = action === 'reject' ? REGISTER_STATUS.rejected : REGISTER_STATUS.pending;
    if (action === 'reject') {
      await repo.transition(trx, target.id, REGISTER_STATUS.pending, toStatus, { reason: `学校审核驳回：${reason}`, now });
      await refused(trx, target.teamId);
    }
    await repo.insertFlow(trx, {
      registerId: target.id,
      actorId: ctx.actor.userId,
      action: action === 'approve' ? 'schoolApprove' : 'schoolReject',
      fromStatus: REGISTER_STATUS.pending,
      toStatus,
      reason: reason ?? null,
      now,
    });
    await writeAudit(ctx, { action: `register.school.${action}`, entity: 'register', entityId: target.id, after: { schoolStatus: to, reason } }, trx);
    return true;
  });
  if (!moved) return false;
  await notify(
    ctx,
    await teamUserIds(ctx.db, [target.teamId]),
    action === 'approve'
      ? { title: '学校审核通过', content: `您的队伍“${target.teamName}”的报名已通过学校审核，等待主办方审核。`, source: 'register.school' }
      : { title: '报名未通过学校审核', content: `您的队伍“${target.teamName}”的报名未通过学校审核：${reason ?? ''}`, source: 'register.rejected' },
  );
  if (action === 'approve')
    await tellStaff(ctx, ACTION_CODES.registerAudit, target.orgId, {
      title: '新的报名待审核',
      content: `“${target.teamName}”的报名已通过学校审核，请在“报名管理”中审核（竞赛“${target.competitionName}”）。`,
      source: 'register.submitted',
    });
  return true;
}

/** The attachments of a competition's registrations (one team's with `teamId`). */
export async function attachments(ctx: Ctx, competitionId: number, teamId: number | undefined) {
  await competitions.managedCompetition(ctx, competitionId);
  const list: repo.RegisterWithOrg[] = [];
  for await (const batch of repo.exportRegisters(ctx.db, { competitionId, teamId }, EVERY_ORG)) list.push(...batch.filter((r) => r.attachments.length));
  return list.flatMap((r) => r.attachments.map((a) => ({ ...a, registerId: r.id, teamId: r.teamId, teamNo: r.teamNo, teamName: r.teamName })));
}

// The team's members and the organisers of the competition may read a registration's attachments, and the files
// of its members' forms (custom file fields).
grantPrivateReads('attachment', async (ctx, key) => {
  const mayRead = (r: { orgId: number; memberId: number | null }) => r.memberId !== null || policy.staffOf(ctx, r.orgId, 'registrar');
  const registers = await repo.registersWithAttachment(ctx.db, key, ctx.actor.userId);
  if (registers.some((r) => (JSON.parse(r.attachmentsJson) as string[]).includes(key) && mayRead(r))) return true;
  const forms = await repo.formsWithFile(ctx.db, key, ctx.actor.userId);
  return forms.some((r) => Object.values((JSON.parse(r.infoJson) as RegistrationInfo).extra ?? {}).includes(key) && mayRead(r));
});

export const AUDIT = ACTION_CODES.registerAudit;
