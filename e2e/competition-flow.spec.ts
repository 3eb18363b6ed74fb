import { expect, test } from '@playwright/test';
import { ADMIN, fillDate, login, newOrganiser, pressInDialog, uniqueName } from './fixtures.ts';

const day = 24 * 3600_000;
/** The back office's date-time format, in China time. */
function local(offsetDays: number) {
  const d = new Date(Date.now() + offsetDays * day + 8 * 3600_000);
  return d.toISOString().slice(0, 16).replace('T', ' ');
}

test('an organiser creates a competition and sets its menus, the administrator approves it, a visitor finds it', async ({ browser }) => {
  // Three browsers and a dozen screens: more than the default minute on a loaded two-core machine.
  test.setTimeout(180_000);
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);

  // The administrator sets up a brand for it.
  const brandName = uniqueName('品牌');
  await adminPage.goto('/backadmin.html#/competition/brand');
  await adminPage.getByRole('button', { name: /新建品牌/ }).click();
  const brandDialog = adminPage.getByRole('dialog');
  await brandDialog.getByLabel('品牌名称').fill(brandName);
  await brandDialog.getByLabel('品牌简称').fill('流程杯');
  await pressInDialog(adminPage, /保\s*存|确\s*定/);
  await expect(adminPage.getByRole('cell', { name: brandName })).toBeVisible();

  const orgContext = await browser.newContext();
  const orgPage = await orgContext.newPage();
  await newOrganiser(orgPage, adminPage);
  await orgPage.goto('/backadmin.html#/competition/manager');
  await orgPage.getByRole('button', { name: '新建竞赛' }).click();
  const name = uniqueName('流程测试竞赛');
  // The option list animates open; under load a click can land while it moves, so pick until the choice shows.
  await expect(async () => {
    await orgPage.getByLabel('所属品牌').click();
    await orgPage.getByTitle(brandName).click({ timeout: 3000 });
    await expect(orgPage.locator('.ant-select-selection-item', { hasText: brandName })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await fillDate(orgPage, '报名开始时间', local(-1));
  await fillDate(orgPage, '报名截止时间', local(30));
  await fillDate(orgPage, '竞赛结束时间', local(60));
  await orgPage.getByLabel('报名费').fill('12.5');
  // Filled last and checked: under load the new form may still be settling when the first fields are typed.
  await orgPage.getByLabel('竞赛名称').fill(name);
  await expect(orgPage.getByLabel('竞赛名称')).toHaveValue(name);
  await orgPage.getByRole('button', { name: '创建竞赛' }).click();
  await expect(orgPage).toHaveURL(/#\/competition\/edit\/[1-9]\d*$/);

  // A new competition starts with registration, questions and data, and information on. The organiser turns the
  // questions off and the guidance on, and saves both with the form's one button.
  await orgPage.getByRole('tab', { name: '菜单设置' }).click();
  await expect(orgPage.getByRole('switch', { name: '启用赛题与数据' })).toBeChecked();
  await orgPage.getByRole('switch', { name: '启用赛题与数据' }).click();
  await orgPage.getByRole('switch', { name: '启用赛前指导' }).click();
  const menusBar = orgPage.getByRole('toolbar', { name: '菜单设置操作' });
  await expect(menusBar).toContainText('有未保存的修改');
  await expect(menusBar).toContainText('已修改 赛题与数据、赛前指导');
  await menusBar.getByRole('button', { name: '保存菜单设置' }).click();
  await expect(orgPage.getByText('菜单设置已保存')).toBeVisible();
  await expect(menusBar).not.toContainText('有未保存的修改');
  // Both are saved: a reload (which asks nothing now) shows them.
  await orgPage.reload();
  await orgPage.getByRole('tab', { name: '菜单设置' }).click();
  await expect(orgPage.getByRole('switch', { name: '启用赛前指导' })).toBeChecked();
  await expect(orgPage.getByRole('switch', { name: '启用赛题与数据' })).not.toBeChecked();

  await orgPage.goto('/backadmin.html#/competition/manager');
  const row = orgPage.locator('.ant-table-row').filter({ hasText: name });
  await row.getByRole('button', { name: '提交审核' }).click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(row).toContainText('待审核');

  await adminPage.goto('/backadmin.html#/competition/audit');
  const pending = adminPage.locator('.ant-table-row').filter({ hasText: name });
  await pending.getByRole('button', { name: '通过' }).click();
  await pressInDialog(adminPage, /确\s*定/);
  await expect(adminPage.getByText('审核通过，竞赛已上线')).toBeVisible();

  const visitor = await browser.newPage();
  await visitor.goto('/competitionList');
  await visitor.getByRole('link', { name: '流程杯' }).first().click();
  await expect(visitor).toHaveURL(/\/competitionList\/\d+$/);
  await expect(visitor.getByTestId('competition-card')).toHaveText([new RegExp(name)]);
  await visitor.getByRole('tab', { name: '已结束' }).click();
  await expect(visitor.getByText('暂无竞赛')).toBeVisible();
  await visitor.getByRole('tab', { name: '报名中' }).click();
  await visitor.getByTestId('competition-card').filter({ hasText: name }).click();
  await expect(visitor.getByRole('tab')).toHaveText(['竞赛介绍', '竞赛信息', '赛前指导', '我的队伍']);
  await expect(visitor.getByText('¥12.50')).toBeVisible();
  await Promise.all([adminContext.close(), orgContext.close(), visitor.close()]);
});
