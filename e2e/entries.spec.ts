import { expect, test, type Page } from '@playwright/test';
import { ADMIN, api, chooseUserMenu, login, newOrganiser, openCompetition, register, uniqueName } from './fixtures.ts';

test('an unknown path shows the 404 page on the site and in the back office', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByText('抱歉，您访问的页面不存在。')).toBeVisible();
  await login(page, ADMIN.username, ADMIN.password);
  await page.goto('/backadmin.html#/no/such/page');
  await expect(page).toHaveURL(/#\/404$/);
  await expect(page.getByText('抱歉，您访问的页面不存在。')).toBeVisible();
});

test('the back office menu differs between the administrator and a participant', async ({ page, browser }) => {
  await login(page, ADMIN.username, ADMIN.password);
  await expect(page).toHaveURL(/\/competitionList$/);
  await chooseUserMenu(page, '管理后台', () => expect(page.getByRole('menuitem', { name: '系统管理' })).toBeVisible({ timeout: 10_000 }));
  await page.getByRole('menuitem', { name: '系统管理' }).click();
  await page.getByRole('menuitem', { name: '用户管理' }).click();
  await expect(page.locator('.ant-pagination-total-text')).toContainText('共');
  // Other specs running meanwhile register users too: the demo organiser is found by name, wherever the list pages it.
  await page.getByPlaceholder('用户名、姓名、手机号或邮箱').fill('organiser');
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page.getByRole('cell', { name: 'organiser', exact: true })).toBeVisible();

  const participant = await browser.newPage();
  const username = uniqueName('menu');
  await register(participant, username);
  await login(participant, username, 'Passw0rd1');
  await expect(participant).toHaveURL(/\/competitionList$/);
  await participant.getByTestId('user-dropdown').hover();
  await expect(participant.getByRole('link', { name: '个人中心' })).toBeVisible();
  await expect(participant.getByRole('link', { name: '管理后台' })).toHaveCount(0);
  await expect(participant.getByRole('link', { name: '评审中心' })).toHaveCount(0);
  await participant.goto('/backadmin.html');
  await expect(participant.getByText('没有访问权限')).toBeVisible();
  await expect(participant.getByText('您的账号没有访问管理后台的权限')).toBeVisible();
  await expect(participant.getByRole('menuitem', { name: '系统管理' })).toHaveCount(0);
  await participant.close();
});

/**
 * The user list has loaded and holds this account: searched by name, since the newest accounts come first and the
 * other specs' sign-ups push the seeded ones off the first page.
 */
async function seeInUserList(page: Page, username: string) {
  await page.getByPlaceholder('用户名、姓名、手机号或邮箱').fill(username);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page.getByRole('cell', { name: username, exact: true })).toBeVisible();
}

