import { expect, test } from '@playwright/test';
import { ADMIN, fillDate, login, newOrganiser, uniqueName } from './fixtures.ts';

// An organiser abroad: the browser runs in New York, twelve or thirteen hours behind Beijing. What is typed is Beijing
// time, said beside the input, and what every page shows afterwards is the same Beijing time.
test.use({ timezoneId: 'America/New_York' });

test('an organiser in another time zone enters and sees Beijing time', async ({ browser }) => {
  test.setTimeout(120_000);
  const adminPage = await (await browser.newContext({ timezoneId: 'Asia/Shanghai' })).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext({ timezoneId: 'America/New_York' })).newPage();
  await newOrganiser(orgPage, adminPage);
  expect(await orgPage.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');

  await orgPage.goto('/backadmin.html#/competition/manager');
  await orgPage.getByRole('button', { name: '新建竞赛' }).click();
  await expect(async () => {
    await orgPage.getByLabel('所属品牌').click();
    await orgPage.getByTitle('校园数据分析系列赛').click({ timeout: 3000 });
    await expect(orgPage.locator('.ant-select-selection-item', { hasText: '校园数据分析系列赛' })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(orgPage.getByText('北京时间').first()).toBeVisible();
  await fillDate(orgPage, '报名开始时间', '2027-03-01 08:00');
  await fillDate(orgPage, '报名截止时间', '2027-03-31 20:30');
  await fillDate(orgPage, '竞赛结束时间', '2027-05-01 00:00');
  const name = uniqueName('时区测试赛');
  await orgPage.getByLabel('竞赛名称').fill(name);
  await expect(orgPage.getByLabel('竞赛名称')).toHaveValue(name);
  await orgPage.getByRole('button', { name: '创建竞赛' }).click();
  await expect(orgPage).toHaveURL(/#\/competition\/edit\/[1-9]\d*$/);
  const id = Number(/edit\/(\d+)/.exec(orgPage.url())![1]);

  // Stored as the Beijing instants typed.
  const stored = (await (await orgPage.request.get(`/api/competition/public/${id}`)).json()).data;
  expect([stored.regStartTime, stored.regEndTime, stored.endTime]).toEqual([
    '2027-03-01T00:00:00.000Z',
    '2027-03-31T12:30:00.000Z',
    '2027-04-30T16:00:00.000Z',
  ]);
  // Shown back the same in the editor after a reload, and on the site's page.
  await orgPage.reload();
  await expect(orgPage.getByLabel('报名开始时间', { exact: true })).toHaveValue('2027-03-01 08:00');
  await expect(orgPage.getByLabel('报名截止时间', { exact: true })).toHaveValue('2027-03-31 20:30');
  await orgPage.goto(`/competition/${id}/introduce`);
  await expect(orgPage.getByText('2027/03/01 08:00 至 2027/03/31 20:30')).toBeVisible();
  await Promise.all([adminPage.context().close(), orgPage.context().close()]);
});
