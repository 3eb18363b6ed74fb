import {
  ACTION_CODES,
  AUDIT_STATUS,
  activeStageId,
  AUDIT_STATUS_TEXT,
  DEFAULT_MENUS,
  MENU_CODES,
  MENU_NAMES,
  REG_FIELDS,
  WINDOW_KINDS,
  competitionReadiness,
  isGap,
  questionScorable,
  readinessRefusal,
  reopenedWindows,
  reopenWarningText,
  type ApproveResult,
  type AuditStatus,
  type Competition,
  type CompetitionBody,
  type ManageListQuery,
  type MenuCode,
  type Preset,
  type PresetBatchBody,
  type PresetBody,
  type Readiness,
  type ReadinessFacts,
  type StageBody,
  isRealNameMenu,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { sanitizeRichText } from '../../http/html.ts';
import { writeAudit } from '../audit-log/index.ts';
import { assertOwnImage } from '../files/index.ts';
import { notify } from '../notices/index.ts';
import { methods as paymentMethods } from '../payments/index.ts';
import { readConfig as invoiceConfig } from '../invoices/index.ts';
import { EVERY_ORG } from '../../db/org-scope.ts';
import * as repo from './repo.ts';
import * as policy from '../../policy.ts';

// ---- The public reads of one competition ---------------------------------------------------------------------------

/** The competition if it is online (the same page for everyone, so it may be cached), else null. */
export async function onlineCompetition(ctx: Ctx, id: number) {
  const competition = await repo.findCompetition(ctx.db, id, ctx.clock.now());
  return competition?.auditStatus === AUDIT_STATUS.online ? competition : null;
}
/** A competition the caller may read: online, or one its organisers or the platform look at; else 404. */
export const readableCompetition = async (ctx: Ctx, id: number) => policy.readsCompetition(ctx, await repo.findCompetition(ctx.db, id, ctx.clock.now()));

/** A competition the caller manages (its organisation's, or any for the platform); any other answers as missing. */
export const managedCompetition = async (ctx: Ctx, id: number) => policy.managesCompetition(ctx, await repo.findCompetition(ctx.db, id, ctx.clock.now()));

/** Whether the caller manages the competition, without the refusal. */
export const isManaged = async (ctx: Ctx, id: number) => policy.manages(ctx, await repo.findCompetition(ctx.db, id, ctx.clock.now()));

/** A competition's page: with its stages, the active one, and its phase (lifecycle.ts) the header and editor show. */
export async function competitionPage(ctx: Ctx, competition: Competition) {
  const now = ctx.clock.now();
  const [stages, phases] = await Promise.all([repo.listStages(ctx.db, competition.id), repo.phasesOf(ctx.db, [competition], now)]);
  return { ...competition, stages, activeStageId: activeStageId(stages, now), phase: phases.get(competition.id)! };
}
export async function stagesOf(ctx: Ctx, competitionId: number) {
  await readableCompetition(ctx, competitionId);
  return repo.listStages(ctx.db, competitionId);
}
export const presetsOf = (ctx: Ctx, competition: Competition) => repo.listPresets(ctx.db, competition.id);
export async function presetOf(ctx: Ctx, id: number) {
  const preset = await repo.findPreset(ctx.db, id);
  if (!preset) throw notFound('菜单设置不存在');
  await readableCompetition(ctx, preset.competitionId);
  return preset;
}
export async function teamNum(ctx: Ctx, competitionId: number) {
  await readableCompetition(ctx, competitionId);
  return repo.teamNum(ctx.db, competitionId);
}
export const memberNum = (ctx: Ctx, competition: Competition) => repo.memberNum(ctx.db, competition.id);

const { draft, pending, rejected, online, offline } = AUDIT_STATUS;

export const listPublic = (ctx: Ctx, q: Parameters<typeof repo.listPublic>[1]) => repo.listPublic(ctx.db, q, ctx.clock.now());

export function listAuth(ctx: AuthedCtx, q: ManageListQuery) {
  return repo.listManage(ctx.db, q, ctx.clock.now(), policy.orgScope(ctx));
}

export const listAll = (ctx: Ctx, q: ManageListQuery) => repo.listManage(ctx.db, q, ctx.clock.now(), EVERY_ORG);

async function assertReferences(ctx: Ctx, body: CompetitionBody, orgId: number) {
  const [brand, type, org] = await Promise.all([
    repo.exists(ctx.db, 'brands', body.brandId),
    body.typeId ? repo.exists(ctx.db, 'competitionTypes', body.typeId) : Promise.resolve(true),
    repo.exists(ctx.db, 'organisations', orgId),
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
    invoiceEnable: body.invoiceEnable ? 1 : 0,
    worksMaxMb: body.worksMaxMb,
    worksTypes: body.worksTypes,
    eligibilityJson: JSON.stringify(body.eligibility),
  };
}

/**
 * Every competition has its ten menu presets from the start: the default ones on, the rest off until the organiser
 * turns them on.
 */
export const defaultPresets = (competitionId: number) =>
  MENU_CODES.map((menuCode) => ({
    competitionId,
    menuCode,
    name: MENU_NAMES[menuCode],
    enable: DEFAULT_MENUS.includes(menuCode) ? 1 : 0,
    enableStartTime: null,
    enableEndTime: null,
    fieldList: JSON.stringify(menuCode === 'REG_SET' ? REG_FIELDS.slice(0, 3).map((f) => ({ ...f, description: null, otherParams: { required: true } })) : []),
  }));

export async function create(ctx: AuthedCtx, body: CompetitionBody) {
  const orgId = policy.isPlatform(ctx) ? body.orgId : ctx.actor.orgId;
  if (!orgId) {
    throw policy.isPlatform(ctx) ? badRequest('请选择主办组织', { orgId: '请选择主办组织' }) : forbidden('您的账号尚未关联组织，不能创建竞赛');
  }
  await assertReferences(ctx, body, orgId);
  await assertOwnImage(ctx, 'cover', body.cover);
  const now = ctx.clock.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const id = await repo.insertCompetition(trx, {
      ...columns(body),
      orgId,
      auditStatus: draft,
      createdBy: ctx.actor.userId,
      createdAt: now,
      updatedAt: now,
    });
    await repo.insertPresets(trx, defaultPresets(id));
    await writeAudit(ctx, { action: 'competition.create', entity: 'competition', entityId: id, after: body }, trx);
    return { id };
  });
}