test('the back office asks an anonymous visitor to log in', async ({ page }) => {
  await page.goto('/backadmin.html#/system/user');
  await expect(page.getByText('登录后才能进入管理后台')).toBeVisible();
  await page.getByRole('button', { name: /去\s*登\s*录/ }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByPlaceholder('用户名').fill(ADMIN.username);
  await page.getByPlaceholder('密码').fill(ADMIN.password);
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
  await expect(page).toHaveURL(/backadmin\.html#\/system\/user$/);
  await seeInUserList(page, 'judge');
});

test('tag tabs open per page and close current, others and all', async ({ page }) => {
  await login(page, ADMIN.username, ADMIN.password);
  await page.goto('/backadmin.html#/system/user');
  // The list has loaded (whose rows come first depends on the other specs' sign-ups).
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await page.getByRole('menuitem', { name: '角色管理' }).click();
  await expect(page.getByRole('cell', { name: 'participant', exact: true })).toBeVisible();
  const tabs = page.locator('.admin-tags .ant-tabs-tab');
  await expect(tabs).toHaveText(['首页', '用户管理', '角色管理']);
  await tabs.filter({ hasText: '用户管理' }).click();
  await expect(page).toHaveURL(/#\/system\/user$/);
  await page.getByRole('button', { name: '标签操作' }).hover();
  await page.getByText('关闭当前').click();
  await expect(tabs).toHaveText(['首页', '角色管理']);
  await page.getByRole('menuitem', { name: '用户管理' }).click();
  await expect(tabs).toHaveText(['首页', '角色管理', '用户管理']);
  await page.getByRole('button', { name: '标签操作' }).hover();
  await page.getByText('关闭其他').click();
  await expect(tabs).toHaveText(['首页', '用户管理']);
  await page.getByRole('button', { name: '标签操作' }).hover();
  await page.getByText('关闭全部').click();
  await expect(tabs).toHaveText(['首页']);
  await expect(page).toHaveURL(/#\/index$/);
  await expect(page.getByText('注册用户')).toBeVisible();
});

test('an administrator assigns the judge role, which opens the review centre', async ({ page, browser }) => {
  const username = uniqueName('judge');
  const judge = await browser.newPage();
  await register(judge, username);
  await login(judge, username, 'Passw0rd1');
  await expect(judge).toHaveURL(/\/competitionList$/);
  await judge.goto('/review.html');
  await expect(judge.getByText('您的账号没有访问评审中心的权限')).toBeVisible();

  await login(page, ADMIN.username, ADMIN.password);
  await page.goto('/backadmin.html#/system/user');
  await page.getByPlaceholder('用户名、姓名、手机号或邮箱').fill(username);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await page.getByRole('button', { name: '分配角色' }).click();
  await expect(page.getByRole('dialog').getByLabel('参赛者')).toBeChecked();
  // The dialog's form may settle after it opens; tick until the box stays ticked.
  await expect(async () => {
    await page.getByRole('dialog').getByLabel('评审专家').check({ timeout: 2000 });
    await expect(page.getByRole('dialog').getByLabel('评审专家')).toBeChecked({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.locator('.ant-table-row').getByText('评审专家')).toBeVisible();

  await judge.goto('/competitionList');
  await chooseUserMenu(judge, '评审中心', () => expect(judge.getByText('我的评审任务')).toBeVisible({ timeout: 10_000 }));
  await judge.close();
});

test('on a phone the navigation collapses into a dropdown', async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  });
  const page = await context.newPage();
  await page.goto('/competitionList');
  await expect(page.locator('.site-nav')).toHaveCount(0);
  await page.getByRole('button', { name: '导航' }).click();
  await expect(page.getByRole('menuitem', { name: '竞赛列表' })).toBeVisible();
  await context.close();
});

test('on a desktop the navigation links show in the header', async ({ page }) => {
  await page.goto('/competitionList');
  await expect(page.locator('.site-nav').getByRole('link', { name: '竞赛列表' })).toBeVisible();
  await expect(page.getByRole('button', { name: '导航' })).toHaveCount(0);
});

/** Fails when the page itself scrolls sideways (a table may scroll inside its card). */
async function expectNoSideScroll(page: Page, what: string) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll, `${what}：页面宽 ${widths.scroll}px，视口 ${widths.inner}px`).toBeLessThanOrEqual(widths.inner);
}

test('on a phone a participant with a team and an order never scrolls a page sideways', async ({ browser }) => {
  test.setTimeout(120_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext()).newPage();
  await newOrganiser(orgPage, adminPage);
  const fields = [
    { label: '姓名', name: 'userName', otherParams: { required: true } },
    { label: '学校', name: 'organization', otherParams: { required: false } },
  ];
  const competitionId = await openCompetition(orgPage, adminPage, 6600, fields);

  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const username = uniqueName('phone');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  const teamName = '华东师范大学数据科学与工程学院一队';
  const { registerId } = await api(page, 'POST', `/api/team/register/${competitionId}`, {
    teamName,
    info: { userName: '王小明', organization: '华东师范大学数据科学与工程学院' },
  });
  // Approval opens the team's order.
  await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });

  await page.goto(`/competition/${competitionId}/team`);
  // Its members are cards on a phone, each field in sight.
  await expect(page.getByTestId('member-card').getByText('华东师范大学数据科学与工程学院', { exact: true })).toBeVisible();
  await expectNoSideScroll(page, '我的队伍');

  await page.goto('/userCenter/myOrder');
  const card = page.getByTestId('order-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(teamName);
  await expect(card).toContainText('¥66.00');
  await expect(card).toContainText('待支付');
  await expect(card.getByRole('link', { name: '去支付' })).toBeVisible();
  await expectNoSideScroll(page, '我的订单');

  await page.goto('/userCenter/myInvoice');
  await expect(page.getByText('暂无发票申请')).toBeVisible();
  await expectNoSideScroll(page, '我的发票');

  await page.goto('/competitionList');
  await expect(page.getByRole('button', { name: '导航' })).toBeVisible();
  await expect(page.getByTestId('user-dropdown')).toBeVisible();
  // The header keeps to one line.
  expect((await page.locator('.site-header').boundingBox())!.height).toBeLessThanOrEqual(64);
  await expectNoSideScroll(page, '竞赛列表');
  expect(errors).toEqual([]);
  await context.close();
});

test('at 1280 px the back office competition lists show fee and state without scrolling', async ({ page }) => {
  await login(page, ADMIN.username, ADMIN.password);
  for (const [path, title] of [
    ['competition/manager', '竞赛管理'],
    ['competition/audit', '竞赛审核'],
  ] as const) {
    await page.goto(`/backadmin.html#/${path}`);
    await expect(page.locator('.ant-card-head-title').filter({ hasText: title })).toBeVisible();
    const table = page.locator('.ant-table').first();
    const actions = await table.getByRole('columnheader', { name: '操作', exact: true }).boundingBox();
    for (const header of ['报名费（元）', '审核状态', '竞赛状态', '队伍数']) {
      const box = await table.getByRole('columnheader', { name: header, exact: true }).boundingBox();
      expect(box, `${title}：${header}`).not.toBeNull();
      // Within the window and not under the fixed action column.
      expect(box!.x + box!.width, `${title}：${header}`).toBeLessThanOrEqual(Math.min(1280, actions!.x) + 1);
    }
  }
  // Scrolled to the end, the download button leaves the pager's page-size selector uncovered.
  await page.goto('/backadmin.html#/competition/manager');
  await expect(page.locator('.ant-pagination-options')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const sizes = (await page.locator('.ant-pagination-options').boundingBox())!;
  const float = (await page.getByTestId('download-float').boundingBox())!;
  const apart = float.y >= sizes.y + sizes.height || float.y + float.height <= sizes.y || float.x >= sizes.x + sizes.width || float.x + float.width <= sizes.x;
  expect(apart, `下载按钮 ${JSON.stringify(float)} 压住了每页条数 ${JSON.stringify(sizes)}`).toBe(true);
});
