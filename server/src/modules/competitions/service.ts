import {
  ACTION_CODES,
  AUDIT_STATUS,
  AUDIT_STATUS_TEXT,
  DEFAULT_MENUS,
  MENU_CODES,
  MENU_NAMES,
  REG_FIELDS,
  type AuditStatus,
  type Competition,
  type CompetitionBody,
  type ManageListQuery,
  type MenuCode,
  type Preset,
  type PresetBatchBody,
  type PresetBody,
  type StageBody,
} from '@contest/shared';
import type { Ctx } from '../../context.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { sanitizeRichText } from '../../http/html.ts';
import { writeAudit } from '../audit-log/repo.ts';
import { assertOwnImage } from '../files/images.ts';
import * as repo from './repo.ts';

const { draft, pending, rejected, online, offline } = AUDIT_STATUS;

/** Platform administrators see every competition; everybody else only their organisation's. */
export function seesAll(ctx: Ctx) {
  return Boolean(ctx.actor?.permissions.has(ACTION_CODES.competitionAudit));
}

/** Drops the organisation id that scoping needed from what goes back to the browser. */
export const withoutOrg = <T extends { orgId: number }>({ orgId: _org, ...rest }: T): Omit<T, 'orgId'> => rest;

/** A competition the caller may manage; another organisation's answers as missing. */
export async function manageable(ctx: Ctx, id: number): Promise<Competition> {
  const c = await repo.findCompetition(ctx.db, id, ctx.clock.now());
  if (!c || (!seesAll(ctx) && c.orgId !== ctx.actor?.orgId)) throw notFound('竞赛不存在');
  return c;
}

/** Anyone may read an online competition; its organisers and the platform may read it in any state. */
export async function readable(ctx: Ctx, id: number): Promise<Competition> {
  const c = await repo.findCompetition(ctx.db, id, ctx.clock.now());
  if (!c) throw notFound('竞赛不存在');
  if (c.auditStatus === online) return c;
  if (ctx.actor && (seesAll(ctx) || (ctx.actor.permissions.has('competition:competition:menu') && c.orgId === ctx.actor.orgId))) return c;
  throw notFound('竞赛不存在');
}

export const listPublic = (ctx: Ctx, q: Parameters<typeof repo.listPublic>[1]) => repo.listPublic(ctx.db, q, ctx.clock.now());

export function listAuth(ctx: Ctx, q: ManageListQuery) {
  return repo.listManage(ctx.db, q, ctx.clock.now(), seesAll(ctx) ? undefined : (ctx.actor!.orgId ?? null));
}

export const listAll = (ctx: Ctx, q: ManageListQuery) => repo.listManage(ctx.db, q, ctx.clock.now(), undefined);

async function assertReferences(ctx: Ctx, body: CompetitionBody, orgId: number) {
  const [brand, type, org] = await Promise.all([
    ctx.db.selectFrom('brands').select('id').where('id', '=', body.brandId).executeTakeFirst(),
    body.typeId ? ctx.db.selectFrom('competitionTypes').select('id').where('id', '=', body.typeId).executeTakeFirst() : Promise.resolve({ id: 0 }),
    ctx.db.selectFrom('organisations').select('id').where('id', '=', orgId).executeTakeFirst(),
  ]);
  if (!brand) throw badRequest('所选品牌不存在', { brandId: '所选品牌不存在' });
  if (!type) throw badRequest('所选竞赛类型不存在', { typeId: '所选竞赛类型不存在' });
  if (!org) throw badRequest('所选组织不存在', { orgId: '所选组织不存在' });
}

function columns(body: CompetitionBody) {
  return {
    name: body.name,
    brandId: body.brandId,
    typeId: body.typeId ?? null,
    cover: body.cover ?? null,
    summary: body.summary ?? null,
    introduce: sanitizeRichText(body.introduce),
    information: sanitizeRichText(body.information),
    guide: sanitizeRichText(body.guide),
    trainingUrl: body.trainingUrl ?? null,
    regStartTime: body.regStartTime,
    regEndTime: body.regEndTime,
    endTime: body.endTime,
    allowIndividual: body.allowIndividual ? 1 : 0,
    minMembers: body.minMembers,
    maxMembers: body.maxMembers,
    maxTeachers: body.maxTeachers,
    fee: body.fee,
    worksMaxMb: body.worksMaxMb,
    worksTypes: body.worksTypes,
  };
}

