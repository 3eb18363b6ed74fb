import { randomInt, randomBytes } from 'node:crypto';
import {
  ASSIGNMENT_STATUS,
  GRADE_STATE,
  ROLE_CODES,
  extensionOf,
  judgeTotal,
  maxTotal,
  scoreError,
  usernameKey,
  type AssignResult,
  type Assignment,
  type AssignmentPageQuery,
  type Criterion,
  type CriterionScore,
  type Expert,
  type QuestionJudge,
  type ReviewRule,
  type ReviewRuleBody,
  type ReviewTask,
  type ReviewWork,
  type ReviewWorkDetail,
  type ScoreBody,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { containsText } from '../../db/like.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/repo.ts';
import * as policy from '../../policy.ts';

// ---- Questions and their rules -----------------------------------------------------------------------------------

export async function questionOf(db: Db, questionId: number) {
  const q = await db
    .selectFrom('questions as q')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .select(['q.id', 'q.title', 'q.competitionId', 'q.metric', 'c.name as competitionName'])
    .where('q.id', '=', questionId)
    .executeTakeFirst();
  if (!q) throw notFound('赛题不存在');
  return q;
}

/** A question of a competition the caller manages; any other answers as missing. */
export async function managedQuestion(ctx: Ctx, questionId: number) {
  const q = await questionOf(ctx.db, questionId);
  await policy.managesCompetition(ctx, q.competitionId).catch(() => {
    throw notFound('赛题不存在');
  });
  return q;
}

const DEFAULT_RULE = { criteria: [] as Criterion[], judgesPerWork: 2, aggregation: 'mean' as const, reviewWeight: 100, testWeight: 0, blind: true, disputeDays: 3 };

export async function loadRule(db: Db, questionId: number): Promise<ReviewRule> {
  const row = await db.selectFrom('reviewRules').selectAll().where('questionId', '=', questionId).executeTakeFirst();
  const scored = await db.selectFrom('reviewAssignments').select('id').where('questionId', '=', questionId).where('status', '>', ASSIGNMENT_STATUS.pending).limit(1).executeTakeFirst();
  if (!row) return { questionId, ...DEFAULT_RULE, gradeState: GRADE_STATE.none, confirmedAt: null, scored: Boolean(scored) };
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
    scored: Boolean(scored),
  };
}

/** Takes the question's rule row lock: assignment, scoring against the lock and grade computation run one at a time. */
export async function lockRule(trx: Db, questionId: number) {
  await trx.updateTable('reviewRules').set((eb) => ({ gradeState: eb.ref('gradeState') })).where('questionId', '=', questionId).execute();
  return loadRule(trx, questionId);
}

export function assertNotConfirmed(rule: ReviewRule, message: string) {
  if (rule.gradeState === GRADE_STATE.confirmed) throw conflict(message);
}

export async function getRule(ctx: Ctx, questionId: number) {
  await managedQuestion(ctx, questionId);
  return loadRule(ctx.db, questionId);
}

const shape = (c: Criterion[]) => JSON.stringify(c.map(({ id, maxScore }) => [id, maxScore]));

