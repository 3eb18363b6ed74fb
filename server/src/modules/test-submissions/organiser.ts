import { CANCEL_REASON_REQUIRED, type Duplicates, type QuestionSubmissions } from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import * as competitions from '../competitions/index.ts';
import { writeAudit } from '../audit-log/index.ts';
import { notify, teamUserIds } from '../notices/index.ts';
import { decodeFingerprint, duplicatePairs, type Fingerprint } from '../../scoring/fingerprint.ts';
import * as repo from './repo.ts';

/**
 * The organisers' view of a question's test submissions (issue 33): every team's files with their scores, selection and
 * failures, and 取消成绩 / 恢复 of a submission or of a whole team, with a reason, audited, the team told and its board
 * rows rewritten. Once the question's grades are confirmed the published results stand: nothing is cancelled or
 * restored any more.
 */

const LOCKED = '该赛题的成绩已确认公布，不能再取消或恢复成绩';

async function managedQuestion(ctx: Ctx, questionId: number) {
  const q = await repo.questionNames(ctx.db, questionId);
  if (!q) throw notFound('赛题不存在');
  await competitions.managedCompetition(ctx, q.competitionId);
  return q;
}

/** A page of the question's submissions, newest first, with the teams disqualified from it. */
export async function questionSubmissions(
  ctx: Ctx,
  questionId: number,
  q: { page: number; limit: number; keyword?: string; teamId?: number; status?: number; cancelled?: '1' },
): Promise<QuestionSubmissions> {
  await managedQuestion(ctx, questionId);
  const [{ rows, total }, disqualified, locked] = await Promise.all([
    repo.questionSubmissions(ctx.db, questionId, { ...q, cancelled: q.cancelled === '1', offset: (q.page - 1) * q.limit }),
    repo.disqualifiedTeams(ctx.db, questionId),
    repo.gradesConfirmed(ctx.db, questionId),
  ]);
  const list = rows.map(({ fileKey, fileRemovedAt, ...r }) => ({ ...r, selected: r.selected === 1, fileUri: fileRemovedAt ? null : fileKey }));
  return { list, total, page: q.page, limit: q.limit, disqualified, locked };
}

const reasonOf = (cancel: boolean, reason: string | undefined) => {
  if (!cancel) return null;
  if (!reason) throw badRequest(CANCEL_REASON_REQUIRED, { reason: CANCEL_REASON_REQUIRED });
  return reason;
};

/** 取消成绩 (with a reason) or 恢复 of one submission. */
export async function cancelSubmission(ctx: AuthedCtx, id: number, body: { cancelled: boolean; reason?: string }) {
  const row = await repo.findSubmission(ctx.db, id);
  if (!row) throw notFound('提交记录不存在');
  const q = await managedQuestion(ctx, row.questionId);
  const reason = reasonOf(body.cancelled, body.reason);
  const at = ctx.clock.now().toISOString();
  const changed = await ctx.db.transaction().execute(async (trx) => {
    if (await repo.gradesConfirmed(trx, row.questionId)) throw conflict(LOCKED);
    const done = await repo.setCancelled(trx, { id, questionId: row.questionId, teamId: row.teamId, reason, at });
    if (done) {
      const action = reason ? 'test.cancel' : 'test.restore';
      await writeAudit(ctx, { action, entity: 'testSubmission', entityId: id, after: { questionId: row.questionId, teamId: row.teamId, reason } }, trx);
    }
    return done;
  });
  if (!changed) return;
  await notify(ctx, await teamUserIds(ctx.db, [row.teamId]), {
    title: reason ? '测试提交的成绩已被取消' : '测试提交的成绩已恢复',
    content: reason
      ? `“${q.competitionName}”赛题“${q.title}”中，你的队伍提交的“${row.fileName}”的成绩已被主办方取消，不再计入排行榜。原因：${reason}`
      : `“${q.competitionName}”赛题“${q.title}”中，你的队伍提交的“${row.fileName}”的成绩已由主办方恢复，重新计入排行榜。`,
    source: 'test.cancel',
  });
}

/** 取消队伍成绩 (with a reason) or 恢复 of a team on the question: off (or back on) its boards and grades. */
export async function disqualifyTeam(ctx: AuthedCtx, questionId: number, body: { teamId: number; disqualified: boolean; reason?: string }) {
  const q = await managedQuestion(ctx, questionId);
  const team = await repo.teamOnQuestion(ctx.db, questionId, body.teamId);
  if (!team) throw notFound('该队伍没有选择这道赛题');
  const reason = reasonOf(body.disqualified, body.reason);
  const at = ctx.clock.now().toISOString();
  const changed = await ctx.db.transaction().execute(async (trx) => {
    if (await repo.gradesConfirmed(trx, questionId)) throw conflict(LOCKED);
    const done = await repo.setDisqualified(trx, { questionId, teamId: team.id, userId: ctx.actor.userId, reason, at });
    if (done) {
      const action = reason ? 'team.disqualify' : 'team.requalify';
      await writeAudit(ctx, { action, entity: 'question', entityId: questionId, after: { teamId: team.id, teamName: team.name, reason } }, trx);
    }
    return done;
  });
  if (!changed) return;
  await notify(ctx, await teamUserIds(ctx.db, [team.id]), {
    title: reason ? '队伍成绩已被取消' : '队伍成绩已恢复',
    content: reason
      ? `“${q.competitionName}”赛题“${q.title}”中，你的队伍“${team.name}”的成绩已被主办方取消，不再出现在排行榜和成绩中，也不能再提交测试文件。原因：${reason}`
      : `“${q.competitionName}”赛题“${q.title}”中，你的队伍“${team.name}”的成绩已由主办方恢复。`,
    source: 'team.disqualify',
  });
}

// The competition's organisers may download any of its teams' prediction files.
export const organiserReadsFile = async (ctx: AuthedCtx, key: string) => {
  const competitionId = await repo.competitionOfFile(ctx.db, key);
  return competitionId !== undefined && competitions.isManaged(ctx, competitionId);
};

/**
 * Pairs of teams whose files agree far more than independent models do (issue 37, item 5), from the fingerprints left
 * by scoring: the evidence for the organiser, who may then cancel a team's scores with a reason (nothing is changed
 * here).
 */
export async function duplicates(ctx: Ctx, questionId: number): Promise<Duplicates> {
  await managedQuestion(ctx, questionId);
  const files = (await repo.fingerprintsOf(ctx.db, questionId)).flatMap(({ fingerprint, ...f }) => {
    const fp = decodeFingerprint(fingerprint!);
    return fp ? [{ ...f, fingerprint: fp }] : [];
  });
  const side = (f: (typeof files)[number]) => ({
    teamId: f.teamId,
    teamNo: f.teamNo,
    teamName: f.teamName,
    submissionId: f.id,
    fileName: f.fileName,
    privateScore: f.privateScore,
    createdAt: f.createdAt,
  });
  const pairs = duplicatePairs<(typeof files)[number]>(files).map((p) => ({
    a: side(p.a),
    b: side(p.b),
    identical: Math.round(p.agreement.identical * 1000),
    sharedWrong: Math.round(p.agreement.sharedWrong),
    wrongShare: Math.round(p.agreement.wrongJaccard * 1000),
    privateRows: (p.a.fingerprint as Fingerprint).total,
  }));
  return { pairs, files: files.length };
}
