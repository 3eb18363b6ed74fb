import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import QRCode from 'qrcode';
import { extractText, getDocumentProxy } from 'unpdf';
import { ADMIN, api, closeSubmissions, login, newOrganiser, openCompetition, register, uniqueName, upload } from './fixtures.ts';

/**
 * Every participant page of the site, at 1440 px and on a 390 px phone, in a world with a real team: it fails on a page
 * that scrolls sideways, on any console or page error, and on a table whose key columns (or a phone card whose key
 * texts) are out of sight. With UPDATE_SCREENSHOTS=1 it saves each page to docs/screenshots/participant/.
 */

const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
};
const SHOTS = path.join(import.meta.dirname, '..', 'docs', 'screenshots', 'participant');
const PASSWORD = 'Passw0rd1';

const SCHOOL = '华东师范大学数据科学与工程学院';
const TEAM = '华东师范大学数据科学与工程学院数据挖掘一队';
const OTHER_TEAM = '上海交通大学电子信息与电气工程学院联队';
const QUESTION = '城市轨道交通客流预测与运营调度优化';
const NOTICE = '关于复赛作品提交与答辩安排的通知';
const INVOICE_TITLE = '华东师范大学数据科学与工程学院（科研经费）';
const IDS = Array.from({ length: 60 }, (_, i) => `c${i}`);
const ANSWER = ['id,label', ...IDS.map((id, i) => `${id},${i % 2}`)].join('\n');
const PERFECT = ['id,label', ...IDS.map((id, i) => `${id},${i % 2 ? 0.9 : 0.1}`)].join('\n');
const FAIR = ['id,label', ...IDS.map((id, i) => `${id},${(i % 2 ? 0.6 : 0.4) + (i % 7) / 20}`)].join('\n');

interface World {
  leader: string;
  competitionId: number;
  otherCompetitionId: number;
  paidOrderId: number;
  pendingOrderId: number;
  certNo: string;
  certCode: string;
}

async function userPage(browser: Browser, prefix: string) {
  const page = await (await browser.newContext()).newPage();
  const username = uniqueName(prefix);
  await register(page, username, PASSWORD);
  await login(page, username, PASSWORD);
  return { page, username };
}

/** The id of the user's order for the team. */
async function orderOf(page: Page, teamName: string): Promise<number> {
  const orders = (await (await page.request.get('/api/order/person/page?page=1&limit=50')).json()).data.list as { id: number; teamName: string }[];
  const order = orders.find((o) => o.teamName === teamName);
  expect(order, `${teamName} 的订单`).toBeTruthy();
  return order!.id;
}

