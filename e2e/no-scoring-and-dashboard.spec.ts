import { expect, test, type Page } from '@playwright/test';
import { ADMIN, api, login, newOrganiser, openCompetition, register, uniqueName } from './fixtures.ts';

/** Where the screenshots of issue 20 item 11 go (looked at by hand; nothing is compared). */
const SHOTS = process.env.E2E_SHOTS_DIR;
const shoot = async (page: Page, name: string, part?: string) => {
  if (!SHOTS) return;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    // The back office scrolls inside its layout: the part itself is shot too.
    if (part) await page.getByTestId(part).screenshot({ path: `${SHOTS}/${name}-${part}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
};

test('an approved question whose scoring the organiser removes, after a warning, leaves its teams without a test tab', async ({ browser }) => {
  test.setTimeout(120_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext()).newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  for (const code of ['QUES_AND_DATA', 'CHOICE_SET', 'SUBMIT_TEST']) {
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, { enable: true });
  }
  const evaluation = { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 30, dailyLimit: 5 };
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, { title: '开放探索题', sort: 0, evaluation });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });

  const page = await (await browser.newContext()).newPage();
  const username = uniqueName('noscore');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  const { registerId, teamId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName: '探索队', info: { userName: '赵敏' } });
  await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
  await api(page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });

  // The organiser turns the scoring off in the question dialog: a warning names what the participants lose.
  await orgPage.goto(`/backadmin.html#/competition/edit/${competitionId}`);
  await orgPage.getByRole('tab', { name: '赛题' }).click();
  await orgPage.locator('.ant-table-row').filter({ hasText: '开放探索题' }).getByText('编辑').click();
  const dialog = orgPage.getByRole('dialog');
  await dialog.getByText('专家评审（提交作品）', { exact: true }).click();
  await expect(dialog.getByLabel('专家评审（提交作品）')).toBeChecked();
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  const warning = orgPage.locator('.ant-modal-confirm');
  await expect(warning).toContainText('关闭自动评分后，参赛者将不能再在“提交测试”页上传预测文件');
  if (SHOTS) await orgPage.screenshot({ path: `${SHOTS}/scoring-removal-warning-1280.png` });
  await warning.getByRole('button', { name: '确定关闭' }).click();
  await expect(orgPage.getByText('赛题已保存')).toBeVisible();
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: '开放探索题' })).toContainText('不自动评分');

  // The team's question is now judged by experts alone (issue 33): its test tab is gone, and its address says so.
  await page.goto(`/competition/${competitionId}/introduce`);
  await expect(page.getByRole('tab', { name: '竞赛介绍' })).toBeVisible();
  await expect(page.getByRole('tab', { name: '提交测试' })).toHaveCount(0);
  await page.goto(`/competition/${competitionId}/test`);
  await expect(page.getByText('该栏目暂未开放')).toBeVisible();
  await expect(page.getByRole('button', { name: /上传预测文件/ })).toHaveCount(0);
  await expect(page.getByText('今日已提交')).toHaveCount(0);
  await expect(page.getByText('赛题不存在')).toHaveCount(0);
  await shoot(page, 'test-tab-no-scoring');

  // The organiser's home: its organisation's counters, labelled so; the administrator's stay the platform's.
  await orgPage.goto('/backadmin.html#/index');
  await expect(orgPage.getByText('本组织概况')).toBeVisible();
  await expect(orgPage.getByText('本组织用户的在线会话')).toBeVisible();
  await expect(orgPage.getByText('注册用户')).toHaveCount(0);
  await shoot(orgPage, 'organiser-home', 'dashboard');
  await adminPage.goto('/backadmin.html#/index');
  await expect(adminPage.getByText('平台概况')).toBeVisible();
  await expect(adminPage.getByText('注册用户')).toBeVisible();
  await shoot(adminPage, 'admin-home', 'dashboard');
});
