import type { Db } from '../../db/database.ts';

/** One assignment, if it was given to this judge. */
export const findAssignmentOfJudge = (db: Db, id: number, judgeId: number) =>
  db.selectFrom('reviewAssignments').selectAll().where('id', '=', id).where('judgeId', '=', judgeId).executeTakeFirst();
