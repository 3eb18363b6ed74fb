import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, api, login, newOrganiser, openCompetition, pressInDialog, register, uniqueName } from './fixtures.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** A participant of the competition with an approved registration (and so an unpaid order), its box emptied. */
async function participant(browser: Browser, orgPage: Page, competitionId: number, teamName: string) {
  const page = await (await browser.newContext()).newPage();
  const username = uniqueName('notice');
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  const { registerId, orderId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName, info: { userName: teamName } });
  await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
  return { page, orderId: orderId as number };
}

const badge = (page: Page) => page.getByTestId('unread-badge').first();

test('an organiser sends a notice to the unpaid teams of a competition; only those see the badge rise, live, and read it', async ({ browser }) => {
  test.setTimeout(180_000);
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext()).newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 5000, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);

  const paid = await participant(browser, orgPage, competitionId, '已缴费队');
  const unpaid = await participant(browser, orgPage, competitionId, '未缴费队');
  // Finance marks one team paid (collective payment with a voucher).
  const csrf = (await orgPage.context().cookies()).find((c) => c.name === 'contest_csrf')!.value;
  const upload = await orgPage.request.post('/api/file/upload/document?purpose=voucher', {
    headers: { 'x-csrf-token': csrf },
    multipart: { file: { name: '凭证.pdf', mimeType: 'application/pdf', buffer: PDF } },
  });
  await api(orgPage, 'PUT', '/api/order/batch/payment', { ids: [paid.orderId], payerOrg: '某大学', voucher: (await upload.json()).data.fileUri });

  // Both participants start from an empty box (the approval and payment messages read), on the competition list.
  for (const p of [paid, unpaid]) {
    await api(p.page, 'PUT', '/api/message/notice/user/all');
    await p.page.goto('/competitionList');
    await expect(badge(p.page)).toHaveAttribute('data-count', '0');
  }

  // The organiser writes the notice in the back office and publishes it.
  await orgPage.goto('/backadmin.html#/message/notice');
  await orgPage.getByRole('button', { name: '新建通知' }).click();
  const dialog = orgPage.getByRole('dialog');
  await dialog.getByLabel('标题').fill('请尽快缴纳报名费');
  await dialog.getByLabel('竞赛参赛者').check();
  await dialog.getByLabel('竞赛', { exact: true }).click();
  await orgPage
    .locator('.ant-select-dropdown:visible')
    .getByText(/报名赛/)
    .first()
    .click();
  await dialog.getByLabel('缴费状态').click();
  await orgPage.locator('.ant-select-dropdown:visible').getByText('未缴费').click();
  await expect(dialog.getByTestId('notice-recipients')).toHaveText('将发送给 1 位用户');
  await dialog.getByRole('button', { name: '保存草稿' }).click();
  await expect(orgPage.getByText('已保存为草稿')).toBeVisible();
  const row = orgPage.locator('.ant-table-row').filter({ hasText: '请尽快缴纳报名费' });
  await row.getByText('发布', { exact: true }).click();
  await pressInDialog(orgPage, /发\s*布/);
  await expect(orgPage.getByText('通知已发布')).toBeVisible();
  await expect(row).toContainText('已发布');

  // The unpaid participant's open page shows it at once; the paid one's does not change.
  await expect(badge(unpaid.page)).toHaveAttribute('data-count', '1');
  await expect(badge(paid.page)).toHaveAttribute('data-count', '0');

  // Reading it clears the badge.
  await unpaid.page.getByRole('link', { name: /消息/ }).first().click();
  await expect(unpaid.page).toHaveURL(/\/message/);
  await unpaid.page.getByTestId('message-unread').filter({ hasText: '请尽快缴纳报名费' }).click();
  await expect(unpaid.page.getByText('请尽快缴纳报名费').first()).toBeVisible();
  await expect(badge(unpaid.page)).toHaveAttribute('data-count', '0');
  await expect(unpaid.page.getByTestId('message-read').filter({ hasText: '请尽快缴纳报名费' })).toBeVisible();

  await paid.page.goto('/message');
  await expect(paid.page.getByText('请尽快缴纳报名费')).toHaveCount(0);
});
