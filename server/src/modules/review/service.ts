import { randomInt, randomBytes } from 'node:crypto';
import {
  isHeld,
  ACTION_CODES,
  ASSIGNMENT_STATUS,
  ASSIGNMENT_STATUS_TEXT,
  GRADE_STATE,
  ROLE_CODES,
  earlyAssignWarning,
  judgedByExperts,
  maxTotal,
  usernameKey,
  type AssignResult,
  type Assignment,
  type AssignmentPageQuery,
  type Criterion,
  type CriterionScore,
  type Expert,
  type Judging,
  type QuestionJudge,
  type ReviewRule,
  type ReviewRuleBody,
} from '@contest/shared';
import type { AuthedCtx, Ctx, Deps } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { exportBatches } from '../../db/batches.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { beijingTime, type Column } from '../../http/xlsx.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as competitions from '../competitions/index.ts';
import { notify } from '../notices/index.ts';
import { holdersOf } from '../roles/index.ts';
import * as policy from '../../policy.ts';
import * as repo from './repo.ts';

// ---- Questions and their rules -----------------------------------------------------------------------------------

export async function questionOf(db: Db, questionId: number) {
  const q = await repo.findQuestion(db, questionId);
  if (!q) throw notFound('赛题不存在');
  return { ...q, judging: q.judging as Judging };
}

/** A question of a competition the caller manages; any other answers as missing. */
export async function managedQuestion(ctx: Ctx, questionId: number) {
  const q = await questionOf(ctx.db, questionId);
  await competitions.managedCompetition(ctx, q.competitionId).catch(() => {
    throw notFound('赛题不存在');
  });
  return q;
}

const DEFAULT_RULE = {
  criteria: [] as Criterion[],
  judgesPerWork: 2,
  aggregation: 'mean' as const,
  reviewWeight: 100,
  testWeight: 0,
  blind: true,
  disputeDays: 3,
};

export async function loadRule(db: Db, questionId: number): Promise<ReviewRule> {
  const row = await repo.findRule(db, questionId);
  const scored = await repo.anyScored(db, questionId);
  if (!row) return { questionId, ...DEFAULT_RULE, gradeState: GRADE_STATE.none, confirmedAt: null, scored };
  return {
    questionId,
    criteria: JSON.parse(row.criteriaJson) as Criterion[],
    judgesPerWork: row.judgesPerWork,
    aggregation: row.aggregation as ReviewRule['aggregation'],
    reviewWeight: row.reviewWeight,
    testWeight: row.testWeight,
    blind: row.blind === 1,
    disputeDays: row.disputeDays,
    gradeState: row.gradeState,
    confirmedAt: row.confirmedAt,
    scored,
  };
}

/** Takes the question's rule row lock: assignment, scoring against the lock and grade computation run one at a time. */
export async function lockRule(trx: Db, questionId: number) {
  await repo.lockRuleRow(trx, questionId);
  return loadRule(trx, questionId);
}

/**
 * The rule lock grades take: a question ranked by its private board alone (`auto`) has no rule of its own to save, so
 * its row (which keeps its grade state) is made here, with all the weight on the test score.
 */
export async function lockGradeRule(trx: Db, q: { id: number; judging: Judging }, now: Date) {
  if (q.judging === 'auto') await repo.ensureBoardRule(trx, q.id, now.toISOString());
  return lockRule(trx, q.id);
}

export function assertNotConfirmed(rule: ReviewRule, message: string) {
  if (rule.gradeState === GRADE_STATE.confirmed) throw conflict(message);
}

/**
 * 查重 decided a team's work is not to be judged (issue 37): its tasks are taken from the judges (with any scores they
 * gave it), under the rule's lock, so that it counts in no grade; refused once the grades are confirmed.
 */
export async function withdrawFromReview(trx: Db, questionId: number, teamId: number) {
  assertNotConfirmed(await lockRule(trx, questionId), '成绩已确认，不能再改变作品的评审');
  return repo.deleteTeamAssignments(trx, questionId, teamId);
}

