import { expect, type Page } from '@playwright/test';

export const ADMIN = { username: 'admin', password: 'Admin12345' };

let counter = 0;
/** A fresh participant name per call, so tests never share accounts. */
export function uniqueName(prefix: string) {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
}

export async function register(page: Page, username: string, password = 'Passw0rd1') {
  const res = await page.request.post('/api/auth/register', { data: { username, password } });
  expect(res.status()).toBe(200);
}

/** Fills and sends the login form, without waiting for the outcome. */
export async function submitLogin(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
}

/** Logs in through the form and waits until the login page has been left. */
export async function login(page: Page, username: string, password: string) {
  await submitLogin(page, username, password);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/**
 * Picks an item of the header's user dropdown. The dropdown closes when the pointer leaves it mid-animation,
 * so hover and click again until `arrived` (what the item leads to) holds.
 */
export async function chooseUserMenu(page: Page, item: string, arrived: () => Promise<void>) {
  await expect(async () => {
    await page.getByTestId('user-dropdown').hover();
    await page.locator('.ant-dropdown-menu').getByText(item, { exact: true }).click({ timeout: 2000 });
    await arrived();
  }).toPass({ timeout: 20_000 });
}
