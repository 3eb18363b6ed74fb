import { expect, test, type BrowserContext } from '@playwright/test';
import { register, uniqueName } from './fixtures.ts';

/**
 * Spec §2.1 and §7, the desktop hand-over: the desktop client opens the site (competitionList?electron=app, which sets
 * the state cookie and names the desktop app's origin); the same site opened at another origin of this host (here a
 * second port, served by the same server through the browser's routing) sends the user back to the desktop app's
 * competitionList with electron=app and the token; the desktop app's login, /login?state=app, at that other origin
 * hands a new token to the desktop app that way. Never to a host the cookie names that is not the desktop app.
 */
const OTHER_PORT = 3299;

/** `http://localhost:OTHER_PORT` is this server too: cookies of localhost are shared between ports, as in a browser. */
async function serveOtherOrigin(context: BrowserContext, base: string) {
  await context.route(`http://localhost:${OTHER_PORT}/**`, async (route) => {
    const url = new URL(route.request().url());
    const target = new URL(url.pathname + url.search, base);
    const headers = { ...route.request().headers() };
    // The server checks that writes come from its own origin; here the other origin stands for it.
    if (headers.origin) headers.origin = new URL(base).origin;
    const response = await route.fetch({ url: target.toString(), headers, maxRedirects: 0 });
    await route.fulfill({ response });
  });
}

test('the desktop app gets the user and the token back from another origin of the site', async ({ page, context, baseURL }) => {
  const base = new URL(baseURL!).origin;
  await serveOtherOrigin(context, base);
  const username = uniqueName('desk');
  await register(page, username);
  const launch = await page.request.post('/api/auth/token', { data: { username, password: 'Passw0rd1' } });
  const launchToken = ((await launch.json()) as { data: { token: string } }).data.token;

  // The desktop client opens the site.
  await page.goto(`/competitionList?electron=app&token=${launchToken}`);
  await expect(page.getByText('竞赛列表').first()).toBeVisible();
  const cookies = Object.fromEntries((await context.cookies(base)).map((c) => [c.name, decodeURIComponent(c.value)]));
  expect(cookies).toMatchObject({ state: 'app', appOrigin: base });

  // The site at another origin sends the desktop browser to the desktop app, with the token.
  const other = `http://localhost:${OTHER_PORT}`;
  await page.goto(`${other}/competitionList?token=${launchToken}`);
  await page.waitForURL(`${base}/competitionList?electron=app&token=${launchToken}`);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(launchToken);

  // The desktop app's login at the other origin hands a new token over to the desktop app.
  await page.goto(`${other}/login?state=app`);
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill('Passw0rd1');
  await page.getByRole('button', { name: /^登\s*录$/ }).click();
  await page.waitForURL((url) => url.origin === base && url.pathname === '/competitionList' && url.searchParams.get('electron') === 'app');
  const handedOver = new URL(page.url()).searchParams.get('token');
  expect(handedOver).toMatch(/^[A-Za-z0-9_-]{20,200}$/);
  expect(handedOver).not.toBe(launchToken);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(handedOver);
  // The handed-over token is a live session of that user.
  const me = await page.request.get('/api/auth/sessions', { headers: { authorization: `Bearer ${handedOver}` } });
  expect(me.status()).toBe(200);
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

test('a cookie naming another host is no desktop app: nobody and no token is sent there', async ({ page, context, baseURL }) => {
  const base = new URL(baseURL!).origin;
  const foreign: string[] = [];
  await context.route('https://evil.example/**', async (route) => {
    foreign.push(route.request().url());
    await route.fulfill({ status: 200, body: 'evil' });
  });
  await context.addCookies([
    { name: 'state', value: 'app', url: base },
    { name: 'appOrigin', value: encodeURIComponent('https://evil.example'), url: base },
  ]);
  await serveOtherOrigin(context, base);
  await page.goto(`http://localhost:${OTHER_PORT}/competitionList?token=tok_not_for_anyone_else`);
  await expect(page.getByText('竞赛列表').first()).toBeVisible();
  expect(new URL(page.url()).host).toBe(`localhost:${OTHER_PORT}`);
  await page.waitForLoadState('networkidle');
  expect(new URL(page.url()).host).toBe(`localhost:${OTHER_PORT}`);
  expect(foreign).toEqual([]);
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});
