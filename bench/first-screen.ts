import { gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { chromium, type Response } from '@playwright/test';

/** Budget of ARCHITECTURE §9: gzip JavaScript loaded before the participant site's competition list shows. */
export const FIRST_SCREEN_BUDGET_KB = 250;

/** A competition card, or the list's empty state when there is none. */
const COMPETITION_LIST = '[data-testid="competition-card"], .ant-empty';

export interface FirstScreen {
  gzipKb: number;
  files: { url: string; gzipBytes: number }[];
}

function isJavaScript(response: Response): boolean {
  const type = response.headers()['content-type'] ?? '';
  return type.includes('javascript') || /\.m?js(\?|$)/.test(new URL(response.url()).pathname);
}

/**
 * Opens the participant home page in a fresh browser (nothing cached) and sums the JavaScript that had arrived when the
 * competition list became visible. The moment is taken in the page (a mutation observer) and compared with each
 * script's Resource Timing, so that what the list's own render starts fetching (the pager below it, say) does not count
 * just because it arrived before the test runner noticed the list. Each body is gzipped here at level 9, so the figure
 * does not depend on whether the server compresses.
 */
export async function measureFirstScreen(baseUrl: string): Promise<FirstScreen> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    await page.addInitScript((selector) => {
      const w = window as unknown as { listShownAt?: number };
      const observer = new MutationObserver(() => {
        const el = document.querySelector(selector);
        if (el && el.getBoundingClientRect().width > 0) {
          w.listShownAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true });
    }, COMPETITION_LIST);
    const responses = new Map<string, Response>();
    page.on('response', (response) => {
      if (isJavaScript(response)) responses.set(response.url(), response);
    });
    await page.goto(`${baseUrl.replace(/\/$/, '')}/`);
    await page.locator(COMPETITION_LIST).first().waitFor({ state: 'visible', timeout: 30_000 });
    const loaded = await page.evaluate(() => {
      const shownAt = (window as unknown as { listShownAt: number }).listShownAt;
      return performance
        .getEntriesByType('resource')
        .filter((e) => (e as PerformanceResourceTiming).responseEnd <= shownAt)
        .map((e) => e.name);
    });
    const files = await Promise.all(
      [...new Set(loaded)]
        .filter((url) => responses.has(url))
        .map(async (url) => ({ url, gzipBytes: gzipSync(await responses.get(url)!.body(), { level: 9 }).length })),
    );
    files.sort((a, b) => b.gzipBytes - a.gzipBytes);
    const total = files.reduce((sum, f) => sum + f.gzipBytes, 0);
    return { gzipKb: Math.round((total / 1024) * 10) / 10, files };
  } finally {
    await browser.close();
  }
}

// `node --import tsx bench/first-screen.ts http://127.0.0.1:PORT`
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const baseUrl = process.argv[2];
  if (!baseUrl) {
    console.error('usage: node --import tsx bench/first-screen.ts <base url of a running server>');
    process.exit(2);
  }
  const { gzipKb, files } = await measureFirstScreen(baseUrl);
  for (const f of files) console.log(`${(f.gzipBytes / 1024).toFixed(1).padStart(8)} kB  ${new URL(f.url).pathname}`);
  console.log(
    `first screen: ${gzipKb} kB gzip JavaScript in ${files.length} files (budget ${FIRST_SCREEN_BUDGET_KB} kB, ${(gzipKb / FIRST_SCREEN_BUDGET_KB).toFixed(2)} of it)`,
  );
}
