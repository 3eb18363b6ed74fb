import { z } from 'zod';
import { requiredText } from './fields.ts';

/**
 * School coordinators (院校负责人, issue 36 item 2): a user bound to one school of the list, appointed by the platform
 * (every competition) or by a competition's organiser (that competition, or every competition of its organisation),
 * who acts for that school only: reviews its registrations first where a competition has 两级审核, and sees its
 * teams' registration, payment, works, grades and awards.
 */
export const COORDINATOR_SCOPES = { competition: '本竞赛', org: '本组织的所有竞赛', platform: '平台所有竞赛' } as const;
export type CoordinatorScope = keyof typeof COORDINATOR_SCOPES;

/** `POST /api/competition/coordinator/{competitionId}`: appoints the account (username or phone number) for a school. */
export const coordinatorBody = z.strictObject({
  account: requiredText(64, '院校负责人的用户名或手机号'),
  schoolId: z.number({ error: '请从学校名单中选择学校' }).int().positive('请从学校名单中选择学校'),
  scope: z.enum(Object.keys(COORDINATOR_SCOPES) as [CoordinatorScope, ...CoordinatorScope[]], { error: '请选择负责范围' }).default('competition'),
});
export type CoordinatorBody = z.infer<typeof coordinatorBody>;

export const coordinatorSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  /** The name the account proved (实名) or gave in its profile. */
  name: z.string().nullable(),
  schoolId: z.number().int(),
  schoolName: z.string(),
  scope: z.enum(Object.keys(COORDINATOR_SCOPES) as [CoordinatorScope, ...CoordinatorScope[]]),
  /** The caller may take the appointment back (an organiser: its own organisation's; the platform: any). */
  removable: z.boolean(),
  createdAt: z.string(),
});
export type Coordinator = z.infer<typeof coordinatorSchema>;

/** `GET /api/school/coordinator/mine`: the schools the caller coordinates and, for each, the competitions it covers. */
export const myCoordinationSchema = z.array(
  z.object({
    schoolId: z.number().int(),
    schoolName: z.string(),
    competitions: z.array(z.object({ id: z.number().int(), name: z.string(), schoolAudit: z.boolean(), teams: z.number().int() })),
  }),
);
export type MyCoordination = z.infer<typeof myCoordinationSchema>;

export const coordinatorTeamsQuery = z.object({ schoolId: z.coerce.number().int().positive('请选择学校') });

/** 统一缴费: the teams of the school the coordinator pays for in one order. */
export const schoolOrderBody = z.strictObject({
  teamIds: z.array(z.number().int().positive()).min(1, '请选择要统一缴费的队伍').max(500, '一次最多为500支队伍统一缴费'),
});
export type SchoolOrderBody = z.infer<typeof schoolOrderBody>;

/** One team of the school in a competition, as its coordinator's dashboard shows it. */
export const schoolTeamSchema = z.object({
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  groupName: z.string().nullable(),
  members: z.array(z.string()),
  teachers: z.array(z.string()),
  registerId: z.number().int().nullable(),
  /** REGISTER_STATUS and SCHOOL_STATUS (null: no school level). */
  status: z.number().int().nullable(),
  schoolStatus: z.number().int().nullable(),
  reason: z.string().nullable(),
  /** PAY_STATUS of its order; null: free. */
  payStatus: z.number().int().nullable(),
  /** The school may pay for it in a 统一缴费 order: its order waits for payment, not by transfer nor another school order. */
  payable: z.boolean(),
  /** The school order paying for it, if any. */
  schoolOrderNo: z.string().nullable(),
  works: z.number().int(),
  tests: z.number().int(),
  /** Confirmed grades only: the question, rank within the team's group and award. */
  results: z.array(z.object({ questionTitle: z.string(), rank: z.number().int().nullable(), awardName: z.string().nullable() })),
});
export type SchoolTeam = z.infer<typeof schoolTeamSchema>;

/** The dashboard: the school's teams and their counts. */
export const schoolDashboardSchema = z.object({
  competitionName: z.string(),
  schoolName: z.string(),
  schoolAudit: z.boolean(),
  /** Fen: what each team owes (统一缴费 adds them up). */
  fee: z.number().int(),
  teams: z.array(schoolTeamSchema),
  summary: z.object({
    teams: z.number().int(),
    waitingForSchool: z.number().int(),
    approved: z.number().int(),
    paid: z.number().int(),
    withWorks: z.number().int(),
    awarded: z.number().int(),
    /** Certificates written for the school's teams: the zip 下载本校全部证书 gives them. */
    certificates: z.number().int(),
  }),
});
export type SchoolDashboard = z.infer<typeof schoolDashboardSchema>;

// ---- Importing a school's students and teams ----------------------------------------------------------------------

/** The roster template's columns, in order: one row per person, grouped into teams by 队伍名称. */
/** (组别 is read where the competition's groups are chosen: on the leader's row.) */
export const ROSTER_COLUMNS = ['队伍名称', '角色', '姓名', '手机号', '身份证号', '学历', '组别'] as const;
/** How an import with bad rows ends: nothing imported (`all`), or the teams without a bad row (`valid`). */
export const ROSTER_MODES = { all: '有错误时全部不导入', valid: '只导入没有错误的队伍' } as const;
export type RosterMode = keyof typeof ROSTER_MODES;
export const rosterQuery = z.object({
  schoolId: z.coerce.number().int().positive('请选择学校'),
  mode: z.enum(Object.keys(ROSTER_MODES) as [RosterMode, ...RosterMode[]], { error: '请选择导入方式' }).default('all'),
});

/** What an import did: the teams and people taken (none when `imported` is false), and each bad row with why. */
export const rosterReportSchema = z.object({
  imported: z.boolean(),
  teams: z.number().int(),
  members: z.number().int(),
  accountsCreated: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
  /** Teams left out (mode `valid`) because one of their rows was bad. */
  skippedTeams: z.array(z.string()),
});
export type RosterReport = z.infer<typeof rosterReportSchema>;
