import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, login, newOrganiser, openCompetition, pressInDialog, register, uniqueName } from './fixtures.ts';

/**
 * Issue 35, item 6 (实名认证), through the screens only: the organiser keeps registering for verified people in the
 * editor's 菜单设置; a participant is sent from the registration page to 实名认证, proves a 居民身份证 at once (the
 * ID-check simulator answers as the register), and registers; another account typing the same number in lower case
 * is told how to recover the first; a holder of a passport sends its photo, which the platform refuses with a reason
 * in 系统管理 → 实名审核, and then passes.
 */
const PHOTO = path.join(import.meta.dirname, 'files', 'voucher.pdf');

/** A valid mainland number of this run whose check character is X (so that a lower-case x can be typed). */
function numberWithX() {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const day = String(1 + (Date.now() % 28)).padStart(2, '0');
  for (let seq = Date.now() % 900; ; seq = (seq + 1) % 900) {
    const first17 = `11010519880${(Date.now() % 9) + 1}${day}${String(100 + seq)}`.slice(0, 17);
    const sum = [...first17].reduce((s, d, i) => s + Number(d) * weights[i]!, 0);
    if ('10X98765432'[sum % 11] === 'X') return `${first17}X`;
  }
}

/** In 实名认证: 证件类型 → 护照, the name, the number and the photo, sent for the platform's review. */
async function sendPassport(page: Page) {
  await page
    .locator('.ant-select')
    .filter({ has: page.getByRole('combobox') })
    .click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '护照' }).click();
  await page.getByLabel('姓名').fill('Tom Lee');
  await page.getByLabel('证件号码').fill('E12345678');
  await page.locator('.ant-form-item').filter({ hasText: '证件照片' }).locator('input[type=file]').setInputFiles(PHOTO);
  await expect(page.getByRole('link', { name: '已上传，点击查看' })).toBeVisible();
  await page.getByRole('button', { name: '提交审核' }).click();
  await expect(page.getByText('人工审核中')).toBeVisible();
}

async function person(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  const username = uniqueName('rn');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  return { page, username };
}

test('实名认证: a competition keeps registering for verified people; one ID proves one account; passports are reviewed', async ({ browser }) => {
  test.setTimeout(240_000);
  const admin = await (await browser.newContext()).newPage();
  await login(admin, ADMIN.username, ADMIN.password);
  const org = await (await browser.newContext()).newPage();
  await newOrganiser(org, admin);
  const competitionId = await openCompetition(org, admin, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);

  // The organiser keeps registering for verified people.
  await org.goto(`/backadmin.html#/competition/edit/${competitionId}`);
  await org.getByRole('tab', { name: '菜单设置' }).click();
  await org.getByRole('switch', { name: '报名设置需实名认证' }).click();
  await org.getByRole('toolbar', { name: '菜单设置操作' }).getByRole('button', { name: '保存菜单设置' }).click();
  await expect(org.getByText('菜单设置已保存')).toBeVisible();

  // A participant is sent to 实名认证 from the registration page, proves a 居民身份证 at once, and registers.
  const a = await person(browser);
  await a.page.goto(`/registration/${competitionId}`);
  await expect(a.page.getByText('需要先完成实名认证')).toBeVisible();
  await a.page.getByRole('button', { name: '去实名认证' }).click();
  await expect(a.page).toHaveURL(/\/userCenter\/realName$/);
  const number = numberWithX();
  await a.page.getByLabel('姓名').fill('李雷');
  await a.page.getByLabel('证件号码').fill(number);
  await a.page.getByRole('button', { name: '立即认证' }).click();
  await expect(a.page.getByText('已完成实名认证')).toBeVisible();
  await expect(a.page.getByText(`${number.slice(0, 3)}***********${number.slice(-4)}`)).toBeVisible();
  await a.page.goto(`/registration/${competitionId}`);
  await expect(a.page.getByLabel('队伍名称')).toBeVisible();
  await a.page.getByLabel('队伍名称').fill(uniqueName('实名队'));
  await a.page.getByRole('button', { name: '提交报名' }).click();
  await expect(a.page).toHaveURL(new RegExp(`/competition/${competitionId}/team$`));

  // Another account typing the same number in lower case is told how to recover the first, without its name.
  const b = await person(browser);
  await b.page.goto('/userCenter/realName');
  await b.page.getByLabel('姓名').fill('李雷');
  await b.page.getByLabel('证件号码').fill(number.toLowerCase());
  await b.page.getByRole('button', { name: '立即认证' }).click();
  await expect(b.page.getByText(/该证件已用于另一个账号的实名认证/).first()).toBeVisible();
  await expect(b.page.getByText(a.username)).toHaveCount(0);

  // A passport goes to the platform's review with its photo.
  const c = await person(browser);
  await c.page.goto('/userCenter/myInfo');
  await c.page.getByRole('link', { name: '去实名认证' }).click();
  await sendPassport(c.page);

  // The platform refuses it with a reason, then passes it once sent again.
  await admin.goto('/backadmin.html#/system/realname');
  await admin.getByPlaceholder('用户名或姓名').fill(c.username);
  await admin.getByPlaceholder('用户名或姓名').press('Enter');
  const row = admin.getByRole('row').filter({ hasText: c.username });
  await expect(row).toContainText('护照');
  await row.getByRole('button', { name: '审核' }).click();
  const dialog = admin.getByRole('dialog', { name: '实名认证审核' });
  await expect(dialog.getByText('E12345678')).toBeVisible();
  await expect(dialog.getByRole('link', { name: '查看证件扫描件（PDF）' })).toBeVisible();
  await dialog.getByRole('button', { name: /^驳\s*回$/ }).click();
  await dialog.getByRole('button', { name: '确认驳回' }).click();
  await expect(dialog.getByText('请填写不通过的原因')).toBeVisible();
  await dialog.getByLabel('驳回原因（申请人可见）').fill('照片不清晰，请重新拍摄');
  await dialog.getByRole('button', { name: '确认驳回' }).click();
  await expect(admin.getByText('已驳回，申请人将收到原因')).toBeVisible();
  await expect(admin.getByText('没有待审核的实名认证')).toBeVisible();

  await c.page.reload();
  await expect(c.page.getByText('照片不清晰，请重新拍摄')).toBeVisible();
  await sendPassport(c.page);

  await admin.getByPlaceholder('用户名或姓名').press('Enter');
  await admin.getByRole('row').filter({ hasText: c.username }).getByRole('button', { name: '审核' }).click();
  // Pressed until the dialog has gone: a click during its opening animation can miss on a busy machine.
  await expect(admin.getByRole('dialog', { name: '实名认证审核' })).toBeVisible();
  await pressInDialog(admin, /^通\s*过$/);
  await expect(admin.getByText('已通过，该账号完成实名认证')).toBeVisible();
  await c.page.reload();
  await expect(c.page.getByText('已完成实名认证')).toBeVisible();
  await c.page.goto('/userCenter/myInfo');
  await expect(c.page.getByText('已实名')).toBeVisible();
});
