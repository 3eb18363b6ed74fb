import { expect, test, type Browser, type Page } from '@playwright/test';
import { docx } from '../server/test/documents.ts';
import { makeVocabulary, paper, plantCopy, rng } from '../server/test/papers.ts';
import { ADMIN, api, login, newOrganiser, openCompetition, pressInDialog, register, uniqueName, upload } from './fixtures.ts';

/**
 * Issue 37 through the screens: three teams hand in papers (one copies 60% of another's paragraphs, reworded); one
 * adds its own 知网 report at 390 px. The organiser uploads the template as an exclusion, runs 查重, reads the ranked
 * list, opens the copied pair side by side with the shared passages highlighted, keeps the copy from review and
 * releases the original; automatic assignment then leaves the copy out and says so. At 1440 px and 390 px.
 */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const random = rng(3737);
const vocab = makeVocabulary(random, 1500);
const template = paper(random, vocab, 1000);

test.use({ actionTimeout: 30_000 });

async function fitsPhone(page: Page, name: string) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}-390.png`, fullPage: true });
}

/** A team of one that chose the question and hands in its paper through the works tab. */
async function teamWithPaper(
  browser: Browser,
  orgPage: Page,
  competitionId: number,
  questionId: number,
  teamName: string,
  paragraphs: string[],
  phone = false,
) {
  const page = await (await browser.newContext(phone ? PHONE : { viewport: { width: 1440, height: 900 } })).newPage();
  const username = uniqueName('sim');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  const { registerId, teamId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName, info: { userName: '李同学' } });
  await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
  await api(page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });
  await page.goto(`/competition/${competitionId}/works`);
  await expect(page.getByText(/可提交 .* 格式/)).toBeVisible();
  await page.getByTestId('works-input').setInputFiles({
    name: `${teamName}论文.docx`,
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: await docx([...template, ...paragraphs], '作者', '作者'),
  });
  await expect(page.getByText('作品已提交')).toBeVisible({ timeout: 30_000 });
  return page;
}

test('查重: the organiser finds the copied paper, compares it side by side, keeps it from review and releases the original', async ({ browser }) => {
  test.setTimeout(300_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  for (const code of ['CHOICE_SET', 'SUBMIT_WORKS']) {
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, { enable: true });
  }
  const questionTitle = '城市用电负荷分析';
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, { title: questionTitle, judging: 'review' });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });
  await api(orgPage, 'PUT', `/api/review/rules/${questionId}`, {
    criteria: [{ name: '创新性', maxScore: 100 }],
    judgesPerWork: 1,
    aggregation: 'mean',
    reviewWeight: 100,
    testWeight: 0,
    blind: true,
    disputeDays: 3,
  });
  const judge = uniqueName('simJudge');
  await register(await (await browser.newContext()).newPage(), judge);
  await api(orgPage, 'POST', '/api/review/expert', { username: judge, organization: '评审大学', speciality: '统计', title: '教授' });
  const pool = await (await orgPage.request.get(`/api/review/judge/candidates/${questionId}?keyword=${judge}`)).json();
  await api(orgPage, 'POST', `/api/review/judge/${questionId}`, { userIds: [pool.data[0].userId] });

  const original = paper(random, vocab, 4000);
  await teamWithPaper(browser, orgPage, competitionId, questionId, '原创队', original);
  await teamWithPaper(browser, orgPage, competitionId, questionId, '借鉴队', plantCopy(random, vocab, original, paper(random, vocab, 4000), 0.6));
  // On a phone, the third team hands in its paper and its own 知网 report with the rate it declares.
  const phonePage = await teamWithPaper(browser, orgPage, competitionId, questionId, '诚实队', paper(random, vocab, 4000), true);
  const report = phonePage.getByTestId('self-report');
  await expect(report.getByText('尚未上传')).toBeVisible();
  await expect(report.getByRole('button', { name: '上传查重报告' })).toBeDisabled();
  await report.getByLabel('查重率').fill('6.5');
  await report.getByTestId('report-input').setInputFiles({ name: '知网报告.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  await expect(report.getByText(/已上传：知网报告.pdf，自报查重率 6.5%/)).toBeVisible();
  await fitsPhone(phonePage, 'similarity-report');

  // ---- The organiser opens 查重 from the competition's question list.
  await orgPage.goto(`/backadmin.html#/competition/edit/${competitionId}`);
  await orgPage.getByRole('tab', { name: '赛题' }).click();
  await orgPage.locator('.ant-table-row').filter({ hasText: questionTitle }).getByRole('link', { name: '查重' }).click();
  await expect(orgPage).toHaveURL(new RegExp(`/question/similarity/${questionId}$`));
  await expect(orgPage.getByText('作品提交截止后将自动查重，也可以现在开始')).toBeVisible();
  await orgPage.locator('input[type=file]').setInputFiles({
    name: '论文模板.docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: await docx(template, '组织方', '组织方'),
  });
  await expect(orgPage.getByText('排除文件已上传，重新查重后生效')).toBeVisible();
  await expect(orgPage.getByText('论文模板.docx')).toBeVisible();
  await orgPage.getByRole('button', { name: '开始查重' }).click();
  await expect(orgPage.getByText('已完成')).toBeVisible({ timeout: 60_000 });

  // The ranked list: the pair first, held; the honest team's own report beside its figures.
  const rows = orgPage.locator('.ant-table-tbody .ant-table-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2)).toContainText('诚实队');
  await expect(rows.nth(2)).toContainText('自报 6.5%');
  // A row by its team's name cell (the other rows name it among their matches).
  const row = (team: string) => rows.filter({ has: orgPage.getByText(team, { exact: true }) });
  const copied = row('借鉴队');
  await expect(copied).toContainText('待处理');
  await expect(orgPage.getByText('2 份待处理')).toBeVisible();
  if (process.env.SHOTS_DIR) await orgPage.screenshot({ path: `${process.env.SHOTS_DIR}/similarity-1440.png`, fullPage: true });

  // Side by side: both texts, the shared passages marked in each.
  await copied.getByRole('button', { name: '对比' }).first().click();
  const pair = orgPage.getByRole('dialog', { name: '作品对比' });
  await expect(pair.getByTestId('pair-text')).toHaveCount(2);
  await expect.poll(() => pair.getByTestId('pair-text').nth(0).locator('mark').count()).toBeGreaterThan(3);
  await expect.poll(() => pair.getByTestId('pair-text').nth(1).locator('mark').count()).toBeGreaterThan(3);
  await pair.getByRole('button', { name: '下一处' }).first().click();
  if (process.env.SHOTS_DIR) await orgPage.screenshot({ path: `${process.env.SHOTS_DIR}/similarity-pair-1440.png` });
  await pair.getByRole('button', { name: 'Close' }).click();

  // Decisions: the copy is kept from review (a reason the team reads), the original released.
  await copied.getByRole('button', { name: '处理' }).click();
  const decide = orgPage.getByRole('dialog', { name: /处理：借鉴队/ });
  await decide.getByLabel('不予评审').check();
  await decide.getByLabel('说明').fill('与原创队作品大段雷同');
  await pressInDialog(orgPage, /保\s*存/);
  await expect(copied).toContainText('不予评审');
  const first = row('原创队');
  await first.getByRole('button', { name: '处理' }).click();
  await expect(orgPage.getByRole('dialog', { name: /处理：原创队/ }).getByLabel('放行')).toBeChecked();
  await pressInDialog(orgPage, /保\s*存/);
  await expect(first).toContainText('已放行');

  // Automatic assignment gives out the released and the honest works, and names the one held.
  await orgPage.getByText('评审专家与分配', { exact: true }).click();
  await expect(orgPage).toHaveURL(new RegExp(`/question/judge/${questionId}$`));
  await orgPage.getByRole('button', { name: '自动分配' }).click();
  await pressInDialog(orgPage, /仍然现在分配/);
  await expect(orgPage.getByText('本次新分配 2 份评审任务。')).toBeVisible();
  await expect(orgPage.getByText(/1 份作品因查重暂未分配（待处理或不予评审）/)).toBeVisible();

  // On a phone the 查重 page fits the screen, and the pair stands one text above the other.
  await orgPage.setViewportSize({ width: 390, height: 844 });
  await orgPage.goto(`/backadmin.html#/question/similarity/${questionId}`);
  await expect(orgPage.getByText('已完成')).toBeVisible();
  await fitsPhone(orgPage, 'similarity');
  await row('借鉴队').getByRole('button', { name: '对比' }).first().click();
  const phonePair = orgPage.getByRole('dialog', { name: '作品对比' });
  await expect(phonePair.getByTestId('pair-text')).toHaveCount(2);
  await expect(phonePair.getByTestId('pair-text').nth(1)).toBeInViewport();
  // Once its opening animation is over, the dialog takes the phone's width and no more.
  await expect.poll(() => phonePair.evaluate((d) => d.getBoundingClientRect().width)).toBeGreaterThan(350);
  await expect.poll(() => phonePair.evaluate((d) => d.getBoundingClientRect().width)).toBeLessThanOrEqual(390);
  if (process.env.SHOTS_DIR) await orgPage.screenshot({ path: `${process.env.SHOTS_DIR}/similarity-pair-390.png` });
});

