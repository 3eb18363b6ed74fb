import { randomBytes } from 'node:crypto';
import {
  ACTION_CODES,
  AUDIT_STATUS,
  INVITATION_STATUS,
  REGISTER_STATUS,
  isCustomField,
  maskIdCard,
  presetOpen,
  registrationRefusal,
  windowRefusal,
  choiceRefusal,
  registrationFormSchema,
  usernameKey,
  type Competition,
  type PresetField,
  type RegistrationInfo,
  type Team,
  type TeamRegisterBody,
  type TeamUpdateBody,
  type TeacherBody,
  SCHOOL_NOT_LISTED_TEXT,
  SCHOOL_STATUS,
  schoolIdOfKey,
  effectiveRegFields,
} from '@contest/shared';
import type { AuthedCtx } from '../../context.ts';
import { notify, tellStaff } from '../notices/index.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, forbidden, notFound, tooMany } from '../../http/errors.ts';
import { withoutOrg } from '../../http/reply.ts';
import { retryMinutes } from '../../limits/rate-limiter.ts';
import * as competitions from '../competitions/index.ts';
import { assertOwnFile } from '../files/index.ts';
import { assertVerified } from '../real-names/index.ts';
import { listedSchool } from '../schools/index.ts';
import { openOrder } from '../orders/index.ts';
import * as registers from '../registrations/index.ts';
import { checkTeacherList, moveTeacherPlaces, retakePlaces, settleTeam } from './eligibility.ts';
import * as repo from './repo.ts';
import * as policy from '../../policy.ts';

/** The competition a participant acts in, with its registration form and whether team changes are still open. */
export async function registrationContext(ctx: AuthedCtx, competitionId: number) {
  const now = ctx.clock.now();
  const competition = await competitions.findCompetition(ctx.db, competitionId, now);
  if (!competition || competition.auditStatus !== AUDIT_STATUS.online) throw notFound('竞赛不存在');
  const preset = (await competitions.listPresets(ctx.db, competitionId)).find((p) => p.menuCode === 'REG_SET');
  const t = now.toISOString();
  return {
    competition,
    // The organiser's fields, with 学校 and 学历 where the eligibility rules need them.
    fields: effectiveRegFields(preset?.fieldList ?? [], competition.eligibility),
    presetOpen: Boolean(preset && presetOpen(preset, now)),
    /** Registering and joining are kept for people who completed 实名认证. */
    realName: Boolean(preset?.realName),
    /** Team changes lock once the registration window has closed. */
    locked: t > competition.regEndTime,
    notStarted: t < competition.regStartTime,
  };
}
type RegContext = Awaited<ReturnType<typeof registrationContext>>;

/**
 * Registering and joining: the REG_SET menu open, the window open, the contest not already judged or published, and the
 * caller verified when the competition requires 实名认证.
 */
async function assertOpen(ctx: AuthedCtx, rc: RegContext) {
  if (!rc.presetOpen) throw conflict('该竞赛未开放报名');
  if (rc.notStarted) throw conflict('报名尚未开始');
  if (rc.locked) throw conflict('报名已截止，队伍信息不能再修改');
  const phase = await competitions.phaseOf(ctx.db, rc.competition, ctx.clock.now());
  const refusal = registrationRefusal(rc.competition, phase.code, ctx.clock.now());
  if (refusal) throw conflict(refusal);
  if (rc.realName) await assertVerified(ctx.db, ctx.actor.userId, 'REG_SET');
}

/**
 * Validates a member's form against the REG_SET fields; errors come back under `prefix.<field>`. A file field must
 * name a file the caller uploaded as an attachment, or the one already kept in that member's form (`member`).
 */
