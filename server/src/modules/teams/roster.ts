import { randomBytes } from 'node:crypto';
import {
  REGISTER_STATUS,
  ROLE_CODES,
  SCHOOL_STATUS,
  isValidPhone,
  normalPhone,
  registrationFormSchema,
  registrationRefusal,
  usernameKey,
  type RegistrationInfo,
  type RosterMode,
  type RosterReport,
} from '@contest/shared';
import type ExcelJS from 'exceljs';
import type { AuthedCtx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import { cellText } from '../../http/xlsx-read.ts';
import * as competitions from '../competitions/index.ts';
import { notify } from '../notices/index.ts';
import { openOrder } from '../orders/index.ts';
import * as registers from '../registrations/index.ts';
import { insertUser, usernameClash } from '../users/index.ts';
import { settleTeam } from './eligibility.ts';
import * as repo from './repo.ts';
import { registrationContext, sealInfo, teamNo } from './service.ts';

/** The most people one roster may hold (a large school's whole entry). */
const ROSTER_MAX_ROWS = 3000;

const HEADERS = {
  team: /^(队伍名称|队名|队伍)$/,
  role: /^(角色|身份)$/,
  name: /^(姓名|名字)$/,
  phone: /^(手机号|手机|手机号码|联系电话)$/,
  idCard: /^(身份证号|身份证|证件号码)$/,
  education: /^(学历|学历层次)$/,
  group: /^(组别|参赛组别)$/,
} as const;

interface Person {
  row: number;
  team: string;
  /** The group the team chose (its leader's row says), where the competition's groups are chosen. */
  group: string;
  leader: boolean;
  name: string;
  phone: string;
  info: RegistrationInfo;
}

/**
 * A school's coordinator imports its students and teams from the roster template (issue 36 item 2): one row per person
 * (队伍名称, 角色 队长/队员, 姓名, 手机号, 身份证号, 学历). Each row is checked as the registration form would check it,
 * and the teams as registering would (one leader, the size, a name not taken, nobody already entered); an account is
 * matched by its phone number or created (without a password: its owner signs in by SMS code and sets one). With
 * `all`, one bad row imports nothing; with `valid`, the teams without a bad row are imported. What is imported is
 * written in one transaction: teams, members, the eligibility rules (places per school), registrations passed at the
 * school's level (the coordinator is the school) and, for a fee, each team's order.
 */
export async function importRoster(
  ctx: AuthedCtx,
  competitionId: number,
  school: { id: number; name: string },
  sheet: ExcelJS.Worksheet,
  mode: RosterMode,
): Promise<RosterReport> {
  const rc = await registrationContext(ctx, competitionId);
  const { competition } = rc;
  if (!rc.presetOpen || rc.notStarted || rc.locked) throw conflict('该竞赛当前不在报名时间内，不能导入');
  // As registering: not once judging has started or results are out.
  const refusal = registrationRefusal(competition, (await competitions.phaseOf(ctx.db, competition, ctx.clock.now())).code, ctx.clock.now());
  if (refusal) throw conflict(refusal);
  const chosen = competition.eligibility.groupMode === 'choice';
  if (rc.realName) throw conflict('本竞赛报名须本人完成实名认证，不能由学校批量导入；请通知学生自行报名');

  // The header row: within the first five rows, the one naming 队伍名称, 姓名 and 手机号.
  const at: Partial<Record<keyof typeof HEADERS, number>> = {};
  let headerRow = 0;
  for (let r = 1; r <= Math.min(sheet.rowCount, 5) && !headerRow; r++) {
    const found: typeof at = {};
    sheet.getRow(r).eachCell((cell, col) => {
      const t = cellText(cell.value).replace(/\s+/g, '');
      for (const [field, re] of Object.entries(HEADERS) as [keyof typeof HEADERS, RegExp][]) if (re.test(t) && !found[field]) found[field] = col;
    });
    if (found.team && found.name && found.phone) {
      Object.assign(at, found);
      headerRow = r;
    }
  }
  if (!headerRow) throw badRequest('没有找到“队伍名称”“姓名”“手机号”列：请使用导入模板', { file: '请使用导入模板' });
  if (sheet.rowCount - headerRow > ROSTER_MAX_ROWS) throw badRequest(`一次最多导入${ROSTER_MAX_ROWS}人`, { file: `一次最多导入${ROSTER_MAX_ROWS}人` });

  const errors: RosterReport['errors'] = [];
  // A bad row keeps its whole team out (with 只导入没有错误的队伍, the others go in).
  const badTeams = new Set<string>();
  const fail = (row: number, message: string, team?: string) => {
    errors.push({ row, message });
    if (team) badTeams.add(team);
  };
  const labelOf = new Map(rc.fields.map((f) => [f.name as string, f.label]));
  const schema = registrationFormSchema(rc.fields, ctx.clock.now());
  const people: Person[] = [];
  const phones = new Map<string, number>();
  for (let r = headerRow + 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const get = (f: keyof typeof HEADERS) => (at[f] ? cellText(row.getCell(at[f]!).value).trim() : '');
    const [team, role, name, idCard, education] = [get('team'), get('role'), get('name'), get('idCard'), get('education')];
    const phone = normalPhone(get('phone'));
    if (!team && !name && !phone) continue;
    if (!team) fail(r, '缺少队伍名称');
    else if (team.length > 50) fail(r, '队伍名称不能超过50个字', team);
    else if (role && !['队长', '队员'].includes(role)) fail(r, `角色“${role}”应为队长或队员`, team);
    else if (!name) fail(r, '缺少姓名', team);
    else if (!isValidPhone(phone)) fail(r, phone ? `手机号“${phone}”格式不正确` : '缺少手机号', team);
    else if (phones.has(phone)) fail(r, `手机号与第${phones.get(phone)}行重复`, team);
    else {
      phones.set(phone, r);
      // The form as the competition asks it, with the school the coordinator imports for.
      const raw = { userName: name, tel: phone, idCardNo: idCard || null, education: education || null, organization: school.name };
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? '');
        const outside = !['userName', 'tel', 'idCardNo', 'education', 'organization'].includes(field);
        fail(r, outside ? `本竞赛报名表要求填写“${labelOf.get(field) ?? field}”，导入模板不含此项，请通知队员自行报名` : issue.message, team);
        continue;
      }
      const group = get('group');
      if (chosen && role === '队长' && !competition.eligibility.groupList.some((g) => g.name === group)) {
        fail(r, `请在“组别”列填写本竞赛的组别：${competition.eligibility.groupList.map((g) => g.name).join('、')}`, team);
        continue;
      }
      people.push({ row: r, team, group, leader: role === '队长', name, phone, info: { ...parsed.data, organization: school.name, schoolId: school.id } });
    }
  }

  // Teams: one leader, the size the competition allows, a name not taken; nobody already entered or disabled.
  const teams = new Map<string, Person[]>();
  for (const p of people) teams.set(p.team, [...(teams.get(p.team) ?? []), p]);
  const accounts = await repo.usersByPhones(
    ctx.db,
    people.map((p) => p.phone),
  );
  const entered = await repo.enteredUserIds(
    ctx.db,
    competitionId,
    [...accounts.values()].map((a) => a.id),
  );
  for (const [name, list] of teams) {
    const first = list[0]!.row;
    const leaders = list.filter((p) => p.leader).length;
    const bad = (message: string, row = first) => fail(row, message, name);
    if (leaders !== 1) bad(`队伍“${name}”须有且只有一名队长（现有${leaders}名）`);
    if (list.length < competition.minMembers || list.length > competition.maxMembers)
      bad(`队伍“${name}”有${list.length}人，本竞赛每队${competition.minMembers}至${competition.maxMembers}人`);
    if (await repo.teamNameTaken(ctx.db, competitionId, name)) bad(`队伍名称“${name}”在本竞赛已被使用`);
    for (const p of list) {
      const account = accounts.get(p.phone);
      if (account && account.status !== 1) bad(`手机号${p.phone}的账号已停用`, p.row);
      else if (account && entered.has(account.id)) bad(`手机号${p.phone}的账号已报名本竞赛`, p.row);
    }
  }
  errors.sort((a, b) => a.row - b.row);

  const taken = [...teams.entries()].filter(([name]) => !badTeams.has(name));
  const report = (imported: boolean, made = { teams: 0, members: 0, accountsCreated: 0 }): RosterReport => ({
    imported,
    ...made,
    errors,
    skippedTeams: imported ? [...badTeams] : [],
  });
  if ((mode === 'all' && errors.length) || !taken.length) return report(false);

  const now = ctx.clock.now().toISOString();
  const made = { teams: 0, members: 0, accountsCreated: 0 };
  const everyone: number[] = [];
  try {
    await ctx.db.transaction().execute(async (trx) => {
      for (const [name, list] of taken) {
        const ids: number[] = [];
        for (const p of list) {
          let id = accounts.get(p.phone)?.id;
          if (!id) {
            // The number as the name, unless an account holds it (or one that looks like it).
            const free = (await usernameClash(trx, p.phone, usernameKey(p.phone))) === null;
            const username = free ? p.phone : `${p.phone}_${randomBytes(2).toString('hex')}`;
            id = await insertUser(
              trx,
              // The number is the account's way in: its owner signs in by an SMS code to it (the school vouches for it;
              // a number another account proved is matched above instead).
              { username, usernameKey: usernameKey(username), passwordHash: null, phone: p.phone, verifiedPhone: p.phone, email: null, userName: p.name },
              [ROLE_CODES.participant],
              now,
            );
            made.accountsCreated++;
          }
          ids.push(id);
        }
        const leaderIndex = list.findIndex((p) => p.leader);
        const leaderId = ids[leaderIndex]!;
        const teamId = await repo.insertTeam(trx, {
          competitionId,
          teamNo: `new-${randomBytes(10).toString('hex')}`,
          name,
          individual: false,
          leaderId,
          joinCode: randomBytes(12).toString('base64url'),
          now,
        });
        await repo.setTeamNo(trx, teamId, teamNo(teamId));
        for (const [i, p] of list.entries()) {
          await repo.insertMember(trx, {
            teamId,
            userId: ids[i]!,
            competitionId,
            leader: i === leaderIndex ? 1 : 0,
            ...sealInfo(ctx, p.info),
            createdAt: now,
          });
          await repo.lapseInvitations(trx, competitionId, ids[i]!, now);
        }
        await repo.setMemberCount(trx, teamId, list.length);
        try {
          await settleTeam(trx, competition, teamId, now, chosen ? { chosenGroup: list[leaderIndex]!.group } : {});
        } catch (err) {
          // The rule as the coordinator reads it, with the team it stopped at (from its first row).
          if (err instanceof AppError) throw new AppError(err.status, `第${list[0]!.row}行起的队伍“${name}”：${err.message}`);
          throw err;
        }
        const orderId = competition.fee > 0 ? await openOrder(ctx, trx, { competitionId, teamId, amount: competition.fee, userId: leaderId }) : null;
        const registerId = await registers.insertRegister(trx, {
          competitionId,
          teamId,
          userId: leaderId,
          orderId,
          attachments: [],
          // The school vouches for what its coordinator imports.
          schoolStatus: competition.eligibility.schoolAudit ? SCHOOL_STATUS.approved : null,
          now,
        });
        await registers.insertFlow(trx, {
          registerId,
          actorId: ctx.actor.userId,
          action: 'submit',
          fromStatus: null,
          toStatus: REGISTER_STATUS.pending,
          reason: `由${school.name}院校负责人导入`,
          now,
        });
        made.teams++;
        made.members += list.length;
        everyone.push(...ids);
      }
    });
  } catch (err) {
    // A rule the database holds (a school's places) or a name taken meanwhile: nothing of the import stays.
    if (err instanceof AppError) return { ...report(false), errors: [...errors, { row: 0, message: err.message }] };
    // Someone registered one of these people, or took one of these names, while the import ran (or the same file was
    // sent twice at once): the database refused the second; nothing of this import stays.
    if (isUniqueViolation(err))
      return { ...report(false), errors: [...errors, { row: 0, message: '导入期间有队员已报名或队伍名称已被使用，本次未导入，请重新导入' }] };
    throw err;
  }
  await notify(ctx, everyone, {
    title: '学校已为您报名',
    content: `${school.name}的院校负责人已为您报名竞赛“${competition.name}”。请用本手机号登录（短信验证码），在“我的队伍”中核对报名信息${competition.fee > 0 ? '并缴费' : ''}。`,
    source: 'register.imported',
  });
  return report(true, made);
}
