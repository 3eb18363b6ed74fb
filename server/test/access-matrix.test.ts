import { ALL_PERMISSION_CODES } from '@contest/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRule, type RegisteredRoute } from '../src/http/access.ts';
import { DATABASES, PDF, PNG, REG_INFO, createTestApp, multipart, type Client } from './helpers.ts';
import { COMPANY, ROLES, SECRET, buildWorld, freshSession, type Role, type World } from './world.ts';

/**
 * Whose object a route acts on, decided by the route's path and module:
 * - `none`: nobody's in particular: public pages, or the caller's own account, team, lists and uploads;
 * - `platform`: the platform's back office (users, roles, catalogue, payment and invoice settings): the code decides;
 * - `team`: team T's (its team, registration, order, invoice, tests, works, certificates, messages): only its members,
 *   and the staff of its competition, may reach it;
 * - `org`: organisation A's back office (its competitions, questions, registrations, orders, review, grades,
 *   certificates, notices): only A's organisers and the platform;
 * - `assignment`: a judge's assignment: only the judge it was given to.
 */
type Owner = 'none' | 'platform' | 'team' | 'org' | 'assignment';

interface Case {
  owner: Owner;
  /** Path parameters (`:id` always; the others default to A's and T's objects), and a query string. */
  params?: Record<string, string | number>;
  query?: string;
  payload?: unknown;
  /** A file sent as a browser's form upload. */
  file?: { name: string; content: Buffer; type: string };
  headers?: Record<string, string>;
  /** The call ends the session it is made with: made with a second session of the same user. */
  endsSession?: true;
  /**
   * The object is named in the body of a form: a refusal may be a 400 with the error on that field, as for any
   * invalid choice, provided it says nothing more of the object.
   */
  refusedField?: string;
  /** Why a role's call is not made (only with a reason). */
  skip?: (role: Role, expected: Expected) => string | undefined;
}

type Expected = 'allow' | 401 | 403 | 'refuse' | 'staff';

const TUS = { 'tus-resumable': '1.0.0' };
const CSV = { name: 'pred.csv', content: Buffer.from('id,y\nr0,1\n'), type: 'text/csv' };

/**
 * Every route of the registry, classified. A route missing here fails the suite: adding a route forces a decision
 * about whose object it touches. Payloads are valid where an outsider reaches the service, so that a refusal comes
 * from the object-level check and not from validation.
 */