async function parseInfo(
  ctx: AuthedCtx,
  fields: readonly PresetField[],
  raw: unknown,
  prefix: string,
  member?: { teamId: number; userId: number },
): Promise<RegistrationInfo> {
  const parsed = registrationFormSchema(fields, ctx.clock.now()).safeParse(raw ?? {});
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[[prefix, ...issue.path].join('.')] ??= issue.message;
    throw badRequest(Object.values(errors)[0]!, errors);
  }
  const info = parsed.data;
  // The school is kept with the record of the platform's list it names (written as the list writes it); a competition
  // may take only the list's schools (its 学校 field's setting).
  if (info.organization) {
    const school = await listedSchool(ctx.db, info.organization);
    if (!school && fields.some((f) => f.name === 'organization' && f.otherParams.schoolList))
      throw badRequest(SCHOOL_NOT_LISTED_TEXT, { [`${prefix}.organization`]: SCHOOL_NOT_LISTED_TEXT });
    if (school) Object.assign(info, { organization: school.name, schoolId: school.id });
  }
  const fileFields = fields.filter((f) => isCustomField(f.name) && f.type === 'file');
  if (fileFields.length) {
    const row = member ? await repo.findMemberRow(ctx.db, member.teamId, member.userId) : undefined;
    const kept = row ? ((JSON.parse(row.infoJson) as RegistrationInfo).extra ?? {}) : {};
    for (const f of fileFields) {
      const key = info.extra?.[f.name];
      if (key && key !== kept[f.name]) await assertOwnFile(ctx, `${prefix}.extra.${f.name}`, key, 'attachment');
    }
  }
  return info;
}

/** The ID number is kept encrypted beside its mask, never inside the stored form. */
export function sealInfo(ctx: AuthedCtx, info: RegistrationInfo) {
  const { idCardNo, ...rest } = info;
  return {
    infoJson: JSON.stringify(rest),
    idCardEnc: idCardNo ? ctx.cipher.encrypt(idCardNo) : null,
    idCardMask: idCardNo ? maskIdCard(idCardNo) : null,
  };
}

async function assertAttachments(ctx: AuthedCtx, keys: string[]) {
  for (const [i, key] of keys.entries()) await assertOwnFile(ctx, `attachments.${i}`, key, 'attachment');
}

/** Team numbers are the team's own id, zero-padded: unique by construction, whatever the competition. */
export const teamNo = (id: number) => String(id).padStart(10, '0');

