import {
  ACTION_CODES,
  AUDIT_STATUS,
  LEADERBOARD_LIMIT,
  publicityStateOf,
  type EmbedBoard,
  type ObjectionBody,
  type PublicResults,
  type Publicity,
  type PublicityBody,
} from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import { managedCompetition, readableCompetition } from '../competitions/index.ts';
import { assertOwnFile, grantPrivateReads } from '../files/index.ts';
import { tellStaff } from '../notices/index.ts';
import { isVerified } from '../real-names/index.ts';
import { leaderboard } from '../test-submissions/index.ts';
import * as policy from '../../policy.ts';
import * as repo from './repo.ts';

const origins = (json: string | null): string[] => (json ? (JSON.parse(json) as string[]) : []);

async function loadPublicity(ctx: Ctx, id: number) {
  const p = await repo.publicityOf(ctx.db, id);
  if (!p) throw notFound('竞赛不存在');
  return p;
}

/** The organiser's 公示 settings. */
export async function settings(ctx: Ctx, id: number): Promise<Publicity> {
  await managedCompetition(ctx, id);
  const p = await loadPublicity(ctx, id);
  const window = { start: p.publicityStart, end: p.publicityEnd };
  return { ...window, state: publicityStateOf(window, ctx.clock.now()), embedOrigins: origins(p.embedOrigins) };
}

export async function saveSettings(ctx: Ctx, id: number, body: PublicityBody): Promise<Publicity> {
  await managedCompetition(ctx, id);
  const before = await settings(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    await repo.setPublicity(trx, id, {
      publicityStart: body.start,
      publicityEnd: body.end,
      embedOrigins: JSON.stringify([...new Set(body.embedOrigins)]),
      updatedAt: ctx.clock.now().toISOString(),
    });
    await writeAudit(ctx, { action: 'competition.publicity', entity: 'competition', entityId: id, before, after: body }, trx);
  });
  return settings(ctx, id);
}

/**
 * The 公示 page of an online competition: while the 公示期 has not begun, only its dates; during it the provisional list;
 * after it the final list, each line with its certificates' numbers (checked at 证书查验). By question, then group.
 */
export async function publicResults(ctx: Ctx, id: number): Promise<PublicResults> {
  const c = await readableCompetition(ctx, id);
  const p = await loadPublicity(ctx, id);
  const window = { start: p.publicityStart, end: p.publicityEnd };
  const state = publicityStateOf(window, ctx.clock.now());
  const base = { competitionId: id, competitionName: p.name, orgName: p.orgName, ...window, state };
  if (state === 'none' || state === 'before') return { ...base, questions: [] };
  const [lines, certs] = await Promise.all([repo.awardLines(ctx.db, id), state === 'closed' ? repo.certificateNumbers(ctx.db, id) : []]);
  const certNos = new Map<string, string[]>();
  for (const cert of certs) {
    const key = `${cert.questionId} ${cert.teamId}`;
    certNos.set(key, [...(certNos.get(key) ?? []), cert.certNo]);
  }
  const order = c.eligibility.groupMode === 'none' ? [] : c.eligibility.groupList.map((g) => g.name);
  const questions: PublicResults['questions'] = [];
  for (const l of lines) {
    let q = questions.find((x) => x.questionId === l.questionId);
    if (!q) questions.push((q = { questionId: l.questionId, title: l.title, groups: [] }));
    const group = order.length ? l.groupName : null;
    let g = q.groups.find((x) => x.group === group);
    if (!g) q.groups.push((g = { group, lines: [] }));
    g.lines.push({
      questionId: l.questionId,
      teamId: l.teamId,
      teamNo: l.teamNo,
      teamName: l.teamName,
      schoolName: l.schoolName,
      awardName: l.awardName,
      rank: l.rank,
      certNos: certNos.get(`${l.questionId} ${l.teamId}`) ?? [],
    });
  }
  const at = (name: string | null) => (name === null ? -1 : order.indexOf(name) === -1 ? order.length : order.indexOf(name));
  for (const q of questions) q.groups.sort((a, b) => at(a.group) - at(b.group));
  return { ...base, questions };
}

/**
 * An objection to a line of the provisional list, by a logged-in user who completed 实名认证, during the 公示期 only
 * (409 outside it): it lands in the question's dispute queue, and the organiser's grade staff are told.
 */
