import { GRADE_STATE } from '@contest/shared';
import type { Db } from '../../db/database.ts';

/** A competition's 公示 settings and what its pages name it by. */
export const publicityOf = (db: Db, id: number) =>
  db
    .selectFrom('competitions as c')
    .innerJoin('organisations as o', 'o.id', 'c.orgId')
    .select(['c.id', 'c.name', 'c.orgId', 'o.name as orgName', 'c.publicityStart', 'c.publicityEnd', 'c.embedOrigins'])
    .where('c.id', '=', id)
    .executeTakeFirst();

export const setPublicity = (db: Db, id: number, v: { publicityStart: string | null; publicityEnd: string | null; embedOrigins: string; updatedAt: string }) =>
  db.updateTable('competitions').set(v).where('id', '=', id).execute();

/**
 * The award list: every awarded team of the competition's questions whose grades are confirmed, by question, award and
 * rank. Only what the list shows is read: team, school, group, award, rank (never a member).
 */
const awarded = (db: Db, competitionId: number) =>
  db
    .selectFrom('grades as g')
    .innerJoin('questions as q', 'q.id', 'g.questionId')
    .innerJoin('reviewRules as r', 'r.questionId', 'q.id')
    .innerJoin('teams as t', 't.id', 'g.teamId')
    .innerJoin('awardLevels as a', 'a.id', 'g.awardId')
    .where('q.competitionId', '=', competitionId)
    .where('q.reviewed', '=', 1)
    .where('r.gradeState', '=', GRADE_STATE.confirmed);

export const awardLines = (db: Db, competitionId: number) =>
  awarded(db, competitionId)
    .select([
      'q.id as questionId',
      'q.title',
      't.id as teamId',
      't.teamNo',
      't.name as teamName',
      't.schoolName',
      't.groupName',
      'a.name as awardName',
      'g.rank',
    ])
    .orderBy('q.sort')
    .orderBy('q.id')
    .orderBy('a.sort')
    .orderBy('g.rank')
    .orderBy('t.id')
    .execute();

/** The team's line of the question's award list (what the staff are told of an objection), or undefined when it is not on it. */
export const lineOf = (db: Db, competitionId: number, questionId: number, teamId: number) =>
  awarded(db, competitionId)
    .select(['q.title', 't.name as teamName', 'a.name as awardName'])
    .where('q.id', '=', questionId)
    .where('t.id', '=', teamId)
    .executeTakeFirst();

/** The numbers of the competition's certificates, by question and team. */
export const certificateNumbers = (db: Db, competitionId: number) =>
  db.selectFrom('certificates').select(['questionId', 'teamId', 'certNo']).where('competitionId', '=', competitionId).orderBy('certNo').execute();

/** Files the objection in the dispute queue; a second one of the same person about the same line is a unique violation. */
export const insertObjection = async (
  db: Db,
  v: { questionId: number; teamId: number; userId: number; reason: string; attachmentKey: string | null; createdAt: string },
) =>
  await db
    .insertInto('scoreDisputes')
    .values({ ...v, kind: 'objection' })
    .returning(['id', 'createdAt'])
    .executeTakeFirstOrThrow();

/** The organisation of the competition whose objection holds the attachment (who may read it). */
export const objectionAttachmentOrg = (db: Db, key: string) =>
  db
    .selectFrom('scoreDisputes as d')
    .innerJoin('questions as q', 'q.id', 'd.questionId')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .select(['c.orgId', 'd.userId'])
    .where('d.attachmentKey', '=', key)
    .executeTakeFirst();

/** A question whose board an embed shows, with its competition. */
export const embedQuestion = (db: Db, questionId: number) =>
  db
    .selectFrom('questions as q')
    .innerJoin('competitions as c', 'c.id', 'q.competitionId')
    .select(['q.id', 'q.title', 'q.competitionId', 'q.leaderboardPublished', 'c.name as competitionName', 'c.embedOrigins'])
    .where('q.id', '=', questionId)
    .executeTakeFirst();