/** Registers the caller: a team they lead (or an individual entry), their form, the registration and, for a fee, the order. */
export async function register(ctx: AuthedCtx, competitionId: number, body: TeamRegisterBody) {
  const rc = await registrationContext(ctx, competitionId);
  await assertOpen(ctx, rc);
  const { competition } = rc;
  if (body.individual && !competition.allowIndividual) throw badRequest('该竞赛不允许个人参赛', { individual: '该竞赛不允许个人参赛' });
  const info = await parseInfo(ctx, rc.fields, body.info, 'info');
  const name = body.individual ? (info.userName ?? ctx.actor.username) : body.teamName;
  if (!name) throw badRequest('请输入队伍名称', { teamName: '请输入队伍名称' });
  await assertAttachments(ctx, body.attachments);
  const userId = ctx.actor.userId;
  if (await repo.findTeamOfUser(ctx.db, competitionId, userId)) throw conflict('您已报名该竞赛或已加入其中一支队伍');
  const now = ctx.clock.now().toISOString();
  try {
    const made = await ctx.db.transaction().execute(async (trx) => {
      const teamId = await repo.insertTeam(trx, {
        competitionId,
        teamNo: `new-${randomBytes(10).toString('hex')}`,
        name: body.individual ? `${name}（个人）` : name,
        individual: body.individual,
        leaderId: userId,
        joinCode: randomBytes(12).toString('base64url'),
        now,
      });
      await repo.setTeamNo(trx, teamId, teamNo(teamId));
      await repo.insertMember(trx, { teamId, userId, competitionId, leader: 1, ...sealInfo(ctx, info), createdAt: now });
      await settleTeam(trx, competition, teamId, now, { chosenGroup: body.groupName ?? null });
      await repo.lapseInvitations(trx, competitionId, userId, now);
      const orderId = competition.fee > 0 ? await openOrder(ctx, trx, { competitionId, teamId, amount: competition.fee }) : null;
      const registerId = await registers.insertRegister(trx, {
        competitionId,
        teamId,
        userId,
        orderId,
        attachments: body.attachments,
        schoolStatus: competition.eligibility.schoolAudit ? SCHOOL_STATUS.pending : null,
        now,
      });
      await registers.insertFlow(trx, {
        registerId,
        actorId: userId,
        action: 'submit',
        fromStatus: null,
        toStatus: REGISTER_STATUS.pending,
        reason: null,
        now,
      });
      return { teamId, registerId, orderId };
    });
    const teamName = body.individual ? `${name}（个人）` : name;
    // 两级审核: the school's coordinators review it first; the organisers are told once the school has passed it (or
    // now, when the school has no coordinator yet, so that they can appoint one).
    const reviewers = competition.eligibility.schoolAudit && info.schoolId ? await repo.schoolCoordinatorIds(ctx.db, info.schoolId, competition) : [];
    if (reviewers.length)
      await notify(ctx, reviewers, {
        title: '新的报名待学校审核',
        content: `${info.organization}的“${teamName}”报名了竞赛“${competition.name}”，请在个人中心“院校负责人”中审核。`,
        source: 'register.school',
      });
    else
      await tellStaff(ctx, ACTION_CODES.registerAudit, competition.orgId, {
        title: competition.eligibility.schoolAudit ? '新的报名待学校审核（该校尚无院校负责人）' : '新的报名待审核',
        content: competition.eligibility.schoolAudit
          ? `${info.organization}的“${teamName}”报名了竞赛“${competition.name}”，须先经学校审核，但该校在本竞赛尚无院校负责人，请在竞赛详情页指定。`
          : `“${teamName}”报名了竞赛“${competition.name}”，请在“报名管理”中审核。`,
        source: 'register.submitted',
      });
    return made;
  } catch (err) {
    if (isUniqueViolation(err)) {
      if (await repo.findTeamOfUser(ctx.db, competitionId, userId)) throw conflict('您已报名该竞赛或已加入其中一支队伍');
      throw conflict('队伍名称已被使用，请换一个名称');
    }
    throw err;
  }
}

/** Everything the team tab shows; invitations and the join code only for the leader. */
export async function teamView(ctx: AuthedCtx, team: NonNullable<Awaited<ReturnType<typeof repo.findTeam>>>, competition: Competition): Promise<Team> {
  const [members, teacherList, register, choiceQuestionList] = await Promise.all([
    repo.listMembers(ctx.db, [team.id]),
    repo.listTeachers(ctx.db, team.id),
    registers.findRegisterOfTeam(ctx.db, team.id),
    repo.listChoices(ctx.db, team.id),
  ]);
  const leader = ctx.actor?.userId === team.leaderId;
  return {
    id: team.id,
    competitionId: team.competitionId,
    teamNo: team.teamNo,
    name: team.name,
    individual: team.individual === 1,
    leaderId: team.leaderId,
    memberList: members.get(team.id)!,
    teacherList,
    choiceQuestionList,
    invitationList: leader ? await repo.listTeamInvitations(ctx.db, team.id) : [],
    joinCode: leader && team.individual === 0 ? team.joinCode : null,
    // The registration's organisation id served the organisers' scope; it stays on the server.
    register: register ? withoutOrg(register) : null,
    minMembers: competition.minMembers,
    maxMembers: team.individual === 1 ? 1 : competition.maxMembers,
    maxTeachers: competition.maxTeachers,
    groupName: team.groupName,
    schoolName: team.schoolName,
    locked: ctx.clock.now().toISOString() > competition.regEndTime,
    createdAt: team.createdAt,
  };
}

/** `GET /api/team/competition/{id}`: the caller's team in the competition, or null. */
export async function myTeam(ctx: AuthedCtx, competitionId: number) {
  const { competition } = await registrationContext(ctx, competitionId);
  const team = await repo.findTeamOfUser(ctx.db, competitionId, ctx.actor.userId);
  return team ? teamView(ctx, team, competition) : null;
}