export async function fileObjection(ctx: AuthedCtx, id: number, body: ObjectionBody) {
  const c = await readableCompetition(ctx, id);
  if (c.auditStatus !== AUDIT_STATUS.online && c.auditStatus !== AUDIT_STATUS.offline) throw notFound('竞赛不存在');
  const p = await loadPublicity(ctx, id);
  const state = publicityStateOf({ start: p.publicityStart, end: p.publicityEnd }, ctx.clock.now());
  if (state === 'none' || state === 'before') throw conflict('成绩尚未公示，不能提出异议');
  if (state === 'closed') throw conflict('公示期已结束，不能再提出异议');
  if (!(await isVerified(ctx.db, ctx.actor.userId))) throw forbidden('提出异议须实名：请先在个人中心完成实名认证');
  const line = await repo.lineOf(ctx.db, id, body.questionId, body.teamId);
  if (!line) throw notFound('公示名单中没有该条目');
  if (body.attachment) await assertOwnFile(ctx, 'attachment', body.attachment, 'objection');
  let row;
  try {
    row = await ctx.db.transaction().execute(async (trx) => {
      const r = await repo.insertObjection(trx, {
        questionId: body.questionId,
        teamId: body.teamId,
        userId: ctx.actor.userId,
        reason: body.reason,
        attachmentKey: body.attachment ?? null,
        createdAt: ctx.clock.now().toISOString(),
      });
      await writeAudit(ctx, { action: 'grade.objection.file', entity: 'scoreDispute', entityId: r.id, after: body }, trx);
      return r;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('您已对该条目提出过异议，请等待答复');
    throw err;
  }
  await tellStaff(ctx, ACTION_CODES.gradeEdit, p.orgId, {
    title: '公示收到异议',
    content: `“${p.name}”的成绩公示收到对赛题“${line.title}”队伍“${line.teamName}”（${line.awardName}）的实名异议，请在该赛题的成绩页答复。`,
    source: 'grade.objection',
  });
  return row;
}

// An objection's evidence is read by the competition's grade staff and by the one who filed it.
grantPrivateReads('objection', async (ctx, key) => {
  const holder = await repo.objectionAttachmentOrg(ctx.db, key);
  return Boolean(holder && (holder.userId === ctx.actor.userId || policy.staffOf(ctx, holder.orgId, 'questionKeeper')));
});

// ---- Embeddable pages ------------------------------------------------------------------------------------------------

export { boardCsv, boardHtml, embedCsp, resultsCsv, resultsHtml } from './embed-html.ts';

/** What an embed of the competition may be framed by: the platform itself and the origins its organiser lists. */
export const frameAncestors = (embedOrigins: string | null) => ["'self'", ...origins(embedOrigins)].join(' ');

/**
 * A question's board as the public sees it (an anonymous read of the same board): the private board once published,
 * else the public one; a page of at most `limit` teams. With the competition's allowed origins, for the headers.
 */
export async function embedBoard(ctx: Ctx, questionId: number, limit = LEADERBOARD_LIMIT): Promise<{ board: EmbedBoard; embedOrigins: string | null }> {
  const q = await repo.embedQuestion(ctx.db, questionId);
  if (!q) throw notFound('赛题不存在');
  const anonymous = { ...ctx, actor: null };
  const b = await leaderboard(anonymous, questionId, { board: q.leaderboardPublished === 1 ? 'private' : 'public', page: 1, limit });
  return {
    embedOrigins: q.embedOrigins,
    board: {
      questionId,
      title: q.title,
      competitionName: q.competitionName,
      board: b.board,
      metric: b.metricName ?? b.metric,
      higherIsBetter: b.higherIsBetter,
      rows: b.entries.map((e) => ({
        rank: e.rank,
        teamName: e.teamName,
        groupName: e.groupName ?? null,
        score: e.score,
        submissions: e.submissions,
        lastAt: e.lastAt,
      })),
      total: b.total,
    },
  };
}

/** The 公示 list for an embed: the same reply as the public page, with the allowed origins. */
export async function embedResults(ctx: Ctx, competitionId: number) {
  const anonymous = { ...ctx, actor: null };
  const results = await publicResults(anonymous, competitionId);
  const p = await loadPublicity(ctx, competitionId);
  return { results, embedOrigins: p.embedOrigins };
}
