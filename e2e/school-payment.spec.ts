import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import {
  ADMIN,
  api,
  chooseUserMenu,
  closeSubmissions,
  generateCertificates,
  login,
  newOrganiser,
  openCompetition,
  pressInDialog,
  register,
  uniqueName,
  upload,
} from './fixtures.ts';

/**
 * Issue 36 (统一缴费), through the coordinator's screens at 1440 px and 390 px: a school's coordinator imports the
 * school's students and teams from the template, pays for all of them with one order through the payment gateway's
 * checkout, and asks for one invoice of it; the school's page shows every team paid; finance reads the school's order
 * in 订单管理 → 学校统一缴费. (Set up through the API: the school of the list, the competition with its fee and rules,
 * the appointment, the platform's payment and invoice settings, the coordinator's saved invoice title.)
 */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const TEAMS = 12;
const FEE = 8800;

test.use({ actionTimeout: 30_000 });

/** The roster template's shape: one row per student, teams by name (two students each). */
async function roster(prefix: string, base: number) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('名单');
  sheet.addRow(['队伍名称', '角色', '姓名', '手机号', '身份证号', '学历']);
  for (let t = 0; t < TEAMS; t++)
    for (let m = 0; m < 2; m++) sheet.addRow([`${prefix}${t + 1}队`, m === 0 ? '队长' : '队员', `学生${t + 1}-${m + 1}`, String(base + t * 2 + m), '', '本科']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function fitsPhone(page: Page) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/school-payment-390.png`, fullPage: true });
}

test('统一缴费: the coordinator imports the school’s teams, pays for all of them once, and asks for one invoice', async ({ browser }) => {
  test.setTimeout(300_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const school = `${uniqueName('统缴')}大学`;
  const { id: schoolId } = await api(adminPage, 'POST', '/api/system/school', { name: school, kind: 'undergraduate', province: '湖南省' });
  await api(adminPage, 'POST', '/api/payment/simulator/configure/2');
  await api(adminPage, 'PUT', '/api/invoice/config', {
    enable: true,
    issuerName: '竞赛平台',
    issuerTaxNo: '91440101MA5C11110Y'.replace('Y', '1'),
    allowedTypes: ['normal', 'special'],
    notice: '电子发票开具后可在此下载',
  });
  const orgPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await newOrganiser(orgPage, adminPage);
  const rules = { sameSchool: true, schoolAudit: false, maxTeamsPerSchool: null, maxTeamsPerTeacher: null, groupMode: 'none', groupList: [] };
  const competitionId = await openCompetition(orgPage, adminPage, FEE, [{ label: '姓名', name: 'userName', otherParams: { required: true } }], {
    eligibility: rules,
    invoiceEnable: true,
  });
  const coordPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  const username = uniqueName('统缴负责人');
  await register(coordPage, username);
  await login(coordPage, username, 'Passw0rd1');
  await api(orgPage, 'POST', `/api/competition/coordinator/${competitionId}`, { account: username, schoolId, scope: 'competition' });
  await api(coordPage, 'POST', '/api/invoice/title', { kind: 'company', name: `${school}财务处`, taxNo: '12430000444880000Y'.replace('Y', '1') });

  // ---- 个人中心 → 院校负责人: the school has no team yet, and nothing to pay.
  await coordPage.goto('/');
  await chooseUserMenu(coordPage, '个人中心', () => expect(coordPage).toHaveURL(/\/userCenter\/myInfo$/, { timeout: 10_000 }));
  await coordPage.getByRole('menuitem', { name: '院校负责人' }).click();
  await expect(coordPage).toHaveURL(/\/userCenter\/school$/);
  const orders = coordPage.getByTestId('school-orders');
  await expect(orders.getByRole('button', { name: '没有待缴费的队伍' })).toBeDisabled();
  await expect(orders.getByText('还没有统一缴费订单')).toBeVisible();

  // ---- It imports the students and teams from the template.
  await coordPage.getByTestId('roster-import').click();
  const dialog = coordPage.getByRole('dialog', { name: '导入学生与队伍' });
  const base = 15000000000 + (Date.now() % 1_000_000) * 100;
  const [chooser] = await Promise.all([coordPage.waitForEvent('filechooser'), dialog.getByRole('button', { name: '选择Excel文件并导入' }).click()]);
  await chooser.setFiles({
    name: '名单.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await roster('统缴', base),
  });
  await expect(dialog.getByTestId('roster-report')).toContainText(`已导入${TEAMS}支队伍、${TEAMS * 2}人`);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(coordPage.locator('.ant-statistic').filter({ hasText: '队伍' }).first().locator('.ant-statistic-content')).toHaveText(String(TEAMS));

  // ---- It pays for every team with one order: ticked by default, the total on the button.
  await orders.getByRole('button', { name: `为${TEAMS}支队伍统一缴费` }).click();
  const open = coordPage.getByRole('dialog', { name: '统一缴费' });
  await expect(open.getByRole('checkbox', { name: `全选（${TEAMS}支待缴费队伍）` })).toBeChecked();
  await pressInDialog(coordPage, new RegExp(`创建订单（${TEAMS}支队伍，¥${(TEAMS * FEE) / 100}\\.00）`));
  await expect(coordPage.getByText('统一缴费订单已创建，请选择支付方式')).toBeVisible();
  const order = orders.getByTestId('school-order');
  await expect(order).toContainText(`${TEAMS}支队伍，共 ¥${(TEAMS * FEE) / 100}.00`);
  await expect(order).toContainText('待支付');
  await expect(coordPage.locator('.ant-table-row').first()).toContainText('待支付（统一缴费中）');

  // Through the gateway's checkout (the simulator's, opened from the QR code's link).
  await order.getByRole('button', { name: '支付' }).click();
  const pay = coordPage.getByRole('dialog', { name: /支付统一缴费订单/ });
  // (A click landing while the dialog still zooms in can miss: chosen once the method shows as chosen.)
  await expect(async () => {
    await pay.getByText('支付宝', { exact: true }).click({ timeout: 2000 });
    await expect(pay.getByRole('radio', { name: '支付宝' })).toBeChecked({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await pay.getByRole('button', { name: '生成支付二维码' }).click();
  await expect(pay.getByAltText('支付二维码')).toBeVisible();
  const [checkout] = await Promise.all([coordPage.waitForEvent('popup'), pay.getByText('无法扫码？打开支付链接').click()]);
  await expect(checkout.getByText(`¥${(TEAMS * FEE) / 100}.00`)).toBeVisible();
  await checkout.getByRole('button', { name: '确认支付' }).click();
  await expect(checkout.getByText('支付成功')).toBeVisible();
  await checkout.close();
  // The page watches the order: the dialog closes when the gateway's notice has landed, and every team is paid.
  await expect(pay).toHaveCount(0, { timeout: 20_000 });
  await expect(order).toContainText('已支付');
  await expect(coordPage.locator('.ant-statistic').filter({ hasText: '已缴费' }).locator('.ant-statistic-content')).toHaveText(String(TEAMS));
  await expect(coordPage.locator('.ant-table-row').filter({ hasText: '待支付' })).toHaveCount(0);

  // ---- One invoice for the school.
  await order.getByRole('button', { name: '申请发票' }).click();
  const invoice = coordPage.getByRole('dialog', { name: /申请发票/ });
  await invoice
    .locator('.ant-select')
    .filter({ has: coordPage.getByRole('combobox', { name: /发票抬头/ }) })
    .click();
  await coordPage
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: `${school}财务处` })
    .click();
  await pressInDialog(coordPage, /提交申请/);
  await expect(coordPage.getByText('发票申请已提交，开具后可在“我的发票”中下载')).toBeVisible();
  await expect(order).toContainText('发票待开票');
  await expect(order.getByRole('button', { name: '申请发票' })).toHaveCount(0);
  if (process.env.SHOTS_DIR) await coordPage.screenshot({ path: `${process.env.SHOTS_DIR}/school-payment-1440.png`, fullPage: true });

  // ---- On a phone the page fits and reads the same.
  const phone = await (await browser.newContext({ ...PHONE, storageState: await coordPage.context().storageState() })).newPage();
  await phone.goto('/userCenter/school');
  await expect(phone.getByTestId('school-order')).toContainText('已支付');
  await expect(phone.getByTestId('school-team-card')).toHaveCount(TEAMS);
  await fitsPhone(phone);

  // ---- Finance reads the school's order in 订单管理 → 学校统一缴费, with its teams.
  await orgPage.goto('/backadmin.html#/financial/order');
  await orgPage.locator('.ant-segmented').getByText('学校统一缴费', { exact: true }).click();
  const row = orgPage.locator('.ant-table-row').filter({ hasText: school });
  await expect(row).toContainText(String(TEAMS));
  await expect(row).toContainText('已支付');
  await expect(row).toContainText(`¥${(TEAMS * FEE) / 100}.00`);

  await Promise.all([adminPage, orgPage, coordPage, phone].map((p) => p.context().close()));
});

const IDS = Array.from({ length: 20 }, (_, i) => `r${i}`);
/** A prediction off by `off` on every row (MAE). */
const prediction = (off: number) => ['id,y', ...IDS.map((id, i) => `${id},${i + off}`)].join('\n');

test('院校负责人: the school’s results once published, its certificates as one zip, and the organiser’s results by school', async ({ browser }) => {
  test.setTimeout(300_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const school = `${uniqueName('证书')}大学`;
  const { id: schoolId } = await api(adminPage, 'POST', '/api/system/school', { name: school, kind: 'undergraduate' });
  const orgPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await newOrganiser(orgPage, adminPage);
  const rules = { sameSchool: true, schoolAudit: false, maxTeamsPerSchool: null, maxTeamsPerTeacher: null, groupMode: 'none', groupList: [] };
  const competitionId = await openCompetition(orgPage, adminPage, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }], {
    eligibility: rules,
  });
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  for (const code of ['CHOICE_SET', 'SUBMIT_TEST', 'GRADE_SET', 'CERTIFICATE_SET'])
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, { enable: true });
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, {
    title: '校园用电预测',
    judging: 'auto',
    evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 5 },
  });
  await upload(orgPage, `/api/competition/question/${questionId}/answer`, {
    name: 'answer.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['id,y', ...IDS.map((id, i) => `${id},${i}`)].join('\n')),
  });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });

  // Two teams of the school register and send predictions; a third, of another school, too.
  const teams: { name: string; page: Page }[] = [];
  for (const [name, person, off, at] of [
    ['证书一队', '林一', 1, school],
    ['证书二队', '周二', 2, school],
    ['别校队', '吴三', 3, '别的学院'],
  ] as const) {
    const page = await (await browser.newContext()).newPage();
    const username = uniqueName('cert');
    await register(page, username);
    await login(page, username, 'Passw0rd1');
    const info =
      at === school ? { userName: person, organization: school, schoolId, education: '本科' } : { userName: person, organization: at, education: '本科' };
    const { registerId, teamId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName: name, info });
    await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
    await api(page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });
    await upload(page, `/api/review/test/${questionId}`, { name: 'p.csv', mimeType: 'text/csv', buffer: Buffer.from(prediction(off)) });
    teams.push({ name, page });
  }
  for (const t of teams)
    await expect
      .poll(async () => (await (await t.page.request.get(`/api/review/test/list/${questionId}`)).json()).data.list[0].status, { timeout: 60_000 })
      .toBe(2);

  const coordPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  const username = uniqueName('证书负责人');
  await register(coordPage, username);
  await login(coordPage, username, 'Passw0rd1');
  await api(orgPage, 'POST', `/api/competition/coordinator/${competitionId}`, { account: username, schoolId, scope: 'competition' });

  // Before results are published the coordinator sees the teams' submissions, no result and no certificates.
  await coordPage.goto('/userCenter/school');
  const first = coordPage.locator('.ant-table-row').filter({ hasText: '证书一队' });
  await expect(first).toContainText('作品0 / 测试1');
  await expect(coordPage.locator('.ant-table-row')).toHaveCount(2);
  await expect(coordPage.getByRole('button', { name: '下载本校全部证书' })).toHaveCount(0);

  // The organiser confirms the grades, awards by rank and writes the certificates.
  await closeSubmissions(orgPage, competitionId);
  await orgPage.goto(`/backadmin.html#/question/grade/${questionId}`);
  await orgPage.getByRole('button', { name: '计算成绩' }).click();
  await expect(orgPage.getByText('成绩已计算，请核对后确认')).toBeVisible();
  await orgPage.getByRole('button', { name: '确认成绩' }).click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orgPage.getByText('成绩已确认并公布')).toBeVisible();
  await api(orgPage, 'PUT', `/api/review/works/awards/${questionId}`, {
    levels: [
      { name: '一等奖', rankFrom: 1, rankTo: 1 },
      { name: '二等奖', rankFrom: 2, rankTo: 3 },
    ],
  });
  await api(orgPage, 'POST', `/api/review/works/awards/apply/${questionId}`);
  await generateCertificates(orgPage, competitionId, questionId, '校园证书', 3);

  // The grade page groups the results by school: this school's two teams, both awarded, best rank 1.
  await orgPage.goto(`/backadmin.html#/question/grade/${questionId}`);
  await orgPage.locator('.ant-segmented').getByText('按学校', { exact: true }).click();
  const bySchool = orgPage.locator('.ant-table-row').filter({ hasText: school });
  await expect(bySchool).toContainText('一等奖 1，二等奖 1');
  await expect(bySchool.locator('td').nth(1)).toHaveText('2');
  await expect(bySchool.locator('td').nth(2)).toHaveText('2');
  await expect(bySchool.locator('td').nth(3)).toHaveText('1');
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: '别的学院' })).toContainText('二等奖 1');
  if (process.env.SHOTS_DIR) await orgPage.screenshot({ path: `${process.env.SHOTS_DIR}/results-by-school-1440.png`, fullPage: true });

  // The coordinator reads the results and downloads every certificate of the school's teams as one zip.
  await coordPage.reload();
  await expect(first).toContainText('校园用电预测：一等奖');
  await expect(coordPage.locator('.ant-statistic').filter({ hasText: '获奖' }).locator('.ant-statistic-content')).toHaveText('2');
  const [download] = await Promise.all([coordPage.waitForEvent('download'), coordPage.getByRole('button', { name: '下载本校全部证书' }).click()]);
  expect(download.suggestedFilename()).toMatch(/证书\.zip$/);
  const zip = await JSZip.loadAsync(await (await download.createReadStream()).toArray().then((parts) => Buffer.concat(parts)));
  const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir);
  expect(names).toHaveLength(2);
  expect(names.some((n) => n.includes('证书一队/') && n.includes('林一-一等奖'))).toBe(true);
  expect(names.some((n) => n.includes('证书二队/') && n.includes('周二-二等奖'))).toBe(true);
  expect(names.some((n) => n.includes('别校队'))).toBe(false);
  expect((await zip.file(names[0]!)!.async('nodebuffer')).subarray(0, 5).toString()).toBe('%PDF-');

  await Promise.all([adminPage, orgPage, coordPage, ...teams.map((t) => t.page)].map((p) => p.context().close()));
});
