import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ADMIN, api, chooseUserMenu, login, newOrganiser, openCompetition, pressInDialog, register, uniqueName } from './fixtures.ts';

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