export async function saveRule(ctx: Ctx, questionId: number, body: ReviewRuleBody) {
  const q = await managedQuestion(ctx, questionId);
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
    await trx.insertInto('reviewRules').values({ questionId, ...values }).onConflict((oc) => oc.column('questionId').doUpdateSet(values)).execute();
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
 */
const expertRows = (db: Db) =>
  db
    .selectFrom('experts as e')
    .innerJoin('users as u', 'u.id', 'e.userId')
    .select((eb) => [
      'e.userId',
      'e.orgId',
      'u.username',
      'u.userName',
      'e.organization',
      'e.speciality',
      'e.title',
      'e.createdAt',
      eb.selectFrom('questionJudges as j').select((s) => s.fn.countAll<number>().as('n')).whereRef('j.userId', '=', 'e.userId').as('questions'),
      eb.selectFrom('reviewAssignments as a').select((s) => s.fn.countAll<number>().as('n')).whereRef('a.judgeId', '=', 'e.userId').as('assigned'),
      eb.selectFrom('reviewAssignments as a').select((s) => s.fn.countAll<number>().as('n')).whereRef('a.judgeId', '=', 'e.userId').where('a.status', '=', ASSIGNMENT_STATUS.submitted).as('submitted'),
    ]);
type ExpertRow = Awaited<ReturnType<ReturnType<typeof expertRows>['executeTakeFirstOrThrow']>>;

/** The experts the caller may see and assign: all for the platform; its organisation's and the platform's otherwise. */
function visibleExperts(ctx: Ctx) {
  const query = expertRows(ctx.db);
  if (policy.platform(ctx)) return query;
  const orgId = ctx.actor?.orgId ?? null;
  return query.where((eb) => (orgId === null ? eb('e.orgId', 'is', null) : eb.or([eb('e.orgId', 'is', null), eb('e.orgId', '=', orgId)])));
}

const toExpert =
  (ctx: Ctx) =>
  ({ orgId, ...r }: ExpertRow): Expert => ({
    ...r,
    questions: Number(r.questions ?? 0),
    assigned: Number(r.assigned ?? 0),
    submitted: Number(r.submitted ?? 0),
    platform: orgId === null,
    canEdit: policy.actsFor(ctx, orgId),
  });

const expertMatches = (k: string) => [containsText('u.username', k), containsText('u.userName', k), containsText('e.organization', k), containsText('e.speciality', k)];

export async function expertPage(ctx: Ctx, q: { page: number; limit: number; keyword?: string }) {
  let query = visibleExperts(ctx);
  if (q.keyword) query = query.where((eb) => eb.or(expertMatches(q.keyword!)));
  const { total } = await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.orderBy('e.createdAt', 'desc').orderBy('e.userId', 'desc').limit(q.limit).offset((q.page - 1) * q.limit).execute();
  return { list: rows.map(toExpert(ctx)), total: Number(total) };
}

async function findExpert(ctx: Ctx, userId: number) {
  const row = await visibleExperts(ctx).where('e.userId', '=', userId).executeTakeFirst();
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
  const orgId = policy.platform(ctx) ? null : ctx.actor.orgId;
  if (!policy.platform(ctx) && orgId === null) throw forbidden('您的账号尚未关联组织，不能添加专家');
  const user = await ctx.db.selectFrom('users').select('id').where('usernameKey', '=', usernameKey(body.username)).executeTakeFirst();
  if (!user) throw badRequest('该用户不存在，请先让专家注册账号', { username: '该用户不存在，请先让专家注册账号' });
  const judgeRole = await ctx.db.selectFrom('roles').select('id').where('code', '=', ROLE_CODES.judge).executeTakeFirstOrThrow();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('experts')
        .values({ userId: user.id, orgId, organization: body.organization, speciality: body.speciality ?? null, title: body.title ?? null, createdAt: ctx.clock.now().toISOString() })
        .execute();
      await trx.insertInto('userRoles').values({ userId: user.id, roleId: judgeRole.id }).onConflict((oc) => oc.columns(['userId', 'roleId']).doNothing()).execute();
      await writeAudit(ctx, { action: 'review.expert.add', entity: 'user', entityId: user.id, after: { ...body, orgId } }, trx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('该用户已在专家库中');
    throw err;
  }
  return findExpert(ctx, user.id);
}

export async function updateExpert(ctx: Ctx, userId: number, body: { organization: string; speciality?: string | null; title?: string | null }) {
  const before = await changeableExpert(ctx, userId);
  await ctx.db.updateTable('experts').set({ organization: body.organization, speciality: body.speciality ?? null, title: body.title ?? null }).where('userId', '=', userId).execute();
  await writeAudit(ctx, { action: 'review.expert.update', entity: 'user', entityId: userId, before, after: body });
  return findExpert(ctx, userId);
}

export async function removeExpert(ctx: Ctx, userId: number) {
  const before = await changeableExpert(ctx, userId);
  if (before.questions > 0) throw conflict('该专家仍在赛题的评审名单中，请先从赛题中移除');
  const judgeRole = await ctx.db.selectFrom('roles').select('id').where('code', '=', ROLE_CODES.judge).executeTakeFirstOrThrow();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('experts').where('userId', '=', userId).execute();
    await trx.deleteFrom('userRoles').where('userId', '=', userId).where('roleId', '=', judgeRole.id).execute();
    await writeAudit(ctx, { action: 'review.expert.remove', entity: 'user', entityId: userId, before }, trx);
  });
}

// ---- A question's judges -----------------------------------------------------------------------------------------

