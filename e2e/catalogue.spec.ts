import { expect, test } from '@playwright/test';
import { ADMIN, login, register, uniqueName } from './fixtures.ts';

test('a visitor finds competitions by brand and status, and sees exactly the enabled tabs', async ({ page }) => {
  await page.goto('/competitionList');
  await expect(page.getByTestId('brand-chip')).toHaveCount(2);
  await page.getByRole('tab', { name: '已结束' }).click();
  await expect(page.getByTestId('competition-card')).toHaveText([/2025校园数据可视化大赛/]);
  await page.getByRole('tab', { name: '报名中' }).click();
  await expect(page.getByTestId('competition-card')).toHaveText([/第十四届泰迪杯数据挖掘挑战赛/]);
  await page.getByRole('tab', { name: '全部' }).click();
  await expect(page.getByTestId('competition-card')).toHaveCount(4);

  await page.getByTestId('brand-chip').filter({ hasText: '泰迪杯' }).click();
  await expect(page).toHaveURL(/\/competitionList\/\d+$/);
  await expect(page.locator('.site-nav')).toContainText('竞赛首页');
  await expect(page.locator('.site-footer')).toContainText('© 2026 泰迪杯竞赛组委会');
  await expect(page.getByTestId('frendlinks').getByRole('link', { name: 'Kaggle' })).toHaveAttribute('target', '_blank');
  expect(await page.evaluate(() => sessionStorage.getItem('brandId'))).toMatch(/^\d+$/);

  await page.getByTestId('competition-card').first().click();
  await expect(page).toHaveURL(/\/competition\/\d+\/introduce$/);
  await expect(page.getByRole('tab')).toHaveText(['竞赛介绍', '赛题与数据', '竞赛信息', '赛前指导', '训练平台', '我的队伍']);
  // The brand chosen before stays in the header on the competition page.
  await expect(page.locator('.site-logo')).toContainText('泰迪杯');
  await page.getByRole('tab', { name: '赛题与数据' }).click();
  await expect(page.getByText('A题：电商用户购买行为预测')).toBeVisible();

  await page.goto('/competitionList');
  await page.getByTestId('competition-card').filter({ hasText: '2026数智杯机器学习挑战赛' }).click();
  await expect(page.getByRole('tab')).toHaveText(['竞赛介绍', '赛题与数据', '竞赛信息']);
  const url = page.url().replace(/\/introduce$/, '/guide');
  await page.goto(url);
  await expect(page.getByText('该栏目暂未开放')).toBeVisible();
  await page.goto('/competition/abc');
  await expect(page).toHaveURL(/\/404$/);
});

test('a school applies to become an organiser and sees the decision', async ({ page }) => {
  const username = uniqueName('school');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  await page.goto('/userCenter/partner');
  await page.getByLabel('机构名称').fill(`${username}大学`);
  await page.getByLabel('联系人').fill('陈老师');
  await page.getByLabel('联系电话').fill('13800138000');
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(page.getByText('申请已提交，请等待平台审核')).toBeVisible();
  await expect(page.getByRole('cell', { name: '待审核' })).toBeVisible();

  const admin = await page.context().browser()!.newContext();
  const adminPage = await admin.newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const csrf = (await admin.cookies()).find((c) => c.name === 'contest_csrf')!.value;
  const list = await (await adminPage.request.get('/api/competition/partner/page?status=0&limit=100')).json();
  const mine = list.data.list.find((a: { orgName: string }) => a.orgName === `${username}大学`);
  const res = await adminPage.request.put(`/api/competition/partner/audit/${mine.id}`, { data: { approve: true }, headers: { 'x-csrf-token': csrf } });
  expect(res.status()).toBe(200);
  await admin.close();

  await page.reload();
  await expect(page.getByRole('cell', { name: '已通过' })).toBeVisible();
  // The page now leads to the back office instead of offering a second application.
  await expect(page.getByText(`“${username}大学”已成为组织方`)).toBeVisible();
  await expect(page.getByRole('button', { name: '提交申请' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: '进入管理后台' })).toHaveAttribute('href', '/backadmin.html');
  await page.getByTestId('user-dropdown').hover();
  await expect(page.getByRole('link', { name: '管理后台' })).toBeVisible();
});