function routeCases(w: World): Record<string, Case> {
  const i = w.ids;
  const png = { name: 'a.png', content: PNG, type: 'image/png' };
  const none: Case = { owner: 'none' };
  const platform: Case = { owner: 'platform' };
  const member = { ...REG_INFO, userName: SECRET.person };
  const competitionBody = {
    name: '矩阵竞赛改名',
    brandId: i.brand,
    regStartTime: '2026-03-10T00:00:00+08:00',
    regEndTime: '2026-04-10T00:00:00+08:00',
    endTime: '2026-06-30T00:00:00+08:00',
  };
  const stage = { name: '复赛', startDate: '2026-04-11T00:00:00+08:00' };
  const rule = {
    criteria: [{ name: '创新性', description: null, maxScore: 10 }],
    judgesPerWork: 1,
    aggregation: 'mean',
    reviewWeight: 100,
    testWeight: 0,
    blind: false,
    disputeDays: 30,
  };
  const nameField = [{ field: 'name', x: 10, y: 10, size: 20, color: '#000000' }];
  const team: (c?: Partial<Case>) => Case = (c = {}) => ({ owner: 'team', ...c });
  const org: (c?: Partial<Case>) => Case = (c = {}) => ({ owner: 'org', ...c });
  const liveStream = (_: Role, e: Expected) =>
    e === 'allow' ? 'an admitted message stream stays open and never ends an inject; notices.test.ts reads it over real HTTP' : undefined;

  return {
    // API documentation and static pages.
    'GET /api/docs/': none,
    'HEAD /api/docs': none,
    'GET /api/docs/static/index.html': none,
    'GET /api/docs/static/swagger-initializer.js': none,
    'GET /api/docs/json': none,
    'GET /api/docs/yaml': none,
    'GET /api/docs/static/*': { owner: 'none', params: { '*': 'logo.svg' } },
    'GET /api/health': none,
    'GET /user/manager': none,
    'GET /profile/:fileName': { owner: 'none', params: { fileName: 'clientApp-win.zip' } },

    // Accounts and sessions: always the caller's own.
    'GET /api/auth/config': none,
    'POST /api/auth/register': { owner: 'none', payload: {} },
    'POST /api/auth/login': { owner: 'none', payload: {} },
    'POST /api/auth/token': { owner: 'none', payload: { username: 'nobody', password: 'wrong-password' } },
    'POST /api/auth/logout': { owner: 'none', endsSession: true },
    'PUT /api/auth/password': { owner: 'none', payload: { oldPassword: 'not-my-password', newPassword: 'Passw0rd2' } },
    'GET /api/auth/sessions': none,
    'POST /api/auth/sessions/revokeOthers': none,
    'GET /api/auth/oidc/login': none,
    'GET /api/auth/oidc/callback': none,
    'GET /api/team/userinfo/': none,
    'PUT /api/team/userinfo/': { owner: 'none', payload: {} },
    'GET /api/team/userinfo/permission': none,
    // Links sent by email (the caller's own address; a reset link is anyone's who holds it: a token that is not one is refused).
    'POST /api/account/email/verification': { owner: 'none', payload: {} },
    'POST /api/account/email/verify': { owner: 'none', payload: { token: 'not-a-real-token-0123456789' } },
    'POST /api/account/password/forgot': { owner: 'none', payload: { email: 'nobody@example.edu.cn' } },
    'POST /api/account/password/reset': { owner: 'none', payload: { token: 'not-a-real-token-0123456789', password: 'Passw0rd2' } },
    // Codes sent by SMS: a proof of work, then a code to a phone; a code proves a phone for the caller's own account.
    'GET /api/auth/altcha': none,
    'POST /api/auth/sms/code': { owner: 'none', payload: {} },
    'POST /api/auth/sms/login': { owner: 'none', payload: { phone: '13800138000', code: '123456' } },
    'POST /api/account/password/reset/sms': { owner: 'none', payload: { phone: '13800138000', code: '123456', password: 'Passw0rd2' } },
    'POST /api/account/phone/code': { owner: 'none', payload: {} },
    'POST /api/account/phone/verify': { owner: 'none', payload: { phone: '13800138000', code: '123456' } },
    'POST /api/account/password/set': { owner: 'none', payload: { password: 'Passw0rd2' } },
    // 实名认证: the caller's own standing and attempt.
    'GET /api/account/realname': none,
    'POST /api/account/realname': { owner: 'none', payload: {} },
    // Message preferences are the caller's own; an unsubscribe token names its user, checked by its MAC.
    'GET /api/account/message-preferences': none,
    // The caller's own WeChat binding.
    'DELETE /api/account/wechat': none,
    'PUT /api/account/message-preferences': { owner: 'none', payload: { kinds: [] } },
    'POST /api/account/unsubscribe': { owner: 'none', payload: { token: '1.notice.email.0000' } },
    'GET /api/system/menu/routers': none,
    'POST /api/file/upload/avatar': { owner: 'none', file: png },
    'POST /api/file/upload/document': { owner: 'none', query: 'purpose=attachment', file: { name: 'a.pdf', content: PDF, type: 'application/pdf' } },
    // A public route whose object is T's: the voucher T uploaded for its order.
    'GET /api/file/common/download': team({ query: `fileUri=${encodeURIComponent(i.voucherUri)}` }),
    // The same download as a form-encoded POST (spec §7 Files).
    'POST /api/file/common/download': team({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `fileUri=${encodeURIComponent(i.voucherUri)}`,
    }),

    // Platform back office: users, roles, organisations, catalogue, settings.
    'GET /api/team/userinfo/list': platform,
    'GET /api/team/userinfo/:id': { owner: 'platform', params: { id: i.victimUser } },
    'POST /api/system/user': { owner: 'platform', payload: { username: 'matrixmade', password: 'Passw0rd3' } },
    'PUT /api/system/user/:id/status': { owner: 'platform', params: { id: i.victimUser }, payload: { status: 0 } },
    'PUT /api/system/user/:id/password': { owner: 'platform', params: { id: i.victimUser }, payload: { password: 'Passw0rd3' } },
    'PUT /api/system/user/:id/roles': { owner: 'platform', params: { id: i.victimUser }, payload: { roleIds: [] } },
    'PUT /api/system/user/:id/org': { owner: 'platform', params: { id: i.victimUser }, payload: { orgId: null } },
    'GET /api/system/role/list': platform,
    'GET /api/system/role/options': platform,
    'POST /api/system/role': { owner: 'platform', payload: {} },
    'PUT /api/system/role/:id': { owner: 'platform', params: { id: i.spareRole }, payload: { name: '矩阵备用', permissions: [] } },
    'DELETE /api/system/role/:id': { owner: 'platform', params: { id: i.spareRole } },
    'GET /api/system/dashboard': platform,
    'GET /api/system/todo': none,
    'GET /api/system/todo/judges': none,
    'GET /api/system/org/options': platform,
    'GET /api/system/client': platform,
    'POST /api/system/client/:platform': { owner: 'platform', params: { platform: 'win' } },
    // Which client packages exist, for the download-client dialog of every visitor.
    'GET /api/system/client/status': none,
    'GET /api/system/client/build': platform,
    // The platform's SMS provider (消息服务).
    'GET /api/system/sms/config': platform,
    'PUT /api/system/sms/config': {
      owner: 'platform',
      payload: { provider: 'aliyun', enable: false, accessKeyId: '', signName: '', templates: { code: '', notice: '', reminder: '' } },
    },
    'POST /api/system/sms/test': { owner: 'platform', payload: { phone: '13800138000' } },
    // The platform's review of real names (实名审核): no attempt exists in the matrix's world, so its reviewer gets 404.
    'GET /api/system/realname/list': platform,
    'GET /api/system/realname/:id': { owner: 'platform', params: { id: 999999 } },
    'POST /api/system/realname/:id/audit': { owner: 'platform', params: { id: 999999 }, payload: { pass: true } },
    // The platform's list of schools (学校名单); any signed-in person's picker reads it.
    'GET /api/school/options': none,
    // School coordinators (院校负责人): appointed in A's competitions by A's organisers; a coordinator's own views check
    // the appointment in the service (coordinators.test.ts: a coordinator of one school sees nothing of another's).
    'GET /api/competition/coordinator/:competitionId': org({ params: { competitionId: i.competition } }),
    'POST /api/competition/coordinator/:competitionId': org({
      params: { competitionId: i.competition },
      payload: { account: 'nobody-at-all', schoolId: 999999, scope: 'competition' },
    }),
    'DELETE /api/competition/coordinator/item/:id': org({ params: { id: 999999 } }),
    'GET /api/school/coordinator/mine': none,
    'GET /api/school/coordinator/teams/:competitionId': { owner: 'none', params: { competitionId: i.competition }, query: `schoolId=${i.schoolX}` },
    'POST /api/school/coordinator/audit/:id': { owner: 'none', params: { id: i.register }, payload: { action: 'approve' } },
    'GET /api/school/coordinator/template': none,
    // 统一缴费: only a coordinator of the school reaches an order (school-payment.test.ts proves the other school's 404s).
    'GET /api/school/coordinator/orders/:competitionId': { owner: 'none', params: { competitionId: i.competition }, query: `schoolId=${i.schoolX}` },
    'POST /api/school/coordinator/order/:competitionId': {
      owner: 'none',
      params: { competitionId: i.competition },
      query: `schoolId=${i.schoolX}`,
      payload: { teamIds: [i.team] },
    },
    'PUT /api/school/coordinator/order/close/:id': { owner: 'none', params: { id: 999_999 } },
    'PUT /api/school/coordinator/order/voucher/:id': { owner: 'none', params: { id: 999_999 }, payload: { payMethod: 6, voucher: i.voucherUri } },
    'POST /api/school/coordinator/order/pay/:id': { owner: 'none', params: { id: 999_999 }, payload: { method: 2 } },
    'POST /api/school/coordinator/order/invoice/:id': { owner: 'none', params: { id: 999_999 }, payload: { titleId: i.invoiceTitle, type: 'normal' } },
    'GET /api/school/coordinator/certificates/:competitionId': { owner: 'none', params: { competitionId: i.competition }, query: `schoolId=${i.schoolX}` },
    'POST /api/school/coordinator/import/:competitionId': {
      owner: 'none',
      params: { competitionId: i.competition },
      query: 'schoolId=1&mode=all',
      file: { name: 'a.xlsx', content: PDF, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    },
    'GET /api/system/school/page': platform,
    'POST /api/system/school': { owner: 'platform', payload: {} },
    'PUT /api/system/school/:id': { owner: 'platform', params: { id: 999999 }, payload: { name: '矩阵大学', kind: 'other' } },
    'DELETE /api/system/school/:id': { owner: 'platform', params: { id: 999999 } },
    'POST /api/system/school/import': {
      owner: 'platform',
      file: { name: 'a.xlsx', content: PDF, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    },
    // Only queues the build: the matrix's app runs no jobs.
    'POST /api/system/client/build': platform,
    'POST /api/file/upload/image': { owner: 'platform', file: png },
    'POST /api/competition/partner/apply': { owner: 'none', payload: {} },
    'GET /api/competition/partner/mine': none,
    'GET /api/competition/partner/page': platform,
    'PUT /api/competition/partner/audit/:id': { owner: 'platform', params: { id: i.partnerApplication }, payload: { approve: false, reason: '矩阵' } },
    'GET /api/competition/organization/page': platform,
    'POST /api/competition/organization/': { owner: 'platform', payload: {} },
    'PUT /api/competition/organization/:id': { owner: 'platform', params: { id: i.orgA }, payload: {} },
    'DELETE /api/competition/organization/:id': { owner: 'platform', params: { id: i.orgA } },
    'POST /api/competition/type/': platform,
    'PUT /api/competition/type/:id': { owner: 'platform', params: { id: i.type }, payload: { name: '矩阵类型' } },
    'DELETE /api/competition/type/:id': { owner: 'platform', params: { id: i.type } },
    'GET /api/competition/type/public/list': none,
    'GET /api/competition/type/public/page': none,
    'POST /api/competition/brand/': { owner: 'platform', payload: {} },
    'PUT /api/competition/brand/:id': { owner: 'platform', params: { id: i.brand }, payload: { name: '矩阵品牌', shortName: '矩阵' } },
    'PUT /api/competition/brand/recommend/:id': { owner: 'platform', params: { id: i.brand } },
    'DELETE /api/competition/brand/:id': { owner: 'platform', params: { id: i.brand } },
    'GET /api/competition/brand/list': platform,
    'GET /api/competition/brand/public/:id': { owner: 'none', params: { id: i.brand } },
    'GET /api/competition/brand/public/page': none,
    'POST /api/competition/brand/nav/': { owner: 'platform', payload: {} },
    'PUT /api/competition/brand/nav/:id': { owner: 'platform', params: { id: i.nav }, payload: { brandId: i.brand } },
    'GET /api/competition/brand/nav/byBrandId/:id': { owner: 'platform', params: { id: i.brand } },
    'GET /api/competition/brand/nav/public/nav': { owner: 'none', query: `brandId=${i.brand}` },
    'GET /api/payment/config/1': platform,
    'GET /api/payment/config/2': platform,
    'GET /api/payment/config/4': platform,
    'GET /api/payment/config/5': platform,
    'GET /api/payment/config/6': platform,
    'PUT /api/payment/config/:method': { owner: 'platform', params: { method: 1 }, payload: {} },
    'GET /api/invoice/config': platform,
    'PUT /api/invoice/config': { owner: 'platform', payload: {} },
    'POST /api/payment/notify/alipay': {
      owner: 'none',
      payload: 'trade_status=TRADE_SUCCESS',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
    'POST /api/payment/notify/wechat': { owner: 'none', payload: {} },

    // Competitions of A: public pages for all, the back office for A's organisers only.
    'GET /api/competition/public/list': none,
    'GET /api/competition/public/:id': { owner: 'none', params: { id: i.competition } },
    'GET /api/competition/listAuth': none,
    'GET /api/competition/list': platform,
    'POST /api/competition/': { owner: 'none', payload: {} },
    'PUT /api/competition/:id': org({ params: { id: i.competition }, payload: competitionBody }),
    'GET /api/competition/readiness/:id': org({ params: { id: i.draftCompetition } }),
    'PUT /api/competition/publish/:id': org({ params: { id: i.draftCompetition } }),
    'PUT /api/competition/recheck/:id': org({ params: { id: i.draftCompetition }, query: 'key=dates' }),
    'POST /api/competition/clone/:id': org({ params: { id: i.competition }, payload: { name: '矩阵新一届', shiftYears: 1, shiftDays: 0, parts: [] } }),
    'GET /api/competition/editions/public/:id': { owner: 'none', params: { id: i.competition } },
    'GET /api/competition/export/:id': org({ params: { id: i.competition } }),
    'POST /api/competition/import': { owner: 'none', payload: {} },
    'GET /api/competition/publicity/:id': org({ params: { id: i.competition } }),
    'PUT /api/competition/publicity/:id': org({ params: { id: i.competition }, payload: { start: null, end: null, embedOrigins: [] } }),
    'GET /api/competition/results/public/:id': { owner: 'none', params: { id: i.competition } },
    'POST /api/competition/results/objection/:id': { owner: 'none', params: { id: i.competition }, payload: {} },
    'GET /embed/leaderboard/:questionId': { owner: 'none', params: { questionId: i.question } },
    'GET /embed/results/:competitionId': { owner: 'none', params: { competitionId: i.competition } },
    'PUT /api/competition/audit/:id': org({ params: { id: i.draftCompetition } }),
    'PUT /api/competition/audit/reply/:id': org({ params: { id: i.draftCompetition }, query: 'reply=矩阵' }),
    'DELETE /api/competition/:id': org({ params: { id: i.draftCompetition } }),
    'POST /api/competition/:id/off': org({ params: { id: i.competition } }),
    'POST /api/competition/:id/on': org({ params: { id: i.competition } }),
    'GET /api/competition/stages/public/list/:competitionId': none,
    'POST /api/competition/stages/:id': org({ params: { id: i.competition }, payload: stage }),
    'PUT /api/competition/stages/:id': org({ params: { id: i.stage }, payload: stage }),
    'DELETE /api/competition/stages/:id': org({ params: { id: i.stage } }),
    'GET /api/competition/preset/public/list/:id': { owner: 'none', params: { id: i.competition } },
    'GET /api/competition/preset/public/:id': { owner: 'none', params: { id: i.preset } },
    'POST /api/competition/preset/:id': org({ params: { id: i.competition }, payload: { menuCode: 'GRADE_SET', enable: true } }),
    'PUT /api/competition/preset/:id': org({ params: { id: i.preset }, payload: { enable: true } }),
    'PUT /api/competition/preset/batch/:competitionId': org({ payload: { presets: { GRADE_SET: { enable: true } } } }),
    'GET /api/team/statistics/public/statisticsTeamNum/:competitionId': none,
    'GET /api/team/statistics/public/statisticsMemberNum/:competitionId': none,

    // Questions of A.
    'GET /api/competition/question/public/list/:competitionId': none,
    'GET /api/competition/question/public/:id': { owner: 'none', params: { id: i.question } },
    'GET /api/competition/question/page': none,
    'GET /api/competition/question/list/:id': org({ params: { id: i.competition } }),
    'GET /api/competition/question/check/:id': org({ params: { id: i.question } }),
    'POST /api/competition/question/:id': org({ params: { id: i.competition }, payload: { title: '矩阵新题' } }),
    'PUT /api/competition/question/:id': org({ params: { id: i.question }, payload: { title: '矩阵题' } }),
    'PUT /api/competition/question/:id/creator': org({ params: { id: i.question }, payload: { creatorId: i.leader } }),
    'PUT /api/competition/question/review/:id': org({ params: { id: i.question }, payload: { reviewed: true } }),
    'DELETE /api/competition/question/:id': org({ params: { id: i.question } }),
    'DELETE /api/competition/question/:id/file': org({ params: { id: i.question }, query: 'fileUri=question%2Fnone' }),
    'POST /api/competition/question/:id/answer': org({
      params: { id: i.question },
      file: { name: 'answer.csv', content: Buffer.from('id,y\nr0,1\n'), type: 'text/csv' },
    }),

    // Team T and its members.
    'POST /api/team/register/:competitionId': { owner: 'none', payload: {} },
    'GET /api/team/competition/:id': { owner: 'none', params: { id: i.competition } },
    'GET /api/team/competition/:id/detail': { owner: 'none', params: { id: i.competition } },
    'GET /api/team/:id': team({ params: { id: i.team } }),
    'GET /api/team/team/:id': team({ params: { id: i.team } }),
    'PUT /api/team/update/:id': team({ params: { id: i.team }, payload: { teamName: SECRET.teamName } }),
    'PUT /api/team/updateTeacher/:id': team({
      params: { id: i.team },
      payload: { teacherList: [{ name: SECRET.teacher, phone: null, organization: '甲大学', title: '讲师' }] },
    }),
    'PUT /api/team/choiceQuestion/:id': team({ params: { id: i.team }, payload: { questionId: i.question } }),
    'PUT /api/team/choiceQuestion/:a/:b': team({ params: { a: i.team, b: i.question } }),
    'GET /api/team/member/invitation/mine': none,
    'POST /api/team/member/invitation': team({ payload: { teamId: i.team, account: 'mxVictim' } }),
    'POST /api/team/member/agree/:id': team({ params: { id: i.team }, payload: { info: REG_INFO } }),
    'PUT /api/team/member/refuse/:id': team({ params: { id: i.team } }),
    'PUT /api/team/member/batchUpdateMember': team({ payload: { teamId: i.team, memberList: [{ userId: i.leader, info: member }] } }),
    'GET /api/team/member/:id': team({ params: { id: i.team } }),
    'PUT /api/team/member/:id': team({ params: { id: i.team }, payload: { info: member } }),
    'POST /api/team/member/:id': team({ params: { id: i.team }, payload: { userId: i.leader } }),
    'DELETE /api/team/member/:id': team({ params: { id: i.team }, query: `userId=${i.leader}` }),

    // Registrations.
    'GET /api/team/register/list': none,
    'GET /api/team/register/item/:id': { owner: 'none', params: { id: i.competition } },
    'GET /api/team/register/:id': team({ params: { id: i.register } }),
    'POST /api/team/register/flow/:id': org({ params: { id: i.register }, payload: { action: 'approve' } }),
    'POST /api/team/register/flow/batch': org({ payload: { ids: [i.register], action: 'approve' } }),
    'GET /api/team/register/:competitionId/attachments': org(),

    // Orders, payment and invoices.
    'GET /api/order/person/page': none,
    'GET /api/order/list': none,
    'PUT /api/order/batch/payment': org({ payload: { ids: [i.order], payerOrg: '矩阵单位', voucher: i.otherVoucherUri } }),
    'GET /api/order/getOrderByTeamNo/:teamNo': team({ params: { teamNo: i.teamNo } }),
    'POST /api/order/team/:id': team({ params: { id: i.team } }),
    'PUT /api/order/close/:id': team({ params: { id: i.order } }),
    'PUT /api/order/voucher/:id': team({ params: { id: i.order }, payload: { payMethod: 4, voucher: i.voucherUri } }),
    'PUT /api/order/confirm/batch': org({ payload: { ids: [i.order] } }),
    'PUT /api/order/confirm/:id': org({ params: { id: i.order } }),
    'GET /api/order/school/list': none,
    'PUT /api/order/school/confirm/:id': org({ params: { id: 999_999 } }),
    'PUT /api/order/school/refund/:id': org({ params: { id: 999_999 }, payload: { reason: '矩阵退款' } }),
    'PUT /api/order/refund/:id': org({ params: { id: i.order }, payload: { reason: '矩阵退款' } }),
    'GET /api/order/:id': team({ params: { id: i.order } }),
    'GET /api/payment/methods': none,
    'POST /api/payment/pay/:id': team({ params: { id: i.order }, payload: { method: 1 } }),
    'GET /api/invoice/title/list': none,
    'POST /api/invoice/title': { owner: 'none', payload: {} },
    'PUT /api/invoice/title/:id': team({ params: { id: i.invoiceTitle }, payload: COMPANY }),
    'DELETE /api/invoice/title/:id': team({ params: { id: i.invoiceTitle } }),
    'GET /api/invoice/config/public': none,
    'POST /api/invoice/apply': team({ payload: { orderId: i.order, titleId: i.invoiceTitle, type: 'normal' } }),
    'GET /api/invoice/person/page': none,
    'GET /api/invoice/list': none,
    'PUT /api/invoice/issue/:id': org({ params: { id: i.invoice }, payload: { invoiceNo: '0123456789', fileUri: i.voucherUri } }),
    'PUT /api/invoice/reject/batch': org({ payload: { ids: [i.invoice], reason: '矩阵驳回' } }),
    'PUT /api/invoice/reject/:id': org({ params: { id: i.invoice }, payload: { reason: '矩阵驳回' } }),

    // Tests and leaderboards: a submission or list is the caller's team's own.
    'POST /api/review/test/:questionId': { owner: 'none', file: CSV },
    'GET /api/review/test/list/:questionId': none,
    'GET /api/review/test/sample/:questionId': team(),
    'PUT /api/review/test/select/:id': team({ params: { id: i.testSubmission }, payload: { selected: true } }),
    'GET /api/review/test/leaderboard/:questionId': none,
    'PUT /api/review/test/publish/:questionId': org({ payload: { published: false } }),
    'GET /api/review/test/rescore/:questionId': org(),
    'GET /api/review/test/submissions/:questionId': org(),
    'GET /api/review/test/duplicates/:questionId': org(),
    'PUT /api/review/test/cancel/:id': org({ params: { id: i.testSubmission }, payload: { cancelled: false } }),
    'PUT /api/review/test/disqualify/:questionId': org({ payload: { teamId: i.team, disqualified: false } }),
    'POST /api/question/rescore/:id': org({ params: { id: i.question } }),
    'GET /api/review/test/queue/:id': org({ params: { id: i.competition } }),
    'GET /api/review/test/failures/:id': org({ params: { id: i.competition } }),
    'GET /api/question/scorer/:id': org({ params: { id: i.question } }),
    'POST /api/question/scorer/:id': org({ params: { id: i.question }, file: { name: 'score.py', content: Buffer.from('print(1)\n'), type: 'text/x-python' } }),
    'POST /api/question/scorer/try/:id': org({ params: { id: i.question }, file: { name: 'p.csv', content: Buffer.from('id,y\nr0,1\n'), type: 'text/csv' } }),

    // Works.
    'POST /api/review/works/upload': { owner: 'none', headers: { ...TUS, 'upload-length': '10' } },
    'HEAD /api/review/works/upload/:uploadId': team({ headers: TUS }),
    'PATCH /api/review/works/upload/:uploadId': team({
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.from('x'),
    }),
    'DELETE /api/review/works/upload/:uploadId': team({ headers: TUS }),
    'GET /api/review/works/rules/:id': { owner: 'none', params: { id: i.question } },
    'GET /api/review/works/similarityReport/:id': { owner: 'none', params: { id: i.question } },
    'POST /api/review/works/similarityReport/:id': {
      owner: 'none',
      params: { id: i.question },
      query: 'declaredRate=8.5',
      file: { name: '知网报告.pdf', content: PDF, type: 'application/pdf' },
    },
    'GET /api/review/works/page/:id': org({ params: { id: i.question } }),
    'GET /api/review/works/export/:id': org({ params: { id: i.question } }),
    'GET /api/review/works/:id': team({ params: { id: i.question }, query: `teamId=${i.team}` }),

    // Review: the rules, the expert pool (each organisation's own beside the platform's), judges and assignments of
    // A's question. The experts of the world were added by A's organiser: A's to change.
    'GET /api/review/rules/:id': org({ params: { id: i.question } }),
    'PUT /api/review/rules/:id': org({ params: { id: i.question }, payload: rule }),
    'GET /api/review/expert/page': platform,
    'POST /api/review/expert': { owner: 'platform', payload: {} },
    'PUT /api/review/expert/:id': org({ params: { id: i.judgeUnassigned }, payload: { organization: '评审大学', speciality: '统计', title: '教授' } }),
    'DELETE /api/review/expert/:id': org({ params: { id: i.judgeAssigned } }),
    'GET /api/review/judge/:id': org({ params: { id: i.question } }),
    'GET /api/review/judge/candidates/:id': org({ params: { id: i.question } }),
    'POST /api/review/judge/:id': org({ params: { id: i.question }, payload: { userIds: [i.judgeUnassigned] } }),
    'DELETE /api/review/judge/:id/:userId': org({ params: { id: i.question, userId: i.judgeUnassigned } }),
    'POST /api/review/works/:id': org({ params: { id: i.question } }),
    'GET /api/review/assign/page/:id': org({ params: { id: i.question } }),
    'PUT /api/review/assign/:id': org({ params: { id: i.assignment }, payload: { judgeId: i.judgeUnassigned } }),
    'POST /api/review/assign/reopen/:id': org({ params: { id: i.assignment } }),
    'GET /api/review/works/review/export/:id': org({ params: { id: i.question } }),
    'GET /api/review/center/tasks': none,
    'GET /api/review/center/works': { owner: 'none', query: `questionId=${i.question}` },
    'GET /api/review/center/works/:id': { owner: 'assignment', params: { id: i.assignment } },
    'GET /api/review/center/works/:id/download': { owner: 'assignment', params: { id: i.assignment } },
    'PUT /api/review/works/:id': { owner: 'assignment', params: { id: i.assignment }, payload: { scores: [], comment: '矩阵', submit: false } },

    // 查重 of A's question (issue 37).
    'GET /api/review/similarity/:id': org({ params: { id: i.question } }),
    'PUT /api/review/similarity/settings/:id': org({ params: { id: i.question }, payload: { flagPercent: 20, holdPercent: 40 } }),
    'POST /api/review/similarity/run/:id': org({ params: { id: i.question } }),
    'POST /api/review/similarity/exclusion/:id': org({
      params: { id: i.question },
      file: { name: '题目.docx', content: PDF, type: 'application/octet-stream' },
    }),
    'DELETE /api/review/similarity/exclusion/:id': org({ params: { id: i.similarityExclusion } }),
    'GET /api/review/similarity/pair/:id': org({ params: { id: i.similarityPair } }),
    'GET /api/review/similarity/report/:id': org({ params: { id: i.question }, query: `teamId=${i.team}` }),
    'PUT /api/review/similarity/decision/:id': org({ params: { id: i.question }, payload: { teamId: i.team, decision: 'release' } }),

    // Grades, disputes and awards of A's question; a team's own grade and awards.
    'GET /api/review/works/grade/summary/:id': org({ params: { id: i.question } }),
    'GET /api/review/works/grade/schools/:id': org({ params: { id: i.question } }),
    'GET /api/review/works/grade/:id': org({ params: { id: i.question } }),
    'POST /api/review/works/calcFinalScore/:id': org({ params: { id: i.question } }),
    'POST /api/review/works/confirmFinalScore/:id': org({ params: { id: i.question } }),
    'GET /api/review/works/exportGrade/:id': org({ params: { id: i.question } }),
    'GET /api/review/works/review/exportGrade/:id': org({ params: { id: i.question } }),
    'GET /api/review/works/exportPrize/:id': org({ params: { id: i.question } }),
    'GET /api/review/works/myGrade/:competitionId': none,
    'POST /api/review/works/disputeScore/:id': { owner: 'none', params: { id: i.question }, payload: { reason: '矩阵申诉' } },
    'GET /api/review/works/dispute/page/:id': org({ params: { id: i.question } }),
    'PUT /api/review/works/dispute/:id': org({ params: { id: i.dispute }, payload: { answer: '矩阵答复' } }),
    'GET /api/review/works/awards/:id': org({ params: { id: i.question } }),
    'PUT /api/review/works/awards/:id': org({ params: { id: i.question }, payload: { levels: [{ name: '一等奖', rankFrom: 1, rankTo: 1 }] } }),
    'POST /api/review/works/awards/apply/:id': org({ params: { id: i.question } }),
    'PUT /api/review/works/awards/team/:id': org({ params: { id: i.question }, payload: { teamId: i.team, awardId: i.awardLevel } }),
    'GET /api/review/works/list/awards/:id': team({ params: { id: i.team } }),

    // Certificates.
    'GET /api/review/certificate/page/:competitionId': org(),
    'POST /api/review/certificate/cert/imgUrl': { owner: 'none', file: png },
    'POST /api/review/certificate/upload/:id': org({ params: { id: i.question }, file: png }),
    'GET /api/review/certificate/upload/:id': org({ params: { id: i.question } }),
    'POST /api/review/certificate/relation/:id': org({ params: { id: i.question }, payload: { templateId: i.template } }),
    'GET /api/review/certificate/cert/push/:id': org({ params: { id: i.question } }),
    'POST /api/review/certificate/cert/push/:id': org({ params: { id: i.question } }),
    'GET /api/review/certificate/export/:id': org({ params: { id: i.question } }),
    'GET /api/review/certificate/cert/list': none,
    'GET /api/review/certificate/cert/cbda/list': none,
    'GET /api/review/certificate/person/:id': team({ params: { id: i.team } }),
    'GET /api/review/certificate/load/:id': team({ params: { id: i.certificate } }),
    'GET /api/review/certificate/cert/certificate/download/:id': team({ params: { id: i.certificate } }),
    'GET /api/review/certificate/public/verify/:certNo': { owner: 'none', params: { certNo: i.certNo }, query: 'code=0000' },
    'GET /api/review/certificate/:id': org({ params: { id: i.template } }),
    'POST /api/review/certificate/:competitionId': org({ payload: { name: '矩阵证书二', backgroundUri: 'certificate/none', fields: nameField } }),
    'PUT /api/review/certificate/:id': org({ params: { id: i.template }, payload: { name: '矩阵证书', backgroundUri: 'certificate/none', fields: nameField } }),
    'DELETE /api/review/certificate/:id': org({ params: { id: i.template } }),

    // Messages: a user's box is their own; notices are A's.
    'GET /api/message/notice/check/read': none,
    'GET /api/message/notice/page/:id': { owner: 'none', params: { id: 0 } },
    'PUT /api/message/notice/user/all': none,
    'PUT /api/message/notice/user/:id': team({ params: { id: i.message } }),
    'GET /api/message/notice/stream': { owner: 'none', skip: liveStream },
    // A competition's announcements: public; each caller sees only the notices that reached them.
    'GET /api/message/notice/competition/:id': { owner: 'none', params: { id: i.competition } },
    'GET /api/message/notice/page': none,
    'POST /api/message/notice/recipients': org({
      refusedField: 'target.competitionId',
      payload: { target: { scope: 'teams', competitionId: i.competition, teamNos: [i.teamNo] } },
    }),
    'POST /api/message/notice': org({
      refusedField: 'target.competitionId',
      payload: { kind: 1, title: '矩阵私信', content: '<p>x</p>', target: { scope: 'teams', competitionId: i.competition, teamNos: [i.teamNo] } },
    }),
    'PUT /api/message/notice/:id': org({
      params: { id: i.notice },
      payload: { kind: 0, title: SECRET.noticeTitle, content: '<p>x</p>', target: { scope: 'competition', competitionId: i.competition } },
    }),
    'POST /api/message/notice/:id': org({ params: { id: i.notice }, payload: {} }),
    'DELETE /api/message/notice/:id': org({ params: { id: i.notice } }),
  };
}

const OUTSIDERS: Role[] = ['otherTeam', 'judge', 'otherOrganiser', 'otherCoordinator'];
const TEAM_SECRETS = [SECRET.teamName, SECRET.person, SECRET.invoiceTitle, SECRET.teacher, SECRET.disputeReason];
/**
 * What a role must never read outside a public page. Team U is in A's competition, so A's notice reaches it; the
 * other organiser must not see A's back office at all.
 */
const SECRETS: Partial<Record<Role, string[]>> = {
  anonymous: [...TEAM_SECRETS, SECRET.orgName, SECRET.noticeTitle],
  otherTeam: TEAM_SECRETS,
  judge: [...TEAM_SECRETS, SECRET.noticeTitle],
  otherOrganiser: [...TEAM_SECRETS, SECRET.orgName, SECRET.noticeTitle],
  otherCoordinator: [...TEAM_SECRETS, SECRET.orgName, SECRET.noticeTitle],
};

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const isPublic = (r: RegisteredRoute) => 'access' in r.rule && r.rule.access === 'public';

/**
 * The outcome a role must get. `allow`: neither 401 nor 403 (a 400, 404 or 409 on a plausible but incomplete request is
 * fine); `refuse`: 403 or 404 (401 for the anonymous caller; a field error where the case allows it), with none of the
 * owner's data; `staff`: platform staff on a team's object, which the service may show or hide, but never with a 401.
 * No outcome is ever a 5xx, and no outsider reads T's or A's secrets outside a public page.
 */
function expected(route: RegisteredRoute, c: Case, role: Role, codes: Set<string>): Expected {
  const outsider = OUTSIDERS.includes(role);
  if (isPublic(route)) {
    if (c.owner !== 'team') return 'allow';
    return role === 'participant' ? 'allow' : role === 'administrator' || role === 'adminWithout' ? 'staff' : 'refuse';
  }
  if (role === 'anonymous') return 401;
  const { rule } = route;
  if ('permission' in rule && !codes.has(rule.permission)) return 403;
  switch (c.owner) {
    case 'none':
    case 'platform':
      return 'allow';
    case 'team':
      return role === 'participant' ? 'allow' : outsider ? 'refuse' : 'staff';
    case 'org':
      return outsider ? 'refuse' : 'allow';
    case 'assignment':
      return outsider ? 'refuse' : 'staff';
  }
}

/** What is wrong with a response, or '' when it is the expected one. */
function judge(route: RegisteredRoute, c: Case, role: Role, want: Expected, got: number, text: string): string {
  if (got >= 500) return ' (a server error)';
  const leaked = isPublic(route) && want === 'allow' ? [] : (SECRETS[role] ?? []).filter((s) => text.includes(s));
  if (leaked.length) return ` leaking ${leaked.join(', ')}`;
  switch (want) {
    case 'allow':
      return got === 401 || got === 403 ? ' (refused)' : '';
    case 'staff':
      return got === 401 ? ' (logged out)' : '';
    case 'refuse': {
      // A logged-in outsider is refused by the object check, never by a lost session.
      if (got === 403 || got === 404 || (got === 401 && role === 'anonymous')) return '';
      const fields = got === 400 ? (JSON.parse(text).data?.fields ?? {}) : {};
      return c.refusedField !== undefined && c.refusedField in fields ? '' : ' (not refused)';
    }
    default:
      return got === want ? '' : ' (wrong status)';
  }
}

function concreteUrl(route: RegisteredRoute, c: Case, w: World): string {
  const defaults: Record<string, string | number> = { competitionId: w.ids.competition, questionId: w.ids.question, uploadId: w.ids.uploadId };
  const path = route.url.replace(/:(\w+)|\*$/g, (_, name: string | undefined) => {
    const value = c.params?.[name ?? '*'] ?? (name ? defaults[name] : undefined);
    if (value === undefined) throw new Error(`${key(route)}: no value for ${name ?? '*'}`);
    return encodeURIComponent(String(value));
  });
  return c.query ? `${path}?${c.query}` : path;
}

async function call(client: Client, route: RegisteredRoute, c: Case, w: World) {
  const url = concreteUrl(route, c, w);
  if (c.file) return client.request({ method: route.method, url, ...multipart(c.file.name, c.file.content, c.file.type) });
  const payload = c.payload ?? (['GET', 'HEAD', 'DELETE'].includes(route.method) || c.headers ? undefined : {});
  return client.request({ method: route.method, url, headers: c.headers, payload: payload as object });
}

/** Reads first, writes next, deletions last: a role's own deletions never hide an object from its later checks. */
const ORDER: Record<string, number> = { GET: 0, HEAD: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };

describe.each(DATABASES)('access matrix on %s', (kind) => {
  let w: World;
  let cases: Record<string, Case>;
  let routes: RegisteredRoute[];
  beforeAll(async () => {
    w = await buildWorld(kind);
    cases = routeCases(w);
    routes = [...w.t.routes].sort((a, b) => ORDER[a.method]! - ORDER[b.method]!);
  });
  afterAll(() => w?.t.close());

  it('has registered routes, each with exactly one declared rule and a classification here', () => {
    expect(routes.length).toBeGreaterThan(200);
    for (const r of routes) expect(describeRule(r.rule)).toMatch(/^(public|user|permission \S+)$/);
    const unclassified = routes.filter((r) => !cases[key(r)]).map(key);
    expect(unclassified, 'routes with no entry in the matrix: say whose object each one touches').toEqual([]);
    const stale = Object.keys(cases).filter((k) => !routes.some((r) => key(r) === k));
    expect(stale, 'matrix entries for routes that no longer exist').toEqual([]);
  });

  it('lets the owners reach every object the matrix refuses to outsiders', async () => {
    // Without this, a wrong id in the table would make every outsider's 404 pass for the wrong reason.
    const failures: string[] = [];
    const ownerOf: Partial<Record<Owner, Client>> = { team: w.clients.participant, org: w.owners.organiser, assignment: w.owners.assignedJudge };
    for (const route of routes) {
      const c = cases[key(route)]!;
      const owner = ownerOf[c.owner];
      if (!owner || (route.method !== 'GET' && route.method !== 'HEAD')) continue;
      const res = await call(owner, route, c, w);
      if (res.statusCode >= 300) failures.push(`${key(route)} as its owner: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  });

  it('serves none of the private files of T and A to an outsider', async () => {
    // The download route is public and decides per file: every private file of the world is tried, not just one.
    const db = w.t.database.db;
    const outsiders: Role[] = ['anonymous', ...OUTSIDERS];
    const outsiderIds = (
      await db
        .selectFrom('users')
        .select('id')
        .where(
          'username',
          'in',
          outsiders.filter((r) => r !== 'anonymous').map((r) => w.usernames[r as Exclude<Role, 'anonymous'>]),
        )
        .execute()
    ).map((u) => u.id);
    const files = await db.selectFrom('files').select(['key', 'purpose', 'ownerId']).where('visibility', '!=', 'public').execute();
    const theirs = files.filter((f) => f.ownerId === null || !outsiderIds.includes(f.ownerId));
    // T's voucher, works and test prediction, and the answer file of A's question.
    expect([...new Set(theirs.map((f) => f.purpose))].sort()).toEqual(['answer', 'prediction', 'voucher', 'works']);
    const failures: string[] = [];
    for (const role of outsiders) {
      for (const f of theirs) {
        const res = await w.clients[role].get(`/api/file/common/download?fileUri=${encodeURIComponent(f.key)}`);
        if (res.statusCode !== 404) failures.push(`${f.purpose} ${f.key} as ${role}: ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    // The control: T's leader does read T's voucher through the same route.
    expect((await w.clients.participant.get(`/api/file/common/download?fileUri=${encodeURIComponent(w.ids.voucherUri)}`)).statusCode).toBe(200);
  });

  it('gives every role exactly the access each route declares, and outsiders nothing of T or A', async () => {
    // The matrix writes (it deletes uploads, ends sessions, changes a role): it runs on a world of its own, so that the
    // read-only checks above hold in any order.
    const own = await buildWorld(kind);
    try {
      await matrix(
        own,
        routeCases(own),
        [...own.t.routes].sort((a, b) => ORDER[a.method]! - ORDER[b.method]!),
      );
    } finally {
      await own.t.close();
    }
  }, 180_000);
});

/** Every route for every role: the access each declares, and outsiders nothing of T or A. */
async function matrix(w: World, cases: Record<string, Case>, routes: RegisteredRoute[]) {
  const failures: string[] = [];
  let tried = 0;
  const codes = new Map<Role, Set<string>>();
  for (const role of ROLES) codes.set(role, new Set((await w.clients[role].get('/api/team/userinfo/permission')).json().data ?? []));
  // The built-in roles are what the matrix assumes: participants and judges hold no back-office code.
  expect([...codes.get('judge')!].sort()).toEqual(['bdrace:review:menu', 'bdrace:userCenter:menu']);
  expect(codes.get('participant')!.has('bdrace:manager:menu')).toBe(false);
  expect(codes.get('administrator')!.size).toBe(ALL_PERMISSION_CODES.length);

  let withheld: string | undefined;
  /** The back-office administrator's role holds every code but the route's own. */
  async function withhold(code: string) {
    if (withheld === code) return;
    const res = await w.clients.administrator.put(`/api/system/role/${w.adminWithoutRoleId}`, {
      name: '矩阵管理员',
      permissions: ALL_PERMISSION_CODES.filter((p) => p !== code),
    });
    if (res.statusCode !== 200) throw new Error(`role update: ${res.body}`);
    codes.set('adminWithout', new Set(ALL_PERMISSION_CODES.filter((p) => p !== code)));
    withheld = code;
  }

  // Outsiders first, owners last: whatever the owners change cannot hide a hole from an outsider's check.
  for (const role of ROLES) {
    for (const route of routes) {
      const c = cases[key(route)]!;
      if (role === 'adminWithout' && 'permission' in route.rule) await withhold(route.rule.permission);
      const want = expected(route, c, role, codes.get(role)!);
      if (c.skip?.(role, want)) continue;
      const client = c.endsSession ? await freshSession(w, role) : w.clients[role];
      const res = await call(client, route, c, w);
      tried++;
      const problem = judge(route, c, role, want, res.statusCode, res.body);
      if (problem) failures.push(`${key(route)} as ${role}: expected ${want}, got ${res.statusCode}${problem} ${res.body.slice(0, 160)}`);
    }
  }
  expect(failures).toEqual([]);
  // Every route for every role, except the open stream for the roles it admits.
  expect(tried).toBe(routes.length * ROLES.length - (ROLES.length - 1));
}

describe('route registry', () => {
  it('refuses to start when a route declares no access rule', async () => {
    const { buildApp } = await import('../src/app.ts');
    const t = await createTestApp('sqlite');
    try {
      // A second app on the same database, with one extra route that declares nothing.
      const bad = buildApp({
        config: t.config,
        database: t.database,
        extraRoutes: (app) => {
          app.get('/api/undeclared', async () => 'oops');
        },
      });
      await expect(bad).rejects.toThrow(/Routes without an access rule: GET \/api\/undeclared/);
    } finally {
      await t.close();
    }
  });
});