export async function questionJudges(ctx: Ctx, questionId: number): Promise<QuestionJudge[]> {
  await managedQuestion(ctx, questionId);
  const rows = await ctx.db
    .selectFrom('questionJudges as j')
    .innerJoin('experts as e', 'e.userId', 'j.userId')
    .innerJoin('users as u', 'u.id', 'j.userId')
    .select((eb) => [
      'e.userId',
      'u.username',
      'u.userName',
      'e.organization',
      'e.speciality',
      'e.title',
      eb.selectFrom('reviewAssignments as a').select((s) => s.fn.countAll<number>().as('n')).whereRef('a.judgeId', '=', 'j.userId').whereRef('a.questionId', '=', 'j.questionId').as('assigned'),
      eb.selectFrom('reviewAssignments as a').select((s) => s.fn.countAll<number>().as('n')).whereRef('a.judgeId', '=', 'j.userId').whereRef('a.questionId', '=', 'j.questionId').where('a.status', '=', ASSIGNMENT_STATUS.submitted).as('submitted'),
    ])
    .where('j.questionId', '=', questionId)
    .orderBy('j.createdAt')
    .orderBy('j.userId')
    .execute();
  return rows.map((r) => ({ ...r, assigned: Number(r.assigned ?? 0), submitted: Number(r.submitted ?? 0) }));
}

export async function judgeCandidates(ctx: Ctx, questionId: number, keyword: string | undefined) {
  await managedQuestion(ctx, questionId);
  let query = visibleExperts(ctx).where('e.userId', 'not in', ctx.db.selectFrom('questionJudges').select('userId').where('questionId', '=', questionId));
  if (keyword) query = query.where((eb) => eb.or(expertMatches(keyword)));
  return (await query.orderBy('u.username').limit(50).execute()).map(toExpert(ctx));
}

export async function addJudges(ctx: Ctx, questionId: number, userIds: number[]) {
  await managedQuestion(ctx, questionId);
  const experts = await visibleExperts(ctx).clearSelect().select('e.userId').where('e.userId', 'in', userIds).execute();
  if (experts.length !== new Set(userIds).size) throw badRequest('只能选择专家库中的专家', { userIds: '只能选择专家库中的专家' });
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('questionJudges')
      .values([...new Set(userIds)].map((userId) => ({ questionId, userId, createdAt: now })))
      .onConflict((oc) => oc.columns(['questionId', 'userId']).doNothing())
      .execute();
    await writeAudit(ctx, { action: 'review.judge.add', entity: 'question', entityId: questionId, after: { userIds } }, trx);
  });
  return questionJudges(ctx, questionId);
}