/** A team its members may read, and the organisers of its competition. */
/** A registration (its team's members and its competition's organisers may read it) with its team and review flow. */
export async function registrationDetail(ctx: AuthedCtx, id: number) {
  const found = await registers.registerWithFlows(ctx.db, id);
  if (!found) throw notFound('报名不存在');
  const team = await readableTeam(ctx, found.register.teamId).catch(() => {
    throw notFound('报名不存在');
  });
  return { ...found.register, team, flows: found.flows };
}

export async function readableTeam(ctx: AuthedCtx, teamId: number) {
  const found = await repo.findTeam(ctx.db, teamId);
  const member = found !== undefined && (await repo.isMember(ctx.db, teamId, ctx.actor.userId));
  const competition = found && (await competitions.findCompetition(ctx.db, found.competitionId, ctx.clock.now()));
  const team = policy.readsTeam(ctx, found, { member, competition });
  return teamView(ctx, team, competition!);
}

/** A member of the team, or staff in this role of its competition's organisation (or the platform's). */
export async function memberOrOrganiser(ctx: AuthedCtx, team: { id: number; competitionId: number }, role: policy.StaffRole) {
  if (await repo.isMember(ctx.db, team.id, ctx.actor.userId)) return true;
  return policy.organises(ctx, await competitions.findCompetition(ctx.db, team.competitionId, ctx.clock.now()), role);
}

/** The team the caller leads, with its competition; refuses once the registration window has closed. */
async function ledTeam(ctx: AuthedCtx, teamId: number, { open = true } = {}) {
  const team = await repo.findTeam(ctx.db, teamId);
  if (!team || !(await repo.isMember(ctx.db, teamId, ctx.actor.userId))) throw notFound('队伍不存在');
  if (team.leaderId !== ctx.actor.userId) throw forbidden('只有队长可以执行此操作');
  const rc = await registrationContext(ctx, team.competitionId);
  if (open && rc.locked) throw conflict('报名已截止，队伍信息不能再修改');
  return { team, rc };
}

/** The leader renames the team or corrects the form; a rejected registration goes back for review. */
export async function update(ctx: AuthedCtx, teamId: number, body: TeamUpdateBody) {
  const { team, rc } = await ledTeam(ctx, teamId);
  const info = body.info === undefined ? undefined : await parseInfo(ctx, rc.fields, body.info, 'info', { teamId, userId: ctx.actor.userId });
  if (body.attachments) await assertAttachments(ctx, body.attachments);
  const now = ctx.clock.now().toISOString();
  const register = await registers.findRegisterOfTeam(ctx.db, teamId);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (body.teamName && team.individual === 0) await repo.renameTeam(trx, teamId, body.teamName, now);
      if (info) await repo.updateMemberInfo(trx, teamId, ctx.actor.userId, sealInfo(ctx, info));
      await settleTeam(trx, rc.competition, teamId, now, body.groupName ? { chosenGroup: body.groupName } : {});
      if (register) {
        if (body.attachments) await repo.setAttachments(trx, register.id, JSON.stringify(body.attachments), now);
        if (register.status === REGISTER_STATUS.rejected) {
          // The places it gave back when refused are taken again (or it waits while they are full).
          await retakePlaces(trx, rc.competition, teamId);
          await registers.transition(trx, register.id, REGISTER_STATUS.rejected, REGISTER_STATUS.pending, { reason: null, now });
          // Where the school reviews first, it reviews the corrected registration again.
          await registers.reopenAtSchool(trx, register.id);
          await registers.insertFlow(trx, {
            registerId: register.id,
            actorId: ctx.actor.userId,
            action: 'resubmit',
            fromStatus: REGISTER_STATUS.rejected,
            toStatus: REGISTER_STATUS.pending,
            reason: null,
            now,
          });
        }
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('队伍名称已被使用，请换一个名称');
    throw err;
  }
  // Sent again to its school (两级审核): the school's coordinators are told it waits for them.
  if (register?.status === REGISTER_STATUS.rejected && rc.competition.eligibility.schoolAudit) {
    const fresh = await repo.findTeam(ctx.db, teamId);
    const schoolId = schoolIdOfKey(fresh?.schoolKey);
    const reviewers = schoolId ? await repo.schoolCoordinatorIds(ctx.db, schoolId, rc.competition) : [];
    if (reviewers.length)
      await notify(ctx, reviewers, {
        title: '报名已重新提交，待学校审核',
        content: `“${fresh!.name}”修改后重新提交了竞赛“${rc.competition.name}”的报名，请在个人中心“院校负责人”中审核。`,
        source: 'register.school',
      });
  }
}

