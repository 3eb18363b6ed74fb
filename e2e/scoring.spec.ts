import { expect, test } from '@playwright/test';
import { ADMIN, api, login, newOrganiser, openCompetition, register, uniqueName } from './fixtures.ts';

const IDS = Array.from({ length: 60 }, (_, i) => `c${i}`);
const ANSWER = ['id,label', ...IDS.map((id, i) => `${id},${i % 2}`)].join('\n');
/** Scores that rank every positive above every negative (AUC 1), or the reverse (AUC 0). */
const perfect = ['id,label', ...IDS.map((id, i) => `${id},${i % 2 ? 0.9 : 0.1}`)].join('\n');
const inverted = ['id,label', ...IDS.map((id, i) => `${id},${i % 2 ? 0.1 : 0.9}`)].join('\n');

test('an organiser publishes a question with an answer file, a team chooses it, uploads works and sees its test scores on the leaderboard', async ({ browser }) => {
  test.setTimeout(120_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext()).newPage();
  await newOrganiser(orgPage, adminPage);
  const fields = [{ label: '姓名', name: 'userName', otherParams: { required: true } }];
  const competitionId = await openCompetition(orgPage, adminPage, 0, fields);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  for (const code of ['QUES_AND_DATA', 'CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST']) {
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, { enable: true });
  }

  // The organiser writes the question with its evaluation setting and uploads the hidden answers.
  await orgPage.goto(`/backadmin.html#/competition/edit/${competitionId}`);
  await orgPage.getByRole('tab', { name: '赛题' }).click();
  await orgPage.getByRole('button', { name: '新建赛题' }).click();
  const dialog = orgPage.getByRole('dialog');
  await dialog.getByLabel('赛题名称').fill('用户流失预测');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  const row = orgPage.locator('.ant-table-row').filter({ hasText: '用户流失预测' });
  await expect(row).toContainText('AUC');
  await expect(row).toContainText('未上传');
  await row.locator('input[type=file]').setInputFiles({ name: 'answer.csv', mimeType: 'text/csv', buffer: Buffer.from(ANSWER) });
  await expect(orgPage.getByText('答案文件已上传（60 行）')).toBeVisible();
  await expect(row).toContainText('60 行');
  // Its public data, uploaded resumably.
  await row.getByText('数据文件').click();
  await orgPage.getByTestId('data-input').setInputFiles({ name: 'train.csv', mimeType: 'text/csv', buffer: Buffer.from(ANSWER.replace('label', 'feature')) });
  await expect(orgPage.getByText('数据文件已上传')).toBeVisible();
  await expect(orgPage.getByRole('dialog').getByRole('link', { name: 'train.csv' })).toBeVisible();
  await orgPage.getByRole('button', { name: /关\s*闭/ }).click();

  // The platform reviews it, which makes it public.
  await adminPage.goto(`/backadmin.html#/competition/edit/${competitionId}`);
  await adminPage.getByRole('tab', { name: '赛题' }).click();
  await adminPage.locator('.ant-table-row').filter({ hasText: '用户流失预测' }).getByText('审核通过').click();
  await adminPage.getByRole('button', { name: /确\s*定/ }).click();
  await expect(adminPage.getByText('赛题已审核，参赛者可见')).toBeVisible();

  // A team registers (approved by the organiser) and its leader chooses the question.
  const page = await (await browser.newContext()).newPage();
  const username = uniqueName('score');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  const { registerId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName: '预测先锋', info: { userName: '赵敏' } });
  await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
  await page.goto(`/competition/${competitionId}/question`);
  await expect(page.getByText('train.csv')).toBeVisible();
  await page.goto(`/competition/${competitionId}/choice`);
  await page.getByRole('button', { name: '选择该赛题' }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByTestId('chosen-question')).toBeVisible();

  // Works go up in resumable chunks with a progress bar (the second chunk is held back so the bar can be seen).
  await page.getByRole('tab', { name: '提交作品' }).click();
  await page.route('**/api/review/works/upload/*', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page.getByTestId('works-input').setInputFiles({ name: '作品.zip', mimeType: 'application/zip', buffer: Buffer.alloc(6 * 1024 * 1024, 1) });
  await expect(page.getByTestId('works-progress')).toBeVisible();
  await expect(page.getByText('作品已提交')).toBeVisible({ timeout: 30_000 });
  const version = page.locator('.ant-table-row').filter({ hasText: '作品.zip' });
  await expect(version).toContainText('V1');
  await expect(version).toContainText('有效版本');
  await expect(version).toContainText('6.00 MB');
  await page.unrouteAll();
  await orgPage.goto(`/backadmin.html#/competition/edit/${competitionId}`);
  await orgPage.getByRole('tab', { name: '赛题' }).click();
  await orgPage.locator('.ant-table-row').filter({ hasText: '用户流失预测' }).getByText('作品', { exact: true }).click();
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: '预测先锋' })).toContainText('作品.zip');

  // Two test files, scored by the job; the leaderboard shows the team's best public score.
  await page.getByRole('tab', { name: '提交测试' }).click();
  await expect(page.getByTestId('quota')).toHaveText('今日已提交 0 / 5 次');
  for (const [name, text] of [['inverted.csv', inverted], ['perfect.csv', perfect]] as const) {
    await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
    await expect(page.getByText('测试文件已提交，正在排队评分').first()).toBeVisible();
    await expect(page.locator('.ant-table-row').filter({ hasText: name })).toContainText('已评分', { timeout: 20_000 });
  }
  await expect(page.getByTestId('quota')).toHaveText('今日已提交 2 / 5 次');
  await expect(page.locator('.ant-table-row').filter({ hasText: 'perfect.csv' }).getByTestId('public-score')).toHaveText('1');
  await expect(page.locator('.ant-table-row').filter({ hasText: 'inverted.csv' }).getByTestId('public-score')).toHaveText('0');
  await page.reload();
  const board = page.locator('.ant-tabs-tabpane-active .ant-table-row').filter({ hasText: '预测先锋' });
  await expect(board.getByTestId('board-score')).toHaveText('1');
  await page.getByRole('tab', { name: '私榜' }).click();
  await expect(page.getByText('私榜尚未公布')).toBeVisible();
});
