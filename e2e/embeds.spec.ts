import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Browser, type FrameLocator, type Page } from '@playwright/test';
import { EMBED_PATHS, embedSnippet } from '@contest/shared';
import { ADMIN, api, closeSubmissions, login, newOrganiser, openCompetition, register, uniqueName, upload } from './fixtures.ts';

/**
 * Issue 38 items 3–5 in Chromium: a prediction contest's board and its 公示 list, framed by a page of another site (the
 * origin the organiser listed) with third-party cookies blocked, at 1440 px and 390 px; each frame sizes itself by
 * postMessage. A site not listed gets nothing. The 公示 page itself takes an objection through its screens.
 */
const IDS = Array.from({ length: 40 }, (_, i) => `e${i}`);
const ANSWER = ['id,y', ...IDS.map((id, i) => `${id},${i}`)].join('\n');
const prediction = (off: number) => ['id,y', ...IDS.map((id, i) => `${id},${i + off}`)].join('\n');

test.use({ actionTimeout: 30_000 });

/** A valid mainland ID number of this run (its check character computed), for the ID-check simulator. */
function idNumber() {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const first17 = `1101051990${String(1 + (Date.now() % 12)).padStart(2, '0')}${String(1 + (Math.floor(Date.now() / 12) % 28)).padStart(2, '0')}${String(100 + Math.floor(Math.random() * 800))}`;
  const sum = [...first17].reduce((n, d, i) => n + Number(d) * weights[i]!, 0);
  return first17 + '10X98765432'[sum % 11]!;
}