export async function updateTeachers(ctx: AuthedCtx, teamId: number, list: TeacherBody[]) {
  const { rc } = await ledTeam(ctx, teamId);
  if (list.length > rc.competition.maxTeachers) {
    throw badRequest(`本竞赛每队最多${rc.competition.maxTeachers}名指导老师`, { teacherList: `本竞赛每队最多${rc.competition.maxTeachers}名指导老师` });
  }
  checkTeacherList(rc.competition, list);
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.lockTeam(trx, teamId, now);
    const before = await repo.listTeachers(trx, teamId);
    await repo.replaceTeachers(
      trx,
      teamId,
      list.map((t) => ({ name: t.name, phone: t.phone ?? null, organization: t.organization ?? null, title: t.title ?? null })),
    );
    // A refused team holds no places: its teachers take theirs when it resubmits.
    if ((await repo.findTeam(trx, teamId))!.placesHeld === 1) await moveTeacherPlaces(trx, rc.competition, before, list);
    await settleTeam(trx, rc.competition, teamId, now);
  });
}

/**
 * Invites by username or phone number. Whoever the account is, the leader gets one and the same reply: an account
 * that does not exist, cannot be invited (disabled, already in a team of the competition) or can, all read as sent,
 * and the leader's list shows the account as typed. Otherwise inviting phone numbers would tell whose they are, and
 * who has entered the competition. Only an account that can join gets the invitation; the others go nowhere. Each
 * user's invitations are counted, so that numbers cannot be tried in bulk.
 */
export async function invite(ctx: AuthedCtx, teamId: number, account: string) {
  const { team, rc } = await ledTeam(ctx, teamId);
  await assertOpen(ctx, rc);
  if (team.individual === 1) throw conflict('个人参赛不能邀请队员');
  if (team.memberCount >= rc.competition.maxMembers) throw conflict('队伍人数已满');
  const userId = ctx.actor.userId;
  const key = usernameKey(account);
  const phone = account.trim();
  // Only what the leader knows already: their own name or phone number.
  const me = await repo.userKeys(ctx.db, userId);
  if (key === me.usernameKey || (me.phone && phone === me.phone)) throw badRequest('不能邀请自己', { account: '不能邀请自己' });
  const { maxPerUser, windowMs } = ctx.config.invitations;
  const hit = await ctx.limiter.hit(`invite:user:${userId}`, maxPerUser, windowMs);
  if (!hit.allowed) throw tooMany(`发送邀请过于频繁，请${retryMinutes(hit.retryAfterMs)}分钟后再试`);
  const found = await repo.findUserByAccount(ctx.db, key, phone);
  const invitable = found && found.status === 1 && found.id !== userId && !(await repo.findTeamOfUser(ctx.db, team.competitionId, found.id));
  const invitee = invitable ? found : null;
  try {
    const id = await repo.insertInvitation(ctx.db, {
      teamId,
      competitionId: team.competitionId,
      inviterId: userId,
      inviteeId: invitee?.id ?? null,
      account: key,
      now: ctx.clock.now().toISOString(),
    });
    if (invitee) {
      await notify(ctx, [invitee.id], {
        title: `队伍邀请：${team.name}`,
        content: `${ctx.actor.username} 邀请您加入“${rc.competition.name}”的队伍“${team.name}”，请到该竞赛的“我的队伍”页面回复。`,
        source: 'invitation',
      });
    }
    return { id, account: key };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('已向该账号发出邀请，请等待对方回复');
    throw err;
  }
}