/** Fields that stay as they are once a competition has been online: participants registered under them. */
const LOCKED_AFTER_ONLINE = ['name', 'brandId', 'orgId', 'fee', 'allowIndividual', 'minMembers', 'maxMembers', 'maxTeachers'] as const;

export async function update(ctx: Ctx, id: number, body: CompetitionBody, reopen?: boolean) {
  const before = await managedCompetition(ctx, id);
  if (before.auditStatus === pending) throw conflict('竞赛正在审核中，不能修改；如需修改请等待审核结果');
  const orgId = policy.isPlatform(ctx) && body.orgId ? body.orgId : before.orgId;
  if (before.auditStatus === online || before.auditStatus === offline) {
    const next = { ...body, orgId };
    const changed = LOCKED_AFTER_ONLINE.filter((k) => next[k] !== undefined && next[k] !== before[k]);
    if (changed.length) throw conflict('竞赛上线后不能修改名称、品牌、主办组织、报名费和组队规则');
    // Teams registered under the rules: places were counted, groups given.
    if (JSON.stringify(body.eligibility) !== JSON.stringify(before.eligibility)) throw conflict('竞赛上线后不能修改参赛资格规则');
  }
  await assertReferences(ctx, body, orgId);
  await assertOwnImage(ctx, 'cover', body.cover, before.cover);
  // The competition's end is the deadline of windows without a stage: moving it may reopen them.
  await unlessInAudit(
    ctx,
    id,
    '竞赛',
    async (trx) => {
      await repo.updateCompetition(trx, id, { ...columns(body), orgId, updatedAt: ctx.clock.now().toISOString() });
      await writeAudit(ctx, { action: 'competition.update', entity: 'competition', entityId: id, before, after: body }, trx);
    },
    reopen,
  );
}

// ---- readiness and the audit workflow

/** The platform's settings readiness reads, not held by a submission: the payment methods participants can choose, and whether invoices are taken. */
const platformFacts = async (ctx: Ctx) => ({
  paymentMethods: (await paymentMethods(ctx)).map((m) => m.name),
  platformInvoices: (await invoiceConfig(ctx)).enable,
});
type PlatformFacts = Awaited<ReturnType<typeof platformFacts>>;