/** A page of another site holding the platform's snippets: served from 127.0.0.1 (another site than localhost). */
async function hostSite(platform: string, competitionId: number, questionId: number) {
  const html = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>某大学数学建模协会</title></head>
<body style="margin:0;font-family:sans-serif"><header style="padding:12px;background:#003a8c;color:#fff">某大学数学建模协会 · 竞赛动态</header>
<main style="padding:12px"><h2>排行榜</h2>${embedSnippet(platform, EMBED_PATHS.leaderboard(questionId), '排行榜')}
<h2>获奖名单</h2>${embedSnippet(platform, EMBED_PATHS.results(competitionId), '获奖名单')}</main></body></html>`;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * A page whose browser refuses third-party cookies, as Safari, Firefox's strict mode and Chrome's 阻止第三方 Cookie
 * setting do: Chromium's own switch, applied to the page's network service (each frame then checks it holds).
 */
async function cookiePolicy(browser: Browser, viewport: { width: number; height: number }, blocked: boolean) {
  const context = await browser.newContext({ viewport, ...(viewport.width < 500 ? { isMobile: true, hasTouch: true } : {}) });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send(
    'Network.setCookieControls' as never,
    { enableThirdPartyCookieRestriction: blocked, disableThirdPartyCookieMetadata: blocked, disableThirdPartyCookieHeuristics: blocked } as never,
  );
  return page;
}

async function frameHeight(page: Page, title: string) {
  return page.locator(`iframe[title="${title}"]`).evaluate((f) => (f as HTMLIFrameElement).getBoundingClientRect().height);
}

test('the board and the 公示 list framed by another site, third-party cookies blocked, at 1440 and 390 px', async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const platform = new URL(baseURL!).origin;
  const adminPage = await (await browser.newContext()).newPage();
  await login(adminPage, ADMIN.username, ADMIN.password);
  const orgPage = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await newOrganiser(orgPage, adminPage);
  const competitionId = await openCompetition(orgPage, adminPage, 0, [{ label: '姓名', name: 'userName', otherParams: { required: true } }]);
  const presets = (await (await orgPage.request.get(`/api/competition/preset/public/list/${competitionId}`)).json()).data as { id: number; menuCode: string }[];
  for (const code of ['CHOICE_SET', 'SUBMIT_TEST', 'GRADE_SET'])
    await api(orgPage, 'PUT', `/api/competition/preset/${presets.find((p) => p.menuCode === code)!.id}`, { enable: true });
  const { id: questionId } = await api(orgPage, 'POST', `/api/competition/question/${competitionId}`, {
    title: '城市用电预测',
    judging: 'auto',
    evaluation: { metric: 'mae', idColumn: 'id', targetColumn: 'y', publicPercent: 50, dailyLimit: 5 },
  });
  await upload(orgPage, `/api/competition/question/${questionId}/answer`, { name: 'answer.csv', mimeType: 'text/csv', buffer: Buffer.from(ANSWER) });
  await api(adminPage, 'PUT', `/api/competition/question/review/${questionId}`, { reviewed: true });

  // Two teams send predictions; submission closes; grades confirmed (the private board published) and awarded.
  const teams: Page[] = [];
  for (const [i, name] of ['电力先锋队', '负荷预测队'].entries()) {
    const page = await (await browser.newContext()).newPage();
    const username = uniqueName('embed');
    await register(page, username);
    await login(page, username, 'Passw0rd1');
    const { registerId, teamId } = await api(page, 'POST', `/api/team/register/${competitionId}`, { teamName: name, info: { userName: `队员${i}` } });
    await api(orgPage, 'POST', `/api/team/register/flow/${registerId}`, { action: 'approve' });
    await api(page, 'PUT', `/api/team/choiceQuestion/${teamId}`, { questionId });
    await upload(page, `/api/review/test/${questionId}`, { name: 'p.csv', mimeType: 'text/csv', buffer: Buffer.from(prediction(i)) });
    teams.push(page);
  }
  for (const page of teams)
    await expect
      .poll(async () => (await (await page.request.get(`/api/review/test/list/${questionId}`)).json()).data.list[0].status, { timeout: 60_000 })
      .toBe(2);
  await closeSubmissions(orgPage, competitionId);
  await api(orgPage, 'POST', `/api/review/works/calcFinalScore/${questionId}`);
  await api(orgPage, 'POST', `/api/review/works/confirmFinalScore/${questionId}`);
  await api(orgPage, 'PUT', `/api/review/works/awards/${questionId}`, {
    levels: [
      { name: '一等奖', rankFrom: 1, rankTo: 1 },
      { name: '二等奖', rankFrom: 2, rankTo: 2 },
    ],
  });
  await api(orgPage, 'POST', `/api/review/works/awards/apply/${questionId}`);

  // The organiser opens the 公示 and lists the association's site, through 查看详情's panel.
  const host = await hostSite(platform, competitionId, questionId);
  try {
    await orgPage.goto(`/backadmin.html#/competition/view/${competitionId}`);
    const panel = orgPage.getByTestId('publicity-panel');
    await expect(panel).toContainText('未公示');
    const fmt = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    await panel.locator('.ant-picker-input input').first().click();
    await panel
      .locator('.ant-picker-input input')
      .first()
      .fill(fmt(new Date(Date.now() - 3600_000)));
    await panel.locator('.ant-picker-input input').first().press('Enter');
    await panel
      .locator('.ant-picker-input input')
      .last()
      .fill(fmt(new Date(Date.now() + 3 * 86_400_000)));
    await panel.locator('.ant-picker-input input').last().press('Enter');
    const origins = panel.getByRole('combobox', { name: '允许嵌入的网站' });
    await origins.fill(host.origin);
    await origins.press('Enter');
    await panel.getByRole('button', { name: '保存公示设置' }).click();
    await expect(panel).toContainText('公示中');
    await panel.getByText('获奖名单（公示）').click();
    await expect(panel.getByTestId('embed-snippet').first()).toContainText(`${platform}/embed/results/${competitionId}`);
    if (process.env.SHOTS_DIR) await panel.screenshot({ path: `${process.env.SHOTS_DIR}/embed-panel-1440.png` });

    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const page = await cookiePolicy(browser, viewport, true);
      // The visitor is logged in on the platform in the same browser: the frames must not need, nor get, that cookie.
      await login(page, ADMIN.username, ADMIN.password);
      await page.goto(host.origin);
      const board: FrameLocator = page.frameLocator('iframe[title="排行榜"]');
      const results: FrameLocator = page.frameLocator('iframe[title="获奖名单"]');
      await expect(board.locator('h1')).toContainText('城市用电预测 · 排行榜');
      await expect(board.locator('tbody tr')).toHaveCount(2);
      await expect(board.locator('tbody tr').first()).toContainText('电力先锋队');
      await expect(board.locator('.m').first()).toContainText('私榜（最终排名）');
      await expect(results.locator('h1')).toContainText('获奖名单');
      await expect(results.locator('h1')).toContainText('公示中');
      await expect(results.locator('tbody tr').first()).toContainText('一等奖');
      await expect(results.locator('tbody tr').first()).toContainText('电力先锋队');
      // No member's name in either.
      for (const f of [board, results]) await expect(f.locator('body')).not.toContainText('队员0');
      // Third-party cookies are blocked in the frame: a cookie it writes is not kept (the browser's setting holds).
      const frame = page.frames().find((f) => f.url().includes('/embed/results/'))!;
      expect(await frame.evaluate(() => ((document.cookie = 'probe=1; SameSite=None; Secure'), document.cookie))).toBe('');
      // Each frame has taken its content's height (nothing cut, no inner scroll bar).
      await expect.poll(() => frameHeight(page, '获奖名单')).toBeGreaterThan(150);
      const inner = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      expect(Math.abs((await frameHeight(page, '获奖名单')) - inner)).toBeLessThanOrEqual(2);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/embed-host-${viewport.width}.png`, fullPage: true });
      await page.context().close();
    }

    // On the platform, the 公示 page through the screens: from the competition's page; an objection needs a real name.
    const visitor = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    const username = uniqueName('objector');
    await register(visitor, username);
    await login(visitor, username, 'Passw0rd1');
    await visitor.goto(`/competition/${competitionId}/introduce`);
    await visitor.getByTestId('results-link').click();
    await expect(visitor).toHaveURL(new RegExp(`/results/${competitionId}$`));
    const first = visitor.getByTestId('results-question').locator('.ant-table-row').first();
    await expect(first).toContainText('电力先锋队');
    await first.getByRole('button', { name: '提出异议' }).click();
    const objection = visitor.getByRole('dialog');
    await objection.getByLabel('异议理由').fill('该队提交时间晚于截止时间，请核实');
    await objection.getByRole('button', { name: '提交异议' }).click();
    await expect(objection.getByText('提出异议须实名：请先在个人中心完成实名认证')).toBeVisible();
    await objection.getByRole('link', { name: '去实名认证' }).click();
    await visitor.getByLabel('姓名').fill('王五');
    await visitor.getByLabel('证件号码').fill(idNumber());
    await visitor.getByRole('button', { name: '立即认证' }).click();
    await expect(visitor.getByText('已完成实名认证')).toBeVisible();
    await visitor.goto(`/results/${competitionId}`);
    await visitor.getByTestId('results-question').locator('.ant-table-row').first().getByRole('button', { name: '提出异议' }).click();
    await visitor.getByRole('dialog').getByLabel('异议理由').fill('该队提交时间晚于截止时间，请核实');
    await visitor.getByRole('dialog').getByRole('button', { name: '提交异议' }).click();
    await expect(visitor.getByRole('dialog').getByText('异议已提交')).toBeVisible();
    await expect.poll(() => visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (process.env.SHOTS_DIR) await visitor.screenshot({ path: `${process.env.SHOTS_DIR}/results-390.png`, fullPage: true });
    // The organiser finds it among the question's disputes, with the objector's real name.
    await orgPage.goto(`/backadmin.html#/question/grade/${questionId}`);
    const row = orgPage.locator('.ant-table-row').filter({ hasText: '该队提交时间晚于截止时间' });
    await expect(row).toContainText('公示异议');
    await expect(row).toContainText('王五');

    // A site not listed gets no frame: the browser refuses it (frame-ancestors).
    const stranger = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><meta charset="utf-8">${embedSnippet(platform, EMBED_PATHS.results(competitionId), '获奖名单')}`);
    });
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    try {
      const page = await (await browser.newContext()).newPage();
      await page.goto(`http://127.0.0.1:${(stranger.address() as AddressInfo).port}`);
      await page.waitForTimeout(1000);
      // (Chromium shows its own error page in the frame instead.)
      const framed = page.frames().find((f) => f !== page.mainFrame());
      expect(framed ? await framed.locator('body').innerText() : '').not.toContain('获奖名单');
      expect(framed?.url() ?? '').not.toContain('/embed/');
      await page.context().close();
    } finally {
      stranger.close();
    }
  } finally {
    host.server.close();
  }
});
