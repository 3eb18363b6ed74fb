import type { Generated } from 'kysely';

/** Times are ISO-8601 UTC strings on both dialects; booleans are 0/1 integers. */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  usernameKey: string;
  /** What the name looks like (UTS #39 skeleton), unique; NULL only for a look-alike registered before the check. */
  usernameSkeleton: string | null;
  passwordHash: string | null;
  phone: string | null;
  email: string | null;
  status: number;
  orgId: number | null;
  faceImg: string | null;
  area: string | null;
  userName: string | null;
  birthday: string | null;
  sex: number | null;
  education: string | null;
  admissionDate: string | null;
  atSchool: number | null;
  organization: string | null;
  department: string | null;
  speciality: string | null;
  grade: string | null;
  studentIdCard: string | null;
  province: string | null;
  city: string | null;
  address: string | null;
  company: string | null;
  position: string | null;
  oidcIssuer: string | null;
  oidcSubject: string | null;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The address this account proved by a link, lower-cased (migration 0030); unique across accounts. */
  verifiedEmail: string | null;
  /** The number this account proved by an SMS code (migration 0031); unique across accounts. */
  verifiedPhone: string | null;
  /** The name this account proved by 实名认证 (migration 0035); certificates print it. */
  verifiedName: string | null;
  /** The school record the profile names (migration 0036); `organization` holds its name, or a school not listed. */
  schoolId: number | null;
}

export interface RolesTable {
  id: Generated<number>;
  code: string;
  name: string;
  description: string | null;
  builtin: number;
}

export interface RolePermissionsTable {
  roleId: number;
  code: string;
}

export interface UserRolesTable {
  userId: number;
  roleId: number;
}

export interface OrganisationsTable {
  id: Generated<number>;
  name: string;
  kind: string;
  contactName: string | null;
  contactPhone: string | null;
  contactEmail: string | null;
  createdAt: string;
}