/** What readiness is computed from, read through `db` (in a submission, its transaction: what is checked is what is submitted). */
async function readinessFacts(db: Db, c: Competition, platform: PlatformFacts): Promise<ReadinessFacts> {
  const [stages, presets, qs, edition] = await Promise.all([
    repo.listStages(db, c.id),
    repo.listPresets(db, c.id),
    repo.readinessQuestions(db, c.id),
    repo.editionFacts(db, c.id),
  ]);
  return { competition: c, stages, presets, questions: qs, ...platform, ...(edition && { edition }) };
}

/** `GET /readiness/{id}`: the checklist of what the competition still lacks (packages/shared/src/readiness.ts). */
export async function readiness(ctx: Ctx, id: number): Promise<Readiness> {
  const c = await managedCompetition(ctx, id);
  return competitionReadiness(await readinessFacts(ctx.db, c, await platformFacts(ctx)), ctx.clock.now());
}

/** The organiser says a copied edition's dates or fee are rechecked: the checklist's item is settled. */
export async function recheck(ctx: Ctx, id: number, key: 'dates' | 'fee') {
  await managedCompetition(ctx, id);
  // Read, then written only if unchanged since: the other item settled at the same instant is read again, not undone.
  for (;;) {
    const read = await repo.recheckOf(ctx.db, id);
    if (!read.includes(key)) return readiness(ctx, id);
    const left = read.filter((k) => k !== key);
    const settled = await ctx.db.transaction().execute(async (trx) => {
      if (!(await repo.replaceRecheck(trx, id, read, left))) return false;
      await writeAudit(ctx, { action: 'competition.recheck', entity: 'competition', entityId: id, after: { key } }, trx);
      return true;
    });
    if (settled) return readiness(ctx, id);
  }
}

const stateConflict = async (ctx: Ctx, id: number, before: Competition) => {
  const current = (await repo.findCompetition(ctx.db, id, ctx.clock.now()))?.auditStatus ?? before.auditStatus;
  return new AppError(409, `竞赛当前状态为“${AUDIT_STATUS_TEXT[current]}”，不能执行此操作`);
};

interface Step<T> {
  action: string;
  from: AuditStatus[];
  to: AuditStatus;
  extra?: { auditReply?: string | null };
  /** More work of the same step, in its transaction once the state has moved; throwing undoes the step. */
  inside?: (trx: Db) => Promise<T>;
}

/** One step of the audit workflow; refused with 409 unless the competition is in one of `from`. */
async function step<T = undefined>(ctx: Ctx, id: number, s: Step<T>): Promise<{ before: Competition; result: T }> {
  const before = await managedCompetition(ctx, id);
  const extra = s.extra ?? {};
  const moved = await ctx.db.transaction().execute(async (trx) => {
    // The conditional UPDATE also holds the row: the editor's menu and stage writes wait for this step (holdUnlessInAudit).
    if (!(await repo.transition(trx, id, s.from, s.to, { ...extra, updatedAt: ctx.clock.now().toISOString() }))) return null;
    const result = (s.inside ? await s.inside(trx) : undefined) as T;
    await writeAudit(
      ctx,
      {
        action: s.action,
        entity: 'competition',
        entityId: id,
        before: { auditStatus: before.auditStatus },
        after: { auditStatus: s.to, ...extra, ...(result ?? {}) },
      },
      trx,
    );
    return { result };
  });
  if (!moved) throw await stateConflict(ctx, id, before);
  return { before, result: moved.result };
}

const EDITOR_PATH = (id: number) => `/backadmin.html#/competition/edit/${id}`;
const VIEW_PATH = (id: number) => `/backadmin.html#/competition/view/${id}`;
/** The people told of a step, never the one who took it. */
const others = (ctx: Ctx, ids: number[]) => ids.filter((id) => id !== ctx.actor?.userId);

/**
 * Submits for audit: refused with 409 and the list of blocking gaps (in the message, and by item key in
 * `data.fields`), changing nothing; else the platform's auditors are told.
 */
export async function publish(ctx: Ctx, id: number) {
  const platform = await platformFacts(ctx);
  const { before } = await step(ctx, id, {
    action: 'competition.publish',
    from: [draft, rejected],
    to: pending,
    extra: { auditReply: null },
    inside: async (trx) => {
      const c = (await repo.findCompetition(trx, id, ctx.clock.now()))!;
      const r = competitionReadiness(await readinessFacts(trx, c, platform), ctx.clock.now());
      const refusal = readinessRefusal(r);
      if (refusal) throw new AppError(409, refusal, Object.fromEntries(r.items.filter(isGap).map((g) => [g.key, `${g.label}：${g.detail}`])));
      return undefined;
    },
  });
  await notify(ctx, others(ctx, await repo.auditorIds(ctx.db, ACTION_CODES.competitionAudit)), {
    title: `竞赛待审核：${before.name}`,
    content: `${before.orgName}提交了竞赛“${before.name}”，请在管理后台「竞赛管理 → 竞赛审核」中审核，或打开 ${VIEW_PATH(id)}`,
    source: 'competition.submitted',
  });
}

