import { expect, test } from '@playwright/test';
import { chooseUserMenu, login, register, submitLogin, uniqueName } from './fixtures.ts';

test('a visitor registers (which logs in), edits the profile and logs out', async ({ page }) => {
  const username = uniqueName('e2e');
  await page.goto('/');
  await expect(page).toHaveURL(/\/competitionList$/);
  await page.getByRole('link', { name: /注\s*册/ }).click();

  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill('weak');
  await page.getByLabel('确认密码').fill('weak');
  await page.getByRole('button', { name: /注\s*册/ }).click();
  await expect(page.getByText('密码须为8至64位，且同时包含字母和数字').first()).toBeVisible();
  // A word and a year, and a common password, are refused before anything is sent.
  await page.getByLabel('密码', { exact: true }).fill('zhangsan2024');
  await page.getByLabel('确认密码').fill('zhangsan2024');
  await expect(page.getByText('密码不能只是一个单词或拼音加一串数字').first()).toBeVisible();
  await page.getByLabel('密码', { exact: true }).fill('woaini1314');
  await expect(page.getByText('该密码过于常见，很容易被猜中，请换一个').first()).toBeVisible();

  await page.getByLabel('密码', { exact: true }).fill('Passw0rd1');
  await page.getByLabel('确认密码').fill('Passw0rd1');
  await page.getByLabel('手机号（选填）').fill('13800138000');
  await page.getByRole('button', { name: /注\s*册/ }).click();
  // Signed up is signed in (issue 33): no second form to fill.
  await expect(page).toHaveURL(/\/competitionList$/);
  await expect(page.getByTestId('user-dropdown')).toContainText(username);
  expect(await page.evaluate(() => localStorage.getItem('isLogin'))).toBe('1');

  await chooseUserMenu(page, '个人中心', () => expect(page).toHaveURL(/\/userCenter\/myInfo$/, { timeout: 10_000 }));
  await page.getByRole('button', { name: /编\s*辑/ }).click();
  await page.getByLabel('姓名').fill('测试选手');
  await page.getByLabel('手机号').fill('12345');
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('手机号格式不正确')).toBeVisible();
  await page.getByLabel('手机号').fill('+85291234567');
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('个人信息已保存')).toBeVisible();
  await expect(page.getByRole('cell', { name: '+85291234567' })).toBeVisible();
  await expect(page.getByTestId('user-dropdown')).toContainText('测试选手');

  await page.reload();
  await expect(page.getByRole('cell', { name: '测试选手' })).toBeVisible();

  await chooseUserMenu(page, '退出登录', () => expect(page.getByText('确定注销并退出系统吗？')).toBeVisible({ timeout: 10_000 }));
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/competitionList$/);
  await expect(page.getByRole('button', { name: /登\s*录/ })).toBeVisible();
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  const me = await page.request.get('/api/team/userinfo/');
  expect((await me.json()).data).toBeNull();
});

test('login returns to the page the user was on', async ({ page }) => {
  const username = uniqueName('back');
  await register(page, username);
  await page.goto('/userCenter/accountSet');
  await expect(page.getByText('登录后才能进入个人中心')).toBeVisible();
  await page.getByText('去登录').click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill('Passw0rd1');
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
  await expect(page).toHaveURL(/\/userCenter\/accountSet$/);
  await expect(page.getByText('当前设备')).toBeVisible();
  // The device is named as people name it, not by its raw user-agent.
  await expect(page.locator('.ant-table-row').filter({ hasText: '当前设备' })).toContainText(/Chrome \d+ · Linux/);
});

test('a wrong password shows the server message next to the field', async ({ page }) => {
  await submitLogin(page, 'admin', 'WrongPass1');
  await expect(page.locator('.ant-form-item-explain-error', { hasText: '用户名或密码错误' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('an expired session shows the timeout toast, then goes to login and back', async ({ page, context }) => {
  const username = uniqueName('exp');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  await expect(page).toHaveURL(/\/competitionList$/);
  await page.goto('/userCenter/myInfo');
  await expect(page.getByRole('cell', { name: username })).toBeVisible();
  // The session ends elsewhere (signed out by another device); the page still thinks it is logged in.
  const api = await context.request.post('/api/auth/logout', {
    headers: { 'x-csrf-token': (await context.cookies()).find((c) => c.name === 'contest_csrf')!.value },
  });
  expect(api.status()).toBe(200);
  await page.getByRole('link', { name: '账号设置' }).or(page.getByText('账号设置')).first().click();
  await expect(page.getByText('当前会话已超时，请重新登录！')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });
  expect(await page.evaluate(() => localStorage.getItem('loginRedirect'))).toBe('/userCenter/accountSet');
});