/** What the join page shows: the caller must hold a pending invitation or the team's join code. */
export async function joinView(ctx: AuthedCtx, teamId: number, code: string | undefined) {
  const team = await repo.findTeam(ctx.db, teamId);
  if (!team) throw notFound('邀请不存在或已失效');
  const invitation = await repo.findPendingInvitation(ctx.db, teamId, ctx.actor.userId);
  const member = await repo.isMember(ctx.db, teamId, ctx.actor.userId);
  const codeOk = Boolean(code) && code === team.joinCode && team.individual === 0;
  if (!invitation && !codeOk && !member) throw notFound('邀请不存在或已失效');
  const rc = await registrationContext(ctx, team.competitionId);
  const leader = await repo.userNames(ctx.db, team.leaderId);
  return {
    id: team.id,
    teamNo: team.teamNo,
    name: team.name,
    competitionId: team.competitionId,
    competitionName: rc.competition.name,
    leaderName: leader.userName ?? leader.username,
    memberNum: team.memberCount,
    maxMembers: rc.competition.maxMembers,
    locked: rc.locked,
    member,
    invitationId: invitation?.id ?? null,
    realName: rc.realName,
    fieldList: rc.fields,
  };
}

/** `POST /api/team/member/agree/{teamId}`: joins by a pending invitation or the join code, taking a seat in the database. */
export async function agree(ctx: AuthedCtx, teamId: number, code: string | undefined, rawInfo: unknown) {
  const team = await repo.findTeam(ctx.db, teamId);
  if (!team) throw notFound('邀请不存在或已失效');
  const userId = ctx.actor.userId;
  const invitation = await repo.findPendingInvitation(ctx.db, teamId, userId);
  const codeOk = Boolean(code) && code === team.joinCode;
  if (!invitation && !codeOk) throw notFound('邀请不存在或已失效');
  if (team.individual === 1) throw conflict('个人参赛不能加入队员');
  const rc = await registrationContext(ctx, team.competitionId);
  await assertOpen(ctx, rc);
  const info = await parseInfo(ctx, rc.fields, rawInfo, 'info');
  const now = ctx.clock.now().toISOString();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await repo.takeSeat(trx, teamId, rc.competition.maxMembers, now))) throw conflict('队伍人数已满');
      await repo.insertMember(trx, { teamId, userId, competitionId: team.competitionId, leader: 0, ...sealInfo(ctx, info), createdAt: now });
      await settleTeam(trx, rc.competition, teamId, now);
      if (invitation) await repo.decideInvitation(trx, invitation.id, INVITATION_STATUS.agreed, now);
      await repo.lapseInvitations(trx, team.competitionId, userId, now);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('您已报名该竞赛或已加入其中一支队伍');
    throw err;
  }
}

export async function refuse(ctx: AuthedCtx, teamId: number) {
  if (!(await repo.refuseInvitations(ctx.db, teamId, ctx.actor.userId, ctx.clock.now().toISOString()))) throw notFound('邀请不存在或已失效');
}

/** The leader removes a member, or a member leaves; the leader stays. */
export async function removeMember(ctx: AuthedCtx, teamId: number, userId: number) {
  const self = userId === ctx.actor.userId;
  const team = await repo.findTeam(ctx.db, teamId);
  if (!team || !(await repo.isMember(ctx.db, teamId, ctx.actor.userId))) throw notFound('队伍不存在');
  if (!self && team.leaderId !== ctx.actor.userId) throw forbidden('只有队长可以移除队员');
  if (userId === team.leaderId) throw conflict('队长不能退出或被移除');
  const rc = await registrationContext(ctx, team.competitionId);
  if (rc.locked) throw conflict('报名已截止，队伍信息不能再修改');
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.removeMember(trx, teamId, userId, now))) throw notFound('该用户不在队伍中');
    await settleTeam(trx, rc.competition, teamId, now);
  });
}