/** Approves a competition and, in the same transaction, its questions that can be scored; its organisers are told. */
export async function approve(ctx: Ctx, id: number): Promise<ApproveResult> {
  const { before, result } = await step(ctx, id, {
    action: 'competition.audit',
    from: [pending],
    to: online,
    inside: async (trx) => {
      const qs = await repo.readinessQuestions(trx, id);
      const questionsApproved = await repo.markReviewed(
        trx,
        qs.filter((q) => !q.reviewed && questionScorable(q)).map((q) => q.id),
        ctx.clock.now().toISOString(),
      );
      for (const q of questionsApproved)
        await writeAudit(ctx, { action: 'question.review', entity: 'question', entityId: q, after: { with: 'competition.audit' } }, trx);
      return { questionsApproved, questionsWaiting: qs.filter((q) => !q.reviewed && !questionsApproved.includes(q.id)).map((q) => q.id) };
    },
  });
  const n = result.questionsApproved.length;
  const waiting = result.questionsWaiting.length;
  await notify(ctx, others(ctx, await repo.organiserIds(ctx.db, id, ACTION_CODES.competitionEdit)), {
    title: `竞赛审核通过：${before.name}`,
    content:
      `竞赛“${before.name}”已审核通过并上线${n ? `，${n} 道赛题一并审核通过，参赛者可见` : ''}。` +
      (waiting ? `另有 ${waiting} 道赛题缺少评分设置或答案文件，尚未公开：补齐后由平台单独审核。` : '') +
      `上线后新增的赛题需平台审核后才对参赛者可见。`,
    source: 'competition.approved',
  });
  return result;
}

export async function reject(ctx: Ctx, id: number, reply: string) {
  const { before } = await step(ctx, id, { action: 'competition.auditReply', from: [pending], to: rejected, extra: { auditReply: reply } });
  await notify(ctx, others(ctx, await repo.organiserIds(ctx.db, id, ACTION_CODES.competitionEdit)), {
    title: `竞赛审核未通过：${before.name}`,
    content: `竞赛“${before.name}”未通过审核，驳回原因：${reply}。请修改后在竞赛编辑页再次提交审核：${EDITOR_PATH(id)}`,
    source: 'competition.rejected',
  });
}

export const off = async (ctx: Ctx, id: number) => void (await step(ctx, id, { action: 'competition.off', from: [online], to: offline }));
export const on = async (ctx: Ctx, id: number) => void (await step(ctx, id, { action: 'competition.on', from: [offline], to: online }));

export async function remove(ctx: Ctx, id: number) {
  const before = await managedCompetition(ctx, id);
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    // An edition another was copied from stays while that one does (its 往届 line and 查重 follow it).
    if (await repo.hasLaterEditions(trx, id)) throw conflict('已由该竞赛复制出新一届，不能删除；请先删除新一届');
    const ok = await repo.deleteCompetition(trx, id, [draft, rejected]);
    if (ok) await writeAudit(ctx, { action: 'competition.delete', entity: 'competition', entityId: id, before }, trx);
    return ok;
  });
  if (!deleted) throw conflict('只有草稿或已驳回的竞赛可以删除');
}

// ---- stages

/**
 * Runs a change of a competition's dates, stages or menus in a transaction that first holds the competition
 * (repo.holdUnlessInAudit): refused with 409, changing nothing, while it is in audit, since the auditor judges what was
 * submitted. Once results are published (any question's grades confirmed), a change that would reopen a window
 * (choice, works, tests) is refused with the warning under `fields.reopen` unless `reopen` confirms it; confirmed, the
 * reopening is audited.
 */
