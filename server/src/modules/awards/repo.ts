import { GRADE_STATE } from '@contest/shared';
import type { Db } from '../../db/database.ts';

/**
 * Every query on the award tables: a question's award levels, and the award columns of its grade rows (which award a
 * team has, and whether it was set by hand). Grades computes and ranks those rows; awards only reads their ranks.
 */

// ---- Award levels ---------------------------------------------------------------------------------------------------

export const awardLevelsOf = (db: Db, questionId: number) =>
  db.selectFrom('awardLevels').selectAll().where('questionId', '=', questionId).orderBy('sort').orderBy('id').execute();

/** Removes award levels, taking them off the grades that had them first. */
export async function deleteAwardLevels(db: Db, ids: number[]) {
  await db.updateTable('grades').set({ awardId: null, awardManual: 0 }).where('awardId', 'in', ids).execute();
  await db.deleteFrom('awardLevels').where('id', 'in', ids).execute();
}

type LevelValues = { name: string; sort: number; rankFrom: number | null; rankTo: number | null };

/** Gives the level a placeholder name, so that kept levels may swap names (names are unique per question). */
export const parkAwardLevelName = (db: Db, id: number) =>
  db
    .updateTable('awardLevels')
    .set({ name: `~${id}` })
    .where('id', '=', id)
    .execute();

export const updateAwardLevel = (db: Db, id: number, values: LevelValues) => db.updateTable('awardLevels').set(values).where('id', '=', id).execute();

export const insertAwardLevel = (db: Db, questionId: number, values: LevelValues) =>
  db
    .insertInto('awardLevels')
    .values({ questionId, ...values })
    .execute();

// ---- The awards on grade rows -----------------------------------------------------------------------------------------

/** The question's grades whose award was not set by hand. */
export const autoAwardGrades = (db: Db, questionId: number) =>
  db.selectFrom('grades').select(['teamId', 'rank']).where('questionId', '=', questionId).where('awardManual', '=', 0).execute();

export const setAward = (db: Db, questionId: number, teamId: number, v: { awardId: number | null; awardManual?: number }) =>
  db.updateTable('grades').set(v).where('questionId', '=', questionId).where('teamId', '=', teamId).execute();

export const gradeAward = (db: Db, questionId: number, teamId: number) =>
  db.selectFrom('grades').select(['awardId', 'awardManual']).where('questionId', '=', questionId).where('teamId', '=', teamId).executeTakeFirst();

// ---- What a team won ----------------------------------------------------------------------------------------------------

export const findTeam = (db: Db, teamId: number) => db.selectFrom('teams').select(['id', 'competitionId']).where('id', '=', teamId).executeTakeFirst();

/** The team's awards on confirmed grades. */
export const teamAwardRows = (db: Db, teamId: number) =>
  db
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
