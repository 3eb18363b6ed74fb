import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, chooseUserMenu, fillDate, login, newOrganiser, pressInDialog, register, uniqueName } from './fixtures.ts';

/**
 * Issue 36 (院校负责人 and 两级审核), through the screens only, at 1440 px and, for the participant's registration and
 * the coordinator's page, at 390 px: the administrator adds a school to 系统管理 → 学校名单; an organiser creates a
 * competition with 两级审核 ticked in 参赛资格 (the rules lock once online), has it approved, and appoints a registered
 * user 院校负责人 of that school from the competition's view page; a participant reads the rules on the competition and
 * registration pages and registers on a phone, picking the school from the list; the organiser cannot approve before
 * the school; the coordinator, in 个人中心 → 院校负责人, refuses the team with a reason; the participant reads the
 * refusal on the team tab, corrects the form and resubmits; the coordinator passes it on a phone; the organiser
 * approves it in 报名管理, and everyone sees it approved.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
};

const day = 24 * 3600_000;
/** The back office's date-time format, in China time. */
const local = (offsetMs: number) => new Date(Date.now() + offsetMs + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');

/** A mainland ID number with its check digit (GB 11643), of this run. */
function idCard() {
  const first17 = `44010619950315${String(100 + (Date.now() % 900))}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((s, d, i) => s + Number(d) * weights[i]!, 0);
  return first17 + '10X98765432'[sum % 11];
}

async function desktopPage(browser: Browser) {
  return (await browser.newContext({ viewport: DESKTOP })).newPage();
}

/** A newly registered account, logged in at 1440 px. */
async function person(browser: Browser, prefix: string) {
  const page = await desktopPage(browser);
  const username = uniqueName(prefix);
  await register(page, username);
  await login(page, username, 'Passw0rd1');
  return { page, username };
}

/** The same account on a phone (390 × 844), already logged in. */
async function onPhone(browser: Browser, page: Page) {
  const phone = await browser.newContext({ ...PHONE, storageState: await page.context().storageState() });
  return phone.newPage();
}

/** Nothing on the page is wider than the phone's screen (and, with SHOTS_DIR set, the page is kept as a picture). */
async function fitsPhone(page: Page, name?: string) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, name);
}

/** With SHOTS_DIR set, keeps the page as a picture for the README's tour and a person's look. */
async function shot(page: Page, name?: string) {
  if (process.env.SHOTS_DIR && name) await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}.png`, fullPage: true });
}

// Fail at the step that cannot be taken rather than at the end of the long test.
test.use({ actionTimeout: 30_000 });

/** In the open option list of an antd select, the option with this text. */
const option = (page: Page, text: string) => page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text });