async function unlessInAudit<T>(ctx: Ctx, competitionId: number, what: string, change: (trx: Db) => Promise<T>, reopen = false): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.holdUnlessInAudit(trx, competitionId))) throw conflict(`竞赛正在审核中，不能修改${what}；如需修改请等待审核结果`);
    const published = await repo.anyResultsPublished(trx, competitionId);
    const before = published ? await repo.allWindowsOf(trx, competitionId) : [];
    const result = await change(trx);
    if (published) {
      const reopened = reopenedWindows(before, await repo.allWindowsOf(trx, competitionId), ctx.clock.now());
      if (reopened.length && !reopen) {
        const warning = reopenWarningText(reopened);
        throw new AppError(409, warning, { reopen: warning });
      }
      if (reopened.length) {
        await writeAudit(
          ctx,
          {
            action: 'competition.reopen',
            entity: 'competition',
            entityId: competitionId,
            after: { reopened: reopened.map((w) => ({ kind: w.kind, end: w.end })) },
          },
          trx,
        );
      }
    }
    return result;
  });
}

/** A stage named as a menu's deadline must be the competition's and have an end. */
async function assertDeadlineStage(trx: Db, competitionId: number, stageId: number | null | undefined, field: string) {
  if (!stageId) return;
  const stage = await repo.findStage(trx, stageId);
  if (!stage || stage.competitionId !== competitionId) throw badRequest('所选截止阶段不存在', { [field]: '所选截止阶段不存在' });
  if (!stage.endDate)
    throw badRequest(`阶段「${stage.name}」没有结束时间，不能作为截止时间`, { [field]: `阶段「${stage.name}」没有结束时间，不能作为截止时间` });
}

/** Why a stage that is a menu's deadline cannot lose its end (or go): the menus it closes, named. */
async function deadlineUse(trx: Db, stage: { id: number; name: string }, doing: string) {
  const menus = await repo.presetsEndingWith(trx, stage.id);
  if (menus.length)
    throw conflict(`阶段「${stage.name}」是${menus.map((m) => `「${m.name}」`).join('')}的截止时间，不能${doing}；请先在「菜单设置」中为其改选截止时间`);
}

export async function addStage(ctx: Ctx, competitionId: number, body: StageBody, reopen?: boolean) {
  await managedCompetition(ctx, competitionId);
  return unlessInAudit(
    ctx,
    competitionId,
    '竞赛阶段',
    async (trx) => {
      const id = await repo.insertStage(trx, { competitionId, name: body.name, startDate: body.startDate, endDate: body.endDate ?? null, sort: body.sort });
      await writeAudit(ctx, { action: 'stage.create', entity: 'stage', entityId: id, after: { competitionId, ...body } }, trx);
      return { id };
    },
    reopen,
  );
}

async function ownStage(ctx: Ctx, id: number) {
  const stage = await repo.findStage(ctx.db, id);
  if (!stage) throw notFound('阶段不存在');
  await managedCompetition(ctx, stage.competitionId);
  return stage;
}

export async function editStage(ctx: Ctx, id: number, body: StageBody, reopen?: boolean) {
  const before = await ownStage(ctx, id);
  await unlessInAudit(
    ctx,
    before.competitionId,
    '竞赛阶段',
    async (trx) => {
      if (!body.endDate) await deadlineUse(trx, before, '去掉结束时间');
      await repo.updateStage(trx, id, { name: body.name, startDate: body.startDate, endDate: body.endDate ?? null, sort: body.sort });
      await writeAudit(ctx, { action: 'stage.update', entity: 'stage', entityId: id, before, after: body }, trx);
    },
    reopen,
  );
}

export async function removeStage(ctx: Ctx, id: number, reopen?: boolean) {
  const before = await ownStage(ctx, id);
  await unlessInAudit(
    ctx,
    before.competitionId,
    '竞赛阶段',
    async (trx) => {
      await deadlineUse(trx, before, '删除');
      await repo.deleteStage(trx, id);
      await writeAudit(ctx, { action: 'stage.delete', entity: 'stage', entityId: id, before }, trx);
    },
    reopen,
  );
}

// ---- presets

function presetColumns(body: PresetBody, menuCode: string) {
  if (menuCode !== 'REG_SET' && body.fieldList?.length) throw badRequest('只有报名设置可以配置报名字段', { fieldList: '只有报名设置可以配置报名字段' });
  if (body.deadlineStageId && !(WINDOW_KINDS as readonly string[]).includes(menuCode)) {
    throw badRequest('只有选择赛题、提交作品和提交测试可以设置截止阶段', { deadlineStageId: '只有选择赛题、提交作品和提交测试可以设置截止阶段' });
  }
  if (body.realName && !isRealNameMenu(menuCode)) {
    throw badRequest('只有报名、赛题与数据、提交作品和提交测试可以要求实名认证', { realName: '只有报名、赛题与数据、提交作品和提交测试可以要求实名认证' });
  }
  return {
    enable: body.enable ? 1 : 0,
    enableStartTime: body.enableStartTime ?? null,
    enableEndTime: body.enableEndTime ?? null,
    // Left out, the deadline stays as chosen; null returns it to the competition's end.
    ...(body.deadlineStageId !== undefined ? { deadlineStageId: body.deadlineStageId } : {}),
    // Left out, the requirement stays as set.
    ...(body.realName !== undefined ? { realName: body.realName ? 1 : 0 } : {}),
    ...(body.name ? { name: body.name } : {}),
    ...(body.fieldList ? { fieldList: JSON.stringify(body.fieldList) } : {}),
  };
}