export async function removeJudge(ctx: Ctx, questionId: number, userId: number) {
  await managedQuestion(ctx, questionId);
  const assigned = await ctx.db.selectFrom('reviewAssignments').select('id').where('questionId', '=', questionId).where('judgeId', '=', userId).limit(1).executeTakeFirst();
  if (assigned) throw conflict('该专家已有分配的作品，请先将作品转派给其他专家');
  const { numDeletedRows } = await ctx.db.deleteFrom('questionJudges').where('questionId', '=', questionId).where('userId', '=', userId).executeTakeFirst();
  if (!Number(numDeletedRows)) throw notFound('该专家不在本赛题的评审名单中');
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
  const members = await db
    .selectFrom('teamMembers as m')
    .innerJoin('users as u', 'u.id', 'm.userId')
    .select(['m.teamId', 'm.userId', 'm.infoJson', 'u.username', 'u.userName', 'u.organization'])
    .where('m.teamId', 'in', teamIds)
    .orderBy('m.leader', 'desc')
    .orderBy('m.createdAt')
    .execute();
  for (const m of members) {
    const info = JSON.parse(m.infoJson) as { userName?: string; organization?: string };
    const school = info.organization || m.organization || null;
    const team = out.get(m.teamId)!;
    team.members.push({ userId: m.userId, name: info.userName || m.userName || m.username, school });
    if (school && !team.schools.includes(school)) team.schools.push(school);
    for (const org of [info.organization, m.organization]) if (org?.trim()) team.organisations.push(org);
  }
  const teachers = await db.selectFrom('teamTeachers').select(['id', 'teamId', 'name', 'organization']).where('teamId', 'in', teamIds).orderBy('sort').orderBy('id').execute();
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

async function judgesOf(db: Db, questionId: number): Promise<Judge[]> {
  return db.selectFrom('questionJudges as j').innerJoin('experts as e', 'e.userId', 'j.userId').select(['e.userId', 'e.organization']).where('j.questionId', '=', questionId).orderBy('e.userId').execute();
}

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
export async function autoAssign(ctx: Ctx, questionId: number): Promise<AssignResult> {
  await managedQuestion(ctx, questionId);
  return ctx.db.transaction().execute(async (trx) => {
    const rule = await lockRule(trx, questionId);
    if (!rule.criteria.length) throw conflict('请先设置该赛题的评审规则');
    assertNotConfirmed(rule, '成绩已确认，不能再分配作品');
    const judges = await judgesOf(trx, questionId);
    if (!judges.length) throw conflict('请先为该赛题添加评审专家');
    const teams = await trx.selectFrom('works as w').innerJoin('teams as t', 't.id', 'w.teamId').select(['t.id', 't.teamNo']).distinct().where('w.questionId', '=', questionId).orderBy('t.id').execute();
    if (!teams.length) throw conflict('该赛题还没有作品');
    const existing = await trx.selectFrom('reviewAssignments').select(['teamId', 'judgeId', 'code', 'rereview']).where('questionId', '=', questionId).execute();
    const people = await teamPeople(trx, teams.map((t) => t.id));
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
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto('reviewAssignments').values(rows.slice(i, i + 500)).execute();
    await writeAudit(ctx, { action: 'review.assign.auto', entity: 'question', entityId: questionId, after: { created: rows.length, short } }, trx);
    return { created: rows.length, short: short.sort((a, b) => a.teamNo.localeCompare(b.teamNo)) };
  });
}

const assignmentRows = (db: Db) =>
  db
    .selectFrom('reviewAssignments as a')
    .innerJoin('teams as t', 't.id', 'a.teamId')
    .innerJoin('users as u', 'u.id', 'a.judgeId')
    .select(['a.id', 'a.questionId', 'a.teamId', 't.teamNo', 't.name as teamName', 'a.judgeId', 'u.username as judgeUsername', 'u.userName as judgeName', 'a.code', 'a.status', 'a.total', 'a.rereview', 'a.updatedAt', 'a.submittedAt', 'a.scoresJson', 'a.comment']);
type AssignmentRow = Awaited<ReturnType<ReturnType<typeof assignmentRows>['executeTakeFirstOrThrow']>>;
const toAssignment =
  (rule: ReviewRule) =>
  ({ scoresJson: _s, comment: _c, ...r }: AssignmentRow): Assignment => ({ ...r, maxTotal: maxTotal(rule.criteria), rereview: r.rereview === 1 });

export async function assignmentPage(ctx: Ctx, questionId: number, q: AssignmentPageQuery, max = q.limit) {
  await managedQuestion(ctx, questionId);
  const rule = await loadRule(ctx.db, questionId);
  let query = assignmentRows(ctx.db).where('a.questionId', '=', questionId);
  if (q.judgeId) query = query.where('a.judgeId', '=', q.judgeId);
  if (q.status !== undefined) query = query.where('a.status', '=', q.status);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) => eb.or([containsText('t.name', k), containsText('t.teamNo', k), containsText('a.code', k), containsText('u.username', k), containsText('u.userName', k)]));
  }
  const { total } = await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.orderBy('t.teamNo').orderBy('a.id').limit(max).offset((q.page - 1) * q.limit).execute();
  return { list: rows, total: Number(total), rule };
}
export const toAssignmentList = (rule: ReviewRule, rows: AssignmentRow[]) => rows.map(toAssignment(rule));

async function managedAssignment(ctx: Ctx, id: number) {
  const a = await ctx.db.selectFrom('reviewAssignments').selectAll().where('id', '=', id).executeTakeFirst();
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
  const already = await db.selectFrom('reviewAssignments').select('id').where('questionId', '=', questionId).where('teamId', '=', teamId).where('judgeId', '=', judgeId).executeTakeFirst();
  if (already) throw conflict('该专家已在评审这份作品');
}

/** Gives a work not yet submitted to another judge; a draft's scores stay with the judge who wrote them, so they start over. */
export async function reassign(ctx: Ctx, id: number, judgeId: number) {
  const a = await managedAssignment(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    const rule = await lockRule(trx, a.questionId);
    assertNotConfirmed(rule, '成绩已确认，不能再转派');
    const current = await trx.selectFrom('reviewAssignments').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    if (current.status === ASSIGNMENT_STATUS.submitted) throw conflict('已提交的评分不能转派，请先重新打开');
    await assertEligible(trx, a.questionId, a.teamId, judgeId);
    await trx
      .updateTable('reviewAssignments')
      .set({ judgeId, status: ASSIGNMENT_STATUS.pending, scoresJson: '[]', comment: null, total: null, updatedAt: ctx.clock.now().toISOString() })
      .where('id', '=', id)
      .execute();
    await writeAudit(ctx, { action: 'review.assign.reassign', entity: 'reviewAssignment', entityId: id, before: { judgeId: a.judgeId }, after: { judgeId } }, trx);
  });
  return toAssignment(await loadRule(ctx.db, a.questionId))(await assignmentRows(ctx.db).where('a.id', '=', id).executeTakeFirstOrThrow());
}

