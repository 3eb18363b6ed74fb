import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startBridge } from '../desktop/src/bridge.ts';
import { DownloadEngine } from '../desktop/src/engine.ts';
import { ADMIN, api, login, newOrganiser, openCompetition, register, uniqueName } from './fixtures.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A team's works sent through the tus protocol from the leader's session, as the works tab does. */
async function submitWork(page: Page, questionId: number, content: Buffer, filename: string) {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'contest_csrf')!.value;
  const meta = `questionId ${Buffer.from(String(questionId)).toString('base64')},filename ${Buffer.from(filename).toString('base64')}`;
  const created = await page.request.post('/api/review/works/upload', {
    headers: { 'x-csrf-token': csrf, 'tus-resumable': '1.0.0', 'upload-length': String(content.length), 'upload-metadata': meta },
  });
  expect(created.status()).toBe(201);
  const done = await page.request.fetch(created.headers().location!, {
    method: 'PATCH',
    headers: { 'x-csrf-token': csrf, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    data: content,
  });
  expect(done.status()).toBe(204);
}

/** Every file under the page's origin-private folder (what the browser shell wrote), with its hash. */
const folderTree = (page: Page) =>
  page.evaluate(async () => {
    const out: Record<string, string> = {};
    const walk = async (dir: FileSystemDirectoryHandle, prefix: string) => {
      for await (const [name, handle] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
        if (handle.kind === 'directory') await walk(handle as FileSystemDirectoryHandle, `${prefix}${name}/`);
        else {
          const bytes = await (await (handle as FileSystemFileHandle).getFile()).arrayBuffer();
          const digest = await crypto.subtle.digest('SHA-256', bytes);
          out[`${prefix}${name}`] = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
        }
      }
    };
    await walk(await navigator.storage.getDirectory(), '');
    return out;
  });

/** A question of a new organiser's competition with the works of two teams (6 MB each). */
async function questionWithWorks(browser: Browser, organiser: BrowserContext) {
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await organiser.newPage();
  const organiserName = await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  for (const code of ['CHOICE_SET', 'SUBMIT_WORKS']) {
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, {
      enable: true,
      enableEndTime: null,
    });
  }
  const questionTitle = uniqueName('交通流量预测');
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, {
    title: questionTitle,
    evaluation: { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 3 },
  });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });
  const works: Record<string, Buffer> = {};
  for (const [i, name] of ['甲队', '乙队'].entries()) {
    const page = await (await browser.newContext()).newPage();
    const username = uniqueName('dl');
    await register(page, username);
    await login(page, username, 'Passw0rd1');
    const { registerId, teamId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName: name, info: { userName: name } });
    await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
    await api(page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });
    works[name] = Buffer.alloc(6 * 1024 * 1024, i + 1);
    works[name].write(`works of ${name}`);
    await submitWork(page, questionId, works[name], `${name}作品.zip`);
    await page.context().close();
  }
  await adminPage.context().close();
  return { orgPage, organiserName, questionId, questionTitle, works };
}

/** Each team's file is in the question's folder, in a folder of its own, byte for byte. */
function expectTree(files: Record<string, string>, questionTitle: string, works: Record<string, Buffer>) {
  const entries = Object.entries(files).filter(([path]) => !path.endsWith('.part'));
  expect(entries).toHaveLength(2);
  for (const [name, content] of Object.entries(works)) {
    const found = entries.find(([path]) => path.startsWith(`${questionTitle}/`) && path.split('/').length === 3 && path.endsWith(`/${name}作品.zip`));
    expect(found, `${name} in ${JSON.stringify(Object.keys(files))}`).toBeDefined();
    expect(found![1]).toBe(sha(content));
  }
}

