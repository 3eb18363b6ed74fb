import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, api, login, newOrganiser, openCompetition, pressInDialog, register, uniqueName } from './fixtures.ts';

const FIELDS = [
  { label: '姓名', name: 'userName', otherParams: { required: true } },
  { label: '身份证号', name: 'idCardNo', otherParams: { required: true } },
  { label: '手机号', name: 'tel', otherParams: { required: false } },
  { label: '地区', name: 'region', otherParams: { required: true } },
];
const VOUCHER = path.join(import.meta.dirname, 'files', 'voucher.pdf');

/** A participant in a browser of their own; `phone`: a phone's browser (spec §2.2 mobile: its agent, touch, 390 px). */
async function participant(browser: Browser, phone = false) {
  const page = await (
    await browser.newContext(
      phone
        ? {
            viewport: { width: 390, height: 844 },
            isMobile: true,
            hasTouch: true,
            userAgent:
              'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
          }
        : {},
    )
  ).newPage();
  const username = uniqueName('reg');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  return { page, username };
}

async function fillForm(page: Page, name: string, idCard: string) {
  await page.getByLabel('姓名').fill(name);
  await page.getByLabel('身份证号').fill(idCard);
  // The cascader's menus open with an animation: on a busy machine a click can land before a menu is there and miss.
  const region = page.locator('.ant-form-item').filter({ has: page.getByLabel('地区') });
  await expect(async () => {
    if (!(await page.locator('.ant-cascader-menu-item[title="广东省"]').isVisible())) await page.getByLabel('地区').click();
    await page.locator('.ant-cascader-menu-item[title="广东省"]').click({ timeout: 3000 });
    await page.locator('.ant-cascader-menu-item[title="广州市"]').click({ timeout: 3000 });
    await expect(region.locator('.ant-select-selection-item')).toHaveText('广东省 / 广州市', { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  // The organiser's own fields: a choice, and a file uploaded in place.
  await page.getByText('硕士', { exact: true }).click();
  await page.locator('.ant-form-item').filter({ hasText: '在读证明' }).locator('input[type=file]').setInputFiles(VOUCHER);
  await expect(page.getByRole('link', { name: '已上传，点击查看' })).toBeVisible();
}

/** The organiser adds fields of their own to the registration form, in the editor's 菜单设置: a choice and a file, both required. */
async function addOwnFields(orgPage: Page, competitionId: number) {
  await orgPage.goto(`/backadmin.html#/competition/edit/${competitionId}`);
  await orgPage.getByRole('tab', { name: '菜单设置' }).click();
  const pick = async (combobox: string, option: string) => {
    await orgPage
      .locator('.ant-select')
      .filter({ has: orgPage.getByRole('combobox', { name: combobox }) })
      .click();
    await orgPage.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).click();
  };
  await orgPage.getByRole('button', { name: /新增自定义字段/ }).click();
  await orgPage.getByLabel('自定义1的显示名称').fill('学历');
  await pick('自定义1的类型', '自定义单选');
  const options = orgPage.getByRole('combobox', { name: '学历的选项' });
  for (const o of ['本科', '硕士', '博士']) {
    await options.fill(o);
    await options.press('Enter');
  }
  await orgPage.getByRole('switch', { name: '自定义1必填' }).click();
  await orgPage.getByRole('button', { name: /新增自定义字段/ }).click();
  await orgPage.getByLabel('自定义2的显示名称').fill('在读证明');
  await pick('自定义2的类型', '自定义文件');
  await orgPage.getByRole('switch', { name: '自定义2必填' }).click();
  await orgPage.getByRole('toolbar', { name: '菜单设置操作' }).getByRole('button', { name: '保存菜单设置' }).click();
  await expect(orgPage.getByText('菜单设置已保存')).toBeVisible();
  // For the README, refreshed with UPDATE_SCREENSHOTS=1 (looked at by hand; nothing is compared).
  if (process.env.UPDATE_SCREENSHOTS)
    await orgPage.getByTestId('menu-card').filter({ hasText: '报名设置' }).screenshot({ path: 'docs/screenshots/registration-fields.png' });
}

/** Registers a team from the competition page and arrives at its payment page. */
async function registerTeam(page: Page, competitionId: number, team: string, name: string, idCard: string) {
  await page.goto(`/competition/${competitionId}`);
  await page.getByRole('button', { name: '立即报名' }).click();
  await expect(page).toHaveURL(new RegExp(`/registration/${competitionId}$`));
  await page.getByLabel('队伍名称').fill(team);
  await fillForm(page, name, idCard);
  await page.getByRole('button', { name: '提交报名' }).click();
  await expect(page).toHaveURL(new RegExp(`/payment/${competitionId}/\\d+$`));
}

/** Pays the open order on the payment page through the simulator's checkout, opened from the QR link. */
async function payOnline(page: Page, method: '支付宝' | '微信支付') {
  await page.getByText(method, { exact: true }).click();
  await page.getByRole('button', { name: '生成支付二维码' }).click();
  await expect(page.getByAltText('支付二维码')).toBeVisible();
  const [checkout] = await Promise.all([page.waitForEvent('popup'), page.getByText('无法扫码？打开支付链接').click()]);
  await expect(checkout.getByText('¥88.00')).toBeVisible();
  await checkout.getByRole('button', { name: '确认支付' }).click();
  await expect(checkout.getByText('支付成功')).toBeVisible();
  await checkout.close();
  // The payment page watches the order and turns when the gateway's notification has landed.
  await expect(page.getByText('支付成功')).toBeVisible();
  await expect(page.getByTestId('order-status')).toHaveText('已支付');
}

test('participants register with an ID card, form a team by join link, pay by Alipay, WeChat Pay and bank transfer, and get an invoice', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext()).newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 8800, FIELDS);
  await addOwnFields(orgPage, competitionId);

  // The administrator points Alipay at the simulator from the back office, and WeChat Pay and ICBC by the API.
  await adminPage.goto('/backadmin.html#/payment/alipay');
  await adminPage.getByRole('button', { name: '使用支付模拟器' }).click();
  await adminPage.getByRole('button', { name: /确\s*定/ }).click();
  await expect(adminPage.getByText('已填入支付模拟器的配置')).toBeVisible();
  await expect(adminPage.getByPlaceholder(/^已设置（…/)).toBeVisible();
  // The form shows what was stored: the method is now enabled.
  await expect(adminPage.getByRole('switch')).toBeChecked();
  await adminPage.screenshot({ path: 'test-results/payment-config.png', fullPage: true });
  await api(adminPage, 'POST', '/api/payment/simulator/configure/1');
  await api(adminPage, 'PUT', '/api/invoice/config', {
    enable: true,
    issuerName: '竞赛平台',
    issuerTaxNo: '91440101MA5C11110Y'.replace('Y', '1'),
    allowedTypes: ['normal', 'special'],
    notice: '电子发票开具后可在此下载',
  });
  await api(adminPage, 'PUT', '/api/payment/config/4', {
    enable: true,
    accounts: [{ name: '工行对公账户', accountName: '竞赛平台', accountNo: '6222020000000000000', bankName: '工商银行广州分行', instructions: '备注队伍编号' }],
  });

  // The leader registers: a wrong ID number gets the spec's message, the right one goes through to payment.
  const leader = await participant(browser);
  await leader.page.goto(`/competition/${competitionId}`);
  await leader.page.getByRole('button', { name: '立即报名' }).click();
  await leader.page.getByLabel('队伍名称').fill('数据先锋队');
  await leader.page.getByRole('button', { name: '提交报名' }).click();
  await expect(leader.page.getByText('请选择学历')).toBeVisible();
  await expect(leader.page.getByText('请上传在读证明')).toBeVisible();
  await fillForm(leader.page, '张三', '110105194912310021');
  await leader.page.getByRole('button', { name: '提交报名' }).click();
  await expect(leader.page.getByText('你输入的身份证号非法')).toBeVisible();
  if (process.env.UPDATE_SCREENSHOTS) await leader.page.screenshot({ path: 'docs/screenshots/registration-form.png', fullPage: true });
  await leader.page.getByLabel('身份证号').fill('11010519491231002X');
  await leader.page.getByRole('button', { name: '提交报名' }).click();
  await expect(leader.page).toHaveURL(new RegExp(`/payment/${competitionId}/\\d+$`));
  await expect(leader.page.getByTestId('order-status')).toHaveText('待支付');
  await payOnline(leader.page, '支付宝');

  // The team tab shows the masked ID number, then the leader invites a second user, who accepts by the join link.
  await leader.page.getByRole('button', { name: '查看我的队伍' }).click();
  await expect(leader.page.getByTestId('pay-status')).toHaveText('已支付');
  await expect(leader.page.getByTestId('register-status')).toHaveText('待审核');
  await expect(leader.page.getByTestId('register-next')).toHaveText('等待主办方审核，审核通过后即可选择赛题，结果会以消息通知您。');
  await expect(leader.page.getByRole('cell', { name: '110***********002X' })).toBeVisible();
  await expect(leader.page.getByRole('cell', { name: '硕士' })).toBeVisible();
  await leader.page.getByRole('button', { name: '编辑指导老师' }).click();
  await leader.page.getByRole('button', { name: /添加指导老师/ }).click();
  await leader.page.getByRole('dialog').getByPlaceholder('姓名').fill('王老师');
  await leader.page.getByRole('dialog').getByPlaceholder('手机号').fill('12345');
  await leader.page
    .getByRole('dialog')
    .getByRole('button', { name: /保\s*存/ })
    .click();
  await expect(leader.page.getByText('老师手机号格式不正确')).toBeVisible();
  await leader.page.getByRole('dialog').getByPlaceholder('手机号').fill('13900139000');
  await pressInDialog(leader.page, /保\s*存/);
  await expect(leader.page.getByRole('cell', { name: '王老师' })).toBeVisible();
  const member = await participant(browser);
  await leader.page.getByPlaceholder('用户名或手机号').fill(member.username);
  await leader.page.getByRole('button', { name: '发送邀请' }).click();
  await expect(leader.page.getByText(`已向 ${member.username} 发出邀请`)).toBeVisible();
  const link = (await leader.page.getByTestId('join-link').innerText()).trim();
  expect(link).toMatch(new RegExp(`/join/${competitionId}/\\d+\\?code=`));
  await member.page.goto(link);
  await expect(member.page.getByText('数据先锋队')).toBeVisible();
  await fillForm(member.page, '李四', '440106199003072517');
  await member.page.getByRole('button', { name: '同意加入' }).click();
  await expect(member.page).toHaveURL(new RegExp(`/competition/${competitionId}/team$`));
  await expect(member.page.getByRole('cell', { name: '李四' })).toBeVisible();
  await expect(member.page.getByRole('cell', { name: '张三' })).toBeVisible();

  // The organiser approves the registration; the leader sees it.
  await orgPage.goto('/backadmin.html#/register/manager');
  const row = orgPage.locator('.ant-table-row').filter({ hasText: '数据先锋队' });
  // Its detail shows every member's answers, the organiser's own fields too, and opens their files.
  await row.getByText('查看', { exact: true }).click();
  const drawer = orgPage.locator('.ant-drawer');
  await expect(drawer.getByRole('columnheader', { name: '学历' })).toBeVisible();
  await expect(drawer.getByRole('cell', { name: '硕士' })).toHaveCount(2);
  const proof = drawer.getByRole('link', { name: '查看文件' }).first();
  expect((await orgPage.request.get((await proof.getAttribute('href')) as string)).status()).toBe(200);
  await orgPage.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await row.getByText('通过', { exact: true }).click();
  await orgPage.getByRole('button', { name: /确\s*定/ }).click();
  await expect(row).toContainText('审核通过');
  await leader.page.reload();
  await expect(leader.page.getByTestId('register-status')).toHaveText('审核通过');
  await expect(leader.page.getByTestId('register-next')).toHaveText('审核已通过，可以在“选择赛题”中选题。');

  // A second team pays with WeChat Pay, on a phone: no QR code for the same phone, a button that opens the app.
  const second = await participant(browser, true);
  await registerTeam(second.page, competitionId, '微信队', '王五', '440304199508111233');
  await second.page.getByText('微信支付', { exact: true }).click();
  await second.page.getByRole('button', { name: '使用微信付款' }).click();
  const onPhone = second.page.getByTestId('pay-on-phone');
  await expect(onPhone.getByAltText('支付二维码')).toBeHidden();
  const [checkout] = await Promise.all([second.page.waitForEvent('popup'), onPhone.getByRole('link', { name: '打开微信付款' }).click()]);
  await checkout.getByRole('button', { name: '确认支付' }).click();
  await expect(checkout.getByText('支付成功')).toBeVisible();
  await checkout.close();
  await expect(second.page.getByTestId('order-status')).toHaveText('已支付');
  expect(await second.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // On the phone the team's own fields are lines of the member's card, none wider than the screen.
  await second.page.goto(`/competition/${competitionId}/team`);
  await expect(second.page.getByTestId('member-card')).toContainText('学历：硕士');
  expect(await second.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // A third pays by bank transfer with a voucher; finance confirms it in the back office.
  const third = await participant(browser);
  await registerTeam(third.page, competitionId, '转账队', '赵六', '440106199003072517');
  await third.page.getByText('工商银行', { exact: true }).click();
  await expect(third.page.getByText('6222020000000000000')).toBeVisible();
  await third.page.locator('input[type=file]').setInputFiles(VOUCHER);
  await expect(third.page.locator('.ant-upload-list-item-done, .ant-upload-list-item-container').first()).toBeVisible();
  await third.page.getByRole('button', { name: '提交转账凭证' }).click();
  await expect(third.page.getByText('转账凭证已提交', { exact: true })).toBeVisible();
  await orgPage.goto('/backadmin.html#/financial/order');
  const orderRow = orgPage.locator('.ant-table-row').filter({ hasText: '转账队' });
  await orderRow.getByText('确认收款').click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orderRow).toContainText('已支付');
  await third.page.goto('/userCenter/myOrder');
  await expect(third.page.locator('.ant-table-row').filter({ hasText: '转账队' })).toContainText('已支付');
  await expect(third.page.locator('.ant-table-row').filter({ hasText: '转账队' })).toContainText('工商银行转账');

  // The leader keeps a company title and applies for an invoice on the paid order; finance issues it.
  await leader.page.goto('/userCenter/myOrder');
  await expect(leader.page.locator('.ant-table-row').filter({ hasText: '数据先锋队' })).toContainText('已支付');
  await leader.page.goto('/userCenter/invoiceTitle');
  await leader.page.getByRole('button', { name: /新增抬头/ }).click();
  // A click while the dialog is still zooming in can miss the radio: checked again until it holds.
  await expect(async () => leader.page.getByLabel('单位').check({ timeout: 2000 })).toPass({ timeout: 20_000 });
  await leader.page.getByRole('textbox', { name: '发票抬头' }).fill('某某数据科技有限公司');
  await leader.page.getByLabel('纳税人识别号').fill('12345');
  await leader.page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(leader.page.getByText('纳税人识别号须为18位统一社会信用代码')).toBeVisible();
  await leader.page.getByLabel('纳税人识别号').fill('91440101ma5c111111');
  await leader.page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(leader.page.getByRole('cell', { name: '91440101MA5C111111' })).toBeVisible();
  await leader.page.goto('/userCenter/myInvoice');
  await leader.page.getByRole('button', { name: '申请发票' }).click();
  const dialog = leader.page.getByRole('dialog');
  await dialog.getByLabel('订单').click();
  await leader.page.locator('.ant-select-item-option').filter({ hasText: '数据先锋队' }).click();
  await dialog.getByLabel('发票抬头').click();
  await leader.page.locator('.ant-select-item-option').filter({ hasText: '某某数据科技有限公司' }).click();
  await dialog.getByRole('button', { name: '提交申请' }).click();
  await expect(leader.page.getByText('发票申请已提交')).toBeVisible();
  const invoiceRow = leader.page.locator('.ant-table-row').filter({ hasText: '某某数据科技有限公司' });
  await expect(invoiceRow).toContainText('待开票');

  await orgPage.goto('/backadmin.html#/financial/invoice');
  const pending = orgPage.locator('.ant-table-row').filter({ hasText: '某某数据科技有限公司' });
  await pending.getByText('开票', { exact: true }).click();
  const issue = orgPage.getByRole('dialog');
  await issue.getByLabel('发票号码').fill('04400123456789');
  await issue.locator('input[type=file]').setInputFiles(VOUCHER);
  await expect(issue.locator('.ant-upload-list-item').first()).toContainText('voucher.pdf');
  await expect(issue.locator('.ant-upload-list-item-undefined, .ant-upload-list-item-uploading')).toHaveCount(0);
  await issue.getByRole('button', { name: /保\s*存|确\s*定/ }).click();
  await expect(orgPage.getByText('发票已开具')).toBeVisible();

  await leader.page.reload();
  await expect(invoiceRow).toContainText('已开票');
  await expect(invoiceRow).toContainText('04400123456789');
  const download = await leader.page.request.get((await invoiceRow.getByText('下载发票').getAttribute('href')) as string);
  expect(download.status()).toBe(200);
  expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');
});
