import { expect, test } from '@playwright/test';
import { chooseUserMenu, linkInMail, login, uniqueName } from './fixtures.ts';

/**
 * Issue 35 (email): a participant proves the email of their profile by the link they are sent, forgets their password,
 * and sets a new one by the link sent to that address; every email is read from the run's own mail server.
 */
test('a participant verifies their email by link, then resets a forgotten password by email, through the screens only', async ({ page }) => {
  test.setTimeout(120_000);
  const username = uniqueName('mail');
  const email = `${username}@example.edu.cn`;
  await page.goto('/register');
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill('Passw0rd1');
  await page.getByLabel('确认密码').fill('Passw0rd1');
  await page.getByLabel('邮箱（选填）').fill(email);
  await page.getByRole('button', { name: /注\s*册/ }).click();
  await expect(page.getByTestId('user-dropdown')).toContainText(username);

  // 个人中心 shows the address unverified, with the way to verify it.
  await chooseUserMenu(page, '个人中心', () => expect(page).toHaveURL(/\/userCenter\/myInfo$/, { timeout: 10_000 }));
  await expect(page.getByText('未验证')).toBeVisible();
  await page.getByRole('button', { name: '发送验证邮件' }).click();
  await expect(page.getByText(`验证邮件已发送到 ${email}`)).toBeVisible();
  const verify = await linkInMail(email, '/verify-email');
  await page.goto(verify.pathname + verify.search);
  await expect(page.getByText('邮箱验证成功')).toBeVisible();
  await page.getByRole('button', { name: '查看个人信息' }).click();
  await expect(page.getByText('已验证', { exact: true })).toBeVisible();

  // Forgotten: from the login page, by the verified address.
  await chooseUserMenu(page, '退出登录', () => expect(page.getByText('确定注销并退出系统吗？')).toBeVisible({ timeout: 10_000 }));
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/competitionList$/);
  await page.goto('/login');
  await page.getByRole('link', { name: '忘记密码？' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByPlaceholder('已验证的邮箱').fill(email.toUpperCase());
  await page.getByRole('button', { name: '发送重置邮件' }).click();
  await expect(page.getByText('重置密码的邮件已经发出')).toBeVisible();
  // The second email to this address (the first was the verification link).
  const reset = await linkInMail(email, '/reset-password', 1);
  await page.goto(reset.pathname + reset.search);
  await page.getByLabel('新密码', { exact: true }).fill('short');
  await page.getByLabel('确认新密码').fill('short');
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByText('密码须为8至64位，且同时包含字母和数字').first()).toBeVisible();
  await page.getByLabel('新密码', { exact: true }).fill('N3w-Passw0rd');
  await page.getByLabel('确认新密码').fill('N3w-Passw0rd');
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByText('密码已重置')).toBeVisible();
  await page.getByRole('button', { name: '去登录' }).click();
  await login(page, username, 'N3w-Passw0rd');
  await expect(page.getByTestId('user-dropdown')).toContainText(username);

  // The link was for once.
  await page.goto(reset.pathname + reset.search);
  await page.getByLabel('新密码', { exact: true }).fill('An0ther-Passw0rd');
  await page.getByLabel('确认新密码').fill('An0ther-Passw0rd');
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByText('链接无效或已过期，请重新获取')).toBeVisible();
});
