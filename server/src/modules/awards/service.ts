import { GRADE_STATE, type AwardApplyResult, type AwardLevel, type AwardLevelsBody, type Grade, type TeamAward } from '@contest/shared';
import type { AuthedCtx, Ctx } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import type { Column } from '../../http/xlsx.ts';
import { GROUP_COLUMN, TEAM_COLUMNS, exportBatches, exportRows, teamGrade, type ExportRow } from '../grades/index.ts';
import { loadRule, lockRule, managedQuestion } from '../review/index.ts';
import * as teams from '../teams/index.ts';
import * as repo from './repo.ts';

// ---- Award levels ---------------------------------------------------------------------------------------------------

const toLevel = (r: { id: number; questionId: number; name: string; sort: number; rankFrom: number | null; rankTo: number | null }): AwardLevel => r;

export async function awardLevels(ctx: Ctx, questionId: number) {
  await managedQuestion(ctx, questionId);
  return (await repo.awardLevelsOf(ctx.db, questionId)).map(toLevel);
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
        await repo.deleteAwardLevels(trx, removed);
      }
      // Names are unique per question: clear the kept rows' names first so two levels can swap names.
      for (const id of keep) await repo.parkAwardLevelName(trx, id);
      for (const [sort, l] of body.levels.entries()) {
        const values = { name: l.name, sort, rankFrom: l.rankFrom, rankTo: l.rankTo };
        if (l.id) await repo.updateAwardLevel(trx, l.id, values);
        else await repo.insertAwardLevel(trx, questionId, values);
      }
      await writeAudit(ctx, { action: 'award.levels', entity: 'question', entityId: questionId, before, after: body.levels }, trx);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('奖项名称不能重复');
    throw err;
  }
  return awardLevels(ctx, questionId);
}

// ---- Giving awards ----------------------------------------------------------------------------------------------------

async function assertConfirmed(db: Db, questionId: number) {
  const rule = await loadRule(db, questionId);
  if (rule.gradeState !== GRADE_STATE.confirmed) throw conflict('请先确认成绩再评奖');
}

/** Gives each ranked team the award whose rank band holds its rank; awards set by hand are kept. */
export async function applyAwards(ctx: Ctx, questionId: number): Promise<AwardApplyResult> {
  const levels = await awardLevels(ctx, questionId);
  const bands = levels.filter((l) => l.rankFrom !== null && l.rankTo !== null);
  if (!bands.length) throw conflict('请先设置按名次评奖的奖项');
  return ctx.db.transaction().execute(async (trx) => {
    await lockRule(trx, questionId);
    await assertConfirmed(trx, questionId);
    const grades = await repo.autoAwardGrades(trx, questionId);
    let awarded = 0;
    for (const g of grades) {
      const band = g.rank === null ? undefined : bands.find((l) => l.rankFrom! <= g.rank! && g.rank! <= l.rankTo!);
      if (band) awarded++;
      await repo.setAward(trx, questionId, g.teamId, { awardId: band?.id ?? null });
    }
    await writeAudit(ctx, { action: 'award.apply', entity: 'question', entityId: questionId, after: { awarded } }, trx);
    return { awarded };
  });
}

/** Sets (or clears) one team's award by hand; automatic awarding leaves it alone afterwards. Answers the team's grade. */
export async function setTeamAward(ctx: Ctx, questionId: number, teamId: number, awardId: number | null): Promise<Grade> {
  const levels = await awardLevels(ctx, questionId);
  if (awardId !== null && !levels.some((l) => l.id === awardId)) throw badRequest('请选择本赛题的奖项', { awardId: '请选择本赛题的奖项' });
  await ctx.db.transaction().execute(async (trx) => {
    await lockRule(trx, questionId);
    await assertConfirmed(trx, questionId);
    const before = await repo.gradeAward(trx, questionId, teamId);
    if (!before) throw notFound('该队伍在本赛题没有成绩');
    await repo.setAward(trx, questionId, teamId, { awardId, awardManual: 1 });
    await writeAudit(ctx, { action: 'award.team', entity: 'question', entityId: questionId, before: { teamId, ...before }, after: { teamId, awardId } }, trx);
  });
  return teamGrade(ctx.db, questionId, teamId);
}

// ---- What a team won ----------------------------------------------------------------------------------------------------

/** `GET list/awards/{teamId}`: the awards of a team on confirmed grades, for its members and its organisers. */
export async function teamAwards(ctx: AuthedCtx, teamId: number): Promise<TeamAward[]> {
  const team = await repo.findTeam(ctx.db, teamId);
  if (!team) throw notFound('队伍不存在');
  if (!(await teams.memberOrOrganiser(ctx, team, 'questionKeeper'))) throw notFound('队伍不存在');
  return repo.teamAwardRows(ctx.db, teamId);
}

/** Rows of the prize export (获奖名单): the awarded teams' grades with their people. */
export const prizeRows = (ctx: AuthedCtx, questionId: number) => exportRows(ctx, questionId, (g) => g.awardId !== null);
/** The prize export's rows (the awarded teams' grades), in batches. */
export const prizeBatches = (ctx: AuthedCtx, questionId: number, batchSize?: number) => exportBatches(ctx, questionId, (g) => g.awardId !== null, batchSize);

/** The prize list (exportPrize): the award and rank, the team with its people, and the final score. */
export const PRIZE_COLUMNS: Column<ExportRow>[] = [
  { header: '奖项', value: (g) => g.awardName ?? '' },
  { header: '名次', value: (g) => g.rank ?? '', width: 8 },
  ...TEAM_COLUMNS,
  { header: '最终成绩', value: (g) => g.finalScore ?? '' },
  GROUP_COLUMN,
];
