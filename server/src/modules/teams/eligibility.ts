import {
  CHOOSE_GROUP_TEXT,
  NO_GROUP_TEXT,
  SAME_SCHOOL_TEXT,
  TEACHER_PHONE_TEXT,
  groupOfDegrees,
  normalPhone,
  schoolFullText,
  schoolKeyOf,
  teacherFullText,
  teacherSchoolText,
  REGISTER_STATUS,
  SCHOOL_STATUS,
  type Competition,
  type TeacherBody,
} from '@contest/shared';
import type { Db } from '../../db/database.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { listedSchool } from '../schools/index.ts';
import * as registers from '../registrations/index.ts';
import * as repo from './repo.ts';

/**
 * The competition's eligibility rules (issue 36 item 3, packages/shared eligibility.ts) as one step every path that
 * changes a team ends with, in the transaction that made the change: registering, joining, leaving or being removed,
 * a member's form corrected, the leader handed over, the teachers replaced. It locks the team's row, reads the team as
 * the change left it and refuses (rolling the change back) when it breaks a rule; otherwise it keeps the team's school
 * (its leader's) and group, and moves the school's place when the team's school changed.
 */
export async function settleTeam(
  trx: Db,
  competition: Competition,
  teamId: number,
  now: string,
  o: { chosenGroup?: string | null; field?: string } = {},
): Promise<void> {
  const e = competition.eligibility;
  await repo.lockTeam(trx, teamId, now);
  const team = (await repo.findTeam(trx, teamId))!;
  const members = (await repo.listMembers(trx, [teamId])).get(teamId)!;
  const leader = members.find((m) => m.leader) ?? members[0]!;
  const schoolKey = schoolKeyOf(leader.info);
  const field = o.field ?? 'info';
  if (e.sameSchool) {
    if (members.some((m) => schoolKeyOf(m.info) !== schoolKey)) throw badRequest(SAME_SCHOOL_TEXT, { [`${field}.organization`]: SAME_SCHOOL_TEXT });
    for (const t of await repo.listTeachers(trx, teamId)) {
      if ((await teacherSchoolKey(trx, t.organization)) !== schoolKey) throw conflict(teacherSchoolText(t.name));
    }
  }
  let groupName: string | null = null;
  if (e.groupMode === 'degree') {
    if (members.some((m) => groupOfDegrees(e, [m.info.education]) === null)) throw badRequest(NO_GROUP_TEXT, { [`${field}.education`]: NO_GROUP_TEXT });
    groupName = groupOfDegrees(
      e,
      members.map((m) => m.info.education),
    );
  } else if (e.groupMode === 'choice') {
    groupName = o.chosenGroup === undefined ? team.groupName : o.chosenGroup;
    if (!groupName || !e.groupList.some((g) => g.name === groupName)) throw badRequest(CHOOSE_GROUP_TEXT, { groupName: CHOOSE_GROUP_TEXT });
  }
  if (schoolKey !== team.schoolKey && e.schoolAudit && team.schoolKey) {
    // Its school passed it: another school's coordinator never looked at it.
    const register = await registers.findRegisterOfTeam(trx, teamId);
    if (register?.schoolStatus === SCHOOL_STATUS.approved && register.status !== REGISTER_STATUS.rejected)
      throw conflict('学校审核通过后不能更换学校；如需更换，请联系院校负责人驳回后再修改');
  }
  const max = e.maxTeamsPerSchool;
  // A team whose registration was refused holds no place (it takes one again when it resubmits).
  if (max !== null && schoolKey !== team.schoolKey && team.placesHeld === 1) {
    if (team.schoolKey) await repo.releaseQuota(trx, competition.id, 'school', team.schoolKey);
    if (schoolKey && !(await repo.takeQuota(trx, competition.id, 'school', schoolKey, max))) throw conflict(schoolFullText(max));
  }
  await repo.setTeamEligibility(trx, teamId, { schoolKey, schoolName: schoolKey ? (leader.info.organization ?? null) : null, groupName });
}