export async function create(ctx: Ctx, body: CompetitionBody) {
  const orgId = seesAll(ctx) ? body.orgId : ctx.actor!.orgId;
  if (!orgId) {
    throw seesAll(ctx) ? badRequest('请选择主办组织', { orgId: '请选择主办组织' }) : forbidden('您的账号尚未关联组织，不能创建竞赛');
  }
  await assertReferences(ctx, body, orgId);
  await assertOwnImage(ctx, 'cover', body.cover);
  const now = ctx.clock.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const id = await repo.insertCompetition(trx, {
      ...columns(body),
      orgId,
      auditStatus: draft,
      createdBy: ctx.actor!.userId,
      createdAt: now,
      updatedAt: now,
    });
    // Every competition has its ten menu presets from the start: the default ones on, the rest off until the
    // organiser turns them on.
    await repo.insertPresets(
      trx,
      MENU_CODES.map((menuCode) => ({
        competitionId: id,
        menuCode,
        name: MENU_NAMES[menuCode],
        enable: DEFAULT_MENUS.includes(menuCode) ? 1 : 0,
        enableStartTime: null,
        enableEndTime: null,
        fieldList: JSON.stringify(menuCode === 'REG_SET' ? REG_FIELDS.slice(0, 3).map((f) => ({ ...f, description: null, otherParams: { required: true } })) : []),
      })),
    );
    await writeAudit(ctx, { action: 'competition.create', entity: 'competition', entityId: id, after: body }, trx);
    return { id };
  });
}

/** Fields that stay as they are once a competition has been online: participants registered under them. */
const LOCKED_AFTER_ONLINE = ['name', 'brandId', 'orgId', 'fee', 'allowIndividual', 'minMembers', 'maxMembers', 'maxTeachers'] as const;

export async function update(ctx: Ctx, id: number, body: CompetitionBody) {
  const before = await manageable(ctx, id);
  if (before.auditStatus === pending) throw conflict('竞赛正在审核中，不能修改；如需修改请等待审核结果');
  const orgId = seesAll(ctx) && body.orgId ? body.orgId : before.orgId;
  if (before.auditStatus === online || before.auditStatus === offline) {
    const next = { ...body, orgId };
    const changed = LOCKED_AFTER_ONLINE.filter((k) => next[k] !== undefined && next[k] !== before[k]);
    if (changed.length) throw conflict('竞赛上线后不能修改名称、品牌、主办组织、报名费和组队规则');
  }
  await assertReferences(ctx, body, orgId);
  await assertOwnImage(ctx, 'cover', body.cover, before.cover);
  await repo.updateCompetition(ctx.db, id, { ...columns(body), orgId, updatedAt: ctx.clock.now().toISOString() });
  await writeAudit(ctx, { action: 'competition.update', entity: 'competition', entityId: id, before, after: body });
}

/** One step of the audit workflow; refused with 409 unless the competition is in one of `from`. */
async function step(ctx: Ctx, id: number, action: string, from: AuditStatus[], to: AuditStatus, extra: { auditReply?: string | null } = {}) {
  const before = await manageable(ctx, id);
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const ok = await repo.transition(trx, id, from, to, { ...extra, updatedAt: ctx.clock.now().toISOString() });
    if (ok) await writeAudit(ctx, { action, entity: 'competition', entityId: id, before: { auditStatus: before.auditStatus }, after: { auditStatus: to, ...extra } }, trx);
    return ok;
  });
  if (!moved) {
    const current = (await repo.findCompetition(ctx.db, id, ctx.clock.now()))?.auditStatus ?? before.auditStatus;
    throw new AppError(409, `竞赛当前状态为“${AUDIT_STATUS_TEXT[current]}”，不能执行此操作`);
  }
}

export const publish = (ctx: Ctx, id: number) => step(ctx, id, 'competition.publish', [draft, rejected], pending, { auditReply: null });
export const approve = (ctx: Ctx, id: number) => step(ctx, id, 'competition.audit', [pending], online);
export const reject = (ctx: Ctx, id: number, reply: string) => step(ctx, id, 'competition.auditReply', [pending], rejected, { auditReply: reply });
export const off = (ctx: Ctx, id: number) => step(ctx, id, 'competition.off', [online], offline);
export const on = (ctx: Ctx, id: number) => step(ctx, id, 'competition.on', [offline], online);

export async function remove(ctx: Ctx, id: number) {
  const before = await manageable(ctx, id);
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const ok = await repo.deleteCompetition(trx, id, [draft, rejected]);
    if (ok) await writeAudit(ctx, { action: 'competition.delete', entity: 'competition', entityId: id, before }, trx);
    return ok;
  });
  if (!deleted) throw conflict('只有草稿或已驳回的竞赛可以删除');
}

// ---- stages