test('院校负责人: 两级审核 sends a registration to its school first; the coordinator refuses with a reason, then passes; the organiser approves', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const adminPage = await desktopPage(browser);
  await login(adminPage, ADMIN.username, ADMIN.password);

  // ---- The administrator adds a school to the list, in 系统管理 → 学校名单.
  const school = `${uniqueName('协同')}大学`;
  await adminPage.goto('/backadmin.html#/index');
  await adminPage.getByRole('menuitem', { name: '系统管理' }).click();
  await adminPage.getByRole('menuitem', { name: '学校名单' }).click();
  await expect(adminPage).toHaveURL(/#\/system\/school$/);
  await adminPage.getByRole('button', { name: '新增学校' }).click();
  const schoolDialog = adminPage.getByRole('dialog', { name: '新增学校' });
  await schoolDialog.getByLabel('学校名称').fill(school);
  await schoolDialog.getByLabel('所在地').fill('广东省');
  await schoolDialog
    .locator('.ant-select')
    .filter({ has: adminPage.getByRole('combobox', { name: '办学层次' }) })
    .click();
  await option(adminPage, '本科').click();
  await expect(schoolDialog.locator('.ant-select-selection-item')).toHaveText('本科');
  await pressInDialog(adminPage, /保\s*存/);
  await expect(adminPage.getByText('学校已保存')).toBeVisible();
  await adminPage.getByPlaceholder('名称、拼音首字母或标识码').fill(school);
  await adminPage.getByPlaceholder('名称、拼音首字母或标识码').press('Enter');
  const schoolRow = adminPage.locator('.ant-table-row').filter({ hasText: school });
  await expect(schoolRow).toContainText('广东省');
  await expect(schoolRow).toContainText('本科');

  // ---- An organiser creates a competition with 两级审核, before it goes online (the rules lock then).
  const orgPage = await desktopPage(browser);
  await newOrganiser(orgPage, adminPage);
  await orgPage.goto('/backadmin.html#/competition/manager');
  await orgPage.getByRole('button', { name: '新建竞赛' }).click();
  const name = uniqueName('两级审核赛');
  await expect(async () => {
    await orgPage.getByLabel('所属品牌').click();
    await orgPage.getByTitle('校园数据分析系列赛').click({ timeout: 3000 });
    await expect(orgPage.locator('.ant-select-selection-item', { hasText: '校园数据分析系列赛' })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await fillDate(orgPage, '报名开始时间', local(-day));
  await fillDate(orgPage, '报名截止时间', local(20 * day));
  await fillDate(orgPage, '竞赛结束时间', local(60 * day));
  // 参赛资格: the school reviews first. The editor previews the rule as participants will read it.
  const schoolAudit = orgPage.getByRole('checkbox', { name: '学校审核后再由主办方审核' });
  await expect(orgPage.getByText('报名先由本校的院校负责人审核，通过后再由主办方审核；院校负责人在竞赛详情页指定')).toBeVisible();
  await expect(schoolAudit).not.toBeChecked();
  await schoolAudit.check();
  const preview = orgPage.getByRole('alert').filter({ hasText: '参赛者将在竞赛页和报名页看到' });
  await expect(preview).toContainText('报名先由本校院校负责人审核，再由主办方审核');
  await orgPage.getByLabel('竞赛名称').fill(name);
  await expect(orgPage.getByLabel('竞赛名称')).toHaveValue(name);
  await orgPage.getByRole('button', { name: '创建竞赛' }).click();
  await expect(orgPage).toHaveURL(/#\/competition\/edit\/[1-9]\d*$/);
  const competitionId = Number(/edit\/(\d+)/.exec(orgPage.url())![1]);
  await expect(orgPage.getByRole('checkbox', { name: '学校审核后再由主办方审核' })).toBeChecked();

  await orgPage.getByRole('button', { name: '提交审核' }).click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orgPage.getByText('已提交审核')).toBeVisible();
  await adminPage.goto('/backadmin.html#/competition/audit');
  await adminPage.locator('.ant-table-row').filter({ hasText: name }).getByRole('button', { name: '通过' }).click();
  await pressInDialog(adminPage, /确\s*定/);
  await expect(adminPage.getByText('审核通过，竞赛已上线')).toBeVisible();

  // Online, the rules are locked in the editor.
  await orgPage.goto(`/backadmin.html#/competition/edit/${competitionId}`);
  await expect(orgPage.getByRole('checkbox', { name: '学校审核后再由主办方审核' })).toBeDisabled();
  await expect(orgPage.getByRole('checkbox', { name: '学校审核后再由主办方审核' })).toBeChecked();

  // ---- The organiser appoints a registered user 院校负责人 of the school, from the competition's view page.
  const coordinator = await person(browser, 'coord');
  await orgPage.goto('/backadmin.html#/competition/manager');
  await orgPage.locator('.ant-table-row').filter({ hasText: name }).getByRole('button', { name: '查看' }).click();
  await expect(orgPage).toHaveURL(new RegExp(`#/competition/view/${competitionId}$`));
  await expect(orgPage.getByText('报名先由本校院校负责人审核，再由主办方审核')).toBeVisible();
  await expect(orgPage.getByText('尚未指定院校负责人；实行两级审核的竞赛，须为参赛学校指定')).toBeVisible();
  await orgPage.getByRole('button', { name: '指定院校负责人' }).click();
  const appoint = orgPage.getByRole('dialog', { name: '指定院校负责人' });
  await appoint.getByLabel('账号').fill(coordinator.username);
  await expect(async () => {
    await appoint
      .locator('.ant-select')
      .filter({ has: orgPage.getByRole('combobox', { name: /^(\* )?学校$/ }) })
      .click();
    await appoint.getByRole('combobox', { name: /^(\* )?学校$/ }).fill(school);
    await option(orgPage, school).click({ timeout: 3000 });
    await expect(appoint.locator('.ant-select-selection-item')).toHaveText(school, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(appoint.getByRole('radio', { name: '本竞赛' })).toBeChecked();
  await expect(appoint.getByRole('radio', { name: '本组织的所有竞赛' })).not.toBeChecked();
  await pressInDialog(orgPage, /^指\s*定$/);
  await expect(orgPage.getByText('已指定院校负责人，对方会收到通知')).toBeVisible();
  await shot(orgPage, 'coordinators-panel-1440');
  const appointed = orgPage.locator('.ant-table-row').filter({ hasText: school });
  await expect(appointed).toContainText(coordinator.username);
  await expect(appointed).toContainText('本竞赛');

  // ---- A participant reads the rules on the competition page and the registration page (1440 px) ...
  const participant = await person(browser, 'stu');
  await participant.page.goto(`/competition/${competitionId}`);
  await expect(participant.page.getByTestId('eligibility-summary')).toHaveText('报名先由本校院校负责人审核，再由主办方审核');
  await participant.page.getByRole('button', { name: '立即报名' }).click();
  await expect(participant.page).toHaveURL(new RegExp(`/registration/${competitionId}$`));
  await expect(participant.page.getByTestId('eligibility-rules')).toContainText('报名先由本校院校负责人审核，再由主办方审核');
  await expect(participant.page.getByText('报名先由本校的院校负责人审核，请从学校名单中选择')).toBeVisible();

  // ... and registers on a phone, picking the school from the list as they type.
  const phonePage = await onPhone(browser, participant.page);
  await phonePage.goto(`/registration/${competitionId}`);
  await expect(phonePage.getByTestId('eligibility-rules')).toContainText('报名先由本校院校负责人审核，再由主办方审核');
  await fitsPhone(phonePage);
  const team = uniqueName('协同队');
  const id = idCard();
  await phonePage.getByLabel('队伍名称').fill(team);
  await phonePage.getByLabel('姓名').fill('林小雨');
  await phonePage.getByLabel('身份证号').fill(id);
  await phonePage.getByLabel('手机号').fill('13800138000');
  const schoolInput = phonePage.getByLabel('学校');
  // antd shows the AutoComplete's placeholder beside its input, not as its attribute.
  await expect(phonePage.locator('.ant-form-item').filter({ has: schoolInput })).toContainText('本竞赛只接受名单内的学校');
  await schoolInput.fill(school.slice(0, -2));
  await option(phonePage, `${school}（广东省）`).click();
  await expect(schoolInput).toHaveValue(school);
  await fitsPhone(phonePage, 'registration-rules-390');
  await phonePage.getByRole('button', { name: '提交报名' }).click();
  await expect(phonePage).toHaveURL(new RegExp(`/competition/${competitionId}/team$`));
  await expect(phonePage.getByTestId('register-status')).toHaveText('待审核');

  // ---- The organiser sees it waiting for the school, and cannot approve it before the school has.
  await orgPage.goto('/backadmin.html#/register/manager');
  const registration = orgPage.locator('.ant-table-row').filter({ hasText: team });
  await expect(registration.locator('.ant-tag')).toHaveText(['待审核', '待学校审核']);
  // 通过 waits for the school (it says why on hover); the team tab tells the team the same.
  const early = registration.getByRole('button', { name: /^通\s*过$/ });
  await expect(early).toBeDisabled();
  await expect(early).toHaveAttribute('title', '须先经学校（院校负责人）审核通过');
  await expect(phonePage.getByTestId('register-next')).toContainText('等待本校院校负责人审核');

  // ---- The coordinator finds the team in 个人中心 → 院校负责人 and refuses it with a reason.
  const coord = coordinator.page;
  await coord.goto('/');
  await chooseUserMenu(coord, '个人中心', () => expect(coord).toHaveURL(/\/userCenter\/myInfo$/, { timeout: 10_000 }));
  await coord.getByRole('menuitem', { name: '院校负责人' }).click();
  await expect(coord).toHaveURL(/\/userCenter\/school$/);
  const picker = coord.locator('.ant-select').filter({ has: coord.getByRole('combobox', { name: '学校与竞赛' }) });
  await expect(picker.locator('.ant-select-selection-item')).toHaveText(`${school} · ${name}（1支队伍）`);
  await expect(coord.getByText('本竞赛实行两级审核：本校队伍的报名先由您审核')).toBeVisible();
  const waitingStat = coord.locator('.ant-statistic').filter({ hasText: '待学校审核' });
  await expect(waitingStat.locator('.ant-statistic-content')).toHaveText('1');
  const row = coord.locator('.ant-table-row').filter({ hasText: team });
  await expect(row).toContainText('林小雨');
  await expect(row.getByTestId('school-team-state')).toHaveText('待学校审核');
  await shot(coord, 'coordinator-1440');
  await row.getByRole('button', { name: /^驳\s*回$/ }).click();
  const refuse = coord.getByRole('dialog', { name: `驳回“${team}”的报名` });
  await refuse.getByRole('button', { name: /^驳\s*回$/ }).click();
  await expect(refuse.getByText('请填写驳回原因')).toBeVisible();
  const reason = '队伍名称须以本校简称开头';
  await refuse.getByLabel('驳回原因').fill(reason);
  await pressInDialog(coord, /^驳\s*回$/);
  await expect(coord.getByText('已驳回，队伍会收到通知')).toBeVisible();
  await expect(row.getByTestId('school-team-state')).toHaveText('审核驳回');
  await expect(row).toContainText(`学校审核驳回：${reason}`);
  await expect(row.getByRole('button', { name: /^通\s*过$/ })).toHaveCount(0);
  await expect(waitingStat.locator('.ant-statistic-content')).toHaveText('0');

  // ---- The participant (on the phone) reads the refusal, corrects the form and resubmits.
  await phonePage.reload();
  await expect(phonePage.getByRole('alert').filter({ hasText: '报名审核驳回' })).toContainText(`报名审核驳回：学校审核驳回：${reason}`);
  await expect(phonePage.getByTestId('register-status')).toHaveText('审核驳回');
  await phonePage.getByRole('button', { name: '修改报名信息' }).click();
  const edit = phonePage.getByRole('dialog', { name: '修改报名信息' });
  await expect(edit.getByLabel('学校')).toHaveValue(school);
  const corrected = `协同${team}`;
  await edit.getByLabel('队伍名称').fill(corrected);
  // The ID number is shown masked and is not put back in the form: it is typed again in full.
  await edit.getByLabel('身份证号').fill(id);
  await pressInDialog(phonePage, /保\s*存/);
  await expect(phonePage.getByText('已重新提交审核')).toBeVisible();
  await expect(phonePage.getByTestId('register-status')).toHaveText('待审核');
  await expect(phonePage.getByText('报名审核驳回')).toHaveCount(0);
  await expect(phonePage.locator('.team-summary')).toContainText(corrected);

  // ---- The coordinator, on a phone, sees it back at the school and passes it.
  const coordPhone = await onPhone(browser, coord);
  await coordPhone.goto('/userCenter/school');
  const card = coordPhone.getByTestId('school-team-card').filter({ hasText: corrected });
  await expect(card.getByTestId('school-team-state')).toHaveText('待学校审核');
  await expect(card).toContainText('队员：林小雨');
  await fitsPhone(coordPhone, 'coordinator-390');
  await card.getByRole('button', { name: /^通\s*过$/ }).click();
  await expect(coordPhone.getByText(`已通过“${corrected}”的学校审核，报名将交主办方审核`)).toBeVisible();
  await expect(card.getByTestId('school-team-state')).toHaveText('学校已通过，待主办方审核');
  await expect(card.getByRole('button', { name: /^通\s*过$/ })).toHaveCount(0);
  await fitsPhone(coordPhone);

  // ---- The organiser approves it in 报名管理.
  await orgPage.reload();
  const passed = orgPage.locator('.ant-table-row').filter({ hasText: corrected });
  await expect(passed.locator('.ant-tag')).toHaveText(['待审核', '学校已通过']);
  await passed.getByRole('button', { name: /^通\s*过$/ }).click();
  await pressInDialog(orgPage, /确\s*定/);
  await expect(orgPage.getByText('已审核通过')).toBeVisible();
  await expect(passed.locator('.ant-tag')).toHaveText(['审核通过']);

  // Everyone sees it approved: the team on its tab, the coordinator on the school's page.
  await phonePage.reload();
  await expect(phonePage.getByTestId('register-status')).toHaveText('审核通过');
  await coord.reload();
  await expect(coord.locator('.ant-table-row').filter({ hasText: corrected }).getByTestId('school-team-state')).toHaveText('审核通过');
  await expect(coord.locator('.ant-statistic').filter({ hasText: '审核通过' }).locator('.ant-statistic-content')).toHaveText('1');

  await Promise.all([adminPage, orgPage, coord, participant.page, phonePage, coordPhone].map((p) => p.context().close()));
});
