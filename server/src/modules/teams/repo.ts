import { type Judging, type RegistrationInfo, type TeamInvitation, type TeamMember, type TeamTeacher } from '@contest/shared';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { TeamMembersTable } from '../../db/schema.ts';

export const findTeam = (db: Db, id: number) => db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();

export const findTeamOfUser = (db: Db, competitionId: number, userId: number) =>
  db
    .selectFrom('teamMembers as m')
    .innerJoin('teams as t', 't.id', 'm.teamId')
    .selectAll('t')
    .where('m.competitionId', '=', competitionId)
    .where('m.userId', '=', userId)
    .executeTakeFirst();

export const isMember = async (db: Db, teamId: number, userId: number) =>
  Boolean(await db.selectFrom('teamMembers').select('userId').where('teamId', '=', teamId).where('userId', '=', userId).executeTakeFirst());

export async function insertTeam(
  db: Db,
  v: { competitionId: number; teamNo: string; name: string; individual: boolean; leaderId: number; joinCode: string; now: string },
) {
  const row = await db
    .insertInto('teams')
    .values({
      competitionId: v.competitionId,
      teamNo: v.teamNo,
      name: v.name,
      individual: v.individual ? 1 : 0,
      leaderId: v.leaderId,
      memberCount: 1,
      joinCode: v.joinCode,
      createdAt: v.now,
      updatedAt: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const insertMember = (db: Db, v: Insertable<TeamMembersTable>) => db.insertInto('teamMembers').values(v).execute();

/** Takes a seat if one is left: the counter moves only while it is under the limit, so racing joins cannot overfill. */
export async function takeSeat(db: Db, teamId: number, maxMembers: number, now: string): Promise<boolean> {
  const r = await db
    .updateTable('teams')
    .set((eb) => ({ memberCount: eb('memberCount', '+', 1), updatedAt: now }))
    .where('id', '=', teamId)
    .where('memberCount', '<', maxMembers)
    .where('individual', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function removeMember(db: Db, teamId: number, userId: number, now: string): Promise<boolean> {
  const r = await db.deleteFrom('teamMembers').where('teamId', '=', teamId).where('userId', '=', userId).where('leader', '=', 0).executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) return false;
  await db
    .updateTable('teams')
    .set((eb) => ({ memberCount: eb('memberCount', '-', 1), updatedAt: now }))
    .where('id', '=', teamId)
    .execute();
  return true;
}

type MemberRow = { userId: number; username: string; leader: number; infoJson: string; idCardMask: string | null; createdAt: string };

export function toMember(r: MemberRow): TeamMember {
  const info = JSON.parse(r.infoJson) as RegistrationInfo;
  if (r.idCardMask) info.idCardNo = r.idCardMask;
  return { userId: r.userId, username: r.username, name: info.userName || r.username, leader: r.leader === 1, info, createdAt: r.createdAt };
}

export async function listMembers(db: Db, teamIds: number[]): Promise<Map<number, TeamMember[]>> {
  const out = new Map<number, TeamMember[]>(teamIds.map((id) => [id, []]));
  if (!teamIds.length) return out;
  const rows = await db
    .selectFrom('teamMembers as m')
    .innerJoin('users as u', 'u.id', 'm.userId')
    .select(['m.teamId', 'm.userId', 'u.username', 'm.leader', 'm.infoJson', 'm.idCardMask', 'm.createdAt'])
    .where('m.teamId', 'in', teamIds)
    .orderBy('m.leader', 'desc')
    .orderBy('m.createdAt')
    .orderBy('m.userId')
    .execute();
  for (const r of rows) out.get(r.teamId)!.push(toMember(r));
  return out;
}

export const findMemberRow = (db: Db, teamId: number, userId: number) =>
  db.selectFrom('teamMembers').selectAll().where('teamId', '=', teamId).where('userId', '=', userId).executeTakeFirst();

export async function updateMemberInfo(db: Db, teamId: number, userId: number, v: { infoJson: string; idCardEnc: string | null; idCardMask: string | null }) {
  await db.updateTable('teamMembers').set(v).where('teamId', '=', teamId).where('userId', '=', userId).execute();
}

export async function listTeachers(db: Db, teamId: number): Promise<TeamTeacher[]> {
  return db
    .selectFrom('teamTeachers')
    .select(['id', 'name', 'phone', 'organization', 'title'])
    .where('teamId', '=', teamId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export async function replaceTeachers(db: Db, teamId: number, list: Omit<TeamTeacher, 'id'>[]) {
  await db.deleteFrom('teamTeachers').where('teamId', '=', teamId).execute();
  if (list.length)
    await db
      .insertInto('teamTeachers')
      .values(list.map((t, sort) => ({ ...t, teamId, sort })))
      .execute();
}

const invitationQuery = (db: Db) =>
  db
    .selectFrom('teamInvitations as i')
    .innerJoin('teams as t', 't.id', 'i.teamId')
    .innerJoin('competitions as c', 'c.id', 'i.competitionId')
    .innerJoin('users as inviter', 'inviter.id', 'i.inviterId')
    .select([
      'i.id',
      'i.teamId',
      't.name as teamName',
      'i.competitionId',
      'c.name as competitionName',
      'inviter.username as inviterName',
      'i.status',
      'i.createdAt',
    ]);

/**
 * The team's pending invitations as its leader sees them: by the account the leader typed, never by whom it reached
 * (nor whether it reached anyone), so that inviting a phone number does not tell whose it is.
 */
export async function listTeamInvitations(db: Db, teamId: number): Promise<TeamInvitation[]> {
  const rows = await invitationQuery(db).select('i.account').where('i.teamId', '=', teamId).where('i.status', '=', 0).orderBy('i.id', 'desc').execute();
  return rows.map(({ account, ...r }) => ({ ...r, inviteeId: null, inviteeName: account ?? '' }));
}

export const listMyInvitations = (db: Db, userId: number, competitionId?: number): Promise<TeamInvitation[]> => {
  let q = invitationQuery(db)
    .innerJoin('users as invitee', 'invitee.id', 'i.inviteeId')
    .select(['i.inviteeId', 'invitee.username as inviteeName'])
    .where('i.inviteeId', '=', userId)
    .where('i.status', '=', 0);
  if (competitionId) q = q.where('i.competitionId', '=', competitionId);
  return q.orderBy('i.id', 'desc').execute();
};

export const findPendingInvitation = (db: Db, teamId: number, inviteeId: number) =>
  db
    .selectFrom('teamInvitations')
    .selectAll()
    .where('teamId', '=', teamId)
    .where('inviteeId', '=', inviteeId)
    .where('status', '=', 0)
    .orderBy('id')
    .executeTakeFirst();

export async function insertInvitation(
  db: Db,
  v: { teamId: number; competitionId: number; inviterId: number; inviteeId: number | null; account: string; now: string },
) {
  const row = await db
    .insertInto('teamInvitations')
    .values({
      teamId: v.teamId,
      competitionId: v.competitionId,
      inviterId: v.inviterId,
      inviteeId: v.inviteeId,
      account: v.account,
      status: 0,
      createdAt: v.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Decides a pending invitation; false when it was no longer pending. */
export async function decideInvitation(db: Db, id: number, status: number, now: string): Promise<boolean> {
  const r = await db.updateTable('teamInvitations').set({ status, decidedAt: now }).where('id', '=', id).where('status', '=', 0).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Refuses every pending invitation of the team to the user (one by name and one by phone number may both be). */
export async function refuseInvitations(db: Db, teamId: number, inviteeId: number, now: string): Promise<boolean> {
  const r = await db
    .updateTable('teamInvitations')
    .set({ status: 2, decidedAt: now })
    .where('teamId', '=', teamId)
    .where('inviteeId', '=', inviteeId)
    .where('status', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Once a user is in a team of the competition, their other pending invitations there lapse. */
export async function lapseInvitations(db: Db, competitionId: number, inviteeId: number, now: string) {
  await db
    .updateTable('teamInvitations')
    .set({ status: 3, decidedAt: now })
    .where('competitionId', '=', competitionId)
    .where('inviteeId', '=', inviteeId)
    .where('status', '=', 0)
    .execute();
}

/** The account a username names or, failing that, the first one registered with the phone number. */
export async function findUserByAccount(db: Db, usernameKey: string, phone: string) {
  const byName = await db.selectFrom('users').select(['id', 'username', 'status']).where('usernameKey', '=', usernameKey).executeTakeFirst();
  return byName ?? db.selectFrom('users').select(['id', 'username', 'status']).where('phone', '=', phone).orderBy('id').executeTakeFirst();
}

export const listChoices = async (db: Db, teamId: number) =>
  (
    await db
      .selectFrom('teamChoices as tc')
      .innerJoin('questions as q', 'q.id', 'tc.questionId')
      .select(['tc.questionId', 'q.title', 'q.judging'])
      .where('tc.teamId', '=', teamId)
      .execute()
  ).map((c) => ({ ...c, judging: c.judging as Judging }));

export const setTeamNo = (db: Db, teamId: number, teamNo: string) => db.updateTable('teams').set({ teamNo }).where('id', '=', teamId).execute();

export const renameTeam = (db: Db, teamId: number, name: string, now: string) =>
  db.updateTable('teams').set({ name, updatedAt: now }).where('id', '=', teamId).execute();

export const setAttachments = (db: Db, registerId: number, attachmentsJson: string, now: string) =>
  db.updateTable('registers').set({ attachmentsJson, updatedAt: now }).where('id', '=', registerId).execute();

export const userKeys = (db: Db, userId: number) => db.selectFrom('users').select(['usernameKey', 'phone']).where('id', '=', userId).executeTakeFirstOrThrow();

export const userNames = (db: Db, userId: number) => db.selectFrom('users').select(['username', 'userName']).where('id', '=', userId).executeTakeFirstOrThrow();

/** The user becomes the team's only leader (in the caller's transaction). */
export async function setLeader(db: Db, teamId: number, userId: number, now: string) {
  await db.updateTable('teamMembers').set({ leader: 0 }).where('teamId', '=', teamId).execute();
  await db.updateTable('teamMembers').set({ leader: 1 }).where('teamId', '=', teamId).where('userId', '=', userId).execute();
  await db.updateTable('teams').set({ leaderId: userId, updatedAt: now }).where('id', '=', teamId).execute();
}

export const questionState = (db: Db, questionId: number) =>
  db.selectFrom('questions').select(['competitionId', 'reviewed']).where('id', '=', questionId).executeTakeFirst();

/** The team's question (one per team): chosen anew or changed. */
export async function saveChoice(db: Db, teamId: number, values: { questionId: number; chosenBy: number; chosenAt: string }) {
  await db
    .insertInto('teamChoices')
    .values({ teamId, ...values })
    .onConflict((oc) => oc.column('teamId').doUpdateSet(values))
    .execute();
}

// ---- Eligibility (issue 36 item 3) ----------------------------------------------------------------------------------

/** Locks the team's row for the rest of the transaction (PostgreSQL; SQLite has one writer), so that racing changes
 * to its members settle one after the other. */
export const lockTeam = (db: Db, teamId: number, now: string) => db.updateTable('teams').set({ updatedAt: now }).where('id', '=', teamId).execute();

export const setTeamEligibility = (db: Db, teamId: number, v: { schoolKey: string | null; schoolName: string | null; groupName: string | null }) =>
  db.updateTable('teams').set(v).where('id', '=', teamId).execute();

/**
 * Takes one of the `max` places counted under (competition, kind, key): the count moves only while it is under the
 * limit, in one statement, so that of racing registrations for the last place exactly one gets it.
 */
export async function takeQuota(db: Db, competitionId: number, kind: 'school' | 'teacher', key: string, max: number): Promise<boolean> {
  await db
    .insertInto('eligibilityQuota')
    .values({ competitionId, kind, key, used: 0 })
    .onConflict((oc) => oc.columns(['competitionId', 'kind', 'key']).doNothing())
    .execute();
  const r = await db
    .updateTable('eligibilityQuota')
    .set((eb) => ({ used: eb('used', '+', 1) }))
    .where('competitionId', '=', competitionId)
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('used', '<', max)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const releaseQuota = (db: Db, competitionId: number, kind: 'school' | 'teacher', key: string) =>
  db
    .updateTable('eligibilityQuota')
    .set((eb) => ({ used: eb('used', '-', 1) }))
    .where('competitionId', '=', competitionId)
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('used', '>', 0)
    .execute();

// ---- A school's roster (issue 36) -------------------------------------------------------------------------------------

/**
 * The accounts that proved these phone numbers (by an SMS code; one account per number), by number. A number merely
 * written in a profile names nobody: anyone can write anyone's number.
 */
export async function usersByPhones(db: Db, phones: string[]) {
  const out = new Map<string, { id: number; status: number }>();
  for (let i = 0; i < phones.length; i += 500) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'status', 'verifiedPhone'])
      .where('verifiedPhone', 'in', phones.slice(i, i + 500))
      .execute();
    for (const r of rows) if (r.verifiedPhone) out.set(r.verifiedPhone, { id: r.id, status: r.status });
  }
  return out;
}

export const teamNameTaken = async (db: Db, competitionId: number, name: string) =>
  Boolean(await db.selectFrom('teams').select('id').where('competitionId', '=', competitionId).where('name', '=', name).executeTakeFirst());

/** Which of these users are in a team of the competition already. */
export async function enteredUserIds(db: Db, competitionId: number, userIds: number[]) {
  const out = new Set<number>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db
      .selectFrom('teamMembers')
      .select('userId')
      .where('competitionId', '=', competitionId)
      .where('userId', 'in', userIds.slice(i, i + 500))
      .execute();
    for (const r of rows) out.add(r.userId);
  }
  return out;
}

/** The coordinators (院校负责人) of a school in a competition: told of a registration waiting for the school. */
export const schoolCoordinatorIds = async (db: Db, schoolId: number, c: { id: number; orgId: number }) =>
  (
    await db
      .selectFrom('schoolCoordinators')
      .select('userId')
      .distinct()
      .where('schoolId', '=', schoolId)
      .where('scopeKey', 'in', ['platform', `org:${c.orgId}`, `competition:${c.id}`])
      .execute()
  ).map((r) => r.userId);

export const setMemberCount = (db: Db, teamId: number, memberCount: number) => db.updateTable('teams').set({ memberCount }).where('id', '=', teamId).execute();

/** The team gives up its places (true when it held them). */
export async function dropPlaces(db: Db, teamId: number) {
  const r = await db.updateTable('teams').set({ placesHeld: 0 }).where('id', '=', teamId).where('placesHeld', '=', 1).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The team holds its places again (true when it did not). */
export async function takePlaces(db: Db, teamId: number) {
  const r = await db.updateTable('teams').set({ placesHeld: 1 }).where('id', '=', teamId).where('placesHeld', '=', 0).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
