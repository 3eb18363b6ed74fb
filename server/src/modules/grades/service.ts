import {
  ADMIN_MENU_CODES,
  ASSIGNMENT_STATUS,
  DISPUTE_STATUS,
  GRADE_STATE,
  HIGHER_IS_BETTER,
  finalScore,
  maxTotal,
  openSubmission,
  presetOpen,
  publishRefusal,
  reviewScore,
  testPoints,
  type AwardLevel,
  type AwardLevelsBody,
  type Dispute,
  type DisputePageQuery,
  type Grade,
  type GradeSummary,
  type Metric,
  type MyGrade,
  type OpenSubmission,
  type TeamAward,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { containsText } from '../../db/like.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/repo.ts';
import * as competitions from '../competitions/repo.ts';
import { assertEligible, assertNotConfirmed, loadRule, lockRule, managedQuestion, questionOf, teamPeople } from '../review/service.ts';
import { rankTeams } from '../test-submissions/index.ts';
import { notify, teamUserIds } from '../notices/service.ts';
import * as policy from '../../policy.ts';

const DAY = 24 * 3600_000;

// ---- Computing grades -----------------------------------------------------------------------------------------------

/**
 * Computes every grade of the question from the submitted judge totals and the private test board, and ranks them
 * (equal final scores share a rank). The judges' totals are kept as they are (points added up); the review score puts
 * each on 100 before combining them, to weigh against the test points. Runs inside the caller's transaction, under
 * the rule's row lock.
 */
async function compute(trx: Db, ctx: Ctx, questionId: number) {
  const rule = await loadRule(trx, questionId);
  const q = await questionOf(trx, questionId);
  const teams = await trx.selectFrom('works').select('teamId').distinct().where('questionId', '=', questionId).execute();
  const assignments = await trx.selectFrom('reviewAssignments').select(['teamId', 'status', 'total']).where('questionId', '=', questionId).execute();
  const test = new Map<number, number>();
  let best: number | null = null;
  const higher = q.metric ? HIGHER_IS_BETTER[q.metric as Metric] : true;
  if (rule.testWeight > 0 && q.metric) {
    const board = await rankTeams(trx, questionId, higher, 'private');
    for (const e of board) test.set(e.teamId, e.score);
    best = board[0]?.score ?? null;
  }
  const rows = teams.map(({ teamId }) => {
    const mine = assignments.filter((a) => a.teamId === teamId);
    const totals = mine.filter((a) => a.status === ASSIGNMENT_STATUS.submitted && a.total !== null).map((a) => a.total!);
    const review = reviewScore(totals, maxTotal(rule.criteria), rule.aggregation);
    const testScore = test.get(teamId) ?? null;
    const points = rule.testWeight > 0 ? (testPoints(testScore, best, higher) ?? 0) : null;
    return { teamId, totals, review, judgesDone: totals.length, judgesTotal: mine.length, testScore, points, final: finalScore(review, points, rule) };
  });
  const ranked = rows.filter((r) => r.final !== null).sort((a, b) => b.final! - a.final!);
  const rank = new Map<number, number>();
  ranked.forEach((r, i) => rank.set(r.teamId, i > 0 && ranked[i - 1]!.final === r.final ? rank.get(ranked[i - 1]!.teamId)! : i + 1));
  const now = ctx.clock.now().toISOString();
  for (const r of rows) {
    const values = {
      reviewScoresJson: JSON.stringify(r.totals),
      reviewScore: r.review,
      judgesDone: r.judgesDone,
      judgesTotal: r.judgesTotal,
      testScore: r.testScore,
      testPoints: r.points,
      finalScore: r.final,
      rank: rank.get(r.teamId) ?? null,
      updatedAt: now,
    };
    await trx.insertInto('grades').values({ questionId, teamId: r.teamId, ...values }).onConflict((oc) => oc.columns(['questionId', 'teamId']).doUpdateSet(values)).execute();
  }
  return rows.length;
}

export async function summary(db: Db, questionId: number): Promise<GradeSummary> {
  const rule = await db.selectFrom('reviewRules').select(['gradeState', 'calculatedAt', 'confirmedAt']).where('questionId', '=', questionId).executeTakeFirst();
  const unfinished = await db
    .selectFrom('reviewAssignments as a')
    .innerJoin('users as u', 'u.id', 'a.judgeId')
    .select((eb) => ['a.judgeId', 'u.username', 'u.userName', eb.fn.countAll<number>().as('pending')])
    .where('a.questionId', '=', questionId)
    .where('a.status', '!=', ASSIGNMENT_STATUS.submitted)
    .groupBy(['a.judgeId', 'u.username', 'u.userName'])
    .orderBy('a.judgeId')
    .execute();
  return {
    gradeState: rule?.gradeState ?? GRADE_STATE.none,
    calculatedAt: rule?.calculatedAt ?? null,
    confirmedAt: rule?.confirmedAt ?? null,
    unfinished: unfinished.map((u) => ({ ...u, pending: Number(u.pending) })),
  };
}

/**
 * The summary the grade, award and certificate pages show, with the submission window still open if any: their buttons
 * then ask the organiser to confirm an action of a later phase, and the grade page holds back 确认成绩, which the
 * server refuses until it closes (lifecycle.ts).
 */
export async function gradeSummary(ctx: Ctx, questionId: number): Promise<GradeSummary & { submissionOpen: OpenSubmission | null }> {
  const q = await managedQuestion(ctx, questionId);
  const [s, windows] = await Promise.all([summary(ctx.db, questionId), competitions.submissionWindowsOf(ctx.db, q.competitionId)]);
  return { ...s, submissionOpen: openSubmission(windows, ctx.clock.now()) };
}

/** `calcFinalScore`: a re-runnable preview; judges who have not finished are listed, their works count what is in. */
export async function calculate(ctx: Ctx, questionId: number) {
  await managedQuestion(ctx, questionId);
  await ctx.db.transaction().execute(async (trx) => {
    const rule = await lockRule(trx, questionId);
    if (!rule.criteria.length) throw conflict('请先设置该赛题的评审规则');
    assertNotConfirmed(rule, '成绩已确认，不能重新计算');
    const teams = await compute(trx, ctx, questionId);
    await trx.updateTable('reviewRules').set({ gradeState: GRADE_STATE.calculated, calculatedAt: ctx.clock.now().toISOString() }).where('questionId', '=', questionId).execute();
    await writeAudit(ctx, { action: 'grade.calculate', entity: 'question', entityId: questionId, after: { teams } }, trx);
  });
  return summary(ctx.db, questionId);
}

/**
 * `confirmFinalScore`: computes once more from every submitted score and locks the grades; teams may then see them.
 * Publishing results belongs after submission: while a works or test window of the competition is open (or still to
 * open) it is refused, naming the deadline (lifecycle.ts), and nothing changes.
 */
export async function confirm(ctx: Ctx, questionId: number) {
  const q = await managedQuestion(ctx, questionId);
  await ctx.db.transaction().execute(async (trx) => {
    const rule = await lockRule(trx, questionId);
    if (!rule.criteria.length) throw conflict('请先设置该赛题的评审规则');
    assertNotConfirmed(rule, '成绩已确认');
    const early = publishRefusal(await competitions.submissionWindowsOf(trx, q.competitionId), ctx.clock.now());
    if (early) throw conflict(early);
    const { pending } = await trx
      .selectFrom('reviewAssignments')
      .select((eb) => eb.fn.countAll<number>().as('pending'))
      .where('questionId', '=', questionId)
      .where('status', '!=', ASSIGNMENT_STATUS.submitted)
      .executeTakeFirstOrThrow();
    if (Number(pending) > 0) throw conflict(`还有${Number(pending)}份评审未提交，不能确认成绩`);
    const teams = await compute(trx, ctx, questionId);
    if (!teams) throw conflict('该赛题还没有作品，无法确认成绩');
    const now = ctx.clock.now().toISOString();
    // The dispute window runs from the first confirmation; a re-confirmation after a re-review does not reopen it.
    await trx
      .updateTable('reviewRules')
      .set((eb) => ({ gradeState: GRADE_STATE.confirmed, calculatedAt: now, confirmedAt: eb.fn.coalesce('confirmedAt', eb.val(now)) }))
      .where('questionId', '=', questionId)
      .execute();
    await writeAudit(ctx, { action: 'grade.confirm', entity: 'question', entityId: questionId, after: { teams } }, trx);
  });
  const teamIds = (await ctx.db.selectFrom('grades').select('teamId').where('questionId', '=', questionId).execute()).map((g) => g.teamId);
  await notify(ctx, await teamUserIds(ctx.db, teamIds), { title: '成绩已公布', content: `“${q.competitionName}”赛题“${q.title}”的成绩已确认，可在竞赛的“我的成绩”页面查看。`, source: 'grade.published' });
  return summary(ctx.db, questionId);
}

const gradeRows = (db: Db) =>
  db
    .selectFrom('grades as g')
    .innerJoin('teams as t', 't.id', 'g.teamId')
    .leftJoin('awardLevels as l', 'l.id', 'g.awardId')
    .select(['g.questionId', 'g.teamId', 't.teamNo', 't.name as teamName', 'g.reviewScoresJson', 'g.reviewScore', 'g.judgesDone', 'g.judgesTotal', 'g.testScore', 'g.testPoints', 'g.finalScore', 'g.rank', 'g.awardId', 'l.name as awardName', 'g.awardManual']);
type GradeRow = Awaited<ReturnType<ReturnType<typeof gradeRows>['executeTakeFirstOrThrow']>>;
const toGrade =
  (max: number) =>
  ({ reviewScoresJson, awardManual, ...r }: GradeRow): Grade => ({ ...r, reviewScores: JSON.parse(reviewScoresJson) as number[], maxTotal: max, awardManual: awardManual === 1 });
/** The criteria cannot change once a judge has scored, so every stored judge total of the question is out of this. */
const maxOf = async (db: Db, questionId: number) => maxTotal((await loadRule(db, questionId)).criteria);

export async function gradePage(ctx: Ctx, questionId: number, q: { page: number; limit: number; keyword?: string }, max = q.limit) {
  await managedQuestion(ctx, questionId);
  let query = gradeRows(ctx.db).where('g.questionId', '=', questionId);
  if (q.keyword) {
    const k = q.keyword;
    query = query.where((eb) => eb.or([containsText('t.name', k), containsText('t.teamNo', k)]));
  }
  const { total } = await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  // Ranked teams first, by rank; then the rest by team number.
  const rows = await query
    .orderBy((eb) => eb.case().when('g.rank', 'is', null).then(1).else(0).end())
    .orderBy('g.rank')
    .orderBy('t.teamNo')
    .limit(max)
    .offset((q.page - 1) * q.limit)
    .execute();
  return { list: rows.map(toGrade(await maxOf(ctx.db, questionId))), total: Number(total) };
}

/** Rows of the grade and prize exports: the grade with the team's people. */
export async function exportRows(ctx: AuthedCtx, questionId: number, awardedOnly: boolean) {
  const { list } = await gradePage(ctx, questionId, { page: 1, limit: 10_000 }, 10_000);
  const rows = awardedOnly ? list.filter((g) => g.awardId !== null) : list;
  const teamIds = rows.map((g) => g.teamId);
  const people = await teamPeople(ctx.db, teamIds);
  return rows.map((g) => ({ ...g, ...(people.get(g.teamId) ?? { members: [], schools: [], teachers: [] }) }));
}

// ---- What a team sees -------------------------------------------------------------------------------------------------

async function gradeSetOpen(db: Db, competitionId: number, now: Date) {
  const preset = (await competitions.listPresets(db, competitionId)).find((p) => p.menuCode === 'GRADE_SET');
  return Boolean(preset && presetOpen(preset, now));
}

const disputeRows = (db: Db) =>
  db
    .selectFrom('scoreDisputes as d')
    .innerJoin('teams as t', 't.id', 'd.teamId')
    .innerJoin('users as u', 'u.id', 'd.userId')
    .select(['d.id', 'd.questionId', 'd.teamId', 't.teamNo', 't.name as teamName', 'u.username', 'd.reason', 'd.status', 'd.answer', 'd.rereview', 'd.createdAt', 'd.answeredAt']);
type DisputeRow = Awaited<ReturnType<ReturnType<typeof disputeRows>['executeTakeFirstOrThrow']>>;
const toDispute = (r: DisputeRow): Dispute => ({ ...r, rereview: r.rereview === 1 });

/**
 * The caller's team's grades in a competition: only while GRADE_SET is on and only once confirmed. While a dispute
 * sends a work back for re-review the grade reads as under re-check (no numbers) until it is confirmed again.
 */
export async function myGrades(ctx: AuthedCtx, competitionId: number): Promise<MyGrade[]> {
  const team = await ctx.db.selectFrom('teamMembers').select('teamId').where('competitionId', '=', competitionId).where('userId', '=', ctx.actor.userId).executeTakeFirst();
  if (!team) return [];
  const now = ctx.clock.now();
  if (!(await gradeSetOpen(ctx.db, competitionId, now))) return [];
  const rows = await ctx.db
    .selectFrom('grades as g')
    .innerJoin('questions as q', 'q.id', 'g.questionId')
    .innerJoin('reviewRules as r', 'r.questionId', 'g.questionId')
    .leftJoin('awardLevels as l', 'l.id', 'g.awardId')
    .select((eb) => [
      'g.questionId',
      'q.title as questionTitle',
      'g.reviewScore',
      'g.testScore',
      'q.leaderboardPublished',
      'g.finalScore',
      'g.rank',
      'l.name as awardName',
      'r.gradeState',
      'r.confirmedAt',
      'r.disputeDays',
      eb.selectFrom('grades as o').select((s) => s.fn.countAll<number>().as('n')).whereRef('o.questionId', '=', 'g.questionId').where('o.finalScore', 'is not', null).as('teams'),
    ])
    .where('g.teamId', '=', team.teamId)
    .where('r.confirmedAt', 'is not', null)
    .orderBy('q.sort')
    .orderBy('q.id')
    .execute();
  const disputes = await disputeRows(ctx.db).where('d.teamId', '=', team.teamId).execute();
  const out: MyGrade[] = [];
  for (const r of rows) {
    const dispute = disputes.find((d) => d.questionId === r.questionId);
    const rechecking = r.gradeState !== GRADE_STATE.confirmed;
    out.push({
      questionId: r.questionId,
      questionTitle: r.questionTitle,
      rechecking,
      reviewScore: rechecking ? null : r.reviewScore,
      // The test score is the private board's: it stays hidden until the organiser publishes that board.
      testScore: rechecking || r.leaderboardPublished !== 1 ? null : r.testScore,
      finalScore: rechecking ? null : r.finalScore,
      rank: rechecking ? null : r.rank,
      teams: Number(r.teams ?? 0),
      awardName: rechecking ? null : r.awardName,
      confirmedAt: r.confirmedAt!,
      disputeUntil: r.disputeDays > 0 ? new Date(new Date(r.confirmedAt!).getTime() + r.disputeDays * DAY).toISOString() : null,
      dispute: dispute ? toDispute(dispute) : null,
    });
  }
  return out;
}

/** A team member disputes the team's confirmed grade, once, inside the window the rule sets. */
export async function fileDispute(ctx: AuthedCtx, questionId: number, reason: string): Promise<Dispute> {
  const q = await questionOf(ctx.db, questionId);
  const team = await ctx.db.selectFrom('teamMembers').select('teamId').where('competitionId', '=', q.competitionId).where('userId', '=', ctx.actor.userId).executeTakeFirst();
  const grade = team && (await ctx.db.selectFrom('grades').select('teamId').where('questionId', '=', questionId).where('teamId', '=', team.teamId).executeTakeFirst());
  if (!team || !grade) throw notFound('您的队伍在该赛题没有成绩');
  const now = ctx.clock.now();
  const rule = await loadRule(ctx.db, questionId);
  if (rule.gradeState !== GRADE_STATE.confirmed || !rule.confirmedAt || !(await gradeSetOpen(ctx.db, q.competitionId, now))) throw conflict('成绩尚未公布，不能申诉');
  if (!rule.disputeDays || now.getTime() > new Date(rule.confirmedAt).getTime() + rule.disputeDays * DAY) throw conflict('已超过成绩申诉期');
  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('scoreDisputes')
        .values({ questionId, teamId: team.teamId, userId: ctx.actor.userId, reason, createdAt: now.toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeAudit(ctx, { action: 'grade.dispute.file', entity: 'scoreDispute', entityId: row.id, after: { questionId, teamId: team.teamId, reason } }, trx);
      return row.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('您的队伍已对该赛题提交过申诉');
    throw err;
  }
  return toDispute(await disputeRows(ctx.db).where('d.id', '=', id).executeTakeFirstOrThrow());
}

export async function disputePage(ctx: Ctx, questionId: number, q: DisputePageQuery) {
  await managedQuestion(ctx, questionId);
  let query = disputeRows(ctx.db).where('d.questionId', '=', questionId);
  if (q.status !== undefined) query = query.where('d.status', '=', q.status);
  const { total } = await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.orderBy('d.status').orderBy('d.id', 'desc').limit(q.limit).offset((q.page - 1) * q.limit).execute();
  return { list: rows.map(toDispute), total: Number(total) };
}

/**
 * The organiser answers a dispute. Sending the work to a new judge unlocks the question's grades: they are computed
 * and confirmed again once that judge has submitted.
 */
export async function answerDispute(ctx: AuthedCtx, id: number, body: { answer: string; rereviewJudgeId?: number | null }) {
  const d = await ctx.db.selectFrom('scoreDisputes').selectAll().where('id', '=', id).executeTakeFirst();
  if (!d) throw notFound('申诉不存在');
  await managedQuestion(ctx, d.questionId).catch(() => {
    throw notFound('申诉不存在');
  });
  await ctx.db.transaction().execute(async (trx) => {
    await lockRule(trx, d.questionId);
    const now = ctx.clock.now().toISOString();
    const { numUpdatedRows } = await trx
      .updateTable('scoreDisputes')
      .set({ status: DISPUTE_STATUS.answered, answer: body.answer, rereview: body.rereviewJudgeId ? 1 : 0, answeredBy: ctx.actor.userId, answeredAt: now })
      .where('id', '=', id)
      .where('status', '=', DISPUTE_STATUS.pending)
      .executeTakeFirst();
    if (!Number(numUpdatedRows)) throw conflict('该申诉已答复');
    if (body.rereviewJudgeId) {
      await assertEligible(trx, d.questionId, d.teamId, body.rereviewJudgeId);
      const taken = new Set((await trx.selectFrom('reviewAssignments').select('code').where('questionId', '=', d.questionId).execute()).map((a) => a.code));
      const code = `R${String(id).padStart(5, '0')}`;
      if (taken.has(code)) throw conflict('复评任务已存在');
      await trx.insertInto('reviewAssignments').values({ questionId: d.questionId, teamId: d.teamId, judgeId: body.rereviewJudgeId, code, rereview: 1, createdAt: now, updatedAt: now }).execute();
      await trx.updateTable('reviewRules').set({ gradeState: GRADE_STATE.calculated }).where('questionId', '=', d.questionId).execute();
    }
    await writeAudit(ctx, { action: 'grade.dispute.answer', entity: 'scoreDispute', entityId: id, before: { status: d.status }, after: body }, trx);
  });
  await notify(ctx, await teamUserIds(ctx.db, [d.teamId]), { title: '成绩申诉已答复', content: body.answer, source: 'dispute.answered' });
  return toDispute(await disputeRows(ctx.db).where('d.id', '=', id).executeTakeFirstOrThrow());
}

// ---- Awards ---------------------------------------------------------------------------------------------------------

const toLevel = (r: { id: number; questionId: number; name: string; sort: number; rankFrom: number | null; rankTo: number | null }): AwardLevel => r;

export async function awardLevels(ctx: Ctx, questionId: number) {
  await managedQuestion(ctx, questionId);
  return (await ctx.db.selectFrom('awardLevels').selectAll().where('questionId', '=', questionId).orderBy('sort').orderBy('id').execute()).map(toLevel);
}

/** Replaces the question's award levels: rows with an id are updated, new rows added, missing ones removed. */
export async function saveAwardLevels(ctx: Ctx, questionId: number, body: AwardLevelsBody) {
  await managedQuestion(ctx, questionId);
  const before = await awardLevels(ctx, questionId);
  const known = new Set(before.map((l) => l.id));
  for (const l of body.levels) if (l.id && !known.has(l.id)) throw badRequest('奖项不存在，请刷新后重试');
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const keep = body.levels.filter((l) => l.id).map((l) => l.id!);
      const removed = before.filter((l) => !keep.includes(l.id)).map((l) => l.id);
      if (removed.length) {
        await trx.updateTable('grades').set({ awardId: null, awardManual: 0 }).where('awardId', 'in', removed).execute();
        await trx.deleteFrom('awardLevels').where('id', 'in', removed).execute();
      }
      // Names are unique per question: clear the kept rows' names first so two levels can swap names.
      for (const id of keep) await trx.updateTable('awardLevels').set({ name: `~${id}` }).where('id', '=', id).execute();
      for (const [sort, l] of body.levels.entries()) {
        const values = { name: l.name, sort, rankFrom: l.rankFrom, rankTo: l.rankTo };
        if (l.id) await trx.updateTable('awardLevels').set(values).where('id', '=', l.id).execute();
        else await trx.insertInto('awardLevels').values({ questionId, ...values }).execute();
      }
      await writeAudit(ctx, { action: 'award.levels', entity: 'question', entityId: questionId, before, after: body.levels }, trx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('奖项名称不能重复');
    throw err;
  }
  return awardLevels(ctx, questionId);
}

async function assertConfirmed(db: Db, questionId: number) {
  const rule = await loadRule(db, questionId);
  if (rule.gradeState !== GRADE_STATE.confirmed) throw conflict('请先确认成绩再评奖');
}

/** Gives each ranked team the award whose rank band holds its rank; awards set by hand are kept. */
export async function applyAwards(ctx: Ctx, questionId: number) {
  const levels = await awardLevels(ctx, questionId);
  const bands = levels.filter((l) => l.rankFrom !== null && l.rankTo !== null);
  if (!bands.length) throw conflict('请先设置按名次评奖的奖项');
  return ctx.db.transaction().execute(async (trx) => {
    await lockRule(trx, questionId);
    await assertConfirmed(trx, questionId);
    const grades = await trx.selectFrom('grades').select(['teamId', 'rank']).where('questionId', '=', questionId).where('awardManual', '=', 0).execute();
    let awarded = 0;
    for (const g of grades) {
      const band = g.rank === null ? undefined : bands.find((l) => l.rankFrom! <= g.rank! && g.rank! <= l.rankTo!);
      if (band) awarded++;
      await trx.updateTable('grades').set({ awardId: band?.id ?? null }).where('questionId', '=', questionId).where('teamId', '=', g.teamId).execute();
    }
    await writeAudit(ctx, { action: 'award.apply', entity: 'question', entityId: questionId, after: { awarded } }, trx);
    return { awarded };
  });
}

/** Sets (or clears) one team's award by hand; automatic awarding leaves it alone afterwards. */
export async function setTeamAward(ctx: Ctx, questionId: number, teamId: number, awardId: number | null) {
  const levels = await awardLevels(ctx, questionId);
  if (awardId !== null && !levels.some((l) => l.id === awardId)) throw badRequest('请选择本赛题的奖项', { awardId: '请选择本赛题的奖项' });
  await ctx.db.transaction().execute(async (trx) => {
    await lockRule(trx, questionId);
    await assertConfirmed(trx, questionId);
    const before = await trx.selectFrom('grades').select(['awardId', 'awardManual']).where('questionId', '=', questionId).where('teamId', '=', teamId).executeTakeFirst();
    if (!before) throw notFound('该队伍在本赛题没有成绩');
    await trx.updateTable('grades').set({ awardId, awardManual: 1 }).where('questionId', '=', questionId).where('teamId', '=', teamId).execute();
    await writeAudit(ctx, { action: 'award.team', entity: 'question', entityId: questionId, before: { teamId, ...before }, after: { teamId, awardId } }, trx);
  });
  return toGrade(await maxOf(ctx.db, questionId))(await gradeRows(ctx.db).where('g.questionId', '=', questionId).where('g.teamId', '=', teamId).executeTakeFirstOrThrow());
}

/** `GET list/awards/{teamId}`: the awards of a team on confirmed grades, for its members and its organisers. */
export async function teamAwards(ctx: AuthedCtx, teamId: number): Promise<TeamAward[]> {
  const team = await ctx.db.selectFrom('teams').select(['id', 'competitionId']).where('id', '=', teamId).executeTakeFirst();
  if (!team) throw notFound('队伍不存在');
  if (!(await policy.memberOrOrganiser(ctx, team, ADMIN_MENU_CODES.question))) throw notFound('队伍不存在');
  const rows = await ctx.db
    .selectFrom('grades as g')
    .innerJoin('awardLevels as l', 'l.id', 'g.awardId')
    .innerJoin('questions as q', 'q.id', 'g.questionId')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .innerJoin('reviewRules as r', 'r.questionId', 'g.questionId')
    .select(['g.questionId', 'q.title as questionTitle', 'c.id as competitionId', 'c.name as competitionName', 'l.name as awardName', 'g.finalScore', 'g.rank'])
    .where('g.teamId', '=', teamId)
    .where('r.gradeState', '=', GRADE_STATE.confirmed)
    .orderBy('q.sort')
    .orderBy('q.id')
    .execute();
  return rows;
}
