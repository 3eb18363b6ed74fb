import { expect, test } from '@playwright/test';
import { chooseUserMenu, login, register, uniqueName } from './fixtures.ts';

/**
 * Issue 35 (WeChat), through the screens only: a participant binds a WeChat in 账号设置 by "scanning" on the WeChat
 * simulator's QR page, then signs in with it from the login page, landing in the same account; a new WeChat makes an
 * account of its own.
 */
test('a participant binds WeChat in 账号设置 and signs in with it; a new WeChat gets an account', async ({ page }) => {
  const username = uniqueName('wx');
  const nickname = `微信${username.slice(-6)}`;
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  await page.goto('/userCenter/accountSet');
  await page.getByRole('link', { name: /绑定微信/ }).click();
  await expect(page.getByText('微信扫码登录（模拟）')).toBeVisible();
  await page.getByLabel('微信昵称').fill(nickname);
  await page.getByRole('button', { name: '确认登录' }).click();
  await expect(page).toHaveURL(/\/userCenter\/accountSet\?wechat=bound$/);
  await expect(page.getByText('微信绑定成功')).toBeVisible();
  await expect(page.getByText(`已绑定微信：${nickname}`)).toBeVisible();

  await chooseUserMenu(page, '退出登录', () => expect(page.getByText('确定注销并退出系统吗？')).toBeVisible({ timeout: 10_000 }));
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/competitionList$/);
  await page.goto('/login');
  await page.getByRole('link', { name: /微信扫码登录/ }).click();
  await page.getByLabel('微信昵称').fill(nickname);
  await page.getByRole('button', { name: '确认登录' }).click();
  await expect(page.getByTestId('user-dropdown')).toContainText(username);

  // Another WeChat, bound to no account: an account of its own.
  await chooseUserMenu(page, '退出登录', () => expect(page.getByText('确定注销并退出系统吗？')).toBeVisible({ timeout: 10_000 }));
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await page.goto('/login');
  await page.getByRole('link', { name: /微信扫码登录/ }).click();
  await page.getByLabel('微信昵称').fill(`新${nickname}`);
  await page.getByRole('button', { name: '确认登录' }).click();
  await expect(page.getByTestId('user-dropdown')).toContainText('微信用户_');
});
