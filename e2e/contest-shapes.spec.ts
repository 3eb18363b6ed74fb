import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import {
  ADMIN,
  api,
  closeSubmissions,
  generateCertificates,
  login,
  newOrganiser,
  openCompetition,
  pressInDialog,
  register,
  uniqueName,
  upload,
} from './fixtures.ts';

/**
 * Issue 33 through the screens: a prediction-only contest, from the question's creation to a certificate. The
 * organiser says the question is scored automatically; teams see no works tab, send prediction files, and their
 * result is the private board: grades, ranks, awards and certificates come from it. (The paper-only journey is
 * review.spec.ts.)
 */

const IDS = Array.from({ length: 40 }, (_, i) => `p${i}`);
const ANSWER = ['id,label', ...IDS.map((id, i) => `${id},${i % 2}`)].join('\n');
/** Probabilities of class 1, confident and right but for the first `wrong` rows. */
const prediction = (wrong: number) => ['id,label', ...IDS.map((id, i) => `${id},${(i < wrong ? 1 - (i % 2) : i % 2) * 0.8 + 0.1}`)].join('\n');

/** Screenshots for the README and docs, refreshed with UPDATE_SCREENSHOTS=1 (looked at by hand; nothing is compared). */
const SHOTS = Boolean(process.env.UPDATE_SCREENSHOTS);

/** No page scrolls sideways on a phone. */
async function fitsPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

