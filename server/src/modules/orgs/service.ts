import { PARTNER_STATUS, ROLE_CODES, type OrganisationBody, type PartnerApplyBody } from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as repo from './repo.ts';

type ApplicationQuery = Parameters<typeof repo.listApplications>[1];
/** The caller's own partner applications. */
export const myApplications = (ctx: AuthedCtx, q: ApplicationQuery) => repo.listApplications(ctx.db, q, ctx.actor.userId);
/** Every partner application: the platform's review list. */
export const listApplications = (ctx: Ctx, q: ApplicationQuery) => repo.listApplications(ctx.db, q);
export const listOrganisations = (ctx: Ctx, q: Parameters<typeof repo.listOrganisations>[1]) => repo.listOrganisations(ctx.db, q);

export async function apply(ctx: AuthedCtx, body: PartnerApplyBody) {
  try {
    const id = await repo.insertApplication(ctx.db, {
      orgName: body.name,
      kind: body.kind,
      contactName: body.contactName,
      contactPhone: body.contactPhone,
      contactEmail: body.contactEmail ?? null,
      description: body.description ?? null,
      applicantId: ctx.actor.userId,
      status: PARTNER_STATUS.pending,
      createdAt: ctx.clock.now().toISOString(),
    });
    return { id };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('您已有一份待审核的申请，请等待审核结果');
    throw err;
  }
}

/**
 * Approving makes (or reuses, by name) the organisation and makes the applicant its organiser;
 * rejecting needs a reason the applicant will read. A decided application cannot be decided again.
 */
export async function audit(ctx: AuthedCtx, id: number, approve: boolean, reason: string | null | undefined) {
  const application = await repo.findApplication(ctx.db, id);
  if (!application) throw notFound('申请不存在');
  if (!approve && !reason) throw badRequest('请填写驳回原因', { reason: '请填写驳回原因' });
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    let orgId: number | null = null;
    if (approve) {
      const existing = await repo.findOrganisationByName(trx, application.orgName);
      orgId =
        existing?.id ??
        (await repo.insertOrganisation(trx, {
          name: application.orgName,
          kind: application.kind,
          contactName: application.contactName,
          contactPhone: application.contactPhone,
          contactEmail: application.contactEmail,
          createdAt: now,
        }));
    }
    const decided = await repo.decideApplication(trx, id, {
      status: approve ? PARTNER_STATUS.approved : PARTNER_STATUS.rejected,
      reason: reason ?? null,
      orgId,
      reviewedBy: ctx.actor.userId,
      reviewedAt: now,
    });
    if (!decided) throw conflict('该申请已审核，不能重复审核');
    if (approve) {
      await repo.makeOrganiser(trx, application.applicantId, orgId, ROLE_CODES.organiser, now);
    }
    await writeAudit(
      ctx,
      {
        action: approve ? 'partner.approve' : 'partner.reject',
        entity: 'partnerApplication',
        entityId: id,
        before: application,
        after: { status: approve ? 1 : 2, reason, orgId },
      },
      trx,
    );
  });
}

export async function createOrganisation(ctx: Ctx, body: OrganisationBody) {
  try {
    const id = await repo.insertOrganisation(ctx.db, {
      ...body,
      contactName: body.contactName ?? null,
      contactPhone: body.contactPhone ?? null,
      contactEmail: body.contactEmail ?? null,
      createdAt: ctx.clock.now().toISOString(),
    });
    await writeAudit(ctx, { action: 'organisation.create', entity: 'organisation', entityId: id, after: body });
    return { id };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, '机构名称已存在', { name: '机构名称已存在' });
    throw err;
  }
}

export async function updateOrganisation(ctx: Ctx, id: number, body: OrganisationBody) {
  const before = await repo.findOrganisation(ctx.db, id);
  if (!before) throw notFound('机构不存在');
  try {
    await repo.updateOrganisation(ctx.db, id, {
      ...body,
      contactName: body.contactName ?? null,
      contactPhone: body.contactPhone ?? null,
      contactEmail: body.contactEmail ?? null,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, '机构名称已存在', { name: '机构名称已存在' });
    throw err;
  }
  await writeAudit(ctx, { action: 'organisation.update', entity: 'organisation', entityId: id, before, after: body });
}

export async function deleteOrganisation(ctx: Ctx, id: number) {
  const before = await repo.findOrganisation(ctx.db, id);
  if (!before) throw notFound('机构不存在');
  const used = await repo.usage(ctx.db, id);
  if (used.competitions > 0) throw conflict(`该机构还有${used.competitions}个竞赛，不能删除`);
  if (used.users > 0) throw conflict(`该机构还有${used.users}个成员账号，请先移出后再删除`);
  await repo.deleteOrganisation(ctx.db, id);
  await writeAudit(ctx, { action: 'organisation.delete', entity: 'organisation', entityId: id, before });
}