export async function getRule(ctx: Ctx, questionId: number) {
  await managedQuestion(ctx, questionId);
  return loadRule(ctx.db, questionId);
}

const shape = (c: Criterion[]) => JSON.stringify(c.map(({ id, maxScore }) => [id, maxScore]));

/** What an organiser is told of a question ranked by its private board alone: no experts judge it. */
const NOT_JUDGED = '该赛题的评判方式为自动评分，按私榜排名，不需要评审规则和评审专家；如需专家评审，请先在赛题中修改评判方式';

/** A question of the caller's whose judging has experts judge works; any other is refused, saying why. */
async function judgedQuestion(ctx: Ctx, questionId: number) {
  const q = await managedQuestion(ctx, questionId);
  if (!judgedByExperts(q.judging)) throw conflict(NOT_JUDGED);
  return q;
}

export async function saveRule(ctx: Ctx, questionId: number, body: ReviewRuleBody) {
  const q = await judgedQuestion(ctx, questionId);
  if (body.testWeight > 0 && !q.metric) throw badRequest('该赛题未设置自动评测，测试成绩权重须为0', { testWeight: '该赛题未设置自动评测，测试成绩权重须为0' });
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockRule(trx, questionId);
    assertNotConfirmed(before, '成绩已确认，不能再修改评审规则');
    const known = new Set(before.criteria.map((c) => c.id));
    const criteria: Criterion[] = body.criteria.map((c) => ({
      id: c.id && known.has(c.id) ? c.id : `c${randomBytes(4).toString('hex')}`,
      name: c.name,
      description: c.description ?? null,
      maxScore: c.maxScore,
    }));
    if (before.scored && shape(criteria) !== shape(before.criteria)) throw conflict('已有专家评分，不能再增删评审标准或修改满分');
    const now = ctx.clock.now().toISOString();
    const values = {
      criteriaJson: JSON.stringify(criteria),
      judgesPerWork: body.judgesPerWork,
      aggregation: body.aggregation,
      reviewWeight: body.reviewWeight,
      testWeight: body.testWeight,
      blind: body.blind ? 1 : 0,
      disputeDays: body.disputeDays,
      updatedAt: now,
    };
    await repo.upsertRule(trx, questionId, values);
    const after = await loadRule(trx, questionId);
    await writeAudit(ctx, { action: 'review.rule.save', entity: 'question', entityId: questionId, before, after }, trx);
    return after;
  });
}

// ---- Expert judges ------------------------------------------------------------------------------------------------

/**
 * The expert pool is kept apart per organisation: an organiser sees, assigns, changes and removes the experts its
 * organisation added, and sees and assigns (never changes) the platform's shared pool, which only the platform
 * administrator changes. The administrator sees and changes every expert. An expert's `organization` decides the
 * conflicts of interest, so no other organisation may rewrite it.
 *
 * The experts the caller may see and assign: all for the platform; its organisation's and the platform's otherwise.
 */
const expertScope = (ctx: Ctx) => policy.orgScope(ctx);

const toExpert =
  (ctx: Ctx) =>
  ({ orgId, ...r }: repo.ExpertRow): Expert => ({
    ...r,
    questions: Number(r.questions ?? 0),
    assigned: Number(r.assigned ?? 0),
    submitted: Number(r.submitted ?? 0),
    platform: orgId === null,
    canEdit: policy.actsFor(ctx, orgId),
  });

export async function expertPage(ctx: Ctx, q: { page: number; limit: number; keyword?: string }) {
  const { rows, total } = await repo.expertPage(ctx.db, expertScope(ctx), q);
  return { list: rows.map(toExpert(ctx)), total };
}

async function findExpert(ctx: Ctx, userId: number) {
  const row = await repo.findExpert(ctx.db, expertScope(ctx), userId);
  if (!row) throw notFound('专家不存在');
  return toExpert(ctx)(row);
}

