import {
  PAY_STATUS,
  presetOpen,
  normalPhone,
  schoolIdOfKey,
  REGISTER_STATUS,
  SCHOOL_STATUS,
  eligibilitySchema,
  usernameKey,
  type Coordinator,
  type CoordinatorBody,
  type CoordinatorScope,
  type MyCoordination,
  type RosterMode,
  type RosterReport,
  type SchoolDashboard,
  type SchoolInvoiceBody,
  type VoucherBody,
  listedSchoolKey,
} from '@contest/shared';
import type { AuthedCtx } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { writeAudit } from '../audit-log/index.ts';
import * as competitions from '../competitions/index.ts';
import { notify } from '../notices/index.ts';
import * as registers from '../registrations/index.ts';
import { teamPeople } from '../review/index.ts';
import { userByVerifiedPhone } from '../users/index.ts';
import { importRoster } from '../teams/index.ts';
import { readSheet } from '../../http/xlsx-read.ts';
import type { Readable } from 'node:stream';
import * as policy from '../../policy.ts';
import * as repo from './repo.ts';
import * as orders from '../orders/index.ts';
import { payCode } from '../payments/index.ts';
import { applyForSchool } from '../invoices/index.ts';
import { withoutOrg } from '../../http/reply.ts';

const scopeOf = (key: string): CoordinatorScope => (key === 'platform' ? 'platform' : key.startsWith('org:') ? 'org' : 'competition');

// ---- Appointments ---------------------------------------------------------------------------------------------------

/** The coordinators covering a competition, for its organisers (and the platform). */
export async function list(ctx: AuthedCtx, competitionId: number): Promise<Coordinator[]> {
  const c = await competitions.managedCompetition(ctx, competitionId);
  const rows = await repo.appointmentsCovering(ctx.db, { id: c.id, orgId: c.orgId });
  return rows.map((r) => ({
    id: r.id,
    userId: r.userId,
    username: r.username,
    name: r.verifiedName ?? r.userName,
    schoolId: r.schoolId,
    schoolName: r.schoolName,
    scope: scopeOf(r.scopeKey),
    removable: policy.revokes(ctx, r),
    createdAt: r.createdAt,
  }));
}

/**
 * Appoints the account (by username or phone number) coordinator of a school of the list: for this competition, every
 * competition of its organisation (its organiser), or every competition (the platform). The person is told.
 */
export async function appoint(ctx: AuthedCtx, competitionId: number, body: CoordinatorBody) {
  const c = await competitions.managedCompetition(ctx, competitionId);
  if (!policy.appoints(ctx, body.scope, c))
    throw badRequest('只有平台管理员可以指定平台所有竞赛的院校负责人', { scope: '只有平台管理员可以指定平台所有竞赛的院校负责人' });
  const school = await repo.schoolName(ctx.db, body.schoolId);
  if (!school) throw badRequest('请从学校名单中选择学校', { schoolId: '请从学校名单中选择学校' });
  const user = (await repo.userByUsernameKey(ctx.db, usernameKey(body.account))) ?? (await userByVerifiedPhone(ctx.db, normalPhone(body.account)));
  if (user?.status !== 1) throw badRequest('没有该用户名或手机号的可用账号，请对方先注册', { account: '没有该用户名或手机号的可用账号，请对方先注册' });
  const scopeKey = body.scope === 'platform' ? 'platform' : body.scope === 'org' ? `org:${c.orgId}` : `competition:${c.id}`;
  try {
    const id = await ctx.db.transaction().execute(async (trx) => {
      const made = await repo.insertAppointment(trx, {
        userId: user.id,
        schoolId: body.schoolId,
        scopeKey,
        orgId: body.scope === 'platform' ? null : c.orgId,
        competitionId: body.scope === 'competition' ? c.id : null,
        appointedBy: ctx.actor.userId,
        now: ctx.clock.now().toISOString(),
      });
      await writeAudit(ctx, { action: 'coordinator.appoint', entity: 'school', entityId: body.schoolId, after: { userId: user.id, scopeKey } }, trx);
      return made;
    });
    const where = body.scope === 'platform' ? '平台所有竞赛' : body.scope === 'org' ? `“${c.orgName}”主办的所有竞赛` : `竞赛“${c.name}”`;
    await notify(ctx, [user.id], {
      title: '您已被指定为院校负责人',
      content: `您已被指定为${school}在${where}中的院校负责人，可在个人中心“院校负责人”中查看本校队伍并审核报名。`,
      source: 'coordinator.appointed',
    });
    return { id };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('该账号已是这所学校在此范围的院校负责人');
    throw err;
  }
}