/** A member corrects their own form. */
export async function updateOwnInfo(ctx: AuthedCtx, teamId: number, rawInfo: unknown) {
  const team = await repo.findTeam(ctx.db, teamId);
  if (!team || !(await repo.isMember(ctx.db, teamId, ctx.actor.userId))) throw notFound('队伍不存在');
  const rc = await registrationContext(ctx, team.competitionId);
  if (rc.locked) throw conflict('报名已截止，队伍信息不能再修改');
  const sealed = sealInfo(ctx, await parseInfo(ctx, rc.fields, rawInfo, 'info', { teamId, userId: ctx.actor.userId }));
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.updateMemberInfo(trx, teamId, ctx.actor.userId, sealed);
    await settleTeam(trx, rc.competition, teamId, now);
  });
}

/** The leader corrects several members' forms at once; all or nothing. */
export async function batchUpdateMembers(ctx: AuthedCtx, teamId: number, list: { userId: number; info: unknown }[]) {
  const { rc } = await ledTeam(ctx, teamId);
  const sealed: { userId: number; values: ReturnType<typeof sealInfo> }[] = [];
  for (const [i, m] of list.entries()) {
    if (!(await repo.isMember(ctx.db, teamId, m.userId))) throw badRequest('该用户不在队伍中', { [`memberList.${i}.userId`]: '该用户不在队伍中' });
    sealed.push({ userId: m.userId, values: sealInfo(ctx, await parseInfo(ctx, rc.fields, m.info, `memberList.${i}.info`, { teamId, userId: m.userId })) });
  }
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    for (const m of sealed) await repo.updateMemberInfo(trx, teamId, m.userId, m.values);
    await settleTeam(trx, rc.competition, teamId, now, { field: 'memberList' });
  });
}

/** The leader hands the team to another member. */
export async function transferLeader(ctx: AuthedCtx, teamId: number, userId: number) {
  const { rc } = await ledTeam(ctx, teamId);
  if (!(await repo.isMember(ctx.db, teamId, userId))) throw badRequest('该用户不在队伍中', { userId: '该用户不在队伍中' });
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.setLeader(trx, teamId, userId, now);
    // The team's school is its leader's: handing over may move its place.
    await settleTeam(trx, rc.competition, teamId, now);
  });
}

/**
 * The leader chooses the team's question while the CHOICE_SET window is open; the team must be approved and, for a
 * competition with a fee, paid. Choosing again replaces the choice until the window closes.
 */
export async function chooseQuestion(ctx: AuthedCtx, teamId: number, questionId: number) {
  const { team } = await ledTeam(ctx, teamId, { open: false });
  const now = ctx.clock.now();
  // The shared window rule (lifecycle.ts): the preset's own times, else the choice or works stage, else the end.
  const refusal = windowRefusal(await competitions.submissionWindowOf(ctx.db, team.competitionId, 'CHOICE_SET'), now);
  if (refusal) throw conflict(refusal);
  const question = await repo.questionState(ctx.db, questionId);
  if (!question || question.competitionId !== team.competitionId || question.reviewed !== 1) throw badRequest('赛题不存在', { questionId: '赛题不存在' });
  const register = await registers.findRegisterOfTeam(ctx.db, teamId);
  const competition = await competitions.findCompetition(ctx.db, team.competitionId, now);
  const notYet = choiceRefusal(register, competition!.fee);
  if (notYet) throw conflict(notYet);
  const values = { questionId, chosenBy: ctx.actor.userId, chosenAt: now.toISOString() };
  await repo.saveChoice(ctx.db, teamId, values);
}

export const myInvitations = (ctx: AuthedCtx, competitionId?: number) => repo.listMyInvitations(ctx.db, ctx.actor.userId, competitionId);