/** A teacher's 单位 as a school key: the list's record it names, else the name normalised. */
async function teacherSchoolKey(db: Db, organization: string | null) {
  if (!organization) return null;
  const listed = await listedSchool(db, organization);
  return schoolKeyOf({ organization, schoolId: listed?.id });
}

/** Refuses a teacher list the rules cannot count: a teacher without a phone number, or one teacher twice. */
export function checkTeacherList(competition: Competition, list: readonly TeacherBody[]) {
  if (competition.eligibility.maxTeamsPerTeacher === null) return;
  const seen = new Set<string>();
  for (const [i, t] of list.entries()) {
    if (!t.phone) throw badRequest(TEACHER_PHONE_TEXT, { [`teacherList.${i}.phone`]: TEACHER_PHONE_TEXT });
    const key = normalPhone(t.phone);
    if (seen.has(key)) throw badRequest('同一位老师不能重复添加', { [`teacherList.${i}.phone`]: '同一位老师不能重复添加' });
    seen.add(key);
  }
}

/**
 * Moves the teachers' places from the old list to the new one (in the transaction that replaced it): a teacher who
 * left gives theirs back, one who came takes one, refused when they already guide as many teams as allowed.
 */
export async function moveTeacherPlaces(
  trx: Db,
  competition: Competition,
  before: readonly { phone: string | null }[],
  after: readonly { name: string; phone?: string | null }[],
) {
  const max = competition.eligibility.maxTeamsPerTeacher;
  if (max === null) return;
  // One number however typed (+86, spaces); taken in the numbers' order, so that two teams swapping teachers at once
  // lock the counts in one order and do not deadlock.
  const key = (p: string | null | undefined) => (p ? normalPhone(p) : null);
  const old = new Set(before.map((t) => key(t.phone)).filter((p): p is string => Boolean(p)));
  const next = new Set(after.map((t) => key(t.phone)).filter((p): p is string => Boolean(p)));
  for (const phone of [...old].sort()) if (!next.has(phone)) await repo.releaseQuota(trx, competition.id, 'teacher', phone);
  for (const t of [...after].sort((a, b) => (key(a.phone) ?? '').localeCompare(key(b.phone) ?? ''))) {
    const phone = key(t.phone);
    if (!phone || old.has(phone)) continue;
    if (!(await repo.takeQuota(trx, competition.id, 'teacher', phone, max))) throw conflict(teacherFullText(t.name, max));
  }
}

/**
 * A refused registration gives back the places its team held (its school's, its teachers'), once: a team refused
 * for not belonging does not keep a school's place from another team. Run in the refusal's transaction.
 */
export async function releasePlaces(trx: Db, teamId: number) {
  if (!(await repo.dropPlaces(trx, teamId))) return;
  const team = (await repo.findTeam(trx, teamId))!;
  if (team.schoolKey) await repo.releaseQuota(trx, team.competitionId, 'school', team.schoolKey);
  for (const t of await repo.listTeachers(trx, teamId)) if (t.phone) await repo.releaseQuota(trx, team.competitionId, 'teacher', normalPhone(t.phone));
}
registers.whenRefused(releasePlaces);

/** A refused team sending its registration again takes its places again, or is refused while they are full. */
export async function retakePlaces(trx: Db, competition: Competition, teamId: number) {
  if (!(await repo.takePlaces(trx, teamId))) return;
  const team = (await repo.findTeam(trx, teamId))!;
  const e = competition.eligibility;
  if (e.maxTeamsPerSchool !== null && team.schoolKey && !(await repo.takeQuota(trx, competition.id, 'school', team.schoolKey, e.maxTeamsPerSchool)))
    throw conflict(schoolFullText(e.maxTeamsPerSchool));
  if (e.maxTeamsPerTeacher !== null)
    for (const t of await repo.listTeachers(trx, teamId)) {
      if (t.phone && !(await repo.takeQuota(trx, competition.id, 'teacher', normalPhone(t.phone), e.maxTeamsPerTeacher)))
        throw conflict(teacherFullText(t.name, e.maxTeamsPerTeacher));
    }
}