export interface SessionsTable {
  /** sha256 of the secret the client holds; the secret itself is never stored. */
  id: string;
  userId: number;
  kind: 'browser' | 'token';
  csrfToken: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

export interface OidcStatesTable {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  createdAt: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actorId: number | null;
  action: string;
  entity: string;
  entityId: string | null;
  beforeJson: string | null;
  afterJson: string | null;
  ip: string | null;
  createdAt: string;
}

export interface FilesTable {
  id: Generated<number>;
  key: string;
  originalName: string;
  mime: string;
  size: number;
  sha256: string;
  ownerId: number | null;
  visibility: 'public' | 'private';
  purpose: string;
  createdAt: string;
}

export interface PartnerApplicationsTable {
  id: Generated<number>;
  orgName: string;
  kind: string;
  contactName: string;
  contactPhone: string;
  contactEmail: string | null;
  description: string | null;
  applicantId: number;
  status: number;
  reason: string | null;
  orgId: number | null;
  reviewedBy: number | null;
  reviewedAt: string | null;
  createdAt: string;
}

export interface CompetitionTypesTable {
  id: Generated<number>;
  name: string;
  sort: number;
  createdAt: string;
}

export interface BrandsTable {
  id: Generated<number>;
  name: string;
  shortName: string;
  logo: string | null;
  sort: number;
  recommend: number;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Link lists are JSON text. */
export interface BrandNavsTable {
  id: Generated<number>;
  brandId: number;
  navList: string;
  sublinksList: string;
  frendlinksList: string;
  topLogoPath: string | null;
  bottomLogoPath: string | null;
  rcodePath: string | null;
  copyright: string | null;
  updatedAt: string;
}

export interface CompetitionsTable {
  id: Generated<number>;
  name: string;
  brandId: number;
  typeId: number | null;
  orgId: number;
  cover: string | null;
  summary: string | null;
  introduce: string | null;
  information: string | null;
  guide: string | null;
  trainingUrl: string | null;
  regStartTime: string;
  regEndTime: string;
  endTime: string;
  allowIndividual: number;
  /** 1: paying teams may apply for invoices of this competition's fee (0024), under the platform's 发票配置. */
  invoiceEnable: Generated<number>;
  minMembers: number;
  maxMembers: number;
  maxTeachers: number;
  fee: number;
  auditStatus: number;
  auditReply: string | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
  worksMaxMb: Generated<number>;
  worksTypes: Generated<string>;
  /** The eligibility rules (packages/shared eligibility.ts, migration 0037); null: none. */
  eligibilityJson: string | null;
  /** 复制为新一届 (migration 0041): the edition it was copied from, its line's first edition (null: itself), by how many days its dates moved, and what is left to recheck (JSON list of keys). */
  previousId: Generated<number | null>;
  seriesId: Generated<number | null>;
  shiftDays: Generated<number | null>;
  recheckJson: Generated<string | null>;
  /** 公示 (migration 0042): its window, and the origins that may frame the embeddable pages (JSON list). */
  publicityStart: Generated<string | null>;
  publicityEnd: Generated<string | null>;
  embedOrigins: Generated<string | null>;
}

export interface CompetitionStagesTable {
  id: Generated<number>;
  competitionId: number;
  name: string;
  startDate: string;
  endDate: string | null;
  sort: number;
}

export interface CompetitionPresetsTable {
  id: Generated<number>;
  competitionId: number;
  menuCode: string;
  name: string;
  enable: number;
  enableStartTime: string | null;
  enableEndTime: string | null;
  /** The stage whose end is this menu's deadline (CHOICE_SET, SUBMIT_WORKS, SUBMIT_TEST; 0025), null: the competition's end. */
  deadlineStageId: Generated<number | null>;
  /** JSON text of the field list (REG_SET only). */
  fieldList: string;
  /** 1: the menu's action needs 实名认证 (REG_SET, QUES_AND_DATA, SUBMIT_WORKS, SUBMIT_TEST; migration 0035). */
  realName: Generated<number>;
}

export interface QuestionsTable {
  id: Generated<number>;
  competitionId: number;
  title: string;
  content: string | null;
  reviewed: number;
  sort: number;
  createdAt: string;
  updatedAt: string;
  creatorId: number | null;
  /** How its result is made: 'review', 'auto' or 'both' (0022; packages/shared/src/api/questions.ts `JUDGING`). */
  judging: Generated<string>;
  metric: string | null;
  idColumn: string | null;
  targetColumn: string | null;
  publicPercent: number | null;
  dailyLimit: number | null;
  salt: string | null;
  answerKey: string | null;
  answerRows: number | null;
  leaderboardPublished: Generated<number>;
  /** The positive label of f1, precision and recall; null for the default '1'. */
  positiveLabel: string | null;
  /** The K of mapAtK; null for the default 10. */
  topK: number | null;
  /** Goes up when the metric, public share or answer file changes; boards rank submissions of this version only. */
  scoringVersion: Generated<number>;
  /** How the public rows are drawn (scoring/split.ts): 'keyed', or 'sha256' for answer files uploaded before 0015. */
  splitRule: Generated<string>;
  /** The answer file as loaded under the current setting (scoring/prepared.ts), and that setting's tag. */
  answerIndexKey: string | null;
  answerIndexTag: string | null;
  /** Goes up whenever one of the question's boards may have moved (a score stored, a selection): the boards' cache key. */
  boardVersion: Generated<number>;
  /** An own program's direction (1 higher is better, 0 lower), its runs' time limit, and its file (0020). */
  higherIsBetter: number | null;
  timeLimitSec: number | null;
  /** An own program's metric's name, as the organiser gives it (0028); null: 自定义评分程序. */
  metricName: string | null;
  scorerKey: string | null;
  /** 查重 thresholds in percent of a work's text (0040): flag from, and hold from review. */
  similarityFlag: Generated<number>;
  similarityHold: Generated<number>;
}

export interface TeamChoicesTable {
  teamId: number;
  questionId: number;
  chosenBy: number | null;
  chosenAt: string;
}

export interface QuestionFilesTable {
  questionId: number;
  fileKey: string;
  sort: number;
}

export interface TeamsTable {
  id: Generated<number>;
  competitionId: number;
  teamNo: string;
  name: string;
  individual: number;
  leaderId: number;
  memberCount: Generated<number>;
  joinCode: string;
  /** The school the team is counted under, its leader's (eligibility.ts `schoolKeyOf`), and its name (migration 0037). */
  schoolKey: string | null;
  schoolName: string | null;
  /** The team's group, where the competition has groups. */
  groupName: string | null;
  /** 1 while the team holds its places under the eligibility rules; 0 once its registration was refused. */
  placesHeld: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface TeamMembersTable {
  teamId: number;
  userId: number;
  competitionId: number;
  leader: number;
  infoJson: string;
  idCardEnc: string | null;
  idCardMask: string | null;
  createdAt: string;
}

export interface TeamTeachersTable {
  id: Generated<number>;
  teamId: number;
  name: string;
  phone: string | null;
  organization: string | null;
  title: string | null;
  sort: number;
}

export interface TeamInvitationsTable {
  id: Generated<number>;
  teamId: number;
  competitionId: number;
  inviterId: number;
  /** Null when the account typed matched nobody who could be invited: the leader is not told. */
  inviteeId: number | null;
  status: number;
  createdAt: string;
  decidedAt: string | null;
  /** The username or phone number the leader typed, folded by `usernameKey`. */
  account: string | null;
}

export interface RegistersTable {
  id: Generated<number>;
  competitionId: number;
  teamId: number;
  userId: number;
  status: number;
  reason: string | null;
  orderId: number | null;
  attachmentsJson: string;
  /** 两级审核 (migration 0038): null no school level, 0 waiting for the school, 1 passed by it, 2 refused by it. */
  schoolStatus: number | null;
  schoolReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RegisterFlowsTable {
  id: Generated<number>;
  registerId: number;
  actorId: number | null;
  action: string;
  fromStatus: number | null;
  toStatus: number;
  reason: string | null;
  createdAt: string;
}

export interface OrdersTable {
  id: Generated<number>;
  orderNo: string;
  competitionId: number;
  teamId: number;
  userId: number;
  amount: number;
  payStatus: number;
  payMethod: number | null;
  tradeNo: string | null;
  payerOrg: string | null;
  voucher: string | null;
  paidAt: string | null;
  closedAt: string | null;
  refundedAt: string | null;
  refundReason: string | null;
  refundFlag: Generated<number>;
  /** The school's 统一缴费 order it is part of (migration 0039): paid with it, not by the team. */
  schoolOrderId: Generated<number | null>;
  createdAt: string;
  updatedAt: string;
}

export interface PaymentConfigsTable {
  method: number;
  enable: number;
  settingsJson: string;
  updatedAt: string;
}

export interface PaymentNotificationsTable {
  id: Generated<number>;
  channel: number;
  orderNo: string | null;
  tradeNo: string | null;
  amount: number | null;
  outcome: string;
  body: string;
  ip: string | null;
  createdAt: string;
}

export interface InvoiceTitlesTable {
  id: Generated<number>;
  userId: number;
  kind: string;
  name: string;
  taxNo: string | null;
  bank: string | null;
  bankAccount: string | null;
  address: string | null;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface InvoicesTable {
  id: Generated<number>;
  /** The team's order invoiced; null for a school's 统一缴费 invoice (migration 0039), which names `schoolOrderId`. */
  orderId: number | null;
  schoolOrderId: Generated<number | null>;
  competitionId: number;
  userId: number;
  amount: number;
  type: string;
  titleJson: string;
  email: string | null;
  status: number;
  invoiceNo: string | null;
  fileKey: string | null;
  reason: string | null;
  issuedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface InvoiceConfigTable {
  id: number;
  enable: number;
  issuerName: string | null;
  issuerTaxNo: string | null;
  allowedTypes: string;
  applyStart: string | null;
  applyEnd: string | null;
  notice: string | null;
  updatedAt: string;
}

export interface JobsTable {
  id: Generated<number>;
  type: string;
  payload: string;
  runAt: string;
  attempts: Generated<number>;
  lockedBy: string | null;
  lockedUntil: string | null;
  lastError: string | null;
  doneAt: string | null;
  failed: Generated<number>;
  createdAt: string;
  /** Workers take due jobs by priority, then oldest first (0019): lower first. */
  priority: Generated<number>;
  /** 'program' for jobs that run organisers' programs, which only the program lane's slots take (0021); null for the rest. */
  lane: string | null;
  /** The organisation a program job runs for: the program lane serves organisations in turn (0021). */
  tenant: number | null;
  /** How long it ran to its end, in milliseconds (0023): the pace a waiting job's estimate is made from. */
  runMs: number | null;
}

/** When each organisation last had a program job claimed (0021): the least recently served goes next. */
export interface JobTurnsTable {
  tenant: number;
  lastClaimAt: string;
}

export interface TestSubmissionsTable {
  id: Generated<number>;
  competitionId: number;
  questionId: number;
  teamId: number;
  userId: number;
  fileKey: string;
  fileName: string;
  size: number;
  status: number;
  reason: string | null;
  publicScore: number | null;
  privateScore: number | null;
  rows: number | null;
  selected: Generated<number>;
  day: string;
  createdAt: string;
  scoredAt: string | null;
  /** The question's scoring version this submission was last scored (or refused) under. */
  scoringVersion: Generated<number>;
  /** The job that scores it when sent (0019): where it stands in the queue while it waits. */
  scoreJobId: number | null;
  /** The end of an own program's standard error when it failed on this file (0020), for the organisers only. */
  scorerLog: string | null;
  /** When the file of a submission that failed on arrival (its attempt given back) was deleted (0021). */
  fileRemovedAt: string | null;
  /** The organiser's 取消成绩 (0027): the reason and when; a cancelled submission counts on no board. */
  cancelReason: string | null;
  cancelledAt: string | null;
  /** The private rows' fingerprint of a file scored by a built-in metric (0040, scoring/fingerprint.ts). */
  fingerprint: string | null;
}

/** A team disqualified from a question by its organiser (0027): off the question's boards and grades, with the reason. */
export interface DisqualificationsTable {
  questionId: number;
  teamId: number;
  reason: string;
  userId: number;
  createdAt: string;
}

/** Each team's best score per board of a question, under one scoring version (0016; test-submissions `refreshTeamBoards`). */
export interface BoardScoresTable {
  questionId: number;
  board: 'public' | 'private';
  teamId: number;
  scoringVersion: number;
  score: number;
  /** The score, negated when higher is better: boards rank by rankKey, then reachedBy, ascending. */
  rankKey: number;
  /** The submission that set the score (the earlier of equals ranks first). */
  reachedBy: number;
  submissions: number;
  lastAt: string;
}

export interface TestQuotaTable {
  teamId: number;
  questionId: number;
  day: string;
  used: number;
}

export interface WorkUploadsTable {
  uploadId: string;
  kind: Generated<string>;
  competitionId: number;
  questionId: number;
  teamId: number | null;
  userId: number;
  fileName: string;
  size: number;
  sha256: string | null;
  createdAt: string;
}

export interface WorksTable {
  id: Generated<number>;
  competitionId: number;
  questionId: number;
  teamId: number;
  userId: number;
  version: number;
  fileKey: string;
  fileName: string;
  size: number;
  sha256: string;
  completedAt: string;
}

export interface ReviewRulesTable {
  questionId: number;
  criteriaJson: string;
  judgesPerWork: number;
  aggregation: string;
  reviewWeight: number;
  testWeight: number;
  blind: number;
  disputeDays: number;
  gradeState: Generated<number>;
  calculatedAt: string | null;
  confirmedAt: string | null;
  updatedAt: string;
}

export interface ExpertsTable {
  userId: number;
  /** The organisation that added the expert and may change it; null: the platform's shared pool. */
  orgId: number | null;
  organization: string;
  speciality: string | null;
  title: string | null;
  createdAt: string;
}

export interface QuestionJudgesTable {
  questionId: number;
  userId: number;
  createdAt: string;
}

export interface ReviewAssignmentsTable {
  id: Generated<number>;
  questionId: number;
  teamId: number;
  judgeId: number;
  code: string;
  status: Generated<number>;
  scoresJson: Generated<string>;
  comment: string | null;
  total: number | null;
  rereview: Generated<number>;
  createdAt: string;
  updatedAt: string;
  submittedAt: string | null;
  /** The works version the submitted score is for (0026); null before it, or while not submitted. */
  workId: Generated<number | null>;
}

export interface AwardLevelsTable {
  id: Generated<number>;
  questionId: number;
  name: string;
  sort: number;
  rankFrom: number | null;
  rankTo: number | null;
}

export interface GradesTable {
  questionId: number;
  teamId: number;
  reviewScoresJson: string;
  reviewScore: number | null;
  judgesDone: number;
  judgesTotal: number;
  testScore: number | null;
  testPoints: number | null;
  finalScore: number | null;
  rank: number | null;
  awardId: number | null;
  awardManual: Generated<number>;
  updatedAt: string;
}

export interface ScoreDisputesTable {
  id: Generated<number>;
  questionId: number;
  teamId: number;
  userId: number;
  reason: string;
  status: Generated<number>;
  answer: string | null;
  rereview: Generated<number>;
  /** 'dispute': a team's own; 'objection': a verified user's about a line of the 公示 list (migration 0042), with evidence. */
  kind: Generated<string>;
  attachmentKey: Generated<string | null>;
  answeredBy: number | null;
  createdAt: string;
  answeredAt: string | null;
}

export interface CertificateTemplatesTable {
  id: Generated<number>;
  competitionId: number;
  name: string;
  backgroundKey: string;
  width: number;
  height: number;
  fieldsJson: string;
  updatedAt: string;
}

export interface CertificateRunsTable {
  questionId: number;
  templateId: number | null;
  state: Generated<number>;
  total: Generated<number>;
  done: Generated<number>;
  error: string | null;
  updatedAt: string;
}

export interface CertificatesTable {
  id: Generated<number>;
  certNo: string;
  verifyCode: string;
  competitionId: number;
  questionId: number;
  teamId: number;
  holderKind: string;
  holderRef: number;
  userId: number | null;
  holderName: string;
  school: string | null;
  awardName: string;
  fileKey: string;
  createdAt: string;
}

export interface NoticesTable {
  id: Generated<number>;
  kind: number;
  title: string;
  content: string | null;
  targetJson: string;
  competitionId: number | null;
  orgId: number | null;
  status: Generated<number>;
  publishAt: string | null;
  publishedAt: string | null;
  source: string | null;
  /** How many users it is to reach: counted when published, exact once delivered (and grows with late joiners). */
  recipients: Generated<number>;
  /** Copies in users' boxes so far, and how many of them are read (counters kept with the copies). */
  delivered: Generated<number>;
  reads: Generated<number>;
  /** Delivery in batches: the last user id done, the greatest user id when published, and when it finished. */
  deliveryCursor: Generated<number>;
  deliveryCeiling: number | null;
  deliveredAt: string | null;
  authorId: number | null;
  createdAt: string;
  updatedAt: string;
  /** Also sent by email and SMS (migration 0032), to those who take them. */
  byEmail: Generated<number>;
  bySms: Generated<number>;
}

export interface NoticeRecipientsTable {
  noticeId: number;
  userId: number;
  kind: number;
  publishedAt: string;
  readAt: string | null;
}

/** An email or text message in the outbox (migration 0029): queued with its event, delivered by a job. */
export interface OutboxMessagesTable {
  id: Generated<number>;
  channel: string;
  recipient: string;
  purpose: string;
  subject: string | null;
  body: string;
  idempotencyKey: string;
  senderId: number | null;
  orgId: number | null;
  state: Generated<string>;
  attempts: Generated<number>;
  error: string | null;
  providerMessageId: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  /** The user it goes to, and the notice it carries (migration 0032). */
  userId: number | null;
  noticeId: number | null;
  /** A message refused for now is not tried again before this. */
  retryAt: string | null;
}

/** A single-use link sent by email (migration 0030): only its SHA-256 is kept. */
export interface AccountTokensTable {
  id: Generated<number>;
  userId: number;
  purpose: string;
  tokenHash: string;
  email: string;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
}

/** A 6-digit code sent by SMS (migration 0031): only its keyed hash is kept. */
export interface PhoneCodesTable {
  id: Generated<number>;
  phone: string;
  purpose: string;
  userId: number | null;
  codeHash: string;
  tries: Generated<number>;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
}

/** The platform's SMS provider (one row, id 1): its secret sealed inside settingsJson. */
export interface SmsSettingsTable {
  id: number;
  provider: string;
  enable: number;
  settingsJson: string;
  updatedAt: string;
}

/** What the development SMS simulator received, for its page. */
export interface SmsSimulatorMessagesTable {
  id: Generated<number>;
  provider: string;
  phone: string;
  signName: string;
  template: string;
  paramsJson: string;
  providerMessageId: string;
  createdAt: string;
}

/** How a notice's messages of one channel stand (migration 0032): queued = total - sent - failed. */
export interface OutboxTalliesTable {
  noticeId: number;
  channel: string;
  total: Generated<number>;
  sent: Generated<number>;
  failed: Generated<number>;
}

/** One kind of message a user turned off on one channel (migration 0032). */
export interface MessageOptoutsTable {
  userId: number;
  kind: string;
  channel: string;
  createdAt: string;
}

/** A team reminded of a submission deadline in one window (migration 0033). */
export interface RemindersSentTable {
  competitionId: number;
  kind: string;
  deadline: string;
  window: string;
  teamId: number;
  createdAt: string;
}

/** The WeChat identity bound to an account (migration 0034). */
export interface UserWechatTable {
  userId: number;
  unionid: string;
  openid: string;
  nickname: string | null;
  createdAt: string;
}

/** An attempt to prove who an account is (migration 0035): checked by the provider, or reviewed by the platform. */
export interface RealNameChecksTable {
  id: Generated<number>;
  userId: number;
  docType: string;
  name: string;
  numberEnc: string;
  numberMask: string;
  /** Keyed hash of the normalised number while checking, pending or verified; unique. */
  numberKey: string | null;
  method: string;
  state: string;
  reason: string | null;
  fileKey: string | null;
  providerRef: string | null;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: number | null;
}

/** The development ID-check simulator's register of people (migration 0035). */
export interface IdcheckSimulatorPeopleTable {
  number: string;
  name: string;
  createdAt: string;
}

/** A school of the platform's list (migration 0036). */
export interface SchoolsTable {
  id: Generated<number>;
  name: string;
  nameKey: string;
  code: string | null;
  province: string | null;
  department: string | null;
  kind: string;
  initials: string;
  createdAt: string;
  updatedAt: string;
}

export interface DB {
  users: UsersTable;
  roles: RolesTable;
  rolePermissions: RolePermissionsTable;
  userRoles: UserRolesTable;
  organisations: OrganisationsTable;
  sessions: SessionsTable;
  oidcStates: OidcStatesTable;
  auditLog: AuditLogTable;
  files: FilesTable;
  partnerApplications: PartnerApplicationsTable;
  competitionTypes: CompetitionTypesTable;
  brands: BrandsTable;
  brandNavs: BrandNavsTable;
  competitions: CompetitionsTable;
  competitionStages: CompetitionStagesTable;
  competitionPresets: CompetitionPresetsTable;
  questions: QuestionsTable;
  questionFiles: QuestionFilesTable;
  teamChoices: TeamChoicesTable;
  teams: TeamsTable;
  teamMembers: TeamMembersTable;
  teamTeachers: TeamTeachersTable;
  teamInvitations: TeamInvitationsTable;
  registers: RegistersTable;
  registerFlows: RegisterFlowsTable;
  orders: OrdersTable;
  paymentConfigs: PaymentConfigsTable;
  paymentNotifications: PaymentNotificationsTable;
  invoiceTitles: InvoiceTitlesTable;
  invoices: InvoicesTable;
  invoiceConfig: InvoiceConfigTable;
  jobs: JobsTable;
  jobTurns: JobTurnsTable;
  testSubmissions: TestSubmissionsTable;
  boardScores: BoardScoresTable;
  disqualifications: DisqualificationsTable;
  testQuota: TestQuotaTable;
  workUploads: WorkUploadsTable;
  works: WorksTable;
  reviewRules: ReviewRulesTable;
  experts: ExpertsTable;
  questionJudges: QuestionJudgesTable;
  reviewAssignments: ReviewAssignmentsTable;
  awardLevels: AwardLevelsTable;
  grades: GradesTable;
  scoreDisputes: ScoreDisputesTable;
  certificateTemplates: CertificateTemplatesTable;
  certificateRuns: CertificateRunsTable;
  certificates: CertificatesTable;
  notices: NoticesTable;
  noticeRecipients: NoticeRecipientsTable;
  outboxMessages: OutboxMessagesTable;
  accountTokens: AccountTokensTable;
  phoneCodes: PhoneCodesTable;
  smsSettings: SmsSettingsTable;
  smsSimulatorMessages: SmsSimulatorMessagesTable;
  messageOptouts: MessageOptoutsTable;
  outboxTallies: OutboxTalliesTable;
  remindersSent: RemindersSentTable;
  userWechat: UserWechatTable;
  realNameChecks: RealNameChecksTable;
  idcheckSimulatorPeople: IdcheckSimulatorPeopleTable;
  schools: SchoolsTable;
  eligibilityQuota: EligibilityQuotaTable;
  schoolCoordinators: SchoolCoordinatorsTable;
  schoolOrders: SchoolOrdersTable;
  similarityExclusions: SimilarityExclusionsTable;
  similarityRuns: SimilarityRunsTable;
  workTexts: WorkTextsTable;
  similarityPairs: SimilarityPairsTable;
  similarityMarks: SimilarityMarksTable;
  similarityReports: SimilarityReportsTable;
}

/** 查重 (migration 0040): a question's template or problem statement, whose text no team is blamed for sharing. */
export interface SimilarityExclusionsTable {
  id: Generated<number>;
  questionId: number;
  fileKey: string;
  fileName: string;
  chars: number;
  reason: string | null;
  createdAt: string;
}

/** A question's last 查重 run; `deadline`: the works deadline an automatic run was made for. */
export interface SimilarityRunsTable {
  questionId: number;
  status: string;
  works: Generated<number>;
  done: Generated<number>;
  unreadable: Generated<number>;
  pairs: Generated<number>;
  error: string | null;
  deadline: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
}

/** The text read from a works version, once: the files read or not (`filesJson`) and the names they carry (`metaJson`). */
export interface WorkTextsTable {
  workId: number;
  competitionId: number;
  questionId: number;
  teamId: number;
  chars: number;
  text: string;
  filesJson: string;
  metaJson: string;
  codeJson: Generated<string>;
  extractedAt: string;
}

/** Two works found alike by a question's run; shares per mille, passages as [start, end) offsets into each text. */
export interface SimilarityPairsTable {
  id: Generated<number>;
  questionId: number;
  workId: number;
  otherWorkId: number;
  /** 'text' or 'code' (then `language`). */
  kind: Generated<string>;
  language: string | null;
  share: number;
  otherShare: number;
  passagesJson: string;
  otherPassagesJson: string;
}

/** A team's mark on a question after a run (its latest work then), and the organiser's decision. */
export interface SimilarityMarksTable {
  questionId: number;
  teamId: number;
  workId: number;
  topShare: number;
  codeShare: Generated<number>;
  identityJson: string;
  decision: string | null;
  decisionNote: string | null;
  decidedBy: number | null;
  decidedAt: string | null;
}

/** A team's own 查重 report (知网, 维普…) and the rate it declares (per mille). */
export interface SimilarityReportsTable {
  questionId: number;
  teamId: number;
  fileKey: string;
  fileName: string;
  declaredRate: number;
  createdAt: string;
}

/** A school's 统一缴费 order (migration 0039): one payment for many of its teams' orders. */
export interface SchoolOrdersTable {
  id: Generated<number>;
  orderNo: string;
  competitionId: number;
  schoolId: number;
  /** The coordinator who placed it. */
  userId: number;
  /** Fen: the sum of its teams' orders. */
  amount: number;
  teamCount: number;
  payStatus: Generated<number>;
  payMethod: number | null;
  tradeNo: string | null;
  voucher: string | null;
  paidAt: string | null;
  closedAt: string | null;
  refundedAt: string | null;
  refundReason: string | null;
  refundFlag: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

/** What a competition's rules limit, counted (migration 0037): a school's teams, a teacher's teams. */
export interface EligibilityQuotaTable {
  competitionId: number;
  kind: 'school' | 'teacher';
  key: string;
  used: Generated<number>;
}

/** A school coordinator's appointment (migration 0038): a user, a school, a scope. */
export interface SchoolCoordinatorsTable {
  id: Generated<number>;
  userId: number;
  schoolId: number;
  /** 'platform', 'org:<id>' or 'competition:<id>'. */
  scopeKey: string;
  orgId: number | null;
  competitionId: number | null;
  appointedBy: number | null;
  createdAt: string;
}