export async function revoke(ctx: AuthedCtx, id: number) {
  const a = await repo.findAppointment(ctx.db, id);
  if (!a || !policy.revokes(ctx, a)) throw notFound('院校负责人不存在');
  await ctx.db.transaction().execute(async (trx) => {
    await repo.deleteAppointment(trx, id);
    await writeAudit(ctx, { action: 'coordinator.revoke', entity: 'school', entityId: a.schoolId, before: a }, trx);
  });
}

// ---- What a coordinator sees and does -----------------------------------------------------------------------------

/** The schools the caller coordinates, each with the online competitions its appointments cover. */
export async function mine(ctx: AuthedCtx): Promise<MyCoordination> {
  const out = new Map<number, MyCoordination[number]>();
  for (const a of await repo.appointmentsOf(ctx.db, ctx.actor.userId)) {
    const entry = out.get(a.schoolId) ?? { schoolId: a.schoolId, schoolName: a.schoolName, competitions: [] };
    for (const c of await repo.competitionsCovered(ctx.db, a)) {
      if (entry.competitions.some((x) => x.id === c.id)) continue;
      const rules = c.eligibilityJson ? eligibilitySchema.parse(JSON.parse(c.eligibilityJson)) : null;
      entry.competitions.push({ id: c.id, name: c.name, schoolAudit: Boolean(rules?.schoolAudit), teams: Number(c.teams ?? 0) });
    }
    out.set(a.schoolId, entry);
  }
  return [...out.values()];
}

/** The competition, if the caller coordinates the school in it; anything else answers as missing. */
async function coordinated(ctx: AuthedCtx, competitionId: number, schoolId: number) {
  const c = await competitions.findCompetition(ctx.db, competitionId, ctx.clock.now());
  const appointments = await repo.appointmentsOf(ctx.db, ctx.actor.userId);
  if (!c || !policy.coordinates(ctx, appointments, schoolId, c)) throw notFound('竞赛不存在或您不是该校在此竞赛的院校负责人');
  return c;
}

/** The school's dashboard in a competition: its teams with registration, payment, submissions and results. */
export async function dashboard(ctx: AuthedCtx, competitionId: number, schoolId: number): Promise<SchoolDashboard> {
  const c = await coordinated(ctx, competitionId, schoolId);
  const rows = await repo.schoolTeams(ctx.db, competitionId, schoolId);
  const ids = rows.map((r) => r.teamId);
  // Results as the teams read them: only once the competition shows grades (我的成绩 open) and they are confirmed.
  const gradeSet = (await competitions.listPresets(ctx.db, competitionId)).find((p) => p.menuCode === 'GRADE_SET');
  const published = Boolean(gradeSet && presetOpen(gradeSet, ctx.clock.now()));
  const [people, counts, results, certificates] = await Promise.all([
    teamPeople(ctx.db, ids),
    repo.submissionCounts(ctx.db, ids),
    published ? repo.confirmedResults(ctx.db, ids) : Promise.resolve([]),
    repo.schoolCertificates(ctx.db, competitionId, schoolId),
  ]);
  const count = (list: { teamId: number; n: number | string }[], id: number) => Number(list.find((x) => x.teamId === id)?.n ?? 0);
  const teams = rows.map((r) => ({
    teamId: r.teamId,
    teamNo: r.teamNo,
    teamName: r.teamName,
    groupName: r.groupName,
    // Named as certificates name them (a name proved by 实名认证 first).
    members: (people.get(r.teamId)?.members ?? []).map((m) => m.name),
    teachers: (people.get(r.teamId)?.teachers ?? []).map((t) => t.name),
    registerId: r.registerId,
    status: r.status,
    schoolStatus: r.schoolStatus,
    reason: r.reason,
    payStatus: r.payStatus,
    // As orders' schoolPayableOrders decides when the order is opened.
    payable:
      r.payStatus === PAY_STATUS.unpaid &&
      !r.voucher &&
      !r.schoolOrderNo &&
      r.status !== REGISTER_STATUS.rejected &&
      (r.schoolStatus === null || r.schoolStatus === SCHOOL_STATUS.approved),
    schoolOrderNo: r.schoolOrderNo,
    works: count(counts.works, r.teamId),
    tests: count(counts.tests, r.teamId),
    results: results.filter((g) => g.teamId === r.teamId).map(({ questionTitle, rank, awardName }) => ({ questionTitle, rank, awardName })),
  }));
  return {
    competitionName: c.name,
    schoolName: (await repo.schoolName(ctx.db, schoolId)) ?? '',
    schoolAudit: c.eligibility.schoolAudit,
    fee: c.fee,
    teams,
    summary: {
      teams: teams.length,
      waitingForSchool: teams.filter((t) => t.status === REGISTER_STATUS.pending && t.schoolStatus === SCHOOL_STATUS.pending).length,
      approved: teams.filter((t) => t.status === REGISTER_STATUS.approved).length,
      paid: teams.filter((t) => t.payStatus === PAY_STATUS.paid).length,
      withWorks: teams.filter((t) => t.works > 0 || t.tests > 0).length,
      awarded: teams.filter((t) => t.results.some((g) => g.awardName)).length,
      certificates: certificates.length,
    },
  };
}

