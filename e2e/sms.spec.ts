import { expect, test, type Page } from '@playwright/test';
import { ADMIN, chooseUserMenu, login, register, uniqueName } from './fixtures.ts';

/**
 * Issue 35 (SMS), through the screens only: the administrator points the platform at the SMS simulator in 消息服务 and
 * sends a test text; a newcomer signs up by a code on the login page; another participant proves a phone in the user
 * centre and later signs in by a code to it; the newcomer, having set a password, forgets it and resets it by a code.
 * Every code is read from the simulator's page, as a person reads their phone. A phone gets one code a minute, so the
 * two phones' steps interleave.
 */

/**
 * The newest code the simulator shows for `phone`: the simulator's page stands for the person's phone, so it is read
 * over HTTP rather than in a window of its own. (A second window once held the participant's: a window in the
 * background has its timers and animation frames held by Chromium, and the login button was never found again.)
 */
async function codeOnSimulator(page: Page, phone: string, after?: string) {
  let code = '';
  await expect(async () => {
    const html = await (await page.request.get('/simulator/sms')).text();
    const row = new RegExp(`<tr data-phone="${phone.replace('+', '\\+')}">((?:(?!</tr>).)*)</tr>`).exec(html);
    code = /<span class="code">(\d{6})<\/span>/.exec(row?.[1] ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    if (after) expect(code).not.toBe(after);
  }).toPass({ timeout: 30_000 });
  return code;
}

/** Waits until a minute has passed since `since` (a phone's next code may be asked then). */
async function minuteAfter(page: Page, since: number) {
  const wait = since + 61_000 - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
}

async function logout(page: Page) {
  await chooseUserMenu(page, '退出登录', () => expect(page.getByText('确定注销并退出系统吗？')).toBeVisible({ timeout: 10_000 }));
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/competitionList$/);
}

const stamp = String(Date.now() % 1e7).padStart(7, '0');
const phoneA = `137${stamp}1`.slice(0, 11);
const phoneB = `136${stamp}2`.slice(0, 11);

test('SMS codes: the administrator sets up the provider; people sign up, sign in, prove a phone and reset a password by code', async ({ browser }) => {
  test.setTimeout(300_000);
  const admin = await (await browser.newContext()).newPage();
  await login(admin, ADMIN.username, ADMIN.password);
  await admin.goto('/backadmin.html#/system/message');
  await expect(admin.getByText('短信模拟器已开启')).toBeVisible();
  await admin.getByRole('button', { name: '填入模拟器参数' }).click();
  await admin.getByRole('button', { name: /保\s*存/ }).click();
  await expect(admin.getByText('短信配置已保存')).toBeVisible();
  await admin.getByPlaceholder('接收测试短信的手机号').fill('13800000000');
  await admin.getByRole('button', { name: '发送测试短信' }).click();
  await expect(admin.getByText(/测试短信已发出，服务商回执编号/)).toBeVisible();
  await admin.context().close();

  // A newcomer signs up by code on the login page.
  const page = await (await browser.newContext()).newPage();
  await page.goto('/login');
  await page.getByRole('tab', { name: '验证码登录' }).click();
  await page.getByPlaceholder('手机号').fill('12345');
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('手机号格式不正确')).toBeVisible();
  await page.getByPlaceholder('手机号').fill(phoneA);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('验证码已发送，10分钟内有效')).toBeVisible();
  const sentA1 = Date.now();
  await expect(page.getByRole('button', { name: /秒后重新获取/ })).toBeDisabled();
  const codeA1 = await codeOnSimulator(page, phoneA);
  await page.getByPlaceholder('6位验证码').fill(codeA1 === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
  await expect(page.getByText('验证码错误，还可尝试4次').first()).toBeVisible();
  await page.getByPlaceholder('6位验证码').fill(codeA1);
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
  await expect(page.getByTestId('user-dropdown')).toContainText('手机用户_');
  const usernameA = ((await page.getByTestId('user-dropdown').textContent()) ?? '').match(/手机用户_[0-9a-f]+/)![0];

  // 账号设置: no password yet, so 设置密码.
  await page.goto('/userCenter/accountSet');
  await expect(page.getByText('该账号通过手机验证码注册，还没有密码')).toBeVisible();
  await page.getByLabel('密码', { exact: true }).fill('Sms-Passw0rd');
  await page.getByLabel('确认密码').fill('Sms-Passw0rd');
  await page.getByRole('button', { name: '设置密码' }).click();
  await expect(page.getByText('密码已设置')).toBeVisible();
  await expect(page.getByRole('button', { name: '修改密码' })).toBeVisible();
  await logout(page);

  // Another participant proves a phone in 个人中心.
  const other = await (await browser.newContext()).newPage();
  const usernameB = uniqueName('smsb');
  await register(other, usernameB);
  await login(other, usernameB, 'Passw0rd1');
  await other.goto('/userCenter/myInfo');
  await other.getByRole('button', { name: '验证手机号' }).click();
  const dialog = other.getByRole('dialog', { name: '验证手机号' });
  await dialog.getByLabel('手机号').fill(phoneB);
  await dialog.getByRole('button', { name: '获取验证码' }).click();
  await expect(other.getByText('验证码已发送，10分钟内有效')).toBeVisible();
  const sentB1 = Date.now();
  const codeB1 = await codeOnSimulator(other, phoneB);
  await dialog.getByPlaceholder('6位验证码').fill(codeB1);
  await dialog.getByRole('button', { name: /验\s*证/ }).click();
  await expect(other.getByText('手机号验证成功')).toBeVisible();
  await expect(other.getByText(phoneB)).toBeVisible();
  await expect(other.getByText('已验证', { exact: true })).toBeVisible();
  await logout(other);

  // The newcomer forgets the password and resets it by a code to the phone.
  await page.bringToFront();
  await minuteAfter(page, sentA1);
  await page.goto('/login');
  await page.getByRole('link', { name: '忘记密码？' }).click();
  await page.getByRole('tab', { name: '手机验证码' }).click();
  await page.getByPlaceholder('已验证的手机号').fill(phoneA);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('如果该手机号已验证并绑定了账号，验证码已发送')).toBeVisible();
  await page.getByPlaceholder('6位验证码').fill(await codeOnSimulator(page, phoneA, codeA1));
  await page.getByPlaceholder('新密码', { exact: true }).fill('N3w-Passw0rd');
  await page.getByPlaceholder('确认新密码').fill('N3w-Passw0rd');
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page.getByText('密码已重置')).toBeVisible();
  await page.getByRole('link', { name: '用新密码登录' }).click();
  await login(page, usernameA, 'N3w-Passw0rd');
  await expect(page.getByTestId('user-dropdown')).toContainText(usernameA);

  // The other participant signs in by a code to the proved phone: their own account, not a new one.
  await other.bringToFront();
  await minuteAfter(other, sentB1);
  await other.goto('/login');
  await other.getByRole('tab', { name: '验证码登录' }).click();
  await other.getByPlaceholder('手机号').fill(phoneB);
  await other.getByRole('button', { name: '获取验证码' }).click();
  await expect(other.getByText('验证码已发送，10分钟内有效')).toBeVisible();
  await other.getByPlaceholder('6位验证码').fill(await codeOnSimulator(other, phoneB, codeB1));
  await other.getByRole('button', { name: /^登\s*录$/ }).click();
  await expect(other.getByTestId('user-dropdown')).toContainText(usernameB);
});
