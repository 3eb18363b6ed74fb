import {
  ASSIGNMENT_STATUS,
  extensionOf,
  judgeTotal,
  maxTotal,
  newVersionRefusal,
  scoreError,
  type CriterionScore,
  type ReviewRule,
  type ReviewTask,
  type ReviewWork,
  type ReviewWorkDetail,
  type ScoreBody,
} from '@contest/shared';
import type { AuthedCtx } from '../../context.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import { assertNotConfirmed, findAssignment, loadRule, lockRule, questionOf, teamPeople } from '../review/index.ts';
import * as policy from '../../policy.ts';
import * as repo from './repo.ts';

/**
 * The review centre: a judge's own assignments, the works behind them (nothing of the team under blind review) and the
 * scores the judge saves or submits. Which assignment is the judge's is the policy's (`judgesAssignment`).
 */

export async function tasks(ctx: AuthedCtx): Promise<ReviewTask[]> {
  const rows = await repo.judgeTaskRows(ctx.db, ctx.actor.userId);
  return rows.map((r) => ({ ...r, blind: r.blind === 1, total: Number(r.total), submitted: Number(r.submitted ?? 0) }));
}

type JudgeAssignment = {
  id: number;
  questionId: number;
  teamId: number;
  code: string;
  status: number;
  total: number | null;
  rereview: number;
  updatedAt: string;
  workId: number | null;
};

/** Assignments of one question as their judge sees them: team details only when the review is not blind. */
async function reviewWorks(ctx: AuthedCtx, questionId: number, rows: JudgeAssignment[], rule: ReviewRule): Promise<ReviewWork[]> {
  if (!rows.length) return [];
  const q = await questionOf(ctx.db, questionId);
  const teamIds = [...new Set(rows.map((a) => a.teamId))];
  // Each team's counted work: its last version (versions completing after the deadline are refused at upload).
  const versions = await repo.workVersions(ctx.db, questionId, teamIds);
  const work = (teamId: number) => versions.find((w) => w.teamId === teamId);
  const people = rule.blind ? undefined : await teamPeople(ctx.db, teamIds);
  const names = rule.blind ? [] : await repo.teamNames(ctx.db, teamIds);
  return rows.map((a) => {
    const w = work(a.teamId);
    const p = people?.get(a.teamId);
    // A score submitted for an earlier version and given back when the team replaced it: the judge is told which.
    const scored = a.workId !== null && w && a.workId !== w.id ? versions.find((v) => v.id === a.workId) : undefined;
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
      workId: w?.id ?? null,
      version: w?.version ?? null,
      uploadedAt: w?.completedAt ?? null,
      scoredVersion: scored?.version ?? null,
      team: p ? { teamName: names.find((t) => t.id === a.teamId)?.name ?? '', members: p.members.map((m) => m.name), schools: p.schools } : null,
      updatedAt: a.updatedAt,
    };
  });
}
const workFileName = (code: string, original: string) => `作品-${code}${extensionOf(original) ? `.${extensionOf(original)}` : ''}`;

export async function judgeWorks(ctx: AuthedCtx, questionId: number): Promise<ReviewWork[]> {
  const rows = await repo.judgeAssignments(ctx.db, questionId, ctx.actor.userId);
  if (!rows.length) return [];
  return reviewWorks(ctx, questionId, rows, await loadRule(ctx.db, questionId));
}

export async function judgeWork(ctx: AuthedCtx, id: number): Promise<ReviewWorkDetail> {
  const a = policy.judgesAssignment(ctx, await findAssignment(ctx.db, id));
  const rule = await loadRule(ctx.db, a.questionId);
  const saved = JSON.parse(a.scoresJson) as CriterionScore[];
  const scores = rule.criteria.map((c) => saved.find((s) => s.criterionId === c.id) ?? { criterionId: c.id, score: null, comment: null });
  const [work] = await reviewWorks(ctx, a.questionId, [a], rule);
  return { ...work!, criteria: rule.criteria, scores, comment: a.comment };
}

/** Where a judge's download comes from, named by the work's code under blind review. */
export async function judgeDownload(ctx: AuthedCtx, id: number) {
  const a = policy.judgesAssignment(ctx, await findAssignment(ctx.db, id));
  const rule = await loadRule(ctx.db, a.questionId);
  const work = await repo.countedWork(ctx.db, a.questionId, a.teamId);
  if (!work) throw notFound('作品文件不存在');
  return { key: work.fileKey, name: rule.blind ? workFileName(a.code, work.fileName) : work.fileName, mime: 'application/octet-stream', sha256: work.sha256 };
}

/**
 * Saves a draft or submits. Each score is a number from 0 to its criterion's maximum (`scoreError`, the same check
 * the review centre's form makes); a submission needs every criterion. The total is the points added up.
 */
export async function saveScore(ctx: AuthedCtx, id: number, body: ScoreBody): Promise<ReviewWorkDetail> {
  const a = policy.judgesAssignment(ctx, await findAssignment(ctx.db, id));
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
    // A submitted score is for the version counting now, read under the rule's lock that a new version also takes:
    // one the judge did not see (a newer version arrived since the page was opened) is refused.
    const counted = body.submit ? await repo.countedWork(trx, a.questionId, a.teamId) : undefined;
    if (counted && body.workId && body.workId !== counted.id) throw conflict(newVersionRefusal(counted.version));
    const written = await repo.writeScores(trx, id, ctx.actor.userId, {
      scoresJson: JSON.stringify(scores),
      comment: body.comment ?? null,
      total,
      status: body.submit ? ASSIGNMENT_STATUS.submitted : ASSIGNMENT_STATUS.draft,
      submittedAt: body.submit ? now : null,
      updatedAt: now,
      ...(counted ? { workId: counted.id } : {}),
    });
    if (!written) throw conflict('评分已提交，如需修改请联系组织方重新打开');
    if (body.submit)
      await writeAudit(
        ctx,
        { action: 'review.score.submit', entity: 'reviewAssignment', entityId: id, after: { total, version: counted?.version ?? null } },
        trx,
      );
  });
  return judgeWork(ctx, id);
}