/** An expert the caller may change: another organisation's answers as missing, the platform's pool is refused. */
async function changeableExpert(ctx: Ctx, userId: number) {
  const expert = await findExpert(ctx, userId);
  if (!expert.canEdit) throw forbidden('平台专家库中的专家只能由平台管理员修改或移除');
  return expert;
}

/** Adds a registered user to the caller's pool (the platform's, for the administrator) and gives the judge role. */
export async function addExpert(ctx: AuthedCtx, body: { username: string; organization: string; speciality?: string | null; title?: string | null }) {
  const orgId = policy.isPlatform(ctx) ? null : ctx.actor.orgId;
  if (!policy.isPlatform(ctx) && orgId === null) throw forbidden('您的账号尚未关联组织，不能添加专家');
  const userId = await repo.userIdByUsernameKey(ctx.db, usernameKey(body.username));
  if (!userId) throw badRequest('该用户不存在，请先让专家注册账号', { username: '该用户不存在，请先让专家注册账号' });
  const judgeRole = await repo.roleId(ctx.db, ROLE_CODES.judge);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertExpert(trx, {
        userId,
        orgId,
        organization: body.organization,
        speciality: body.speciality ?? null,
        title: body.title ?? null,
        createdAt: ctx.clock.now().toISOString(),
      });
      await repo.grantRole(trx, userId, judgeRole);
      await writeAudit(ctx, { action: 'review.expert.add', entity: 'user', entityId: userId, after: { ...body, orgId } }, trx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('该用户已在专家库中');
    throw err;
  }
  return findExpert(ctx, userId);
}

export async function updateExpert(ctx: Ctx, userId: number, body: { organization: string; speciality?: string | null; title?: string | null }) {
  const before = await changeableExpert(ctx, userId);
  await repo.updateExpert(ctx.db, userId, { organization: body.organization, speciality: body.speciality ?? null, title: body.title ?? null });
  await writeAudit(ctx, { action: 'review.expert.update', entity: 'user', entityId: userId, before, after: body });
  return findExpert(ctx, userId);
}

export async function removeExpert(ctx: Ctx, userId: number) {
  const before = await changeableExpert(ctx, userId);
  if (before.questions > 0) throw conflict('该专家仍在赛题的评审名单中，请先从赛题中移除');
  const judgeRole = await repo.roleId(ctx.db, ROLE_CODES.judge);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteExpert(trx, userId);
    await repo.revokeRole(trx, userId, judgeRole);
    await writeAudit(ctx, { action: 'review.expert.remove', entity: 'user', entityId: userId, before }, trx);
  });
}

// ---- A question's judges -----------------------------------------------------------------------------------------

export async function questionJudges(ctx: Ctx, questionId: number): Promise<QuestionJudge[]> {
  await managedQuestion(ctx, questionId);
  const rows = await repo.questionJudgeRows(ctx.db, questionId);
  return rows.map((r) => ({ ...r, assigned: Number(r.assigned ?? 0), submitted: Number(r.submitted ?? 0) }));
}

export async function judgeCandidates(ctx: Ctx, questionId: number, keyword: string | undefined) {
  await managedQuestion(ctx, questionId);
  return (await repo.judgeCandidates(ctx.db, expertScope(ctx), questionId, keyword)).map(toExpert(ctx));
}

export async function addJudges(ctx: Ctx, questionId: number, userIds: number[]) {
  await judgedQuestion(ctx, questionId);
  const experts = await repo.visibleExpertIds(ctx.db, expertScope(ctx), userIds);
  if (experts.length !== new Set(userIds).size) throw badRequest('只能选择专家库中的专家', { userIds: '只能选择专家库中的专家' });
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertJudges(trx, questionId, [...new Set(userIds)], now);
    await writeAudit(ctx, { action: 'review.judge.add', entity: 'question', entityId: questionId, after: { userIds } }, trx);
  });
  return questionJudges(ctx, questionId);
}