test('an organiser bulk-downloads the works of a question into a folder tree through the browser, pausing and resuming', async ({ browser }) => {
  test.setTimeout(150_000);
  const orgContext = await browser.newContext();
  // The folder picker is a native dialog a test cannot click: it hands out the origin-private file system instead,
  // a real File System Access directory.
  await orgContext.addInitScript(() => {
    (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = () => navigator.storage.getDirectory();
  });
  const { orgPage, questionId, questionTitle, works } = await questionWithWorks(browser, orgContext);

  // The network is slowed (12 MB at 512 kB/s, about 24 s) so that there is time to pause in the middle on a loaded
  // machine; it is restored once resumed.
  const cdp = await orgContext.newCDPSession(orgPage);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 512 * 1024, uploadThroughput: -1 });

  await orgPage.goto(`/backadmin.html#/question/work/${questionId}`);
  await orgPage.getByRole('button', { name: /下载全部$/ }).click();
  const drawer = orgPage.locator('.ant-drawer-content');
  await expect(drawer).toBeVisible();
  await expect(drawer.locator('.ant-progress').first()).toBeVisible();
  await drawer.getByRole('button', { name: /全部暂停/ }).click();
  await expect(drawer.getByRole('button', { name: /全部继续/ })).toBeEnabled();
  await drawer.getByRole('button', { name: /全部继续/ }).click();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(drawer.getByRole('tab', { name: /已下载.*2/ })).toBeVisible({ timeout: 60_000 });
  await expect(drawer.getByText('总进度：已完成 2 / 2')).toBeVisible();

  // The folder tree: one folder per question, then per team, each holding the team's file byte for byte.
  expectTree(await folderTree(orgPage), questionTitle, works);
});

test('an organiser bulk-downloads the works of a question through the desktop client, pausing and resuming', async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const { organiserName, questionId, questionTitle, works } = await questionWithWorks(browser, await browser.newContext());
  // The desktop client: its engine (slowed, so that there is time to pause) and its loopback bridge for this platform.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-desktop-'));
  // The client signs in for a bearer token by itself (no browser session, hence no CSRF token).
  const tokenReply = await fetch(`${baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: organiserName, password: 'Passw0rd1' }),
  });
  const token = ((await tokenReply.json()) as { data: { token: string } }).data.token;
  // 256 kB/s per download leaves each 6 MB work about 24 s to run, time enough to pause on a loaded machine; the cap is
  // lifted before resuming (each transfer reads it when it starts).
  const options = { root, concurrency: 3, origin: baseURL!, token: () => token, maxBytesPerSecond: 256 * 1024 };
  const engine = new DownloadEngine(options);
  const secret = randomBytes(24).toString('base64url');
  const bridge = await startBridge({ engine, origin: baseURL!, secret, port: 0 });
  try {
    // The window the client opens: the platform with electron=app, the session token and where the bridge listens.
    const app = await (await browser.newContext()).newPage();
    await app.goto(`/competitionList?electron=app&token=${token}&desktopPort=${bridge.port}&desktopSecret=${secret}`);
    await expect(app).not.toHaveURL(/desktopSecret/);
    await app.goto(`/backadmin.html#/question/work/${questionId}`);
    await app.getByRole('button', { name: /下载全部$/ }).click();
    const drawer = app.locator('.ant-drawer-content');
    await expect(drawer.locator('.ant-progress').first()).toBeVisible();
    await drawer.getByRole('button', { name: /全部暂停/ }).click();
    await expect(drawer.getByRole('button', { name: /全部继续/ })).toBeEnabled();
    options.maxBytesPerSecond = 0;
    await drawer.getByRole('button', { name: /全部继续/ }).click();
    await expect(drawer.getByRole('tab', { name: /已下载.*2/ })).toBeVisible({ timeout: 60_000 });
    const files: Record<string, string> = {};
    const walk = (dir: string, prefix: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
        else files[`${prefix}${entry.name}`] = sha(fs.readFileSync(path.join(dir, entry.name)));
      }
    };
    walk(root, '');
    expectTree(files, questionTitle, works);
  } finally {
    await bridge.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a browser without a folder picker offers the desktop client, and says so on an unknown system', async ({ browser }) => {
  const context = await browser.newContext({ userAgent: 'Mozilla/5.0 (X11; FreeBSD amd64) AppleWebKit/537.36 (KHTML, like Gecko) Safari/537.36' });
  await context.addInitScript(() => {
    delete (window as unknown as { showDirectoryPicker?: unknown }).showDirectoryPicker;
  });
  const page = await context.newPage();
  await login(page, ADMIN.username, ADMIN.password);
  await page.goto('/backadmin.html#/index');
  await page.getByRole('button', { name: '下载管理' }).click();
  await page.getByRole('tab', { name: '下载路径' }).click();
  await expect(page.getByText('当前浏览器无法把文件保存到您选择的文件夹，请使用下载客户端下载。')).toBeVisible();
  await page.locator('.ant-drawer-content').getByRole('button', { name: '下载客户端' }).click();
  const dialog = page.getByRole('dialog', { name: '下载客户端' });
  await expect(dialog.getByText('目前只提供Windows和Mac客户端')).toBeVisible();
});
