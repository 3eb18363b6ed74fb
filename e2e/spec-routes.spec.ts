import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, api, login, newOrganiser, openCompetition, register, uniqueName } from './fixtures.ts';

/**
 * Issue 20, items 6 and 7: the routes of spec §2.1 and §2.3 as they are written. An id is digits: any other address
 * is the 404 page at once, with nothing asked of the server, no message and no console error. The back office's
 * `/question/questionWorks` shows the works of a question, opened from the competition's question list.
 */

const NOT_FOUND = '抱歉，您访问的页面不存在。';

/** What a page did while it was open: API calls, error messages shown, console errors and uncaught errors. */
function watch(page: Page) {
  const seen = { api: [] as string[], consoleErrors: [] as string[] };
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) seen.api.push(url.pathname + url.search);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') seen.consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => seen.consoleErrors.push(e.message));
  return seen;
}

/** Opens `address` in a fresh tab and checks it ends on the 404 page having asked and shown nothing about the id. */
async function expectStraightTo404(
  browser: Browser,
  storageState: Awaited<ReturnType<ReturnType<Page['context']>['storageState']>> | undefined,
  address: string,
  at404: RegExp,
) {
  const context = await browser.newContext({ storageState });
  const page = await context.newPage();
  const seen = watch(page);
  await page.goto(address);
  await expect(page, address).toHaveURL(at404);
  await expect(page.getByText(NOT_FOUND), address).toBeVisible();
  // Whatever the page would have asked with the id has had its chance to go out and come back.
  await page.waitForLoadState('networkidle');
  expect(
    seen.api.filter((u) => /abc|NaN|undefined/.test(u)),
    address,
  ).toEqual([]);
  await expect(page.locator('.ant-message-notice'), address).toHaveCount(0);
  expect(seen.consoleErrors, address).toEqual([]);
  await context.close();
}

test.describe('an id that is not digits goes straight to the 404 page', () => {
  test('on the participant site (§2.1)', async ({ browser }) => {
    test.setTimeout(120_000);
    for (const address of [
      '/competitionList/abc',
      '/competition/abc',
      '/competition/abc/works',
      '/competition/1/team/abc',
      '/registration/abc',
      '/join/abc/1',
      '/join/1/abc',
      '/payment/abc/1',
      '/payment/1/abc',
    ]) {
      await expectStraightTo404(browser, undefined, address, /\/404$/);
    }
  });

  test('in the back office (§2.3) and the review centre', async ({ browser }) => {
    test.setTimeout(240_000);
    const adminPage = await (await browser.newContext()).newPage();
    await login(adminPage, ADMIN.username, ADMIN.password);
    const state = await adminPage.context().storageState();
    for (const hash of [
      '/competition/edit/abc',
      '/competition/view/abc',
      '/competition/brand/nav/abc',
      '/question/work/abc',
      '/question/grade/abc',
      '/question/awards/abc',
      '/question/certificate/abc',
      '/question/judge/abc',
      '/question/questionWorks?questionId=abc',
    ]) {
      await expectStraightTo404(browser, state, `/backadmin.html#${hash}`, /backadmin\.html#\/404$/);
    }
    for (const hash of ['/question/abc', '/score/abc']) {
      await expectStraightTo404(browser, state, `/review.html#${hash}`, /review\.html#\/404$/);
    }
  });
});

test('an organiser opens a question’s works from the competition’s question list (§2.3 /question/questionWorks)', async ({ browser }) => {
  test.setTimeout(240_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext()).newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  for (const code of ['CHOICE_SET', 'SUBMIT_WORKS']) {
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, { enable: true });
  }
  const questionTitle = '共享单车需求分析';
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, {
    title: questionTitle,
    evaluation: { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 50, dailyLimit: 3 },
  });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });

  // A team registers, chooses the question and submits its works on the site.
  const page = await (await browser.newContext()).newPage();
  const username = uniqueName('works');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  const teamName = '骑行数据队';
  const { registerId, teamId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName, info: { userName: '赵小青' } });
  await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
  await api(page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });
  await page.goto(`/competition/${competitionId}/works`);
  await expect(page.getByText(/可提交 .* 格式/)).toBeVisible();
  await page.getByTestId('works-input').setInputFiles({ name: '骑行分析.zip', mimeType: 'application/zip', buffer: Buffer.alloc(200_000, 3) });
  await expect(page.getByText('作品已提交')).toBeVisible({ timeout: 30_000 });

  // The organiser gets there by clicking: the sidebar, the competition list, the competition's questions, 作品.
  const name = (await (await orgPage.request.get(`/api/competition/public/${competitionId}`)).json()).data.name as string;
  await orgPage.goto('/backadmin.html#/index');
  const sider = orgPage.locator('.ant-layout-sider');
  await sider.locator('.ant-menu-submenu-title', { hasText: '竞赛管理' }).click();
  await sider.locator('.ant-menu-item', { hasText: '竞赛管理' }).click();
  await expect(orgPage).toHaveURL(/#\/competition\/manager$/);
  await orgPage.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '编辑' }).click();
  await orgPage.getByRole('tab', { name: '赛题' }).click();
  await orgPage.locator('.ant-table-row').filter({ hasText: questionTitle }).getByText('作品', { exact: true }).click();

  await expect(orgPage).toHaveURL(new RegExp(`#/question/questionWorks\\?questionId=${questionId}$`));
  await expect(orgPage.getByText(`作品：${questionTitle}`)).toBeVisible();
  const row = orgPage.locator('.ant-table-row').filter({ hasText: teamName });
  await expect(row).toContainText('骑行分析.zip');
  await expect(row).toContainText('有效');
  // Its tab returns to the same question after another page has been opened.
  await orgPage.locator('.admin-tags').getByText('首页').click();
  await expect(orgPage).toHaveURL(/#\/index$/);
  await orgPage.locator('.admin-tags').getByText('赛题作品').click();
  await expect(orgPage).toHaveURL(new RegExp(`#/question/questionWorks\\?questionId=${questionId}$`));
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: teamName })).toContainText('骑行分析.zip');

  for (const width of [1440, 390]) {
    await orgPage.setViewportSize({ width, height: 900 });
    // Loaded at that width, as a phone opens it.
    await orgPage.reload();
    await expect(orgPage.locator('.ant-table-row').filter({ hasText: teamName })).toBeVisible();
    await expect(orgPage.locator('.ant-spin-spinning')).toHaveCount(0);
    await orgPage.screenshot({ path: `/tmp/spec-routes-shots/question-works-${width}.png`, fullPage: true, animations: 'disabled' });
  }
});
