import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { ADMIN, api, closeSubmissions, generateCertificates, login, newOrganiser, openCompetition, pressInDialog, register, uniqueName } from './fixtures.ts';

/** A judge account added to the expert pool by the organiser, logged in on its own page. */
async function newJudge(browser: import('@playwright/test').Browser, orgPage: Page, organization: string) {
  const page = await (await browser.newContext()).newPage();
  const username = uniqueName('judge');
  await register(page, username);
  await api(orgPage, 'POST', '/api/review/expert', { username, organization, speciality: '数据挖掘', title: '教授' });
  await login(page, username, 'Passw0rd1');
  return { page, username };
}

/**
 * Scores the judge's only work of the question in the review centre, out of 60 and 40, then submits: the live total is
 * the points added up, out of 100. A score above its criterion's maximum is refused at its field first.
 */
async function scoreInReviewCentre(page: Page, questionTitle: string, [depth, report]: [number, number]) {
  await page.goto('/review.html');
  await page.getByRole('link', { name: questionTitle }).click();
  await page.getByRole('link', { name: '评分', exact: true }).first().click();
  const criteria = page.getByTestId('criterion');
  const inputs = criteria.locator('.ant-input-number input');
  await inputs.nth(0).fill('70');
  await expect(criteria.nth(0).getByText('“分析深度”的分数不能超过60')).toBeVisible();
  await inputs.nth(0).fill(String(depth));
  await expect(criteria.nth(0).getByText('“分析深度”的分数不能超过60')).toHaveCount(0);
  await inputs.nth(1).fill(String(report));
  await expect(page.getByTestId('live-total')).toContainText(`${depth + report} / 100`);
  await page.getByRole('button', { name: '保存草稿' }).click();
  await expect(page.getByText('草稿已保存')).toBeVisible();
  await page.getByRole('button', { name: '提交评分' }).click();
  await pressInDialog(page, /确\s*定|提\s*交/);
  await expect(page.getByText('评分已提交').first()).toBeVisible();
}