export async function removeJudge(ctx: Ctx, questionId: number, userId: number) {
  await managedQuestion(ctx, questionId);
  if (await repo.judgeHasAssignment(ctx.db, questionId, userId)) throw conflict('该专家已有分配的作品，请先将作品转派给其他专家');
  if (!(await repo.deleteJudge(ctx.db, questionId, userId))) throw notFound('该专家不在本赛题的评审名单中');
  await writeAudit(ctx, { action: 'review.judge.remove', entity: 'question', entityId: questionId, before: { userId } });
}

// ---- Conflicts of interest ------------------------------------------------------------------------------------------

/** Organisation names compared loosely: full-width letters, spaces and case do not make two schools different. */
export const sameOrganisation = (name: string) => name.normalize('NFKC').replace(/\s+/g, '').toLowerCase();

export interface TeamPeople {
  /** Members, leader first, with the name and school of their registration form (or profile). */
  members: { userId: number; name: string; school: string | null }[];
  /** The members' schools, once each. */
  schools: string[];
  teachers: { id: number; name: string; school: string | null }[];
  /** Every organisation the team's people name, in registration and profile alike: what a judge must not share. */
  organisations: string[];
}

/** Each team's people and where they come from, for review, grades exports and certificates alike. */
export async function teamPeople(db: Db, teamIds: number[]) {
  const out = new Map<number, TeamPeople>();
  if (!teamIds.length) return out;
  for (const id of teamIds) out.set(id, { members: [], schools: [], teachers: [], organisations: [] });
  const members = await repo.teamMemberRows(db, teamIds);
  for (const m of members) {
    const info = JSON.parse(m.infoJson) as { userName?: string; organization?: string };
    const school = info.organization || m.organization || null;
    const team = out.get(m.teamId)!;
    // A name proved by 实名认证 is the member's name (certificates print it); otherwise the form's, the profile's, the login.
    team.members.push({ userId: m.userId, name: m.verifiedName || info.userName || m.userName || m.username, school });
    if (school && !team.schools.includes(school)) team.schools.push(school);
    for (const org of [info.organization, m.organization]) if (org?.trim()) team.organisations.push(org);
  }
  const teachers = await repo.teamTeacherRows(db, teamIds);
  for (const t of teachers) {
    const team = out.get(t.teamId)!;
    team.teachers.push({ id: t.id, name: t.name, school: t.organization });
    if (t.organization?.trim()) team.organisations.push(t.organization);
  }
  return out;
}

type Judge = { userId: number; organization: string };
const conflicted = (judge: Judge, people: TeamPeople | undefined) =>
  Boolean(
    people &&
      (people.members.some((m) => m.userId === judge.userId) || people.organisations.some((o) => sameOrganisation(o) === sameOrganisation(judge.organization))),
  );

const judgesOf = (db: Db, questionId: number): Promise<Judge[]> => repo.judgesOf(db, questionId);

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function newCode(taken: Set<string>) {
  for (;;) {
    const code = Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
    if (!taken.has(code)) return (taken.add(code), code);
  }
}

/**
 * Gives every work `judgesPerWork` judges of the question's list, never one from the team's own organisation (or a
 * member of it). The works with the fewest eligible judges are served first, each by the least loaded eligible judges,
 * so the load stays balanced. Re-running fills only the places still missing (new works, new judges).
 */
