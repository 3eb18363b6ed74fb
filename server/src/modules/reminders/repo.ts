import { AUDIT_STATUS, REGISTER_STATUS, TEST_STATUS } from '@contest/shared';
import type { Db } from '../../db/database.ts';

/** Every query of deadline reminders. */

/** Online competitions not yet over: those whose submission deadlines may be near. */
export const openCompetitions = (db: Db, now: string) =>
  db.selectFrom('competitions').select(['id', 'name', 'orgId']).where('auditStatus', '=', AUDIT_STATUS.online).where('endTime', '>', now).execute();

/**
 * The approved teams of a competition that still lack what the deadline is for: no works (SUBMIT_WORKS), or no scored
 * test file (SUBMIT_TEST).
 */
export function teamsMissing(db: Db, competitionId: number, kind: 'SUBMIT_WORKS' | 'SUBMIT_TEST') {
  return db
    .selectFrom('registers as r')
    .select('r.teamId')
    .distinct()
    .where('r.competitionId', '=', competitionId)
    .where('r.status', '=', REGISTER_STATUS.approved)
    .where((eb) =>
      eb.not(
        eb.exists(
          kind === 'SUBMIT_WORKS'
            ? eb.selectFrom('works as w').select('w.id').whereRef('w.teamId', '=', 'r.teamId')
            : eb.selectFrom('testSubmissions as s').select('s.id').whereRef('s.teamId', '=', 'r.teamId').where('s.status', '=', TEST_STATUS.scored),
        ),
      ),
    )
    .execute();
}

/**
 * Records the teams reminded of a deadline in a window; answers those this call recorded (a team another worker
 * recorded first is not among them), so each team is reminded once however many workers sweep at once.
 */
export async function claimTeams(db: Db, v: { competitionId: number; kind: string; deadline: string; window: string; teamIds: number[]; now: string }) {
  if (!v.teamIds.length) return [];
  const rows = await db
    .insertInto('remindersSent')
    .values(v.teamIds.map((teamId) => ({ competitionId: v.competitionId, kind: v.kind, deadline: v.deadline, window: v.window, teamId, createdAt: v.now })))
    .onConflict((oc) => oc.columns(['competitionId', 'kind', 'deadline', 'window', 'teamId']).doNothing())
    .returning('teamId')
    .execute();
  return rows.map((r) => r.teamId);
}

export const memberIds = async (db: Db, teamIds: number[]) =>
  teamIds.length ? (await db.selectFrom('teamMembers').select('userId').distinct().where('teamId', 'in', teamIds).execute()).map((r) => r.userId) : [];