export async function editPreset(ctx: Ctx, id: number, body: PresetBody, reopen?: boolean) {
  const before = await repo.findPreset(ctx.db, id);
  if (!before) throw notFound('菜单设置不存在');
  await managedCompetition(ctx, before.competitionId);
  if (body.menuCode && body.menuCode !== before.menuCode) throw badRequest('不能修改菜单编码', { menuCode: '不能修改菜单编码' });
  const columns = presetColumns(body, before.menuCode);
  await unlessInAudit(
    ctx,
    before.competitionId,
    '菜单设置',
    async (trx) => {
      await assertDeadlineStage(trx, before.competitionId, body.deadlineStageId, 'deadlineStageId');
      await repo.updatePreset(trx, id, columns);
      await writeAudit(ctx, { action: 'preset.update', entity: 'preset', entityId: id, before, after: body }, trx);
    },
    reopen,
  );
}

/** `POST /preset/{competitionId}` sets the preset of `menuCode` (each code exists once per competition). */
export async function savePreset(ctx: Ctx, competitionId: number, body: PresetBody, reopen?: boolean) {
  await managedCompetition(ctx, competitionId);
  if (!body.menuCode) throw badRequest('请指定菜单编码', { menuCode: '请指定菜单编码' });
  const existing = (await repo.listPresets(ctx.db, competitionId)).find((p) => p.menuCode === body.menuCode);
  if (existing) {
    await editPreset(ctx, existing.id, body, reopen);
    return { id: existing.id };
  }
  const columns = presetColumns(body, body.menuCode);
  const menuCode = body.menuCode;
  await unlessInAudit(
    ctx,
    competitionId,
    '菜单设置',
    async (trx) => {
      await assertDeadlineStage(trx, competitionId, body.deadlineStageId, 'deadlineStageId');
      await repo.insertPresets(trx, [{ competitionId, menuCode, name: body.name ?? MENU_NAMES[menuCode], fieldList: '[]', ...columns }]);
    },
    reopen,
  );
  const created = (await repo.listPresets(ctx.db, competitionId)).find((p) => p.menuCode === body.menuCode)!;
  return { id: created.id };
}

/**
 * `PUT /preset/batch/{competitionId}`: the presets of one competition saved together, all or none. Each code is set
 * (or created, for a competition that lacks it); codes not in the batch stay as they are. Answers the presets as saved.
 */
export async function savePresets(ctx: Ctx, competitionId: number, body: PresetBatchBody, reopen?: boolean): Promise<Preset[]> {
  await managedCompetition(ctx, competitionId);
  const items = Object.entries(body.presets) as [MenuCode, PresetBody][];
  await unlessInAudit(
    ctx,
    competitionId,
    '菜单设置',
    async (trx) => {
      const existing = new Map((await repo.listPresets(trx, competitionId)).map((p) => [p.menuCode, p]));
      for (const [menuCode, preset] of items) {
        const before = existing.get(menuCode);
        const columns = presetColumns(preset, menuCode);
        await assertDeadlineStage(trx, competitionId, preset.deadlineStageId, `presets.${menuCode}.deadlineStageId`);
        if (before) {
          await repo.updatePreset(trx, before.id, columns);
          await writeAudit(ctx, { action: 'preset.update', entity: 'preset', entityId: before.id, before, after: { menuCode, ...preset } }, trx);
        } else {
          await repo.insertPresets(trx, [{ competitionId, menuCode, name: preset.name ?? MENU_NAMES[menuCode], fieldList: '[]', ...columns }]);
          await writeAudit(ctx, { action: 'preset.create', entity: 'preset', entityId: null, after: { competitionId, menuCode, ...preset } }, trx);
        }
      }
    },
    reopen,
  );
  return repo.listPresets(ctx.db, competitionId);
}