export async function autoAssign(ctx: Ctx, questionId: number, early = false): Promise<AssignResult> {
  const q = await judgedQuestion(ctx, questionId);
  return ctx.db.transaction().execute(async (trx) => {
    const rule = await lockRule(trx, questionId);
    if (!rule.criteria.length) throw conflict('请先设置该赛题的评审规则');
    assertNotConfirmed(rule, '成绩已确认，不能再分配作品');
    const judges = await judgesOf(trx, questionId);
    if (!judges.length) throw conflict('请先为该赛题添加评审专家');
    const withWorks = await repo.teamsWithWorks(trx, questionId);
    if (!withWorks.length) throw conflict('该赛题还没有作品');
    // Judges should score the version that counts: before the works deadline, teams may still replace what is given
    // to them, so assigning then is done only when the organiser confirms the warning (`fields.early`).
    const window = await competitions.submissionWindowOf(trx, q.competitionId, 'SUBMIT_WORKS');
    const warning = earlyAssignWarning(window, ctx.clock.now());
    if (warning && !early) throw new AppError(409, warning, { early: warning });
    const closed = window.enabled && window.end !== null && new Date(window.end) <= ctx.clock.now();
    // 查重 (issue 37): no work goes to judges while a run reads them, nor one held until the organiser decides; once
    // the works deadline has passed, not before a run has read every work (it starts by itself within a minute).
    const similarity = await repo.similarityState(trx, questionId);
    if (similarity.running) throw conflict('作品查重正在进行，请等待查重完成后再分配');
    if (closed && similarity.failed) throw conflict('作品查重未能完成，请在“作品查重”中重新查重，完成后再分配');
    if (closed && similarity.unread) throw conflict('作品提交已截止，查重将在一分钟内自动开始（也可在“作品查重”中立即开始），请在查重完成后再分配');
    const held = new Set(
      similarity.marks
        .filter((m) =>
          isHeld(
            { topShare: Math.max(m.topShare, m.codeShare), identityCount: (JSON.parse(m.identityJson) as unknown[]).length, decision: m.decision },
            { holdPercent: similarity.holdPercent, blind: rule.blind },
          ),
        )
        .map((m) => m.teamId),
    );
    const teams = withWorks.filter((t) => !held.has(t.id));
    const existing = await repo.assignmentsOf(trx, questionId);
    const people = await teamPeople(
      trx,
      teams.map((t) => t.id),
    );
    const load = new Map(judges.map((j) => [j.userId, 0]));
    for (const a of existing) load.set(a.judgeId, (load.get(a.judgeId) ?? 0) + 1);
    const codes = new Set(existing.map((a) => a.code));
    const plan = teams.map((t) => {
      const mine = existing.filter((a) => a.teamId === t.id);
      const eligible = judges.filter((j) => !conflicted(j, people.get(t.id)) && !mine.some((a) => a.judgeId === j.userId));
      return { team: t, need: Math.max(0, rule.judgesPerWork - mine.filter((a) => !a.rereview).length), eligible };
    });
    plan.sort((a, b) => a.eligible.length - b.eligible.length || a.team.id - b.team.id);
    const now = ctx.clock.now().toISOString();
    const rows: { questionId: number; teamId: number; judgeId: number; code: string; createdAt: string; updatedAt: string }[] = [];
    const short: AssignResult['short'] = [];
    for (const p of plan) {
      if (!p.need) continue;
      const chosen = [...p.eligible].sort((a, b) => load.get(a.userId)! - load.get(b.userId)! || a.userId - b.userId).slice(0, p.need);
      for (const j of chosen) {
        load.set(j.userId, load.get(j.userId)! + 1);
        rows.push({ questionId, teamId: p.team.id, judgeId: j.userId, code: newCode(codes), createdAt: now, updatedAt: now });
      }
      if (chosen.length < p.need) short.push({ teamId: p.team.id, teamNo: p.team.teamNo, missing: p.need - chosen.length });
    }
    await repo.insertAssignments(trx, rows);
    await writeAudit(
      ctx,
      { action: 'review.assign.auto', entity: 'question', entityId: questionId, after: { created: rows.length, short, held: held.size } },
      trx,
    );
    return { created: rows.length, short: short.sort((a, b) => a.teamNo.localeCompare(b.teamNo)), held: held.size };
  });
}

const toAssignment =
  (rule: ReviewRule) =>
  ({ scoresJson: _s, comment: _c, scoredVersion, currentVersion, ...r }: repo.AssignmentRow): Assignment => ({
    ...r,
    maxTotal: maxTotal(rule.criteria),
    rereview: r.rereview === 1,
    scoredVersion: scoredVersion === null ? null : Number(scoredVersion),
    currentVersion: currentVersion === null ? null : Number(currentVersion),
  });