/** The school's decision on one of its registrations waiting for it (两级审核). */
export async function audit(ctx: AuthedCtx, registerId: number, action: 'approve' | 'reject', reason: string | null | undefined) {
  const target = await registers.schoolReviewTarget(ctx.db, registerId);
  const schoolId = schoolIdOfKey(target?.schoolKey);
  const appointments = await repo.appointmentsOf(ctx.db, ctx.actor.userId);
  if (!target || schoolId === null || !policy.coordinates(ctx, appointments, schoolId, { id: target.competitionId, orgId: target.orgId }))
    throw notFound('报名不存在');
  if (target.schoolStatus === null) throw conflict('该竞赛的报名不需要学校审核');
  if (!(await registers.decideAtSchool(ctx, target, action, reason))) throw conflict('该报名已审核，不能重复审核');
}

/** Imports the school's students and teams from the roster template (teams' `importRoster`), for its coordinator only. */
export async function importTeams(
  ctx: AuthedCtx,
  competitionId: number,
  schoolId: number,
  mode: RosterMode,
  file: Readable,
  maxBytes: number,
): Promise<RosterReport> {
  await coordinated(ctx, competitionId, schoolId);
  const sheet = await readSheet(file, maxBytes);
  const report = await importRoster(ctx, competitionId, { id: schoolId, name: (await repo.schoolName(ctx.db, schoolId))! }, sheet, mode);
  if (report.imported)
    await writeAudit(ctx, {
      action: 'coordinator.import',
      entity: 'competition',
      entityId: competitionId,
      after: { schoolId, teams: report.teams, members: report.members },
    });
  return report;
}

// ---- 统一缴费: one order and one invoice for many of the school's teams ------------------------------------------------

/** The school's 统一缴费 orders in the competition, with their teams. */
export async function schoolOrders(ctx: AuthedCtx, competitionId: number, schoolId: number) {
  await coordinated(ctx, competitionId, schoolId);
  return (await orders.schoolOrdersOf(ctx.db, competitionId, schoolId)).map(withoutOrg);
}

/** Opens one order for the chosen teams of the school. */
export async function openSchoolOrder(ctx: AuthedCtx, competitionId: number, schoolId: number, teamIds: number[]) {
  await coordinated(ctx, competitionId, schoolId);
  return orders.openSchoolOrder(ctx, { competitionId, schoolId, schoolKey: listedSchoolKey(schoolId), teamIds });
}

/** A school order the caller coordinates the school of; anything else answers as missing. */
async function ownSchoolOrder(ctx: AuthedCtx, id: number) {
  const so = await orders.findSchoolOrder(ctx.db, id);
  const appointments = await repo.appointmentsOf(ctx.db, ctx.actor.userId);
  if (!so || !policy.coordinates(ctx, appointments, so.schoolId, { id: so.competitionId, orgId: so.orgId })) throw notFound('订单不存在');
  return so;
}

export async function closeSchoolOrder(ctx: AuthedCtx, id: number) {
  await orders.closeSchoolOrder(ctx, (await ownSchoolOrder(ctx, id)).id);
}

export async function schoolVoucher(ctx: AuthedCtx, id: number, body: VoucherBody) {
  await orders.schoolVoucher(ctx, (await ownSchoolOrder(ctx, id)).id, body);
}

/** A gateway's code for the school order. */
export async function paySchoolOrder(ctx: AuthedCtx, id: number, method: number, origin: string | null) {
  const so = await ownSchoolOrder(ctx, id);
  return payCode(ctx, { ...so, subject: `${so.competitionName}报名费（${so.schoolName}统一缴费${so.teamCount}队）` }, method, origin);
}

/** The school's one invoice of a paid school order. */
export async function schoolInvoice(ctx: AuthedCtx, id: number, body: SchoolInvoiceBody) {
  return applyForSchool(ctx, await ownSchoolOrder(ctx, id), body);
}

/** The school's certificates in a competition, for one zip: a folder per team, each PDF named by holder and award. */
export async function certificates(ctx: AuthedCtx, competitionId: number, schoolId: number) {
  const c = await coordinated(ctx, competitionId, schoolId);
  const rows = await repo.schoolCertificates(ctx.db, competitionId, schoolId);
  if (!rows.length) throw notFound('本校在该竞赛还没有证书');
  return { fileName: `${(await repo.schoolName(ctx.db, schoolId)) ?? '本校'}-${c.name}-证书.zip`, rows };
}
