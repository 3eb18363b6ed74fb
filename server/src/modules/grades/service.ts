import {
  type SchoolResult,
  ACTION_CODES,
  ASSIGNMENT_STATUS,
  GRADE_STATE,
  finalScore,
  judgedByExperts,
  maxTotal,
  openSubmission,
  presetOpen,
  publishRefusal,
  reviewScore,
  scoredAutomatically,
  testPoints,
  gradeFormula,
  type Aggregation,
  type Dispute,
  type DisputePageQuery,
  type Grade,
  type GradeOverview,
  type GradeSummary,
  type Judging,
  type MyGrade,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as competitions from '../competitions/index.ts';
import { assertEligible, assertNotConfirmed, loadRule, lockGradeRule, lockRule, managedQuestion, questionOf, teamPeople } from '../review/index.ts';
import { boardHigherIsBetter, publishPrivateBoard, rankTeams } from '../test-submissions/index.ts';
import { notify, teamUserIds, tellStaff } from '../notices/index.ts';
import * as repo from './repo.ts';

export { GRADE_COLUMNS } from './columns.ts';

const DAY = 24 * 3600_000;

// ---- Computing grades -----------------------------------------------------------------------------------------------

/**
 * Ranks of teams given best first, counted within each team's group (issue 36: each group has its own ranking, and so
 * its own awards by rank band); equal scores share a rank. Without groups, one ranking.
 */
export function ranksByGroup(sorted: readonly { teamId: number; score: number }[], groups: Map<number, string | null>): Map<number, number> {
  const rank = new Map<number, number>();
  const last = new Map<string, { score: number; rank: number; n: number }>();
  for (const e of sorted) {
    const g = groups.get(e.teamId) ?? '';
    const prev = last.get(g);
    const n = (prev?.n ?? 0) + 1;
    const r = prev && prev.score === e.score ? prev.rank : n;
    last.set(g, { score: e.score, rank: r, n });
    rank.set(e.teamId, r);
  }
  return rank;
}

/**
 * Computes every grade of the question from the submitted judge totals and the private test board, and ranks them
 * (equal final scores share a rank). The judges' totals are kept as they are (points added up); the review score puts
 * each on 100 before combining them, to weigh against the test points. Runs inside the caller's transaction, under
 * the rule's row lock.
 */
async function compute(trx: Db, ctx: Ctx, questionId: number) {
  const rule = await loadRule(trx, questionId);
  const q = await questionOf(trx, questionId);
  if (q.judging === 'auto') return computeFromBoard(trx, ctx, questionId);
  // A question judged by experts alone weighs the review alone, whatever weights a rule kept from an earlier judging.
  const weights = q.judging === 'review' ? { reviewWeight: 100, testWeight: 0 } : rule;
  const teams = await repo.teamIdsWithWorks(trx, questionId);
  const assignments = await repo.assignmentTotals(trx, questionId);
  const test = new Map<number, number>();
  let best: number | null = null;
  // The boards' own direction: a metric's, or the one an own scoring program was given.
  const higher = await boardHigherIsBetter(trx, questionId);
  if (weights.testWeight > 0 && q.metric) {
    const board = await rankTeams(trx, questionId, 'private');
    for (const e of board) test.set(e.teamId, e.score);
    best = board[0]?.score ?? null;
  }
  const rows = teams.map((teamId) => {
    const mine = assignments.filter((a) => a.teamId === teamId);
    const totals = mine.filter((a) => a.status === ASSIGNMENT_STATUS.submitted && a.total !== null).map((a) => a.total!);
    const review = reviewScore(totals, maxTotal(rule.criteria), rule.aggregation);
    const testScore = test.get(teamId) ?? null;
    const points = weights.testWeight > 0 ? (testPoints(testScore, best, higher) ?? 0) : null;
    return { teamId, totals, review, judgesDone: totals.length, judgesTotal: mine.length, testScore, points, final: finalScore(review, points, weights) };
  });
  const ranked = rows.filter((r) => r.final !== null).sort((a, b) => b.final! - a.final!);
  const rank = ranksByGroup(
    ranked.map((r) => ({ teamId: r.teamId, score: r.final! })),
    await repo.teamGroups(trx, teams),
  );
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
    await repo.upsertGrade(trx, questionId, r.teamId, values);
  }
  // A team disqualified since the last calculation loses its grade (grades are computed only before confirmation).
  await repo.deleteGradesExcept(trx, questionId, teams);
  return rows.length;
}

