/**
 * One populated platform for the access matrix, built only through the HTTP API: organisation A runs a competition
 * with a question, team T (led by "participant") has registered, paid, chosen the question, uploaded works and a
 * test, asked for an invoice, been reviewed, graded (once the submission deadline had passed: the world's clock stands
 * after it), awarded and certified; around it stand the outsiders of the
 * matrix: team U of the same competition, a judge of the question who was not given T's work, organisation B's
 * organiser, and a back-office administrator whose role lacks one code at a time.
 */
import { ALL_PERMISSION_CODES } from '@contest/shared';
import QRCode from 'qrcode';
import { runDueJobs } from '../src/jobs/runner.ts';
import { docx } from './documents.ts';
import {
  ADMIN_PASSWORD,
  Client,
  PDF,
  PNG,
  REG_INFO,
  createTestApp,
  loggedIn,
  makeOrganiser,
  multipart,
  onlineCompetition,
  registerUser,
  setSubmissionDeadline,
  submitWork,
  type DbKind,
  type TestApp,
} from './helpers.ts';

/**
 * The eight roles of the matrix, in the order it runs them: outsiders first, owners last. `otherCoordinator` is the
 * 院校负责人 of another school than T's, appointed for A's competition: it sees nothing of T's school.
 */
export const ROLES = ['anonymous', 'otherTeam', 'judge', 'otherOrganiser', 'otherCoordinator', 'adminWithout', 'participant', 'administrator'] as const;
export type Role = (typeof ROLES)[number];

/** Strings that only T's members and A's organisers may ever see; each is unique in the world. */
export const SECRET = {
  teamName: 'MXT秘密队伍',
  person: '秘密甲乙',
  invoiceTitle: 'MXT秘密抬头',
  teacher: 'MXT秘密老师',
  disputeReason: 'MXT秘密申诉理由',
  /** Organisation A's back office: its name and the notice it sent to its competition's teams. */
  orgName: 'MXA秘密机构',
  noticeTitle: 'MXA秘密通知',
} as const;

export const PASSWORD = 'Passw0rd1';
const ANSWER = ['id,y', ...Array.from({ length: 10 }, (_, i) => `r${i},${i % 3}`)].join('\n');
const PREDICTION = ['id,y', ...Array.from({ length: 10 }, (_, i) => `r${i},${(i % 3) + 1}`)].join('\n');
const CRITERIA = [{ name: '创新性', description: null, maxScore: 10 }];
export const COMPANY = {
  kind: 'company',
  name: SECRET.invoiceTitle,
  taxNo: '91440101MA5C111101',
  bank: '工商银行',
  bankAccount: '3602000000000000000',
  address: '广州市',
  phone: '020-12345678',
};

export interface World {
  t: TestApp;
  clients: Record<Role, Client>;
  usernames: Record<Exclude<Role, 'anonymous'>, string>;
  /** Owners of the objects, for the control checks: they do reach what outsiders may not. */
  owners: { organiser: Client; assignedJudge: Client };
  adminWithoutRoleId: number;
  ids: {
    orgA: number;
    /** T's school, of the list; the other coordinator's school is another. */
    schoolX: number;
    competition: number;
    draftCompetition: number;
    question: number;
    stage: number;
    preset: number;
    team: number;
    teamNo: string;
    teamU: number;
    leader: number;
    register: number;
    order: number;
    voucherUri: string;
    /** A voucher organisation B uploaded: its own file, for its attempt at a collective payment of T's order. */
    otherVoucherUri: string;
    invoiceTitle: number;
    invoice: number;
    testSubmission: number;
    uploadId: string;
    judgeAssigned: number;
    judgeUnassigned: number;
    assignment: number;
    dispute: number;
    awardLevel: number;
    template: number;
    certificate: number;
    certNo: string;
    notice: number;
    message: number;
    victimUser: number;
    spareRole: number;
    partnerApplication: number;
    type: number;
    brand: number;
    nav: number;
    avatarFile: string;
    /** 查重 of A's question: an exclusion (its template) and a pair of its run. */
    similarityExclusion: number;
    similarityPair: number;
  };
}

