import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRule } from '../src/http/access.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * docs/routes.md is the route registry written out: every route's method, path, access rule and module, as the app
 * registers them. This test fails when the file is stale; `UPDATE_ROUTES_DOC=1 npx vitest run server/test/routes-doc.test.ts`
 * writes it anew.
 */
const DOC = path.join(import.meta.dirname, '..', '..', 'docs', 'routes.md');

function render(routes: TestApp['routes']): string {
  const byModule = new Map<string, TestApp['routes']>();
  for (const r of routes) byModule.set(r.module, [...(byModule.get(r.module) ?? []), r]);
  const lines = [
    '# Routes',
    '',
    'Generated from the route registry by `server/test/routes-doc.test.ts` (`UPDATE_ROUTES_DOC=1` rewrites it; the test fails',
    'when it is stale). Each route declares one access rule: `public`, `user` (any logged-in user) or a permission code;',
    "object-level checks (this competition, this team, this work) are the services' and the policy's. The module is the",
    'folder under `server/src/modules` whose `routes.ts` declares the route (`app`: the app itself). The reply is what the',
    "route's response schema declares: `json` (the envelope around a shared schema; nothing undeclared leaves the server)",
    '`file` (a file, spreadsheet or event stream) or `redirect`.',
    '',
  ];
  for (const [module, list] of [...byModule].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`## ${module}`, '', '| method | path | rule | reply |', '|---|---|---|---|');
    const sorted = [...list].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
    for (const r of sorted)
      lines.push(`| ${r.method} | \`${r.url}\` | ${'permission' in r.rule ? `\`${r.rule.permission}\`` : describeRule(r.rule)} | ${r.reply ?? '—'} |`);
    lines.push('');
  }
  return lines.join('\n');
}

describe('docs/routes.md', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The payment simulator's routes are part of the registry when it is on; the doc lists the production set.
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('lists every registered route with its rule and module', () => {
    const api = t.routes.filter(
      (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.url !== '/api/payment/simulator' && !r.url.startsWith('/api/payment/simulator/'),
    );
    expect(
      api.every((r) => r.module !== 'app'),
      'every API route belongs to a module',
    ).toBe(true);
    // The contract of routes.ts includes the reply: every route declares its response schema (or a file, or a redirect).
    expect(
      api.filter((r) => !r.reply).map((r) => `${r.method} ${r.url}`),
      'routes without a response schema',
    ).toEqual([]);
    const text = render(api);
    if (process.env.UPDATE_ROUTES_DOC === '1') fs.writeFileSync(DOC, text);
    expect(fs.readFileSync(DOC, 'utf8'), 'docs/routes.md is stale: UPDATE_ROUTES_DOC=1 npx vitest run server/test/routes-doc.test.ts').toBe(text);
  });
});