/**
 * The grades of a question ranked by its private board alone (issue 33, `auto`): every team on the board, its score
 * (the best private score of its selected submissions, boards.ts) as its final score, ranked as the board ranks it
 * (its metric's direction) with equal scores sharing a rank. A team no longer on the board (its submissions rescored
 * away) loses its grade; grades are only computed before they are confirmed, when no award is set yet.
 */
async function computeFromBoard(trx: Db, ctx: Ctx, questionId: number) {
  const board = await rankTeams(trx, questionId, 'private');
  const now = ctx.clock.now().toISOString();
  const ranks = ranksByGroup(
    board,
    await repo.teamGroups(
      trx,
      board.map((e) => e.teamId),
    ),
  );
  for (const e of board) {
    const rank = ranks.get(e.teamId)!;
    await repo.upsertGrade(trx, questionId, e.teamId, {
      reviewScoresJson: '[]',
      reviewScore: null,
      judgesDone: 0,
      judgesTotal: 0,
      testScore: e.score,
      testPoints: null,
      finalScore: e.score,
      rank,
      updatedAt: now,
    });
  }
  await repo.deleteGradesExcept(
    trx,
    questionId,
    board.map((e) => e.teamId),
  );
  return board.length;
}

export async function summary(db: Db, questionId: number): Promise<GradeSummary> {
  const rule = await repo.gradeStateOf(db, questionId);
  const unfinished = await repo.unfinishedJudges(db, questionId);
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
export async function gradeSummary(ctx: Ctx, questionId: number): Promise<GradeOverview> {
  const q = await managedQuestion(ctx, questionId);
  const [s, windows] = await Promise.all([summary(ctx.db, questionId), competitions.submissionWindowsOf(ctx.db, q.competitionId)]);
  return { ...s, submissionOpen: openSubmission(windows, ctx.clock.now()), judging: q.judging };
}

/** `calcFinalScore`: a re-runnable preview; judges who have not finished are listed, their works count what is in. */
export async function calculate(ctx: Ctx, questionId: number) {
  const q = await managedQuestion(ctx, questionId);
  await ctx.db.transaction().execute(async (trx) => {
    const rule = await lockGradeRule(trx, q, ctx.clock.now());
    if (judgedByExperts(q.judging) && !rule.criteria.length) throw conflict('请先设置该赛题的评审规则');
    assertNotConfirmed(rule, '成绩已确认，不能重新计算');
    const teams = await compute(trx, ctx, questionId);
    await repo.markCalculated(trx, questionId, ctx.clock.now().toISOString());
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
    const rule = await lockGradeRule(trx, q, ctx.clock.now());
    if (judgedByExperts(q.judging) && !rule.criteria.length) throw conflict('请先设置该赛题的评审规则');
    assertNotConfirmed(rule, '成绩已确认');
    const early = publishRefusal(await competitions.submissionWindowsOf(trx, q.competitionId), ctx.clock.now());
    if (early) throw conflict(early);
    const pending = await repo.pendingAssignments(trx, questionId);
    if (pending > 0) throw conflict(`还有${pending}份评审未提交，不能确认成绩`);
    const teams = await compute(trx, ctx, questionId);
    if (!teams) throw conflict(q.judging === 'auto' ? '该赛题的私榜上还没有队伍，无法确认成绩' : '该赛题还没有作品，无法确认成绩');
    const now = ctx.clock.now().toISOString();
    // The dispute window runs from the first confirmation; a re-confirmation after a re-review does not reopen it.
    await repo.markConfirmed(trx, questionId, now);
    // The results are published in one step: the private board a test score comes from goes public with the grades.
    if (scoredAutomatically(q.judging)) await publishPrivateBoard(trx, questionId);
    await writeAudit(ctx, { action: 'grade.confirm', entity: 'question', entityId: questionId, after: { teams } }, trx);
  });
  const teamIds = await repo.gradedTeamIds(ctx.db, questionId);
  await notify(ctx, await teamUserIds(ctx.db, teamIds), {
    title: '成绩已公布',
    content: `“${q.competitionName}”赛题“${q.title}”的成绩已确认，可在竞赛的“我的成绩”页面查看。`,
    source: 'grade.published',
  });
  return summary(ctx.db, questionId);
}

const toGrade =
  (max: number, names: Map<number, string>) =>
  ({ reviewScoresJson, awardManual, ...r }: repo.GradeRow): Grade => ({
    ...r,
    reviewScores: JSON.parse(reviewScoresJson) as number[],
    maxTotal: max,
    awardName: r.awardId === null ? null : (names.get(r.awardId) ?? null),
    awardManual: awardManual === 1,
  });
const awardIds = (rows: { awardId: number | null }[]) => rows.flatMap((r) => (r.awardId === null ? [] : [r.awardId]));
/** The criteria cannot change once a judge has scored, so every stored judge total of the question is out of this. */
const maxOf = async (db: Db, questionId: number) => maxTotal((await loadRule(db, questionId)).criteria);

export async function gradePage(ctx: Ctx, questionId: number, q: { page: number; limit: number; keyword?: string; groupName?: string }, max = q.limit) {
  await managedQuestion(ctx, questionId);
  const { rows, total } = await repo.gradePage(ctx.db, questionId, q, max);
  return { list: rows.map(toGrade(await maxOf(ctx.db, questionId), await repo.awardNames(ctx.db, awardIds(rows)))), total };
}

/** The question's results grouped by school: teams graded, teams awarded and each award's count, most awarded first. */
export async function resultsBySchool(ctx: Ctx, questionId: number): Promise<SchoolResult[]> {
  await managedQuestion(ctx, questionId);
  const bySchool = new Map<string | null, SchoolResult & { sorts: Map<string, number> }>();
  for (const r of await repo.gradesBySchool(ctx.db, questionId)) {
    const s = bySchool.get(r.schoolName) ?? {
      schoolName: r.schoolName,
      teams: 0,
      awarded: 0,
      bestRank: null,
      awards: [] as SchoolResult['awards'],
      sorts: new Map<string, number>(),
    };
    const n = Number(r.n);
    s.teams += n;
    const best = r.bestRank === null ? null : Number(r.bestRank);
    if (best !== null && (s.bestRank === null || best < s.bestRank)) s.bestRank = best;
    if (r.awardName) {
      s.awarded += n;
      s.awards.push({ awardName: r.awardName, count: n });
      s.sorts.set(r.awardName, r.awardSort ?? 0);
    }
    bySchool.set(r.schoolName, s);
  }
  return [...bySchool.values()]
    .map(({ sorts, ...s }) => ({ ...s, awards: s.awards.sort((a, b) => sorts.get(a.awardName)! - sorts.get(b.awardName)!) }))
    .sort((a, b) => b.awarded - a.awarded || b.teams - a.teams || (a.bestRank ?? Infinity) - (b.bestRank ?? Infinity));
}

/** One team's grade on the question as the grade list shows it (awards answer a team's award set by hand with it). */
export async function teamGrade(db: Db, questionId: number, teamId: number): Promise<Grade> {
  const row = await repo.gradeView(db, questionId, teamId);
  return toGrade(await maxOf(db, questionId), await repo.awardNames(db, awardIds([row])))(row);
}

/**
 * Rows of the grade export (and, keeping only the awarded, awards' prize export): every grade of the question in the
 * list's order with the team's people, in batches. The organiser check runs before the first row is read.
 */
export async function exportBatches(ctx: AuthedCtx, questionId: number, keep: (g: Grade) => boolean = () => true, batchSize?: number) {
  await managedQuestion(ctx, questionId);
  const max = await maxOf(ctx.db, questionId);
  const batches = repo.exportGradeRows(ctx.db, questionId, batchSize);
  return (async function* () {
    for await (const batch of batches) {
      const rows = batch.map(toGrade(max, await repo.awardNames(ctx.db, awardIds(batch)))).filter(keep);
      if (!rows.length) continue;
      const people = await teamPeople(
        ctx.db,
        rows.map((g) => g.teamId),
      );
      yield rows.map((g) => ({ ...g, ...(people.get(g.teamId) ?? { members: [], schools: [], teachers: [] }) }));
    }
  })();
}
export type ExportRow = Awaited<ReturnType<typeof exportBatches>> extends AsyncIterable<(infer R)[]> ? R : never;

/** Every row of the grade export at once (see `exportBatches`). */
export async function exportRows(ctx: AuthedCtx, questionId: number, keep: (g: Grade) => boolean = () => true): Promise<ExportRow[]> {
  const out: ExportRow[] = [];
  for await (const batch of await exportBatches(ctx, questionId, keep)) out.push(...batch);
  return out;
}

// ---- What a team sees -------------------------------------------------------------------------------------------------

async function gradeSetOpen(db: Db, competitionId: number, now: Date) {
  const preset = (await competitions.listPresets(db, competitionId)).find((p) => p.menuCode === 'GRADE_SET');
  return Boolean(preset && presetOpen(preset, now));
}

const toDispute = ({ kind, attachmentKey, verifiedName, ...r }: repo.DisputeRow): Dispute => {
  const objection = kind === 'objection';
  return {
    ...r,
    rereview: r.rereview === 1,
    kind: objection ? 'objection' : 'dispute',
    attachment: attachmentKey,
    objectorName: objection ? verifiedName : null,
  };
};

/**
 * The caller's team's grades in a competition: only while GRADE_SET is on and only once confirmed. While a dispute
 * sends a work back for re-review the grade reads as under re-check (no numbers) until it is confirmed again.
 */
export async function myGrades(ctx: AuthedCtx, competitionId: number): Promise<MyGrade[]> {
  const teamId = await repo.teamIdOf(ctx.db, competitionId, ctx.actor.userId);
  if (!teamId) return [];
  const now = ctx.clock.now();
  if (!(await gradeSetOpen(ctx.db, competitionId, now))) return [];
  const rows = await repo.teamGradeRows(ctx.db, teamId);
  const names = await repo.awardNames(ctx.db, awardIds(rows));
  const disputes = await repo.teamDisputes(ctx.db, teamId);
  const out: MyGrade[] = [];
  for (const r of rows) {
    const dispute = disputes.find((d) => d.questionId === r.questionId);
    const rechecking = r.gradeState !== GRADE_STATE.confirmed;
    const judging = r.judging as Judging;
    // The test score is the private board's: it stays hidden until that board is published (with the grades).
    const testHidden = rechecking || r.leaderboardPublished !== 1;
    out.push({
      questionId: r.questionId,
      questionTitle: r.questionTitle,
      judging,
      formula: gradeFormula(judging, { reviewWeight: r.reviewWeight, testWeight: r.testWeight, aggregation: r.aggregation as Aggregation }),
      rechecking,
      reviewScore: rechecking ? null : r.reviewScore,
      testScore: testHidden ? null : r.testScore,
      testPoints: testHidden ? null : r.testPoints,
      // A question ranked by its private board has that board's score as its final score: hidden with it.
      finalScore: rechecking || (judging === 'auto' && testHidden) ? null : r.finalScore,
      rank: rechecking ? null : r.rank,
      teams: Number(r.teams ?? 0),
      groupName: r.groupName,
      awardName: rechecking || r.awardId === null ? null : (names.get(r.awardId) ?? null),
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
  const teamId = await repo.teamIdOf(ctx.db, q.competitionId, ctx.actor.userId);
  if (!teamId || !(await repo.hasGrade(ctx.db, questionId, teamId))) throw notFound('您的队伍在该赛题没有成绩');
  const now = ctx.clock.now();
  const rule = await loadRule(ctx.db, questionId);
  if (rule.gradeState !== GRADE_STATE.confirmed || !rule.confirmedAt || !(await gradeSetOpen(ctx.db, q.competitionId, now)))
    throw conflict('成绩尚未公布，不能申诉');
  if (!rule.disputeDays || now.getTime() > new Date(rule.confirmedAt).getTime() + rule.disputeDays * DAY) throw conflict('已超过成绩申诉期');
  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      const disputeId = await repo.insertDispute(trx, { questionId, teamId, userId: ctx.actor.userId, reason, createdAt: now.toISOString() });
      await writeAudit(ctx, { action: 'grade.dispute.file', entity: 'scoreDispute', entityId: disputeId, after: { questionId, teamId, reason } }, trx);
      return disputeId;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('您的队伍已对该赛题提交过申诉');
    throw err;
  }
  const dispute = toDispute(await repo.disputeView(ctx.db, id));
  await tellStaff(ctx, ACTION_CODES.gradeEdit, q.orgId, {
    title: '新的成绩申诉',
    content: `“${q.competitionName}”赛题“${q.title}”收到队伍“${dispute.teamName}”的成绩申诉，请在该赛题的成绩页答复。`,
    source: 'grade.dispute',
  });
  return dispute;
}

export async function disputePage(ctx: Ctx, questionId: number, q: DisputePageQuery) {
  await managedQuestion(ctx, questionId);
  const { rows, total } = await repo.disputePage(ctx.db, questionId, q);
  return { list: rows.map(toDispute), total };
}

/**
 * The organiser answers a dispute. Sending the work to a new judge unlocks the question's grades: they are computed
 * and confirmed again once that judge has submitted.
 */
export async function answerDispute(ctx: AuthedCtx, id: number, body: { answer: string; rereviewJudgeId?: number | null }) {
  const d = await repo.findDispute(ctx.db, id);
  if (!d) throw notFound('申诉不存在');
  await managedQuestion(ctx, d.questionId).catch(() => {
    throw notFound('申诉不存在');
  });
  await ctx.db.transaction().execute(async (trx) => {
    await lockRule(trx, d.questionId);
    const now = ctx.clock.now().toISOString();
    const answered = await repo.answerPending(trx, id, {
      answer: body.answer,
      rereview: body.rereviewJudgeId ? 1 : 0,
      answeredBy: ctx.actor.userId,
      answeredAt: now,
    });
    if (!answered) throw conflict('该申诉已答复');
    if (body.rereviewJudgeId) {
      await assertEligible(trx, d.questionId, d.teamId, body.rereviewJudgeId);
      const taken = await repo.assignmentCodes(trx, d.questionId);
      const code = `R${String(id).padStart(5, '0')}`;
      if (taken.has(code)) throw conflict('复评任务已存在');
      await repo.insertRereview(trx, { questionId: d.questionId, teamId: d.teamId, judgeId: body.rereviewJudgeId, code, now });
      await repo.markRecalculating(trx, d.questionId);
    }
    await writeAudit(ctx, { action: 'grade.dispute.answer', entity: 'scoreDispute', entityId: id, before: { status: d.status }, after: body }, trx);
  });
  // An objection is answered to the one who filed it; a dispute to the team.
  if (d.kind === 'objection') await notify(ctx, [d.userId], { title: '公示异议已答复', content: body.answer, source: 'objection.answered' });
  else await notify(ctx, await teamUserIds(ctx.db, [d.teamId]), { title: '成绩申诉已答复', content: body.answer, source: 'dispute.answered' });
  return toDispute(await repo.disputeView(ctx.db, id));
}