function ok<T = any>(res: { statusCode: number; body: string }, what: string): T {
  if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return JSON.parse(res.body).data as T;
}

export async function buildWorld(kind: DbKind): Promise<World> {
  let now = new Date('2026-03-20T02:00:00Z');
  const t = await createTestApp(kind, {
    clock: { now: () => now },
    // A mail server is configured, so that the routes that send links answer as they would; the tests run no job, so
    // nothing ever connects to it.
    env: { SESSION_TTL_HOURS: String(24 * 365), SMTP_URL: 'smtp://127.0.0.1:9' },
  });
  const admin = await loggedIn(t.app, 'admin', ADMIN_PASSWORD);
  const organiser = await makeOrganiser(t, admin, 'mxOrgA', SECRET.orgName);
  const otherOrganiser = await makeOrganiser(t, admin, 'mxOrgB', 'MXB机构乙');
  const orgA = ok<{ list: { id: number; name: string }[] }>(await admin.get('/api/competition/organization/page?limit=100'), 'organisations').list.find(
    (o) => o.name === SECRET.orgName,
  )!.id;

  // Competition of A, with every participant-facing stage open, and a question with its answer.
  const competition = await onlineCompetition(admin, organiser, { fee: 30000 });
  const presets = ok<{ id: number; menuCode: string }[]>(await organiser.get(`/api/competition/preset/public/list/${competition}`), 'presets');
  for (const code of ['CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST'])
    ok(await organiser.put(`/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true }), code);
  const gradePreset = presets.find((p) => p.menuCode === 'GRADE_SET')!.id;
  const stage = ok<{ id: number }>(
    await organiser.post(`/api/competition/stages/${competition}`, {
      name: '初赛',
      startDate: '2026-03-10T00:00:00+08:00',
      endDate: '2026-04-10T00:00:00+08:00',
    }),
    'stage',
  ).id;
  const question = ok<{ id: number }>(
    await organiser.post(`/api/competition/question/${competition}`, {
      title: '矩阵题',
      evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 50 },
    }),
    'question',
  ).id;
  ok(
    await organiser.request({
      method: 'POST',
      url: `/api/competition/question/${question}/answer`,
      ...multipart('answer.csv', Buffer.from(ANSWER), 'text/csv'),
    }),
    'answer',
  );
  ok(await admin.put(`/api/competition/question/review/${question}`, { reviewed: true }), 'question review');
  const draftCompetition = ok<{ id: number }>(
    await organiser.post('/api/competition/', {
      name: '矩阵草稿赛',
      brandId: 1,
      regStartTime: '2026-03-10T00:00:00+08:00',
      regEndTime: '2026-04-10T00:00:00+08:00',
      endTime: '2026-06-30T00:00:00+08:00',
    }),
    'draft competition',
  ).id;
  ok(
    await admin.put('/api/invoice/config', { enable: true, issuerName: '矩阵开票方', issuerTaxNo: COMPANY.taxNo, allowedTypes: ['normal', 'special'] }),
    'invoice config',
  );

  // Two schools of the list: T's, and another whose coordinator A's organiser appoints for the competition.
  const schoolX = ok<{ id: number }>(await admin.post('/api/system/school', { name: '矩阵甲大学', kind: 'undergraduate' }), 'school X').id;
  const schoolY = ok<{ id: number }>(await admin.post('/api/system/school', { name: '矩阵乙大学', kind: 'undergraduate' }), 'school Y').id;
  await registerUser(t.app, 'mxCoordY');
  ok(await organiser.post(`/api/competition/coordinator/${competition}`, { account: 'mxCoordY', schoolId: schoolY, scope: 'competition' }), 'coordinator Y');

  // Team T: registered, paid by transfer, approved, with a question, works, a test, an invoice and a teacher.
  const leader = await registerUser(t.app, 'mxLeaderT');
  const participant = await loggedIn(t.app, 'mxLeaderT');
  const reg = ok<{ teamId: number; registerId: number; orderId: number }>(
    await participant.post(`/api/team/register/${competition}`, {
      teamName: SECRET.teamName,
      info: { ...REG_INFO, userName: SECRET.person, organization: '矩阵甲大学', schoolId: schoolX },
    }),
    'register T',
  );
  const voucherUri = ok<{ fileUri: string }>(
    await participant.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('凭证.pdf', PDF, 'application/pdf') }),
    'voucher',
  ).fileUri;
  ok(await participant.put(`/api/order/voucher/${reg.orderId}`, { payMethod: 4, voucher: voucherUri }), 'voucher');
  ok(await organiser.put(`/api/order/confirm/${reg.orderId}`), 'confirm');
  ok(await organiser.post(`/api/team/register/flow/${reg.registerId}`, { action: 'approve' }), 'approve');
  ok(await participant.put(`/api/team/choiceQuestion/${reg.teamId}`, { questionId: question }), 'choose');
  ok(
    await participant.put(`/api/team/updateTeacher/${reg.teamId}`, {
      teacherList: [{ name: SECRET.teacher, phone: null, organization: '甲大学', title: '讲师' }],
    }),
    'teacher',
  );
  await submitWork(participant, question, Buffer.from('works of T'), 'T作品.zip');
  ok(
    await participant.request({
      method: 'POST',
      url: `/api/review/works/similarityReport/${question}?declaredRate=6.5`,
      ...multipart('T知网报告.pdf', PDF, 'application/pdf'),
    }),
    'similarity report',
  );
  ok(await participant.request({ method: 'POST', url: `/api/review/test/${question}`, ...multipart('pred.csv', Buffer.from(PREDICTION), 'text/csv') }), 'test');
  await runDueJobs(t.deps);
  const testSubmission = ok<{ list: { id: number }[] }>(await participant.get(`/api/review/test/list/${question}`), 'tests').list[0]!.id;
  const invoiceTitle = ok<{ id: number }>(await participant.post('/api/invoice/title', COMPANY), 'title').id;
  const invoice = ok<{ id: number }>(
    await participant.post('/api/invoice/apply', { orderId: reg.orderId, titleId: invoiceTitle, type: 'normal' }),
    'invoice',
  ).id;
  const team = ok<{ teamNo: string }>(await participant.get(`/api/team/${reg.teamId}`), 'team');
  // An upload begun and never finished: the object of the tus HEAD, PATCH and DELETE routes.
  const meta = { questionId: String(question), filename: 'half.zip' };
  const created = await participant.request({
    method: 'POST',
    url: '/api/review/works/upload',
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': '100',
      'upload-metadata': Object.entries(meta)
        .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
        .join(','),
    },
  });
  if (created.statusCode !== 201) throw new Error(`upload: ${created.body}`);
  const uploadId = (created.headers.location as string).split('/').pop()!;

  const otherVoucherUri = ok<{ fileUri: string }>(
    await otherOrganiser.request({ method: 'POST', url: '/api/file/upload/document?purpose=voucher', ...multipart('集体.pdf', PDF, 'application/pdf') }),
    'B voucher',
  ).fileUri;

  // Team U: another team of the same competition.
  await registerUser(t.app, 'mxLeaderU');
  const otherTeam = await loggedIn(t.app, 'mxLeaderU');
  const teamU = ok<{ teamId: number }>(
    await otherTeam.post(`/api/team/register/${competition}`, { teamName: 'MXU别的队', info: REG_INFO }),
    'register U',
  ).teamId;

  // Review: one judge assigned T's work; a second judge of the same question, added afterwards, holds nothing of T.
  const judgeAssigned = (await registerUser(t.app, 'mxJudgeA')).id;
  const judgeUnassigned = (await registerUser(t.app, 'mxJudgeN')).id;
  ok(await organiser.post('/api/review/expert', { username: 'mxJudgeA', organization: '评审大学', speciality: '统计', title: '教授' }), 'expert A');
  ok(await organiser.post('/api/review/expert', { username: 'mxJudgeN', organization: '评审大学', speciality: '统计', title: '教授' }), 'expert N');
  const rule = ok<{ criteria: { id: string }[] }>(
    await organiser.put(`/api/review/rules/${question}`, {
      criteria: CRITERIA,
      judgesPerWork: 1,
      aggregation: 'mean',
      reviewWeight: 100,
      testWeight: 0,
      blind: false,
      disputeDays: 30,
    }),
    'rule',
  );
  ok(await organiser.post(`/api/review/judge/${question}`, { userIds: [judgeAssigned] }), 'judge A');
  ok(await organiser.post(`/api/review/works/${question}?early=1`), 'assign');
  ok(await organiser.post(`/api/review/judge/${question}`, { userIds: [judgeUnassigned] }), 'judge N');
  // 查重 of A's question: its template as an exclusion, and a pair of a run (written directly: the matrix asks who reaches it).
  const similarityExclusion = ok<{ exclusions: { id: number }[] }>(
    await organiser.request({
      method: 'POST',
      url: `/api/review/similarity/exclusion/${question}`,
      ...multipart('模板.docx', await docx(['论文模板：摘要、问题重述、模型假设、模型建立与求解。'], '组织方', '组织方'), 'application/octet-stream'),
    }),
    'exclusion',
  ).exclusions[0]!.id;
  const tWork = await t.database.db.selectFrom('works').select('id').where('questionId', '=', question).executeTakeFirstOrThrow();
  const similarityPair = (
    await t.database.db
      .insertInto('similarityPairs')
      .values({ questionId: question, workId: tWork.id, otherWorkId: tWork.id, share: 500, otherShare: 500, passagesJson: '[]', otherPassagesJson: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const assignedJudge = await loggedIn(t.app, 'mxJudgeA');
  const judge = await loggedIn(t.app, 'mxJudgeN');
  const assignment = ok<{ id: number }[]>(await assignedJudge.get(`/api/review/center/works?questionId=${question}`), 'judge works')[0]!.id;
  ok(
    await assignedJudge.put(`/api/review/works/${assignment}`, {
      scores: [{ criterionId: rule.criteria[0]!.id, score: 8, comment: '好' }],
      comment: '总评',
      submit: true,
    }),
    'score',
  );
  ok(await organiser.post(`/api/review/works/calcFinalScore/${question}`), 'calculate');
  // Results are published once submission has closed: the organiser sets the deadline to 10:30 (Beijing), it passes.
  await setSubmissionDeadline(organiser, competition, '2026-03-20T10:30:00+08:00');
  now = new Date('2026-03-20T03:00:00Z');
  ok(await organiser.post(`/api/review/works/confirmFinalScore/${question}`), 'confirm grades');
  const awardLevel = ok<{ id: number }[]>(
    await organiser.put(`/api/review/works/awards/${question}`, { levels: [{ name: '一等奖', rankFrom: 1, rankTo: 1 }] }),
    'awards',
  )[0]!.id;
  ok(await organiser.post(`/api/review/works/awards/apply/${question}`), 'apply awards');
  ok(await organiser.put(`/api/competition/preset/${gradePreset}`, { enable: true }), 'grade preset');
  const dispute = ok<{ id: number }>(await participant.post(`/api/review/works/disputeScore/${question}`, { reason: SECRET.disputeReason }), 'dispute').id;

  // Certificates.
  const background = ok<{ uri: string }>(
    await organiser.request({
      method: 'POST',
      url: '/api/review/certificate/cert/imgUrl',
      ...multipart('bg.png', await QRCode.toBuffer('matrix', { width: 400 })),
    }),
    'background',
  ).uri;
  const template = ok<{ id: number }>(
    await organiser.post(`/api/review/certificate/${competition}`, {
      name: '矩阵证书',
      backgroundUri: background,
      fields: [{ field: 'name', x: 10, y: 10, size: 20, color: '#000000' }],
    }),
    'template',
  ).id;
  ok(await organiser.post(`/api/review/certificate/relation/${question}`, { templateId: template }), 'relation');
  ok(await organiser.post(`/api/review/certificate/cert/push/${question}`), 'push');
  await runDueJobs(t.deps);
  const certificate = ok<{ id: number; certNo: string }[]>(await participant.get('/api/review/certificate/cert/list'), 'certificates')[0]!;

  // A published notice of A to the competition's teams.
  const notice = ok<{ id: number }>(
    await organiser.post('/api/message/notice', {
      kind: 0,
      title: SECRET.noticeTitle,
      content: '<p>矩阵</p>',
      target: { scope: 'competition', competitionId: competition },
    }),
    'notice',
  ).id;
  ok(await organiser.post(`/api/message/notice/${notice}`, {}), 'publish notice');
  // T's personal message (its certificate is ready): nobody else has a copy of it.
  const message = ok<{ list: { id: number; title: string }[] }>(await participant.get('/api/message/notice/page/1'), 'box').list[0]!.id;

  // Platform objects for the administrator's routes.
  const victimUser = (await registerUser(t.app, 'mxVictim')).id;
  const partnerApplicant = await loggedIn(t.app, (await registerUser(t.app, 'mxApplicant')).username);
  const partnerApplication = ok<{ id: number }>(
    await partnerApplicant.post('/api/competition/partner/apply', { name: '矩阵申请', kind: 'school', contactName: '老师', contactPhone: '13800138000' }),
    'partner',
  ).id;
  const type = ok<{ id: number }>(await admin.request({ method: 'POST', url: `/api/competition/type/?name=${encodeURIComponent('矩阵类型')}` }), 'type').id;
  const brand = ok<{ id: number }>(await admin.post('/api/competition/brand/', { name: '矩阵品牌', shortName: '矩阵' }), 'brand').id;
  const nav = ok<{ id: number }>(
    await admin.post('/api/competition/brand/nav/', { brandId: brand, navList: [], sublinksList: [], frendlinksList: [] }),
    'nav',
  ).id;
  const spareRole = ok<{ id: number }>(await admin.post('/api/system/role', { code: 'mxSpare', name: '矩阵备用', permissions: [] }), 'spare role').id;
  const avatarFile = ok<{ fileUri: string }>(
    await participant.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('a.png', PNG) }),
    'avatar',
  ).fileUri;

  // The back-office administrator whose role holds every code but one: the matrix sets which, route by route.
  const adminWithoutRoleId = ok<{ id: number }>(
    await admin.post('/api/system/role', { code: 'mxAlmostAdmin', name: '矩阵管理员', permissions: ALL_PERMISSION_CODES }),
    'role',
  ).id;
  const adminWithoutUser = (await registerUser(t.app, 'mxAdminWithout')).id;
  ok(await admin.put(`/api/system/user/${adminWithoutUser}/roles`, { roleIds: [adminWithoutRoleId] }), 'roles');

  const usernames = {
    otherTeam: 'mxLeaderU',
    judge: 'mxJudgeN',
    otherOrganiser: 'mxOrgB',
    otherCoordinator: 'mxCoordY',
    adminWithout: 'mxAdminWithout',
    participant: 'mxLeaderT',
    administrator: 'admin',
  };
  return {
    t,
    clients: {
      anonymous: new Client(t.app),
      otherTeam,
      judge,
      otherOrganiser,
      otherCoordinator: await loggedIn(t.app, 'mxCoordY'),
      adminWithout: await loggedIn(t.app, 'mxAdminWithout'),
      participant,
      administrator: admin,
    },
    usernames,
    owners: { organiser, assignedJudge },
    adminWithoutRoleId,
    ids: {
      orgA,
      schoolX,
      competition,
      draftCompetition,
      question,
      stage,
      preset: gradePreset,
      team: reg.teamId,
      teamNo: team.teamNo,
      teamU,
      leader: leader.id,
      register: reg.registerId,
      order: reg.orderId,
      voucherUri,
      otherVoucherUri,
      invoiceTitle,
      invoice,
      testSubmission,
      uploadId,
      judgeAssigned,
      judgeUnassigned,
      assignment,
      dispute,
      awardLevel,
      template,
      certificate: certificate.id,
      certNo: certificate.certNo,
      notice,
      message,
      victimUser,
      spareRole,
      partnerApplication,
      type,
      brand,
      nav,
      avatarFile,
      similarityExclusion,
      similarityPair,
    },
  };
}

/** A second session of a role's user: for the routes that end the session they are called with. */
export async function freshSession(w: World, role: Role): Promise<Client> {
  if (role === 'anonymous') return new Client(w.t.app);
  return loggedIn(w.t.app, w.usernames[role], role === 'administrator' ? ADMIN_PASSWORD : PASSWORD);
}