test('duplicate accounts: the organiser sees two teams that sent the same predictions, with the evidence', async ({ browser }) => {
  test.setTimeout(240_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);
  const presets = await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json();
  for (const code of ['CHOICE_SET', 'SUBMIT_TEST']) {
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.data.find((p: { menuCode: string }) => p.menuCode === code).id}`, { enable: true });
  }
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, {
    title: '用电量预测',
    judging: 'auto',
    evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 20, dailyLimit: 5 },
  });
  const answer = ['id,y', ...Array.from({ length: 300 }, (_, i) => `r${i},${i}`)].join('\n');
  await upload(orgPage, `/api/competition/question/${questionId}/answer`, { name: 'answer.csv', mimeType: 'text/csv', buffer: Buffer.from(answer) });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });
  const model = () => ['id,y', ...Array.from({ length: 300 }, (_, i) => `r${i},${(i + random() * 6 - 3).toFixed(3)}`)].join('\n');
  const shared = model();
  for (const [teamName, file] of [
    ['主账号队', shared],
    ['小号队', shared],
    ['独立队', model()],
  ] as const) {
    const page = await (await browser.newContext()).newPage();
    const username = uniqueName('dup');
    await register(page, username);
    await login(page, username, 'Passw0rd1');
    const { registerId, teamId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName, info: { userName: '王同学' } });
    await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
    await api(page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });
    await upload(page, `/api/review/test/${questionId}`, { name: 'pred.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  }

  await orgPage.goto(`/backadmin.html#/question/test/${questionId}`);
  const card = orgPage.getByTestId('duplicates');
  // Scoring runs in the background: the pair appears once the three files are scored.
  await expect(async () => {
    await orgPage.reload();
    await expect(card.getByText('已比对 3 个文件')).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 60_000 });
  const pair = card.locator('.ant-table-row');
  await expect(pair).toHaveCount(1);
  await expect(pair).toContainText('主账号队');
  await expect(pair).toContainText('小号队');
  await expect(pair).toContainText('100.0%');
  await expect(pair).not.toContainText('独立队');
  if (process.env.SHOTS_DIR) await orgPage.screenshot({ path: `${process.env.SHOTS_DIR}/duplicates-1440.png`, fullPage: true });
  // On a phone, as it loads there (the side menu folded).
  await orgPage.setViewportSize({ width: 390, height: 844 });
  await orgPage.reload();
  await expect(pair).toBeVisible();
  await fitsPhone(orgPage, 'duplicates');
});