async function enablePresets(orgPage: Page, competitionId: number, codes: string[]) {
  const presets = (await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json()).data as { id: number; menuCode: string }[];
  for (const code of codes) await api(orgPage, 'PUT', `/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
}

/**
 * The world the pages show, built through the API: a paid three-member team with a teacher in one competition, with a
 * chosen question, works, two scored test files, a published grade with an award, a certificate, a notice, an invoice
 * application; and a pending order of a second competition.
 */
async function buildWorld(browser: Browser): Promise<World> {
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext()).newPage();
  await newOrganiser(orgPage, adminPage);
  // Payment methods and invoices as the platform offers them (the same settings the registration spec makes).
  await api(adminPage, 'POST', '/api/payment/simulator/configure/1');
  await api(adminPage, 'POST', '/api/payment/simulator/configure/2');
  await api(adminPage, 'PUT', '/api/payment/config/4', {
    enable: true,
    accounts: [{ name: '工行对公账户', accountName: '竞赛平台', accountNo: '6222020000000000000', bankName: '工商银行广州分行', instructions: '备注队伍编号' }],
  });
  await api(adminPage, 'PUT', '/api/invoice/config', {
    enable: true,
    issuerName: '竞赛平台',
    issuerTaxNo: '91440101MA5C111111',
    allowedTypes: ['normal', 'special'],
    notice: '电子发票开具后可在此下载',
  });

  const fields = [
    { label: '姓名', name: 'userName', otherParams: { required: true } },
    { label: '学校', name: 'organization', otherParams: { required: true } },
  ];
  const competitionId = await openCompetition(orgPage, adminPage, 8800, fields);
  await enablePresets(orgPage, competitionId, ['QUES_AND_DATA', 'CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST', 'GRADE_SET', 'CERTIFICATE_SET']);
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, {
    title: QUESTION,
    evaluation: { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 5 },
  });
  await upload(orgPage, `/api/competition/question/${questionId}/answer`, { name: 'answer.csv', mimeType: 'text/csv', buffer: Buffer.from(ANSWER) });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });

  // The leader registers the team; two members join by invitation before the organiser approves it.
  const leader = await userPage(browser, 'lead');
  const {
    registerId,
    teamId,
    orderId: paidOrderId,
  } = await api(leader.page, 'POST', `/api/team/register/${competitionId}`, { teamName: TEAM, info: { userName: '王小明', organization: SCHOOL } });
  for (const [name, school] of [
    ['欧阳晓静', '华东师范大学统计学院'],
    ['李思远', '华东师范大学计算机科学与技术学院'],
  ]) {
    const member = await userPage(browser, 'mate');
    await api(leader.page, 'POST', '/api/team/member/invitation', { teamId, account: member.username });
    await api(member.page, 'POST', `/api/team/member/agree/${teamId}`, { info: { userName: name, organization: school } });
    await member.page.context().close();
  }
  await api(leader.page, 'PUT', `/api/team/updateTeacher/${teamId}`, {
    teacherList: [{ name: '周建华', phone: '13800138000', organization: SCHOOL, title: '副教授' }],
  });
  await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
  const orderId = paidOrderId ?? (await orderOf(leader.page, TEAM));

  // Finance marks the order paid (collective payment with a voucher); the leader keeps a title and applies for an invoice.
  const voucher = await upload(orgPage, '/api/file/upload/document?purpose=voucher', {
    name: '凭证.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
  });
  await api(orgPage, 'PUT', '/api/order/batch/payment', { ids: [orderId], payerOrg: SCHOOL, voucher: voucher.fileUri });
  const title = await api(leader.page, 'POST', '/api/invoice/title', {
    kind: 'company',
    name: INVOICE_TITLE,
    taxNo: '91310000425006117A'.replace('A', '1'),
    bank: '中国工商银行上海市普陀支行',
    bankAccount: '1001234567890123456',
    address: '上海市普陀区中山北路3663号',
    phone: '021-62233333',
  });
  await api(leader.page, 'POST', '/api/invoice/apply', { orderId, titleId: title.id, type: 'normal', email: 'finance@example.com' });

  // The team chooses the question, submits works and two test files, which the job scores.
  await api(leader.page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });
  await leader.page.goto(`/competition/${competitionId}/works`);
  await expect(leader.page.getByText(/可提交 .* 格式/)).toBeVisible();
  await leader.page.getByTestId('works-input').setInputFiles({ name: `${TEAM}作品.zip`, mimeType: 'application/zip', buffer: Buffer.alloc(300_000, 7) });
  await expect(leader.page.getByText('作品已提交')).toBeVisible({ timeout: 30_000 });
  for (const [name, text] of [
    ['预测结果_第一版.csv', FAIR],
    ['预测结果_最终版.csv', PERFECT],
  ] as const) {
    await upload(leader.page, `/api/review/test/${questionId}`, { name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  }
  await expect
    .poll(
      async () =>
        ((await (await leader.page.request.get(`/api/review/test/list/${questionId}`)).json()).data.list as { status: number }[]).map((s) => s.status),
      { timeout: 60_000 },
    )
    .toEqual([2, 2]);

  // One judge of another school scores the work; submission closes; the organiser confirms the grades and awards.
  await api(orgPage, 'PUT', `/api/review/rules/${questionId}`, {
    criteria: [
      { name: '分析深度', maxScore: 60 },
      { name: '报告质量', maxScore: 40 },
    ],
    judgesPerWork: 1,
    aggregation: 'mean',
    reviewWeight: 70,
    testWeight: 30,
    blind: true,
    disputeDays: 7,
  });
  const judge = await userPage(browser, 'judge');
  await api(orgPage, 'POST', '/api/review/expert', { username: judge.username, organization: '北方大学', speciality: '数据挖掘', title: '教授' });
  const pool = (await (await orgPage.request.get(`/api/review/judge/candidates/${questionId}?keyword=${judge.username}`)).json()).data as {
    username: string;
    userId: number;
  }[];
  await api(orgPage, 'POST', `/api/review/judge/${questionId}`, { userIds: pool.filter((e) => e.username === judge.username).map((e) => e.userId) });
  await api(orgPage, 'POST', `/api/review/works/${questionId}?early=1`);
  const rule = (await (await orgPage.request.get(`/api/review/rules/${questionId}`)).json()).data as { criteria: { id: string }[] };
  const works = (await (await judge.page.request.get(`/api/review/center/works?questionId=${questionId}`)).json()).data as { id: number }[];
  await api(judge.page, 'PUT', `/api/review/works/${works[0]!.id}`, {
    scores: [
      { criterionId: rule.criteria[0]!.id, score: 52, comment: '分析完整' },
      { criterionId: rule.criteria[1]!.id, score: 35, comment: null },
    ],
    comment: '整体较好',
    submit: true,
  });
  await judge.page.context().close();
  await closeSubmissions(orgPage, competitionId);
  await api(orgPage, 'POST', `/api/review/works/calcFinalScore/${questionId}`);
  await api(orgPage, 'POST', `/api/review/works/confirmFinalScore/${questionId}`);
  await api(orgPage, 'PUT', `/api/review/works/awards/${questionId}`, {
    levels: [
      { name: '一等奖', rankFrom: 1, rankTo: 1 },
      { name: '二等奖', rankFrom: 2, rankTo: 5 },
    ],
  });
  await api(orgPage, 'POST', `/api/review/works/awards/apply/${questionId}`);

  // Certificates on a background, for every member and the teacher.
  const background = await upload(orgPage, '/api/review/certificate/cert/imgUrl', {
    name: 'bg.png',
    mimeType: 'image/png',
    buffer: await QRCode.toBuffer('background', { width: 1000 }),
  });
  const { id: templateId } = await api(orgPage, 'POST', `/api/review/certificate/${competitionId}`, {
    name: '获奖证书',
    backgroundUri: background.uri,
    fields: [
      { field: 'name', x: 120, y: 120, size: 48, color: '#000000' },
      { field: 'team', x: 120, y: 200, size: 32, color: '#000000' },
      { field: 'award', x: 120, y: 260, size: 32, color: '#aa0000' },
      { field: 'certNo', x: 120, y: 320, size: 20, color: '#000000' },
      { field: 'qrcode', x: 800, y: 800, size: 160, color: '#000000' },
    ],
  });
  await api(orgPage, 'POST', `/api/review/certificate/relation/${questionId}`, { templateId });
  await api(orgPage, 'POST', `/api/review/certificate/cert/push/${questionId}`);
  type Cert = { id: number; certNo: string; holderName: string };
  const myCerts = async () => (await (await leader.page.request.get('/api/review/certificate/cert/list')).json()).data as Cert[];
  await expect.poll(async () => (await myCerts()).map((c) => c.holderName), { timeout: 60_000 }).toContain('王小明');
  const certs = await myCerts();
  const mine = certs.find((c) => c.holderName === '王小明')!;
  const pdf = await (await leader.page.request.get(`/api/review/certificate/cert/certificate/download/${mine.id}`)).body();
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  const certCode = /验证码：\s*([0-9A-Z]{4}-?[0-9A-Z]{4})/.exec(text)?.[1];
  expect(certCode, text).toBeTruthy();

  // Test submission opens again (the test tab shows only while it is open), which after published results takes the
  // organiser's explicit confirmation (reopen=1); a notice reaches the competition's teams.
  const end = new Date(Date.now() + 10 * 24 * 3600_000).toISOString();
  await api(orgPage, 'PUT', `/api/competition/preset/batch/${competitionId}?reopen=1`, {
    presets: {
      SUBMIT_WORKS: { enable: true, enableStartTime: null, enableEndTime: end },
      SUBMIT_TEST: { enable: true, enableStartTime: null, enableEndTime: end },
    },
  });
  const notice = await api(orgPage, 'POST', '/api/message/notice', {
    kind: 0,
    title: NOTICE,
    content: '<p>各参赛队伍：复赛作品提交截止后，组委会将于两周内安排线上答辩，请各队队长留意个人消息并保持电话畅通。</p>',
    target: { scope: 'competition', competitionId },
  });
  await api(orgPage, 'POST', `/api/message/notice/${notice.id}`, {});

  // A second competition, where the leader's team has an unpaid order.
  const otherCompetitionId = await openCompetition(orgPage, adminPage, 6600, fields);
  const other = await api(leader.page, 'POST', `/api/team/register/${otherCompetitionId}`, {
    teamName: OTHER_TEAM,
    info: { userName: '王小明', organization: '上海交通大学电子信息与电气工程学院' },
  });
  await api(orgPage, 'POST', `/api/team/register/flow/${other.registerId}`, { action: 'approve' });
  const pendingOrderId = other.orderId ?? (await orderOf(leader.page, OTHER_TEAM));

  for (const p of [adminPage, orgPage, leader.page]) await p.context().close();
  return { leader: leader.username, competitionId, otherCompetitionId, paidOrderId: orderId, pendingOrderId, certNo: mine.certNo, certCode: certCode! };
}

interface Visit {
  /** The screenshot's name. */
  name: string;
  path: (w: World) => string;
  /** What shows once the page has loaded. */
  ready: (page: Page) => Locator;
  /** The key column headers of the page's tables at 1440 px: every table on the page holds some of them. */
  headers?: string[];
  /** Texts that must be in sight, not cut off nor scrolled out sideways, at both widths. */
  texts?: string[];
  /** Something to do once loaded (open a notice). */
  act?: (page: Page) => Promise<void>;
}

const competitionVisits: Visit[] = [
  {
    name: 'competition-introduce',
    path: (w) => `/competition/${w.competitionId}/introduce`,
    ready: (p) => p.getByRole('tab', { name: '竞赛介绍' }),
    texts: ['参赛队伍', '报名费'],
  },
  {
    name: 'competition-notices',
    path: (w) => `/competition/${w.competitionId}/introduce`,
    ready: (p) => p.getByTestId('competition-notices').getByText(NOTICE),
    act: async (p) => {
      await p.getByTestId('competition-notices').getByText(NOTICE).click();
      await expect(p.getByText('请各队队长留意个人消息')).toBeVisible();
    },
    texts: [NOTICE, '全部消息'],
  },
  {
    name: 'competition-question',
    path: (w) => `/competition/${w.competitionId}/question`,
    ready: (p) => p.getByRole('heading', { name: QUESTION }),
    texts: [QUESTION],
  },
  {
    name: 'competition-team',
    path: (w) => `/competition/${w.competitionId}/team`,
    // A table at 1440 px, cards on a phone: the members' schools and the teacher in sight either way.
    ready: (p) => p.getByText('欧阳晓静').first(),
    headers: ['姓名', '用户名', '学校', '单位'],
    texts: [TEAM, '已支付', '王小明', '华东师范大学统计学院', '周建华'],
  },
  { name: 'competition-choice', path: (w) => `/competition/${w.competitionId}/choice`, ready: (p) => p.getByTestId('chosen-question'), texts: [QUESTION] },
  {
    name: 'competition-works',
    path: (w) => `/competition/${w.competitionId}/works`,
    ready: (p) => p.getByText('有效版本'),
    headers: ['版本', '文件', '完成时间'],
    texts: [`${TEAM}作品.zip`],
  },
  {
    name: 'competition-test',
    path: (w) => `/competition/${w.competitionId}/test`,
    // The chart is the last to come (ECharts is fetched once there is a score to draw).
    ready: (p) => p.getByTestId('score-chart').getByText('历史最佳'),
    headers: ['文件', '状态', '公榜成绩', '名次', '队伍'],
    texts: ['预测结果_最终版.csv', '预测结果_第一版.csv', '已评分'],
  },
  {
    name: 'competition-grade',
    path: (w) => `/competition/${w.competitionId}/grade`,
    ready: (p) => p.getByTestId('my-grade'),
    texts: [QUESTION, '最终成绩', '一等奖'],
  },
  {
    name: 'competition-certificate',
    path: (w) => `/competition/${w.competitionId}/certificate`,
    ready: (p) => p.getByText('欧阳晓静').first(),
    headers: ['持有人', '奖项', '证书编号'],
    texts: ['王小明', '周建华'],
  },
];

const personalVisits: Visit[] = [
  { name: 'competition-list', path: () => '/competitionList', ready: (p) => p.getByTestId('competition-card').first() },
  { name: 'user-my-info', path: () => '/userCenter/myInfo', ready: (p) => p.getByRole('button', { name: /编\s*辑/ }) },
  { name: 'user-account-set', path: () => '/userCenter/accountSet', ready: (p) => p.getByText('当前设备'), headers: ['设备', '登录时间'], texts: ['当前设备'] },
  {
    name: 'user-my-order',
    path: () => '/userCenter/myOrder',
    ready: (p) => p.getByText(OTHER_TEAM).first(),
    headers: ['竞赛 / 队伍', '金额', '状态'],
    texts: ['¥88.00', '¥66.00', '已支付', '待支付'],
  },
  {
    name: 'user-my-invoice',
    path: () => '/userCenter/myInvoice',
    ready: (p) => p.getByText('待开票'),
    headers: ['竞赛', '金额', '抬头', '状态'],
    texts: ['¥88.00', '待开票'],
  },
  {
    name: 'user-invoice-title',
    path: () => '/userCenter/invoiceTitle',
    ready: (p) => p.getByText(INVOICE_TITLE),
    headers: ['发票抬头', '纳税人识别号'],
    texts: [INVOICE_TITLE],
  },
  {
    name: 'user-my-certificate',
    path: () => '/userCenter/myCertificate',
    ready: (p) => p.getByText('王小明').first(),
    headers: ['持有人', '竞赛', '奖项', '证书编号'],
    texts: ['王小明'],
  },
  { name: 'message-system', path: () => '/message', ready: (p) => p.getByText(NOTICE), texts: [NOTICE] },
  { name: 'message-personal', path: () => '/message?kind=1', ready: (p) => p.getByText('成绩已公布'), texts: ['成绩已公布'] },
  {
    name: 'payment-pending',
    path: (w) => `/payment/${w.otherCompetitionId}/${w.pendingOrderId}`,
    ready: (p) => p.getByTestId('order-status'),
    texts: ['¥66.00', OTHER_TEAM],
  },
  { name: 'payment-paid', path: (w) => `/payment/${w.competitionId}/${w.paidOrderId}`, ready: (p) => p.getByText('支付成功'), texts: ['¥88.00'] },
  {
    name: 'certificate-verify',
    path: (w) => `/certificate/verify/${w.certNo}?code=${w.certCode}`,
    ready: (p) => p.getByTestId('certificate-check'),
    texts: ['一等奖', QUESTION],
  },
];

const loggedOutVisits: Visit[] = [
  { name: 'login', path: () => '/login', ready: (p) => p.getByRole('button', { name: /^登\s*录$/ }), texts: ['登录'] },
  { name: 'register', path: () => '/register', ready: (p) => p.getByLabel('确认密码'), texts: ['确认密码'] },
  { name: 'competition-list-visitor', path: () => '/competitionList', ready: (p) => p.getByTestId('competition-card').first() },
  { name: 'certificate-verify-form', path: () => '/certificate/verify', ready: (p) => p.getByText('查验证书'), texts: ['证书编号', '验证码'] },
];

/** Fails when the page itself scrolls sideways (a table may scroll inside its card). */
async function expectNoSideScroll(page: Page, what: string) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect.soft(widths.scroll, `${what}：页面宽 ${widths.scroll}px，视口 ${widths.inner}px`).toBeLessThanOrEqual(widths.inner);
}

/**
 * The text is in sight sideways: inside the window and inside every box around it that clips (a table scrolling in its
 * card, an ellipsis), so a reader sees it without scrolling anything sideways.
 */
async function expectInSight(page: Page, text: string, what: string) {
  const target = page.getByText(text).filter({ visible: true }).first();
  await expect.soft(target, `${what}：看不到“${text}”`).toBeVisible();
  if (!(await target.isVisible())) return;
  const clipped = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > window.innerWidth + 1) return `超出视口（${Math.round(r.left)}–${Math.round(r.right)}px）`;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1)
        return `被 ${a.className || a.tagName} 裁去（${Math.round(r.left)}–${Math.round(r.right)}px，容器 ${Math.round(b.left)}–${Math.round(b.right)}px）`;
    }
    // An ellipsis cuts the text within the element itself.
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') return '文字被省略';
    return null;
  });
  expect.soft(clipped, `${what}：“${text}”${clipped}`).toBeNull();
}

/**
 * Every table on the page holds some of the key headers; each key header lies inside the window, inside its table and
 * left of a fixed-right action column.
 */
async function expectKeyColumns(page: Page, headers: string[], what: string) {
  const tables = page.locator('.ant-table').filter({ visible: true });
  const found = new Set<string>();
  const width = page.viewportSize()!.width;
  for (const table of await tables.all()) {
    const titles = (await table.locator('thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    // A table without a header (a list drawn as a table) has no columns to find.
    if (!titles.length) continue;
    const keys = headers.filter((h) => titles.includes(h));
    expect.soft(keys, `${what}：表格（列 ${titles.join('、')}）没有关键列`).not.toEqual([]);
    const tableBox = (await table.boundingBox({ timeout: 5000 }))!;
    const fixed = table.locator('thead th.ant-table-cell-fix-right').filter({ visible: true }).first();
    const fixedBox = (await fixed.count()) ? await fixed.boundingBox({ timeout: 5000 }) : null;
    const right = Math.min(width, tableBox.x + tableBox.width, fixedBox?.x ?? Infinity);
    for (const key of keys) {
      found.add(key);
      const box = await table
        .locator('thead th')
        .filter({ hasText: new RegExp(`^\\s*${key.replace(/[/()（）]/g, '\\$&')}\\s*$`) })
        .first()
        .boundingBox({ timeout: 5000 });
      expect.soft(box, `${what}：“${key}”列没有位置`).not.toBeNull();
      if (!box) continue;
      expect.soft(box.x, `${what}：“${key}”列在表格左侧之外`).toBeGreaterThanOrEqual(tableBox.x - 1);
      expect
        .soft(box.x + box.width, `${what}：“${key}”列不在视口内或被固定的操作列压住（右缘 ${Math.round(box.x + box.width)}px，可见到 ${Math.round(right)}px）`)
        .toBeLessThanOrEqual(right + 1);
    }
  }
  expect
    .soft(
      headers.filter((h) => !found.has(h)),
      `${what}：找不到这些关键列`,
    )
    .toEqual([]);
}

async function visitAll(page: Page, world: World | null, visits: Visit[], width: number) {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  for (const visit of visits) {
    const what = `${visit.name} @${width}`;
    await test.step(what, async () => {
      try {
        await page.goto(visit.path(world!));
        await expect(visit.ready(page), `${what}：页面未加载`).toBeVisible();
        await visit.act?.(page);
      } catch (err) {
        await page.screenshot({ path: test.info().outputPath(`${visit.name}-${width}-failed.png`), fullPage: true });
        expect.soft(errors.splice(0), `${what}：控制台或页面错误`).toEqual([]);
        throw err;
      }
      // Fonts and the page's loading parts settle before measuring.
      await page.evaluate(() => document.fonts.ready);
      await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active').filter({ visible: true }), `${what}：仍在加载`).toHaveCount(0);
      // The checks are soft: every finding of every page is reported, and the other pages are still checked.
      await expectNoSideScroll(page, what);
      for (const text of visit.texts ?? []) await expectInSight(page, text, what);
      if (width > 1000 && visit.headers) await expectKeyColumns(page, visit.headers, what);
      if (process.env.UPDATE_SCREENSHOTS === '1') {
        fs.mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(SHOTS, `${visit.name}-${width}.png`), fullPage: true });
      }
      expect.soft(errors.splice(0), `${what}：控制台或页面错误`).toEqual([]);
    });
  }
}

/**
 * The world is built once per run and kept beside the server's data: a worker that restarts after a failed test reads it
 * back instead of building it again.
 */
async function theWorld(browser: Browser): Promise<World> {
  const file = path.join(process.env.E2E_DATA_DIR!, 'participant-pages-world.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as World;
  const world = await buildWorld(browser);
  fs.writeFileSync(file, JSON.stringify(world));
  return world;
}

test.describe('participant pages', () => {
  let world: World;

  test.beforeAll(async ({ browser }) => {
    // About 20 s on a quiet machine; generous, since CI shares two cores.
    test.setTimeout(480_000);
    world = await theWorld(browser);
  });

  for (const [label, options, width] of [
    ['at 1440 px', DESKTOP, 1440],
    ['on a 390 px phone', PHONE, 390],
  ] as const) {
    test(`${label} the competition pages of a team fit and show their key columns`, async ({ browser }) => {
      test.setTimeout(240_000);
      const context = await browser.newContext(options);
      const page = await context.newPage();
      await login(page, world.leader, PASSWORD);
      await visitAll(page, world, competitionVisits, width);
      await context.close();
    });

    test(`${label} the personal pages, payment and certificate check fit and show their key columns`, async ({ browser }) => {
      test.setTimeout(240_000);
      const context = await browser.newContext(options);
      const page = await context.newPage();
      await login(page, world.leader, PASSWORD);
      await visitAll(page, world, personalVisits, width);
      await context.close();
    });
  }
});

for (const [label, options, width] of [
  ['at 1440 px', DESKTOP, 1440],
  ['on a 390 px phone', PHONE, 390],
] as const) {
  test(`${label} the pages of a visitor fit`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext(options);
    await visitAll(await context.newPage(), null, loggedOutVisits, width);
    await context.close();
  });
}