/** Only the organiser reopens a submitted score; the judge may then change it and submit again. */
export async function reopen(ctx: Ctx, id: number) {
  const a = await managedAssignment(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    const rule = await lockRule(trx, a.questionId);
    assertNotConfirmed(rule, '成绩已确认，不能重新打开评分');
    const { numUpdatedRows } = await trx
      .updateTable('reviewAssignments')
      .set({ status: ASSIGNMENT_STATUS.draft, submittedAt: null, updatedAt: ctx.clock.now().toISOString() })
      .where('id', '=', id)
      .where('status', '=', ASSIGNMENT_STATUS.submitted)
      .executeTakeFirst();
    if (!Number(numUpdatedRows)) throw conflict('只有已提交的评分可以重新打开');
    await writeAudit(ctx, { action: 'review.assign.reopen', entity: 'reviewAssignment', entityId: id, before: { status: a.status, total: a.total } }, trx);
  });
  return toAssignment(await loadRule(ctx.db, a.questionId))(await assignmentRows(ctx.db).where('a.id', '=', id).executeTakeFirstOrThrow());
}

// ---- The review centre: a judge's own assignments ------------------------------------------------------------------

export async function tasks(ctx: AuthedCtx): Promise<ReviewTask[]> {
  const rows = await ctx.db
    .selectFrom('reviewAssignments as a')
    .innerJoin('questions as q', 'q.id', 'a.questionId')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .innerJoin('reviewRules as r', 'r.questionId', 'a.questionId')
    .select((eb) => [
      'c.id as competitionId',
      'c.name as competitionName',
      'q.id as questionId',
      'q.title as questionTitle',
      'r.blind',
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('a.status', '=', ASSIGNMENT_STATUS.submitted).then(1).else(0).end()).as('submitted'),
    ])
    .where('a.judgeId', '=', ctx.actor.userId)
    .groupBy(['c.id', 'c.name', 'q.id', 'q.title', 'r.blind'])
    .orderBy('c.id', 'desc')
    .orderBy('q.id')
    .execute();
  return rows.map((r) => ({ ...r, blind: r.blind === 1, total: Number(r.total), submitted: Number(r.submitted ?? 0) }));
}

/** The team's counted work: its last version (versions completing after the deadline are refused at upload). */
async function countedWork(db: Db, questionId: number, teamId: number) {
  return db.selectFrom('works').select(['fileKey', 'fileName', 'size', 'sha256']).where('questionId', '=', questionId).where('teamId', '=', teamId).orderBy('version', 'desc').limit(1).executeTakeFirst();
}

type JudgeAssignment = { id: number; questionId: number; teamId: number; code: string; status: number; total: number | null; rereview: number; updatedAt: string };

/** Assignments of one question as their judge sees them: team details only when the review is not blind. */
async function reviewWorks(ctx: AuthedCtx, questionId: number, rows: JudgeAssignment[], rule: ReviewRule): Promise<ReviewWork[]> {
  if (!rows.length) return [];
  const q = await questionOf(ctx.db, questionId);
  const teamIds = [...new Set(rows.map((a) => a.teamId))];
  // Each team's counted work: its last version (versions completing after the deadline are refused at upload).
  const versions = await ctx.db.selectFrom('works').select(['teamId', 'fileName', 'size']).where('questionId', '=', questionId).where('teamId', 'in', teamIds).orderBy('version', 'desc').execute();
  const work = (teamId: number) => versions.find((w) => w.teamId === teamId);
  const people = rule.blind ? undefined : await teamPeople(ctx.db, teamIds);
  const names = rule.blind ? [] : await ctx.db.selectFrom('teams').select(['id', 'name']).where('id', 'in', teamIds).execute();
  return rows.map((a) => {
    const w = work(a.teamId);
    const p = people?.get(a.teamId);
    return {
      id: a.id,
      questionId: a.questionId,
      questionTitle: q.title,
      competitionName: q.competitionName,
      code: a.code,
      status: a.status,
      total: a.total,
      maxTotal: maxTotal(rule.criteria),
      rereview: a.rereview === 1,
      // Under blind review the file's own name may carry the team's name: the judge sees the work's code instead.
      fileName: w ? (rule.blind ? workFileName(a.code, w.fileName) : w.fileName) : null,
      size: w ? Number(w.size) : null,
      team: p ? { teamName: names.find((t) => t.id === a.teamId)?.name ?? '', members: p.members.map((m) => m.name), schools: p.schools } : null,
      updatedAt: a.updatedAt,
    };
  });
}
const workFileName = (code: string, original: string) => `作品-${code}${extensionOf(original) ? `.${extensionOf(original)}` : ''}`;

