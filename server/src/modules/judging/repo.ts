import { ASSIGNMENT_STATUS } from '@contest/shared';
import type { Db } from '../../db/database.ts';

/** Every query of judging: a judge's own assignments, the works behind them and the scores the judge writes. */

/** The judge's assignments per question, with how many are submitted. */
export const judgeTaskRows = (db: Db, judgeId: number) =>
  db
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
    .where('a.judgeId', '=', judgeId)
    .groupBy(['c.id', 'c.name', 'q.id', 'q.title', 'r.blind'])
    .orderBy('c.id', 'desc')
    .orderBy('q.id')
    .execute();

/** The judge's assignments of one question, unsubmitted first, by code. */
export const judgeAssignments = (db: Db, questionId: number, judgeId: number) =>
  db
    .selectFrom('reviewAssignments')
    .selectAll()
    .where('questionId', '=', questionId)
    .where('judgeId', '=', judgeId)
    .orderBy('status')
    .orderBy('code')
    .execute();

/** The team's counted work: its last version (versions completing after the deadline are refused at upload). */
export const countedWork = (db: Db, questionId: number, teamId: number) =>
  db
    .selectFrom('works')
    .select(['id', 'version', 'fileKey', 'fileName', 'size', 'sha256'])
    .where('questionId', '=', questionId)
    .where('teamId', '=', teamId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();

/** Every version of the teams' works for the question, latest first. */
export const workVersions = (db: Db, questionId: number, teamIds: number[]) =>
  db
    .selectFrom('works')
    .select(['id', 'teamId', 'version', 'fileName', 'size', 'completedAt'])
    .where('questionId', '=', questionId)
    .where('teamId', 'in', teamIds)
    .orderBy('version', 'desc')
    .execute();

export const teamNames = (db: Db, teamIds: number[]) => db.selectFrom('teams').select(['id', 'name']).where('id', 'in', teamIds).execute();

/** Writes the judge's scores unless already submitted; false when it was (or is not the judge's). */
export const writeScores = async (
  db: Db,
  id: number,
  judgeId: number,
  v: {
    scoresJson: string;
    comment: string | null;
    total: number | null;
    status: number;
    submittedAt: string | null;
    updatedAt: string;
    workId?: number | null;
  },
) =>
  Number(
    (
      await db
        .updateTable('reviewAssignments')
        .set(v)
        .where('id', '=', id)
        .where('judgeId', '=', judgeId)
        .where('status', '!=', ASSIGNMENT_STATUS.submitted)
        .executeTakeFirst()
    ).numUpdatedRows,
  ) > 0;
