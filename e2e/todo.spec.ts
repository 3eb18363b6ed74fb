import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, api, login, newOrganiser, openCompetition, pressInDialog, register, uniqueName } from './fixtures.ts';

const FIELDS = [
  { label: '姓名', name: 'userName', otherParams: { required: true } },
  { label: '手机号', name: 'tel', otherParams: { required: true } },
];

/** A participant registered alone in the competition through the API; the registration's id. */
async function registered(browser: Browser, competitionId: number) {
  const page = await (await browser.newContext()).newPage();
  const username = uniqueName('todo');
  await register(page, username);
  expect((await page.request.post('/api/auth/login', { data: { username, password: 'Passw0rd1' } })).status()).toBe(200);
  const { registerId } = await api(page, 'POST', `/api/team/register/${competitionId}`, {
    teamName: `${username}队`,
    info: { userName: '李四', tel: '13800138000' },
  });
  await page.context().close();
  return { id: registerId as number, team: `${username}队` };
}

async function organiserWithCompetition(browser: Browser) {
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 0, FIELDS);
  await adminPage.context().close();
  return { orgPage, competitionId };
}

/** The home page's to-do card of that title, with its count. */
const todoCard = (page: Page, title: string, count: number) => page.getByRole('link', { name: `${title} ${count}` });

test('a to-do count opens its list filtered to what waits, and the filter can be removed', async ({ browser }) => {
  test.setTimeout(120_000);
  const { orgPage, competitionId } = await organiserWithCompetition(browser);
  const regs = [];
  for (let i = 0; i < 3; i++) regs.push(await registered(browser, competitionId));
  await api(orgPage, 'POST', `/api/team/register/flow/${regs[0]!.id}`, { action: 'approve' });

  await orgPage.goto('/backadmin.html#/index');
  await expect(orgPage.getByText('待办事项')).toBeVisible();
  // The running competition's figures are drawn once the charts have loaded.
  await expect(orgPage.locator('.ant-card').filter({ hasText: '近14天新增报名' }).locator('svg').first()).toBeVisible();

  await todoCard(orgPage, '待审核报名', 2).click();
  await expect(orgPage).toHaveURL(/#\/register\/manager\?status=0$/);
  const rows = orgPage.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: '待审核' })).toHaveCount(2);
  await expect(orgPage.getByRole('cell', { name: regs[0]!.team })).toHaveCount(0);
  await expect(orgPage.getByRole('radio', { name: '待审核' })).toBeChecked();

  // The two waiting are approved at once; 待审核 then lists nothing, and removing the filter lists all three.
  await orgPage.locator('.ant-table-thead .ant-checkbox-input').check();
  await expect(orgPage.getByText('已选择 2 条')).toBeVisible();
  await orgPage.getByRole('button', { name: '批量通过' }).click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orgPage.getByText('已通过 2 条')).toBeVisible();
  await expect(rows).toHaveCount(0);
  await orgPage.locator('.ant-segmented-item').filter({ hasText: '全部' }).click();
  await expect(orgPage.getByRole('radio', { name: '全部' })).toBeChecked();
  await expect(orgPage).toHaveURL(/#\/register\/manager$/);
  await expect(rows).toHaveCount(3);
  // The browser's back button returns to the filter.
  await orgPage.goBack();
  await expect(orgPage).toHaveURL(/#\/register\/manager\?status=0$/);
  await expect(orgPage.getByRole('radio', { name: '待审核' })).toBeChecked();

  // Home again: nothing waits any more.
  await orgPage.getByRole('link', { name: '首页' }).first().click();
  await expect(todoCard(orgPage, '待审核报名', 0)).toBeVisible();
});

test('unsaved menus hold back the browser’s back button until the organiser drops them', async ({ browser }) => {
  test.setTimeout(120_000);
  const { orgPage, competitionId } = await organiserWithCompetition(browser);
  const editor = new RegExp(`#/competition/edit/${competitionId}$`);

  // Reached through the back office's own navigation, as an organiser does.
  const name = (await (await orgPage.request.get(`/api/competition/public/${competitionId}`)).json()).data.name as string;
  await orgPage.goto('/backadmin.html#/index');
  const sider = orgPage.locator('.ant-layout-sider');
  await sider.locator('.ant-menu-submenu-title', { hasText: '竞赛管理' }).click();
  await sider.locator('.ant-menu-item', { hasText: '竞赛管理' }).click();
  await expect(orgPage).toHaveURL(/#\/competition\/manager$/);
  await orgPage.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '编辑' }).click();
  await expect(orgPage).toHaveURL(editor);
  await orgPage.getByRole('tab', { name: '菜单设置' }).click();
  const guide = orgPage.getByRole('switch', { name: '启用赛前指导' });
  await expect(guide).not.toBeChecked();
  await guide.click();
  await expect(guide).toBeChecked();

  // Back: the dialog asks; 继续编辑 keeps the page and the change.
  await orgPage.goBack();
  const dialog = orgPage.locator('.ant-modal-confirm').filter({ hasText: '有未保存的修改' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('菜单设置还没有保存，离开后这些修改将丢失。');
  await pressInDialog(orgPage, /继续编辑/);
  await expect(orgPage).toHaveURL(editor);
  await expect(guide).toBeChecked();

  // The breadcrumb asks the same.
  await orgPage.locator('.ant-breadcrumb').getByRole('link', { name: '首页' }).click();
  await expect(dialog).toBeVisible();
  await pressInDialog(orgPage, /继续编辑/);
  await expect(orgPage).toHaveURL(editor);

  // So does the tag tabs' 刷新页面, which would otherwise reload the editor without the change.
  await expect(async () => {
    await orgPage.getByRole('button', { name: '标签操作' }).hover();
    await orgPage.locator('.ant-dropdown-menu').getByText('刷新页面').click({ timeout: 2000 });
    await expect(dialog).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await pressInDialog(orgPage, /继续编辑/);
  await expect(guide).toBeChecked();

  // Back again, dropping the changes: the list shows, and the menu was not saved.
  await orgPage.goBack();
  await expect(dialog).toBeVisible();
  await pressInDialog(orgPage, /放弃修改/);
  await expect(orgPage).toHaveURL(/#\/competition\/manager$/);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  expect(presets.data.find((p: { menuCode: string }) => p.menuCode === 'BEFORE_GUIDE').enable).toBe(false);
});