export async function assignmentPage(ctx: Ctx, questionId: number, q: AssignmentPageQuery, max = q.limit) {
  await managedQuestion(ctx, questionId);
  const rule = await loadRule(ctx.db, questionId);
  const { rows, total } = await repo.assignmentPage(ctx.db, questionId, q, max);
  return { list: rows, total, rule };
}
export const toAssignmentList = (rule: ReviewRule, rows: repo.AssignmentRow[]) => rows.map(toAssignment(rule));

async function managedAssignment(ctx: Ctx, id: number) {
  const a = await repo.findAssignment(ctx.db, id);
  if (!a) throw notFound('评审任务不存在');
  await managedQuestion(ctx, a.questionId).catch(() => {
    throw notFound('评审任务不存在');
  });
  return a;
}

/** Checks that `judgeId` may review the team's work: on the question's list, no conflict, not already reviewing it. */
export async function assertEligible(db: Db, questionId: number, teamId: number, judgeId: number) {
  const judge = (await judgesOf(db, questionId)).find((j) => j.userId === judgeId);
  if (!judge) throw badRequest('请选择本赛题评审名单中的专家', { judgeId: '请选择本赛题评审名单中的专家' });
  if (conflicted(judge, (await teamPeople(db, [teamId])).get(teamId))) throw conflict('该专家与作品所属队伍来自同一单位，需回避');
  if (await repo.isAssigned(db, questionId, teamId, judgeId)) throw conflict('该专家已在评审这份作品');
}

/** Gives a work not yet submitted to another judge; a draft's scores stay with the judge who wrote them, so they start over. */
export async function reassign(ctx: Ctx, id: number, judgeId: number) {
  const a = await managedAssignment(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    const rule = await lockRule(trx, a.questionId);
    assertNotConfirmed(rule, '成绩已确认，不能再转派');
    if ((await repo.assignmentStatus(trx, id)) === ASSIGNMENT_STATUS.submitted) throw conflict('已提交的评分不能转派，请先重新打开');
    await assertEligible(trx, a.questionId, a.teamId, judgeId);
    await repo.reassignTo(trx, id, judgeId, ctx.clock.now().toISOString());
    await writeAudit(
      ctx,
      { action: 'review.assign.reassign', entity: 'reviewAssignment', entityId: id, before: { judgeId: a.judgeId }, after: { judgeId } },
      trx,
    );
  });
  return toAssignment(await loadRule(ctx.db, a.questionId))(await repo.assignmentView(ctx.db, id));
}

/** Only the organiser reopens a submitted score; the judge may then change it and submit again. */
export async function reopen(ctx: Ctx, id: number) {
  const a = await managedAssignment(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    const rule = await lockRule(trx, a.questionId);
    assertNotConfirmed(rule, '成绩已确认，不能重新打开评分');
    if (!(await repo.reopenSubmitted(trx, id, ctx.clock.now().toISOString()))) throw conflict('只有已提交的评分可以重新打开');
    await writeAudit(ctx, { action: 'review.assign.reopen', entity: 'reviewAssignment', entityId: id, before: { status: a.status, total: a.total } }, trx);
  });
  return toAssignment(await loadRule(ctx.db, a.questionId))(await repo.assignmentView(ctx.db, id));
}

// ---- A new version after judging -------------------------------------------------------------------------------------

export interface ReplacedScores {
  questionId: number;
  teamId: number;
  version: number;
  /** The submitted scores of an earlier version, given back to their judges as drafts. */
  reopened: { id: number; judgeId: number; code: string }[];
}

/**
 * A team's new works version was recorded (in `trx`, the upload's transaction): every score submitted for an earlier
 * version goes back to its judge as a draft, so the score that counts is always for the version that counts. Takes
 * the rule's lock first, so a judge submitting at the same moment is either reopened here or refused for the old
 * version. Published results stay as they are (the organiser was warned when reopening submission).
 */