test('a prediction-only contest: the question is scored automatically, teams send files only, the private board is the result, with awards and a certificate', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext()).newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  // Works are on for the competition, as a contest with other questions might have them: this question takes none.
  for (const code of ['CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST', 'GRADE_SET', 'CERTIFICATE_SET']) {
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, { enable: true });
  }

  // The organiser says how the question is judged: scored automatically, ranked by its private board.
  await orgPage.goto(`/backadmin.html#/competition/edit/${competitionId}`);
  await orgPage.getByRole('tab', { name: '赛题' }).click();
  await orgPage.getByRole('button', { name: '新建赛题' }).click();
  const editor = orgPage.getByRole('dialog');
  await editor.getByLabel('赛题名称').fill('信用违约预测');
  await editor.getByText('自动评分（提交测试）', { exact: true }).click();
  await expect(editor.getByLabel('自动评分（提交测试）')).toBeChecked();
  await expect(editor.getByTestId('judging-hint')).toHaveText(
    '参赛队伍提交预测结果，自动评分，按私榜得分排名（以队伍选定的提交为准）；不需要提交作品和专家评审',
  );
  // Scored by AUC on id and label, as a new question starts.
  await expect(editor.getByLabel('编号列名')).toHaveValue('id');
  if (SHOTS) {
    await orgPage.setViewportSize({ width: 1440, height: 1600 });
    await editor.locator('.ant-modal-content').screenshot({ path: 'docs/screenshots/question-judging.png' });
    await orgPage.setViewportSize({ width: 1280, height: 800 });
  }
  await editor.getByRole('button', { name: /保\s*存/ }).click();
  const row = orgPage.locator('.ant-table-row').filter({ hasText: '信用违约预测' });
  await expect(row.getByTestId('question-judging')).toHaveText('自动评分（提交测试）');
  // No works to look at for it.
  await expect(row.getByText('作品', { exact: true })).toHaveCount(0);
  const [chooser] = await Promise.all([orgPage.waitForEvent('filechooser'), row.getByText('上传答案').click()]);
  await chooser.setFiles({ name: 'answer.csv', mimeType: 'text/csv', buffer: Buffer.from(ANSWER) });
  await expect(orgPage.getByText('答案文件已上传（40 行）')).toBeVisible();
  const questions = (await (await orgPage.request.get(`/api/competition/question/list/${competitionId}`)).json()).data as { id: number; title: string }[];
  const questionId = questions.find((q) => q.title === '信用违约预测')!.id;
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });
  // The review pages say it needs no judges.
  await orgPage.goto(`/backadmin.html#/review/rules?competitionId=${competitionId}`);
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: '信用违约预测' }).getByTestId('not-judged')).toHaveText('按私榜排名，无需评审');

  // Two teams: one sends its files through the test tab, which is its only submission tab.
  const teams: { page: Page; name: string }[] = [];
  for (const [name, person] of [
    ['风控先锋', '林一'],
    ['数据侦探', '周二'],
  ] as const) {
    const page = await (await browser.newContext()).newPage();
    const username = uniqueName('shape');
    await register(page, username);
    await login(page, username, 'Passw0rd1');
    const { registerId, teamId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName: name, info: { userName: person } });
    await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
    await api(page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });
    teams.push({ page, name });
  }
  const [first, second] = teams as [{ page: Page; name: string }, { page: Page; name: string }];
  await first.page.goto(`/competition/${competitionId}/test`);
  await expect(first.page.getByRole('tab', { name: '提交测试' })).toBeVisible();
  await expect(first.page.getByRole('tab', { name: '提交作品' })).toHaveCount(0);
  await first.page.locator('input[type=file]').setInputFiles({ name: 'perfect.csv', mimeType: 'text/csv', buffer: Buffer.from(prediction(0)) });
  await expect(first.page.locator('.ant-table-row').filter({ hasText: 'perfect.csv' })).toContainText('已评分', { timeout: 30_000 });
  await upload(second.page, `/api/review/test/${questionId}`, { name: 'rough.csv', mimeType: 'text/csv', buffer: Buffer.from(prediction(10)) });
  // The works tab is not theirs: opened by its address, it says so.
  await second.page.goto(`/competition/${competitionId}/works`);
  await expect(second.page.getByText('该栏目暂未开放')).toBeVisible();

  // Submission closes; the organiser's grade page ranks the private board, and confirming publishes both.
  await closeSubmissions(orgPage, competitionId);
  await orgPage.goto(`/backadmin.html#/question/grade/${questionId}`);
  await expect(orgPage.getByTestId('board-judged')).toContainText('该赛题按自动评分的私榜排名，不需要专家评审');
  await expect(orgPage.getByTestId('how-grades-add-up')).toContainText('最终成绩即私榜得分');
  // No works or judges to go to from it.
  await expect(orgPage.getByText('赛题成绩', { exact: true }).last()).toBeVisible();
  await expect(orgPage.locator('.ant-segmented').getByText('作品管理')).toHaveCount(0);
  await expect
    .poll(async () => (await (await second.page.request.get(`/api/review/test/list/${questionId}`)).json()).data.list[0].status, { timeout: 30_000 })
    .toBe(2);
  await orgPage.getByRole('button', { name: '计算成绩' }).click();
  await expect(orgPage.getByText('成绩已计算，请核对后确认')).toBeVisible();
  const gradeTable = orgPage.locator('.ant-table').filter({ hasText: '私榜得分' });
  await expect(gradeTable.locator('thead')).not.toContainText('评审成绩');
  await expect(gradeTable.locator('.ant-table-row').first()).toContainText('风控先锋');
  await orgPage.getByRole('button', { name: '确认成绩' }).click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orgPage.getByText('成绩已确认并公布')).toBeVisible();
  if (SHOTS) {
    await expect(orgPage.locator('.ant-message-notice')).toHaveCount(0, { timeout: 15_000 });
    await orgPage.setViewportSize({ width: 1440, height: 1000 });
    await orgPage.screenshot({ path: 'docs/screenshots/grades-prediction-only.png' });
    await orgPage.setViewportSize({ width: 1280, height: 800 });
  }

  // Awards by rank, then a certificate for the winner.
  await api(orgPage, 'PUT', `/api/review/works/awards/${questionId}`, {
    levels: [
      { name: '一等奖', rankFrom: 1, rankTo: 1 },
      { name: '二等奖', rankFrom: 2, rankTo: 5 },
    ],
  });
  await orgPage.goto(`/backadmin.html#/question/awards/${questionId}`);
  await orgPage.getByRole('button', { name: '按名次评奖' }).click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: '风控先锋' })).toContainText('一等奖');
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: '数据侦探' })).toContainText('二等奖');
  await generateCertificates(orgPage, competitionId, questionId, '预测赛证书', 2);

  // The winner sees its grade as the private board made it, the board itself, and downloads its certificate.
  const page = first.page;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/competition/${competitionId}/grade`);
  const grade = page.getByTestId('my-grade');
  await expect(grade).toContainText('自动评分（提交测试）');
  await expect(grade).toContainText('私榜得分');
  await expect(grade).not.toContainText('评审成绩');
  await expect(grade).toContainText('第 1 名（共 2 支队伍）');
  await expect(grade).toContainText('一等奖');
  await expect(page.getByTestId('grade-formula')).toContainText('最终成绩 = 私榜得分');
  await fitsPhone(page);
  if (SHOTS) await page.screenshot({ path: 'docs/screenshots/participant/grade-prediction-only-390.png', fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/competition/${competitionId}/test`);
  await page.getByRole('tab', { name: '私榜' }).click();
  await expect(page.locator('.ant-tabs-tabpane-active .ant-table-row').filter({ hasText: '数据侦探' })).toBeVisible();
  await page.goto(`/competition/${competitionId}/certificate`);
  const certificate = page.locator('.ant-table-row').filter({ hasText: '林一' });
  await expect(certificate).toContainText('一等奖');
  const [download] = await Promise.all([page.waitForEvent('download'), certificate.getByRole('button', { name: '下载' }).click()]);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(fs.readFileSync(await download.path()))), { mergePages: true });
  expect(text).toContain('林一');
  expect(text).toContain('风控先锋');
  await fitsPhone(page);
});
