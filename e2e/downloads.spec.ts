import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, api, login, newOrganiser, openCompetition, register, uniqueName } from './fixtures.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A team's works sent through the tus protocol from the leader's session, as the works tab does. */
async function submitWork(page: Page, questionId: number, content: Buffer, filename: string) {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'contest_csrf')!.value;
  const meta = `questionId ${Buffer.from(String(questionId)).toString('base64')},filename ${Buffer.from(filename).toString('base64')}`;
  const created = await page.request.post('/api/review/works/upload', { headers: { 'x-csrf-token': csrf, 'tus-resumable': '1.0.0', 'upload-length': String(content.length), 'upload-metadata': meta } });
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

test('an organiser bulk-downloads the works of a question into a folder tree through the browser, pausing and resuming', async ({ browser }) => {
  test.setTimeout(150_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgContext = await browser.newContext();
  // The folder picker is a native dialog a test cannot click: it hands out the origin-private file system instead,
  // a real File System Access directory.
  await orgContext.addInitScript(() => {
    (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = () => navigator.storage.getDirectory();
  });
  const orgPage = await orgContext.newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  for (const code of ['CHOICE_SET', 'SUBMIT_WORKS']) {
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, { enable: true, enableEndTime: null });
  }
  const questionTitle = '交通流量预测';
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, { title: questionTitle, evaluation: { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 3 } });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });

  // Two teams submit works of 6 MB each.
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

  // The network is slowed so that there is time to pause in the middle.
  const cdp = await orgContext.newCDPSession(orgPage);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 2 * 1024 * 1024, uploadThroughput: -1 });

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
  const tree = await folderTree(orgPage);
  const entries = Object.entries(tree).filter(([path]) => !path.endsWith('.part'));
  expect(entries).toHaveLength(2);
  for (const [name, content] of Object.entries(works)) {
    const found = entries.find(([path]) => path.startsWith(`${questionTitle}/`) && path.includes(name) && path.endsWith(`${name}作品.zip`));
    expect(found, `${name} in ${JSON.stringify(Object.keys(tree))}`).toBeDefined();
    expect(found![1]).toBe(sha(content));
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
