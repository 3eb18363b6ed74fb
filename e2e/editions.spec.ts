import { expect, test, type Page } from '@playwright/test';
import { ADMIN, api, login, newOrganiser, openCompetition, pressInDialog, uniqueName } from './fixtures.ts';

/**
 * Issue 38 items 1 and 2 through the screens: the organiser copies a running competition as its next edition from the
 * competition list (the name's year and 第N届 moved on, dates a year on, every part ticked), lands in the new draft's
 * editor whose checklist asks for the dates and the fee to be rechecked and the judges to be named, says the dates are
 * rechecked; the competition's page lists 往届 once the new edition is online. The list's 导出 downloads the archive,
 * and 导入竞赛包 makes a draft of it with its report. At 1440 px, and the copy dialog at 390 px.
 */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
test.use({ actionTimeout: 30_000 });

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png`, fullPage: true });
}

test('复制为新一届 and the competition archive, through the back office', async ({ browser }) => {
  test.setTimeout(240_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
  const organiser = await newOrganiser(orgPage, adminPage);
  const name = `2025年第九届${uniqueName('挑战赛')}`;
  const competitionId = await openCompetition(orgPage, adminPage, 3000, [{ label: '姓名', name: 'userName', otherParams: { required: true } }], { name });
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, { title: '论文题', judging: 'review' });
  await api(orgPage, 'PUT', `/api/review/rules/${questionId}`, {
    criteria: [{ name: '创新性', maxScore: 100 }],
    judgesPerWork: 1,
    aggregation: 'mean',
    reviewWeight: 100,
    testWeight: 0,
    blind: true,
    disputeDays: 3,
  });

  // The list's 复制为新一届: the offered name, the dates it gives, and all parts ticked.
  await orgPage.goto('/backadmin.html#/competition/manager');
  const row = orgPage.getByRole('row').filter({ hasText: name });
  await row.getByRole('button', { name: '复制为新一届' }).click();
  const dialog = orgPage.getByRole('dialog');
  await expect(dialog.getByLabel('新一届名称')).toHaveValue(name.replace('2025年第九届', '2026年第十届'));
  await expect(dialog.getByText(/共 36[56] 天/)).toBeVisible();
  for (const part of ['竞赛阶段', '证书模板', '评审规则与奖项设置']) await expect(dialog.getByRole('checkbox', { name: new RegExp(part) })).toBeChecked();
  // Review rules without questions are refused before anything is sent.
  await dialog.getByRole('checkbox', { name: /赛题及评分设置/ }).uncheck();
  await dialog.getByRole('button', { name: /创建新一届/ }).click();
  await expect(dialog.getByText('复制“评审规则与奖项设置”须同时复制“赛题及评分设置、答案文件、评分程序、查重设置”')).toBeVisible();
  await dialog.getByRole('checkbox', { name: /赛题及评分设置/ }).check();
  await shot(orgPage, 'edition-clone-1440');
  await pressInDialog(orgPage, /创建新一届/);

  // The new draft's editor: its checklist says what to recheck.
  await expect(orgPage).toHaveURL(/#\/competition\/edit\/\d+/);
  const newId = Number(/edit\/(\d+)/.exec(orgPage.url())![1]);
  expect(newId).not.toBe(competitionId);
  const dates = orgPage.locator('[data-testid="readiness-item"][data-key="recheck:dates"]');
  await expect(dates).toHaveAttribute('data-ok', 'false');
  await expect(dates).toContainText('所有日期已整体顺延');
  await expect(orgPage.locator('[data-testid="readiness-item"][data-key="recheck:fee"]')).toContainText('30.00 元');
  await expect(orgPage.locator('[data-testid="readiness-item"][data-key="recheck:judges"]')).toContainText('“论文题”尚未指定评审专家');
  await shot(orgPage, 'edition-readiness-1440');
  await dates.getByRole('button', { name: '已复核' }).click();
  // Settled, it moves among the checks done (folded).
  await expect(dates).toHaveCount(0);
  await orgPage.getByText(/已完成的检查/).click();
  await expect(orgPage.locator('[data-testid="readiness-item"][data-key="recheck:dates"]')).toHaveAttribute('data-ok', 'true');

  // 往届 on the competition's page, once the new edition is online.
  await api(orgPage, 'PUT', `/api/competition/publish/${newId}`);
  await api(adminPage, 'PUT', `/api/competition/audit/${newId}`);
  const visitor = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await visitor.goto(`/competition/${newId}/introduce`);
  const editions = visitor.getByTestId('editions');
  await expect(editions).toContainText('第2届（本届）');
  await editions.getByRole('link', { name: new RegExp(`第1届 ${name}`) }).click();
  await expect(visitor).toHaveURL(new RegExp(`/competition/${competitionId}/introduce`));
  await expect(visitor.getByTestId('editions')).toContainText('第1届（本届）');
  await shot(visitor, 'edition-site-1440');

  // The archive: exported from the list, imported again as a draft with its report.
  await orgPage.goto('/backadmin.html#/competition/manager');
  const download = orgPage.waitForEvent('download');
  await orgPage.getByRole('row').filter({ hasText: name }).getByRole('button', { name: '导出' }).click();
  const file = await (await download).path();
  expect((await download).suggestedFilename()).toBe(`${name}-竞赛包.zip`);
  await orgPage.getByRole('button', { name: '导入竞赛包' }).click();
  const importDialog = orgPage.getByRole('dialog');
  await importDialog.locator('input[type=file]').setInputFiles(file!);
  await importDialog.getByRole('button', { name: /导\s*入/ }).click();
  await expect(importDialog.getByText(`已导入“${name}”（草稿）`)).toBeVisible({ timeout: 30_000 });
  await expect(importDialog.getByText(/支付商户与密钥/)).toBeVisible();
  await shot(orgPage, 'edition-import-1440');
  await importDialog.getByRole('button', { name: '打开草稿' }).click();
  await expect(orgPage).toHaveURL(/#\/competition\/edit\/\d+/);

  // The copy dialog fits a phone.
  const phone = await (await browser.newContext(PHONE)).newPage();
  await login(phone, organiser, 'Passw0rd1');
  await phone.goto('/backadmin.html#/competition/manager');
  // (The imported draft bears the same name: either row will do.)
  await phone.getByRole('row').filter({ hasText: name }).first().getByRole('button', { name: '复制为新一届' }).click();
  await expect(phone.getByRole('dialog').getByLabel('新一届名称')).toBeVisible();
  await expect(phone.locator('.ant-modal-wrap [class*="ant-zoom-"]')).toHaveCount(0);
  await expect.poll(() => phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(phone, 'edition-clone-390');
});