export async function versionReplaced(trx: Db, v: { questionId: number; teamId: number; workId: number; version: number; now: Date }): Promise<ReplacedScores> {
  const rule = await lockRule(trx, v.questionId);
  const none = { questionId: v.questionId, teamId: v.teamId, version: v.version, reopened: [] };
  if (rule.gradeState === GRADE_STATE.confirmed) return none;
  const stale = (await repo.submittedOfTeam(trx, v.questionId, v.teamId)).filter((a) => a.workId !== v.workId);
  for (const a of stale) await repo.reopenSubmitted(trx, a.id, v.now.toISOString());
  return { ...none, reopened: stale.map(({ id, judgeId, code }) => ({ id, judgeId, code })) };
}

/** Tells each judge whose score was given back, and the organisation's staff who assign works, what happened. */
export async function tellReplaced(deps: Pick<Deps, 'db' | 'clock' | 'hub' | 'log' | 'config'>, r: ReplacedScores): Promise<void> {
  if (!r.reopened.length) return;
  const q = await questionOf(deps.db, r.questionId);
  for (const a of r.reopened) {
    await notify(deps, [a.judgeId], {
      title: '作品已更新，请重新评审',
      content: `赛题“${q.title}”中您已提交评分的作品（编号 ${a.code}）在截止前上传了新版本（第 ${r.version} 版）。您的评分已退回为草稿，请下载新版本查看后重新提交。`,
      source: 'review.newVersion',
    });
  }
  const team = await repo.teamLabel(deps.db, r.teamId);
  await notify(deps, await holdersOf(deps.db, ACTION_CODES.assignEdit, q.orgId), {
    title: '作品在评分后更新',
    content: `队伍“${team}”在专家评分后上传了赛题“${q.title}”的新版本（第 ${r.version} 版），${r.reopened.length} 位专家的评分已退回，需要重新评审。`,
    source: 'review.newVersion',
  });
}

/**
 * The scores of a question's assignments (those the filters keep) as xlsx: a row per assignment, a column per
 * criterion. Every assignment, read a page at a time in the list's order (no cap); the first page is read here, so a
 * question the caller may not see is refused before anything is streamed.
 */
export async function scoreSheet(ctx: Ctx, questionId: number, q: AssignmentPageQuery = { page: 1, limit: exportBatches.size }) {
  const size = exportBatches.size;
  const first = await assignmentPage(ctx, questionId, { ...q, page: 1, limit: size }, size);
  const { list, rule } = first;
  type Row = (typeof list)[number];
  const scoreOf = (r: Row, id: string) => (JSON.parse(r.scoresJson) as CriterionScore[]).find((s) => s.criterionId === id)?.score ?? '';
  const columns: Column<Row>[] = [
    { header: '队伍编号', value: (r) => r.teamNo },
    { header: '队伍名称', value: (r) => r.teamName, width: 24 },
    { header: '作品编号', value: (r) => r.code },
    { header: '评审专家', value: (r) => r.judgeName ?? r.judgeUsername },
    { header: '状态', value: (r) => ASSIGNMENT_STATUS_TEXT[r.status] ?? '' },
    { header: '复评', value: (r) => (r.rereview ? '是' : ''), width: 8 },
    ...rule.criteria.map((c): Column<Row> => ({ header: `${c.name}（满分${c.maxScore}）`, value: (r) => scoreOf(r, c.id) })),
    { header: `总分（满分${maxTotal(rule.criteria)}）`, value: (r) => r.total ?? '' },
    { header: '总评', value: (r) => r.comment ?? '', width: 40 },
    { header: '提交时间', value: (r) => beijingTime(r.submittedAt), width: 20 },
  ];
  async function* pages() {
    let rows = list;
    for (let page = 2; ; page++) {
      if (rows.length) yield rows;
      if (rows.length < size) return;
      rows = (await assignmentPage(ctx, questionId, { ...q, page, limit: size }, size)).list;
    }
  }
  return { columns, batches: pages() };
}