export async function addStage(ctx: Ctx, competitionId: number, body: StageBody) {
  await manageable(ctx, competitionId);
  const id = await repo.insertStage(ctx.db, { competitionId, name: body.name, startDate: body.startDate, endDate: body.endDate ?? null, sort: body.sort });
  await writeAudit(ctx, { action: 'stage.create', entity: 'stage', entityId: id, after: { competitionId, ...body } });
  return { id };
}

async function ownStage(ctx: Ctx, id: number) {
  const stage = await repo.findStage(ctx.db, id);
  if (!stage) throw notFound('阶段不存在');
  await manageable(ctx, stage.competitionId);
  return stage;
}

export async function editStage(ctx: Ctx, id: number, body: StageBody) {
  const before = await ownStage(ctx, id);
  await repo.updateStage(ctx.db, id, { name: body.name, startDate: body.startDate, endDate: body.endDate ?? null, sort: body.sort });
  await writeAudit(ctx, { action: 'stage.update', entity: 'stage', entityId: id, before, after: body });
}

export async function removeStage(ctx: Ctx, id: number) {
  const before = await ownStage(ctx, id);
  await repo.deleteStage(ctx.db, id);
  await writeAudit(ctx, { action: 'stage.delete', entity: 'stage', entityId: id, before });
}

// ---- presets

function presetColumns(body: PresetBody, menuCode: string) {
  if (menuCode !== 'REG_SET' && body.fieldList?.length) throw badRequest('只有报名设置可以配置报名字段', { fieldList: '只有报名设置可以配置报名字段' });
  return {
    enable: body.enable ? 1 : 0,
    enableStartTime: body.enableStartTime ?? null,
    enableEndTime: body.enableEndTime ?? null,
    ...(body.name ? { name: body.name } : {}),
    ...(body.fieldList ? { fieldList: JSON.stringify(body.fieldList) } : {}),
  };
}

export async function editPreset(ctx: Ctx, id: number, body: PresetBody) {
  const before = await repo.findPreset(ctx.db, id);
  if (!before) throw notFound('菜单设置不存在');
  await manageable(ctx, before.competitionId);
  if (body.menuCode && body.menuCode !== before.menuCode) throw badRequest('不能修改菜单编码', { menuCode: '不能修改菜单编码' });
  await repo.updatePreset(ctx.db, id, presetColumns(body, before.menuCode));
  await writeAudit(ctx, { action: 'preset.update', entity: 'preset', entityId: id, before, after: body });
}

/** `POST /preset/{competitionId}` sets the preset of `menuCode` (each code exists once per competition). */
export async function savePreset(ctx: Ctx, competitionId: number, body: PresetBody) {
  await manageable(ctx, competitionId);
  if (!body.menuCode) throw badRequest('请指定菜单编码', { menuCode: '请指定菜单编码' });
  const existing = (await repo.listPresets(ctx.db, competitionId)).find((p) => p.menuCode === body.menuCode);
  if (existing) {
    await editPreset(ctx, existing.id, body);
    return { id: existing.id };
  }
  await repo.insertPresets(ctx.db, [{ competitionId, menuCode: body.menuCode, name: body.name ?? MENU_NAMES[body.menuCode], fieldList: '[]', ...presetColumns(body, body.menuCode) }]);
  const created = (await repo.listPresets(ctx.db, competitionId)).find((p) => p.menuCode === body.menuCode)!;
  return { id: created.id };
}

/**
 * `PUT /preset/batch/{competitionId}`: the presets of one competition saved together, all or none. Each code is set
 * (or created, for a competition that lacks it); codes not in the batch stay as they are. Answers the presets as saved.
 */
export async function savePresets(ctx: Ctx, competitionId: number, body: PresetBatchBody): Promise<Preset[]> {
  await manageable(ctx, competitionId);
  const items = Object.entries(body.presets) as [MenuCode, PresetBody][];
  await ctx.db.transaction().execute(async (trx) => {
    const existing = new Map((await repo.listPresets(trx, competitionId)).map((p) => [p.menuCode, p]));
    for (const [menuCode, preset] of items) {
      const before = existing.get(menuCode);
      const columns = presetColumns(preset, menuCode);
      if (before) {
        await repo.updatePreset(trx, before.id, columns);
        await writeAudit(ctx, { action: 'preset.update', entity: 'preset', entityId: before.id, before, after: { menuCode, ...preset } }, trx);
      } else {
        await repo.insertPresets(trx, [{ competitionId, menuCode, name: preset.name ?? MENU_NAMES[menuCode], fieldList: '[]', ...columns }]);
        await writeAudit(ctx, { action: 'preset.create', entity: 'preset', entityId: null, after: { competitionId, menuCode, ...preset } }, trx);
      }
    }
  });
  return repo.listPresets(ctx.db, competitionId);
}