export async function judgeWorks(ctx: AuthedCtx, questionId: number): Promise<ReviewWork[]> {
  const rows = await ctx.db.selectFrom('reviewAssignments').selectAll().where('questionId', '=', questionId).where('judgeId', '=', ctx.actor.userId).orderBy('status').orderBy('code').execute();
  if (!rows.length) return [];
  return reviewWorks(ctx, questionId, rows, await loadRule(ctx.db, questionId));
}

export async function judgeWork(ctx: AuthedCtx, id: number): Promise<ReviewWorkDetail> {
  const a = await policy.judgesAssignment(ctx, id);
  const rule = await loadRule(ctx.db, a.questionId);
  const saved = JSON.parse(a.scoresJson) as CriterionScore[];
  const scores = rule.criteria.map((c) => saved.find((s) => s.criterionId === c.id) ?? { criterionId: c.id, score: null, comment: null });
  const [work] = await reviewWorks(ctx, a.questionId, [a], rule);
  return { ...work!, criteria: rule.criteria, scores, comment: a.comment };
}

/** Where a judge's download comes from, named by the work's code under blind review. */
export async function judgeDownload(ctx: AuthedCtx, id: number) {
  const a = await policy.judgesAssignment(ctx, id);
  const rule = await loadRule(ctx.db, a.questionId);
  const work = await countedWork(ctx.db, a.questionId, a.teamId);
  if (!work) throw notFound('作品文件不存在');
  return { key: work.fileKey, name: rule.blind ? workFileName(a.code, work.fileName) : work.fileName, mime: 'application/octet-stream', sha256: work.sha256 };
}

/**
 * Saves a draft or submits. Each score is a number from 0 to its criterion's maximum (`scoreError`, the same check
 * the review centre's form makes); a submission needs every criterion. The total is the points added up.
 */
export async function saveScore(ctx: AuthedCtx, id: number, body: ScoreBody): Promise<ReviewWorkDetail> {
  const a = await policy.judgesAssignment(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    const rule = await lockRule(trx, a.questionId);
    assertNotConfirmed(rule, '成绩已确认，不能再修改评分');
    const fields: Record<string, string> = {};
    const byId = new Map(body.scores.map((s, i) => [s.criterionId, { ...s, i }]));
    for (const s of body.scores) if (!rule.criteria.some((c) => c.id === s.criterionId)) throw badRequest('评审标准已变更，请刷新后重新评分');
    const scores: CriterionScore[] = rule.criteria.map((c) => {
      const s = byId.get(c.id);
      if (s?.score !== null && s?.score !== undefined) {
        const error = scoreError(c, s.score);
        if (error) fields[`scores.${s.i}.score`] = error;
      } else if (body.submit) fields[`scores.${s?.i ?? 0}.score`] = `请为“${c.name}”打分`;
      return { criterionId: c.id, score: s?.score ?? null, comment: s?.comment ?? null };
    });
    const first = Object.values(fields)[0];
    if (first) throw badRequest(first, fields);
    const total = judgeTotal(rule.criteria, Object.fromEntries(scores.map((s) => [s.criterionId, s.score])));
    const now = ctx.clock.now().toISOString();
    const { numUpdatedRows } = await trx
      .updateTable('reviewAssignments')
      .set({
        scoresJson: JSON.stringify(scores),
        comment: body.comment ?? null,
        total,
        status: body.submit ? ASSIGNMENT_STATUS.submitted : ASSIGNMENT_STATUS.draft,
        submittedAt: body.submit ? now : null,
        updatedAt: now,
      })
      .where('id', '=', id)
      .where('judgeId', '=', ctx.actor.userId)
      .where('status', '!=', ASSIGNMENT_STATUS.submitted)
      .executeTakeFirst();
    if (!Number(numUpdatedRows)) throw conflict('评分已提交，如需修改请联系组织方重新打开');
    if (body.submit) await writeAudit(ctx, { action: 'review.score.submit', entity: 'reviewAssignment', entityId: id, after: { total } }, trx);
  });
  return judgeWork(ctx, id);
}