test('a paper-only contest: two judges score a work in the review centre; the organiser confirms grades, answers a dispute and awards; the team downloads its certificate', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext()).newPage();
  await newOrganiser(orgPage, adminPage);
  const fields = [
    { label: '姓名', name: 'userName', otherParams: { required: true } },
    { label: '学校', name: 'organization', otherParams: { required: true } },
  ];
  const competitionId = await openCompetition(orgPage, adminPage, 0, fields);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  // Tests are on for the competition, as a contest with other questions might have them: this question takes none.
  for (const code of ['CHOICE_SET', 'SUBMIT_WORKS', 'SUBMIT_TEST', 'GRADE_SET', 'CERTIFICATE_SET']) {
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, { enable: true });
  }
  // A paper question (issue 33): judged by experts alone, no metric, no answer file, approved as it is.
  const questionTitle = '城市交通数据分析';
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, { title: questionTitle, judging: 'review' });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });

  // A team of 华东大学 registers, chooses the question and submits its works.
  const page = await (await browser.newContext()).newPage();
  const username = uniqueName('grade');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  const teamName = '数据先锋队';
  const { registerId, teamId } = await api(page, 'POST', `/api/team/register/${competitionId}`, {
    teamName,
    info: { userName: '王小明', organization: '华东大学' },
  });
  await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
  await api(page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });
  await page.goto(`/competition/${competitionId}/works`);
  // Its tabs are the paper's: works, no tests.
  await expect(page.getByRole('tab', { name: '提交作品' })).toBeVisible();
  await expect(page.getByRole('tab', { name: '提交测试' })).toHaveCount(0);
  // The rules (types, size, deadline) are loaded before a file is given: the page checks the file against them.
  await expect(page.getByText(/可提交 .* 格式/)).toBeVisible();
  await page.getByTestId('works-input').setInputFiles({ name: `${teamName}作品.zip`, mimeType: 'application/zip', buffer: Buffer.alloc(300_000, 7) });
  await expect(page.getByText('作品已提交')).toBeVisible({ timeout: 30_000 });

  // The organiser sets the review rule in the back office: a 60-point and a 40-point criterion, two judges, blind review.
  await orgPage.goto(`/backadmin.html#/review/rules?competitionId=${competitionId}`);
  await orgPage.locator('.ant-table-row').filter({ hasText: questionTitle }).getByText('评审规则').click();
  const rules = orgPage.getByRole('dialog');
  // A new rule starts with one empty criterion.
  await rules.getByPlaceholder('名称，如：模型效果').nth(0).fill('分析深度');
  await rules.getByPlaceholder('满分').nth(0).fill('60');
  await rules.getByRole('button', { name: /添加评审标准/ }).click();
  await rules.getByPlaceholder('名称，如：模型效果').nth(1).fill('报告质量');
  await rules.getByPlaceholder('满分').nth(1).fill('40');
  await expect(rules.getByText('满分为各项满分之和（当前 100 分）')).toBeVisible();
  await rules.getByRole('button', { name: /保\s*存/ }).click();
  await expect(orgPage.getByText('评审规则已保存')).toBeVisible();

  // Two judges from other schools join the question's list and the work is assigned to both.
  const j1 = await newJudge(browser, orgPage, '北方大学');
  const j2 = await newJudge(browser, orgPage, '南方大学');
  const pool = await (await orgPage.request.get(`/api/review/judge/candidates/${questionId}?keyword=judge`)).json();
  const judgeIds = pool.data.filter((e: { username: string }) => [j1.username, j2.username].includes(e.username)).map((e: { userId: number }) => e.userId);
  await api(orgPage, 'POST', `/api/review/judge/${questionId}`, { userIds: judgeIds });
  await orgPage.goto(`/backadmin.html#/question/judge/${questionId}`);
  await orgPage.getByRole('button', { name: '自动分配' }).click();
  // Works are still open: the organiser reads that a replaced version gives the scores back, and assigns anyway.
  await expect(orgPage.getByText(/提交作品尚未截止（.+），现在分配后队伍仍可上传新版本/)).toBeVisible();
  await pressInDialog(orgPage, /仍然现在分配/);
  await expect(orgPage.getByText('自动分配完成，新分配 2 份')).toBeVisible();

  // Each judge scores in the review centre and sees nothing of the team: 50 + 30 = 80 and 54 + 36 = 90, of 100.
  await scoreInReviewCentre(j1.page, questionTitle, [50, 30]);
  await expect(j1.page.getByText(teamName)).toHaveCount(0);
  await scoreInReviewCentre(j2.page, questionTitle, [54, 36]);
  await j2.page.getByRole('link', { name: '返回作品列表' }).click();
  await expect(j2.page.locator('.ant-table-row').first()).toContainText('90 / 100');
  // On a phone the review centre's lists fit the screen (issue 33): the page never scrolls sideways.
  await j2.page.setViewportSize({ width: 390, height: 844 });
  for (const [where, ready] of [
    ['works', j2.page.getByText('90 / 100').first()],
    ['questions', j2.page.getByRole('link', { name: questionTitle })],
  ] as const) {
    if (where === 'questions') await j2.page.goto('/review.html');
    await expect(ready).toBeVisible();
    await expect.poll(() => j2.page.evaluate(() => document.documentElement.scrollWidth), { message: where }).toBeLessThanOrEqual(390);
    if (process.env.UPDATE_SCREENSHOTS) await j2.page.screenshot({ path: `docs/screenshots/review-${where}-phone.png`, fullPage: true });
  }
  await j2.page.setViewportSize({ width: 1280, height: 800 });

  // The organiser sees each judge's total out of 100, then computes and confirms the grades: (80 + 90) / 2 = 85.
  // Still on the judge page where the works were assigned: reload it for the totals.
  await orgPage.reload();
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: '80 / 100' })).toHaveCount(1);
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: '90 / 100' })).toHaveCount(1);
  await orgPage.goto(`/backadmin.html#/question/grade/${questionId}`);
  await orgPage.getByRole('button', { name: '计算成绩' }).click();
  // Works can still be submitted (until the competition's end): computing now is early, and the organiser is asked.
  await expect(orgPage.getByTestId('early-warning')).toContainText(/提交作品尚未截止（\d\d-\d\d \d\d:\d\d），现在计算的成绩可能不是最终成绩/);
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orgPage.getByText('成绩已计算，请核对后确认')).toBeVisible();
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: teamName })).toContainText('85');
  // Publishing waits for the deadline: the page holds 确认成绩 back and says until when, as the server would.
  const refusal = /^提交作品将于 \d{4}-\d\d-\d\d \d\d:\d\d 截止，截止前不能公布成绩$/;
  await expect(orgPage.getByTestId('publish-refusal').locator('.ant-alert-message')).toHaveText(refusal);
  await expect(orgPage.getByRole('button', { name: '确认成绩' })).toBeDisabled();
  await orgPage.getByRole('button', { name: '确认成绩' }).hover({ force: true });
  await expect(orgPage.getByRole('tooltip')).toHaveText(refusal);
  const early = await orgPage.request.post(`/api/review/works/confirmFinalScore/${questionId}`, {
    headers: { 'x-csrf-token': (await orgPage.context().cookies()).find((c) => c.name === 'contest_csrf')!.value },
  });
  expect([early.status(), (await early.json()).message]).toEqual([409, expect.stringMatching(refusal)]);
  // The organiser brings the works deadline forward to a minute ago: submission has closed, results can be published.
  await closeSubmissions(orgPage, competitionId);
  await orgPage.reload();
  await expect(orgPage.getByTestId('publish-refusal')).toHaveCount(0);
  await orgPage.getByRole('button', { name: '确认成绩' }).click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orgPage.getByText('成绩已确认并公布')).toBeVisible();

  // The team sees its grade, what it is made of, and disputes it.
  await page.goto(`/competition/${competitionId}/grade`);
  await expect(page.getByText(questionTitle)).toBeVisible();
  await expect(page.getByTestId('my-grade')).toContainText('85');
  await expect(page.getByTestId('my-grade')).toContainText('专家评审（提交作品）');
  await expect(page.getByTestId('my-grade')).not.toContainText('私榜得分');
  await expect(page.getByTestId('grade-formula')).toHaveText('最终成绩 = 评审成绩；评审成绩 = 各评委总分 ÷ 满分 × 100 的平均');
  await page.getByTestId('dispute-button').click();
  await page.getByRole('dialog').locator('textarea').fill('报告质量一项评分偏低，请复核');
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /提交申诉/ })
    .click();
  await expect(page.getByText('申诉已提交，请等待组织方答复')).toBeVisible();

  // The organiser answers it.
  await orgPage.reload();
  const dispute = orgPage.locator('.ant-table-row').filter({ hasText: '报告质量一项评分偏低' });
  await dispute.getByText('答复', { exact: true }).click();
  await orgPage.getByRole('dialog').locator('textarea').fill('经复核，评分无误，维持原成绩');
  await pressInDialog(orgPage, /保\s*存|确\s*定|提\s*交/);
  await expect(orgPage.locator('.ant-message').getByText('已答复', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByText('经复核，评分无误，维持原成绩')).toBeVisible();

  // Awards by rank: the only team is first.
  await api(orgPage, 'PUT', `/api/review/works/awards/${questionId}`, {
    levels: [
      { name: '一等奖', rankFrom: 1, rankTo: 1 },
      { name: '二等奖', rankFrom: 2, rankTo: 5 },
    ],
  });
  await orgPage.goto(`/backadmin.html#/question/awards/${questionId}`);
  await orgPage.getByRole('button', { name: '按名次评奖' }).click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orgPage.locator('.ant-table-row').filter({ hasText: teamName })).toContainText('一等奖');

  // A certificate template on a background, then generation with progress.
  await generateCertificates(orgPage, competitionId, questionId, '获奖证书', 1);

  // The team downloads its certificate; the PDF's text holds the member's and the team's names.
  await page.goto(`/competition/${competitionId}/certificate`);
  const row = page.locator('.ant-table-row').filter({ hasText: '王小明' });
  await expect(row).toContainText('一等奖');
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: '下载' }).click()]);
  const pdf = fs.readFileSync(await download.path());
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  expect(text).toContain('王小明');
  expect(text).toContain(teamName);
  expect(text).toContain('一等奖');

  // The same results on the team's phone (issue 33, item 8): the grade with its parts, its award and its certificate,
  // nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [tab, shown] of [
    ['grade', page.getByTestId('my-grade')],
    ['certificate', page.getByText('一等奖').first()],
  ] as const) {
    await page.goto(`/competition/${competitionId}/${tab}`);
    await expect(shown).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: tab }).toBeLessThanOrEqual(390);
    if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/paper-${tab}-phone.png`, fullPage: true });
  }
  await expect(
    page
      .getByText('下载', { exact: true })
      .or(page.getByRole('button', { name: '下载' }))
      .first(),
  ).toBeVisible();
});
