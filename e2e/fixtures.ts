import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import QRCode from 'qrcode';
import { linkIn, type Received } from '../server/test/smtp.ts';

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
  }).toPass({ timeout: 40_000 });
}

/** A write through the page's own session, with the CSRF token the pages send. */
export async function api(page: Page, method: 'POST' | 'PUT', url: string, data?: unknown) {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'contest_csrf')?.value ?? '';
  const res = await page.request.fetch(url, { method, data: data as object, headers: { 'x-csrf-token': csrf } });
  const body = await res.json();
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body.data;
}

/** A new organiser of a new school, approved through the real partner workflow. */
export async function newOrganiser(page: Page, adminPage: Page) {
  const username = uniqueName('org');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  const { id } = await api(page, 'POST', '/api/competition/partner/apply', {
    name: `${username}学院`,
    kind: 'school',
    contactName: '周老师',
    contactPhone: '13800138000',
  });
  await api(adminPage, 'PUT', `/api/competition/partner/audit/${id}`, { approve: true });
  await page.reload();
  return username;
}

/**
 * An online competition of the organiser's school with registration open now (its REG_SET preset enabled with
 * the given fields) and the given fee in fen, approved by the administrator.
 */
export async function openCompetition(organiser: Page, adminPage: Page, fee: number, fieldList: object[], extra: Record<string, unknown> = {}) {
  const day = 24 * 3600_000;
  const iso = (offset: number) => new Date(Date.now() + offset * day).toISOString();
  // A seeded brand (the oldest): a brand another spec creates meanwhile must not receive this competition.
  const brands = await (await adminPage.request.get('/api/competition/brand/public/page?limit=100')).json();
  const brandId = Math.min(...brands.data.list.map((b: { id: number }) => b.id));
  const { id } = await api(organiser, 'POST', '/api/competition/', {
    name: uniqueName('报名赛'),
    brandId,
    regStartTime: iso(-1),
    regEndTime: iso(10),
    endTime: iso(30),
    minMembers: 1,
    maxMembers: 3,
    maxTeachers: 1,
    fee,
    ...extra,
  });
  await api(organiser, 'PUT', `/api/competition/publish/${id}`);
  await api(adminPage, 'PUT', `/api/competition/audit/${id}`);
  const presets = await (await organiser.request.get(`/api/competition/preset/public/list/${id}`)).json();
  const reg = presets.data.find((p: { menuCode: string }) => p.menuCode === 'REG_SET');
  await api(organiser, 'PUT', `/api/competition/preset/${reg.id}`, { enable: true, fieldList });
  return id as number;
}

/**
 * Presses a dialog's button until the dialog has gone: on a loaded machine a click can land while the dialog is still
 * zooming in and miss. The button shows a loading state while its action runs, so the action is never sent twice.
 */
export async function pressInDialog(page: Page, name: RegExp) {
  const dialog = page.locator('.ant-modal-wrap:visible, .ant-modal-confirm:visible').last();
  // A dialog opened by a server's answer (a confirmation after a refused first try) may not be there yet: wait for its
  // button first, or the loop below would find no dialog and return before it opened.
  await expect(page.locator('.ant-modal-wrap:visible, .ant-modal-confirm:visible').getByRole('button', { name }).first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(async () => {
    if (await dialog.count()) await dialog.getByRole('button', { name }).click({ timeout: 2000 });
    await expect(dialog).toHaveCount(0, { timeout: 3000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * The organiser closes works and test submission now, as the menu settings do: the SUBMIT_WORKS and SUBMIT_TEST
 * presets' end (which narrows the stage or competition deadline) is set to a minute ago; each keeps whether it is on.
 */
export async function closeSubmissions(organiser: Page, competitionId: number) {
  const presets = (await (await organiser.request.get(`/api/competition/preset/public/list/${competitionId}`)).json()).data as {
    menuCode: string;
    enable: boolean;
    enableStartTime: string | null;
  }[];
  const end = new Date(Date.now() - 60_000).toISOString();
  const closed = (code: string) => {
    const p = presets.find((x) => x.menuCode === code);
    const start = p?.enableStartTime && p.enableStartTime < end ? p.enableStartTime : null;
    return { enable: Boolean(p?.enable), enableStartTime: start, enableEndTime: end };
  };
  await api(organiser, 'PUT', `/api/competition/preset/batch/${competitionId}`, {
    presets: { SUBMIT_WORKS: closed('SUBMIT_WORKS'), SUBMIT_TEST: closed('SUBMIT_TEST') },
  });
}

/** Types a date-time (Beijing time, `YYYY-MM-DD HH:mm`) into a back-office picker by its label and confirms it. */
export async function fillDate(page: Page, label: string, value: string) {
  const input = page.getByLabel(label, { exact: true });
  await input.click();
  await input.fill(value);
  await input.press('Enter');
}

/** Uploads one file as a multipart form through the page's own session, with the CSRF token the pages send. */
export async function upload(page: Page, url: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'contest_csrf')?.value ?? '';
  const res = await page.request.post(url, { headers: { 'x-csrf-token': csrf }, multipart: { file } });
  const body = await res.json();
  expect(res.status(), JSON.stringify(body)).toBe(200);
  return body.data;
}

/**
 * A certificate template of the competition on an uploaded background (the organiser's upload, then the template's
 * save), used for the question and generated there through its page's button, until `count` certificates are written.
 */
export async function generateCertificates(organiser: Page, competitionId: number, questionId: number, name: string, count: number) {
  const background = await upload(organiser, '/api/review/certificate/cert/imgUrl', {
    name: 'bg.png',
    mimeType: 'image/png',
    buffer: await QRCode.toBuffer('background', { width: 1000 }),
  });
  await api(organiser, 'POST', `/api/review/certificate/${competitionId}`, {
    name,
    backgroundUri: background.uri,
    fields: [
      { field: 'name', x: 120, y: 120, size: 48, color: '#000000' },
      { field: 'team', x: 120, y: 200, size: 32, color: '#000000' },
      { field: 'award', x: 120, y: 260, size: 32, color: '#aa0000' },
      { field: 'qrcode', x: 800, y: 800, size: 160, color: '#000000' },
    ],
  });
  await organiser.goto(`/backadmin.html#/question/certificate/${questionId}`);
  await organiser.locator('.ant-table-row').filter({ hasText: name }).getByText('用于本赛题').click();
  await expect(organiser.getByText('本赛题使用', { exact: true })).toBeVisible();
  await organiser.getByRole('button', { name: '生成证书' }).click();
  await pressInDialog(organiser, /确\s*定/);
  await expect(organiser.locator('.ant-progress-text').filter({ hasText: `${count} / ${count}` })).toBeVisible({ timeout: 30_000 });
}

/** The emails the run's mail server has received so far (e2e/mailbox.ts writes each as a file). */
function mailbox(): Received[] {
  const dir = process.env.E2E_MAILBOX!;
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Received);
}

/** Waits for an email to this address (one more than `seen` of them) and answers the link to `pathname` in it. */
export async function linkInMail(address: string, pathname: string, seen = 0): Promise<URL> {
  const to = (m: Received) => m.to.some((a) => a.toLowerCase() === address.toLowerCase());
  let found: Received | undefined;
  await expect.poll(() => (found = mailbox().filter(to)[seen]) !== undefined, { timeout: 20_000, message: `an email to ${address}` }).toBe(true);
  return linkIn(found!, pathname);
}
