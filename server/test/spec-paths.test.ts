import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRule } from '../src/http/access.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * docs/spec-paths.md: every path SPEC.md names — the calls of §7 and the screens of §2 — with where it is served. The
 * calls are checked against the app's route registry (a spec call the app does not register fails this test), the
 * screens against the web routers' sources. `UPDATE_SPEC_PATHS_DOC=1 npx vitest run server/test/spec-paths.test.ts`
 * writes the file anew; the test fails when it is stale.
 */
const ROOT = path.join(import.meta.dirname, '..', '..');
const DOC = path.join(ROOT, 'docs', 'spec-paths.md');

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** A §7 call: its group's heading, the method and the full path with `{param}`s as the spec writes them. */
interface Call {
  group: string;
  method: Method;
  path: string;
  note?: string;
}

const calls: Call[] = [];
function group(name: string, base: string, entries: [Method | Method[], string, string?][]) {
  for (const [methods, rel, note] of entries) {
    const full = rel.startsWith('/api/') ? rel : `${base}${rel.startsWith('/') || base.endsWith('/') || rel === '' ? '' : '/'}${rel}`;
    for (const method of [methods].flat()) calls.push({ group: name, method, path: full, note });
  }
}

group('Certificates', '/api/review/certificate', [
  ['GET', 'page/{id}'],
  ['GET', '/{id}'],
  ['POST', '/{id}', 'fields in the query (or a JSON body)'],
  ['GET', 'load/{id}'],
  ['GET', 'cert/list'],
  ['GET', 'cert/cbda/list'],
  ['POST', 'relation/{id}'],
  ['POST', 'cert/push/{id}'],
  ['GET', 'person/{id}'],
  ['POST', 'cert/imgUrl'],
]);
group('User info', '/api/team/userinfo', [
  ['GET', 'list'],
  ['GET', '/', 'the current user'],
  ['PUT', '/'],
  ['GET', '/{id}'],
  ['GET', '/permission'],
]);
group('Stages', '/api/competition/stages', [
  ['GET', 'public/list/{competitionId}'],
  [['POST', 'PUT', 'DELETE'], '/{id}'],
]);
group('Questions', '/api/competition/question', [
  ['GET', 'public/list/{competitionId}'],
  ['GET', 'public/{id}'],
  ['GET', 'list/{id}'],
  ['GET', 'page'],
  ['POST', '/{id}'],
  ['PUT', '/{id}'],
  ['PUT', '/{id}/creator'],
  ['DELETE', '/{id}'],
  ['GET', 'check/{id}'],
  ['PUT', 'review/{id}'],
]);
group('Brand navigation', '/api/competition/brand/nav', [
  ['POST', '/'],
  ['PUT', '/{id}'],
  ['GET', 'byBrandId/{id}'],
  ['GET', 'public/nav', 'query brandId'],
]);
group('Team members', '/api/team/member', [
  [['GET', 'POST', 'PUT', 'DELETE'], '/{id}'],
  ['PUT', 'refuse/{id}'],
  ['POST', 'agree/{id}'],
  ['PUT', 'batchUpdateMember'],
  ['POST', 'invitation'],
]);
group('Competition type', '/api/competition/type', [
  ['POST', '/'],
  [['PUT', 'DELETE'], '/{id}'],
  ['GET', 'public/list'],
  ['GET', 'public/page'],
]);
group('Team statistics', '/api/team/statistics/public', [
  ['GET', 'statisticsTeamNum/{competitionId}'],
  ['GET', 'statisticsMemberNum/{competitionId}'],
]);
group('Works', '/api/review/works', [
  ['POST', '/{id}'],
  ['GET', 'page/{id}'],
  ['GET', '/{id}', 'query teamId'],
  ['PUT', '/{id}'],
  ['POST', 'confirmFinalScore/{id}'],
  ['POST', 'calcFinalScore/{id}'],
  ['POST', 'disputeScore/{id}'],
  ['GET', 'list/awards/{teamId}'],
]);
group('Team registration', '/api/team/register', [
  ['GET', '/list'],
  ['GET', '/{id}'],
  ['GET', '/item/{id}'],
  ['POST', '/flow/{id}'],
  ['GET', '/{competitionId}/attachments'],
]);
group('Competition', '/api/competition', [
  ['GET', '/api/competition/public/{id}'],
  ['GET', '/api/competition/list'],
  ['GET', '/api/competition/public/list'],
  ['GET', '/api/competition/listAuth'],
  ['POST', '/api/competition/'],
  ['PUT', '/api/competition/{id}'],
  ['PUT', '/publish/{id}'],
  ['PUT', '/audit/{id}'],
  ['DELETE', '/{id}'],
  ['PUT', '/audit/reply/{id}'],
  ['POST', '/{id}/off'],
  ['POST', '/{id}/on'],
]);
group('Preset', '/api/competition', [
  ['GET', '/api/competition/preset/public/list/{id}'],
  ['GET', '/preset/public/{id}'],
  ['POST', '/preset/{id}'],
  ['PUT', '/preset/{id}'],
]);
group('Notice', '/api/message/notice', [
  ['GET', '/check/read'],
  ['POST', '/{id}'],
  ['GET', '/page/{id}'],
  ['GET', '/page'],
  ['DELETE', '/{id}'],
  ['PUT', '/user/{id}'],
]);
group('Brand', '/api/competition/brand', [
  ['POST', '/'],
  ['PUT', '/{id}'],
  ['PUT', '/recommend/{id}'],
  ['DELETE', '/{id}'],
  ['GET', '/list'],
  ['GET', '/public/{id}'],
  ['GET', '/public/page'],
]);
group('Order', '/api/order', [
  ['GET', '/api/order/{id}'],
  ['GET', '/api/order/list'],
  ['GET', '/api/order/person/page'],
  ['PUT', '/api/order/batch/payment'],
  ['GET', '/api/order/getOrderByTeamNo/{teamNo}'],
]);
group('Team', '/api/team', [
  ['PUT', '/api/team/update/{id}'],
  ['PUT', '/api/team/choiceQuestion/{a}/{b}'],
  ['PUT', '/api/team/choiceQuestion/{id}'],
  ['PUT', '/api/team/updateTeacher/{id}'],
  ['GET', '/api/team/competition/{id}'],
  ['GET', '/api/team/competition/{id}/detail'],
  ['GET', '/api/team/{id}'],
  ['GET', '/api/team/team/{id}'],
]);
group('Files', '/api/file', [
  ['GET', '/api/file/common/download', 'query fileUri'],
  ['POST', '/api/file/common/download', 'the form-encoded POST download (fileUri in the form)'],
]);

/** §7's URL bases: a prefix under which the app serves something (a download, an export, an upload). */
const BASES: { group: string; base: string }[] = [
  ...['export/', 'cert/certificate/download', 'upload/'].map((b) => ({ group: 'Certificates', base: `/api/review/certificate/${b}` })),
  ...['export/', 'review/export/', 'exportPrize/', 'review/exportGrade/', 'exportGrade/', 'upload/'].map((b) => ({
    group: 'Works',
    base: `/api/review/works/${b}`,
  })),
  { group: 'Files', base: '/profile/clientApp-win.zip' },
  { group: 'Files', base: '/profile/clientApp-mac.zip' },
];

/** §2's screens: the path as the spec writes it, and the router source that must declare it. */
const SITE = 'web/src/site/routes.tsx';
const ADMIN = 'web/src/admin/routes.tsx';
const SCREENS: { entry: string; path: string; declared: string; file: string }[] = [
  ...[
    '/redirect/*',
    '/404',
    '/401',
    '/',
    '/index',
    '/message',
    '/userCenter',
    '/competitionList',
    '/competitionList/:brandId',
    '/competition/:competitionId',
    '/registration/:competitionId',
    '/join/:competitionId/:teamId',
    '/payment/:competitionId/:orderId',
    '/login',
    '/logout',
  ].map((p) => ({ entry: 'site (§2.1)', path: p, declared: p, file: SITE })),
  ...['introduce', 'question', 'information', 'guide', 'tools', 'team', 'team/:teamId', 'choice', 'works', 'test', 'grade', 'certificate'].map((p) => ({
    entry: 'site (§2.1)',
    path: `/competition/:competitionId/${p}`,
    declared: p,
    file: SITE,
  })),
  ...['myInfo', 'myOrder', 'myInvoice', 'invoiceTitle', 'accountSet'].map((p) => ({ entry: 'site (§2.1)', path: `/userCenter/${p}`, declared: p, file: SITE })),
  ...['/redirect/*', '/404', '/401'].map((p) => ({ entry: 'back office (§2.3)', path: p, declared: p, file: ADMIN })),
  ...[
    '/index',
    '/competition/edit/:competitionId',
    '/competition/view/:competitionId',
    '/competition/brand/nav/:brandId',
    '/question/work/:questionId',
    '/question/grade/:questionId',
    '/question/awards/:questionId',
    '/question/certificate/:questionId',
    '/question/judge/:questionId',
    '/question/questionWorks',
  ].map((p) => ({ entry: 'back office (§2.3)', path: p, declared: p, file: 'packages/shared/src/menu.ts' })),
];

/** A route serves a base when its path starts with it, or when the base is one of the paths its parameters match. */
const serves = (url: string, base: string) => url.startsWith(base) || new RegExp(`^${url.replace(/:[^/]+/g, '[^/]+')}$`).test(base);
const shape = (p: string) => p.replace(/\{[^}]+\}/g, ':p').replace(/:[A-Za-z]+/g, ':p');

function render(t: TestApp): string {
  const lines = [
    '# Specification paths and where they are served',
    '',
    'Every path SPEC.md names, with what serves it. Generated by `server/test/spec-paths.test.ts`',
    '(`UPDATE_SPEC_PATHS_DOC=1` rewrites it); the test fails when a §7 call is not registered by the app, when a URL base',
    'has nothing under it, when a §2 screen is missing from its router, or when this file is stale. Routes, rules and',
    'replies of every API route: [routes.md](routes.md).',
    '',
    '## Calls (§7)',
    '',
    '| group | method | spec path | served by (module: route) | rule | note |',
    '|---|---|---|---|---|---|',
  ];
  for (const c of calls) {
    const r = t.routes.find((x) => x.method === c.method && shape(x.url) === shape(c.path))!;
    const rule = 'permission' in r.rule ? `\`${r.rule.permission}\`` : describeRule(r.rule);
    lines.push(`| ${c.group} | ${c.method} | \`${c.path}\` | ${r.module}: \`${r.url}\` | ${rule} | ${c.note ?? ''} |`);
  }
  lines.push('', '## URL bases (§7)', '', '| group | base | routes under it |', '|---|---|---|');
  for (const b of BASES) {
    const under = [...new Set(t.routes.filter((r) => serves(r.url, b.base)).map((r) => `${r.method} \`${r.url}\``))];
    lines.push(`| ${b.group} | \`${b.base}\` | ${under.join('<br>')} |`);
  }
  lines.push('', '## Screens (§2)', '', '| entry | spec route | declared in |', '|---|---|---|');
  for (const s of SCREENS) lines.push(`| ${s.entry} | \`${s.path}\` | \`${s.file}\` |`);
  lines.push('');
  return lines.join('\n');
}

describe('docs/spec-paths.md', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('finds every call of §7 registered with a rule and a reply', () => {
    const missing = calls.filter((c) => !t.routes.some((r) => r.method === c.method && shape(r.url) === shape(c.path)));
    expect(missing.map((c) => `${c.method} ${c.path}`)).toEqual([]);
  });

  it('serves something under every URL base of §7', () => {
    const empty = BASES.filter((b) => !t.routes.some((r) => serves(r.url, b.base)));
    expect(empty.map((b) => b.base)).toEqual([]);
  });

  it('declares every screen of §2 in its router', () => {
    const sources = new Map<string, string>();
    const source = (file: string) => sources.get(file) ?? (sources.set(file, fs.readFileSync(path.join(ROOT, file), 'utf8')), sources.get(file)!);
    const missing = SCREENS.filter((s) => !source(s.file).includes(`'${s.declared}'`));
    expect(missing.map((s) => `${s.path} in ${s.file}`)).toEqual([]);
  });

  it('is written out in docs/spec-paths.md', () => {
    const text = render(t);
    if (process.env.UPDATE_SPEC_PATHS_DOC === '1') fs.writeFileSync(DOC, text);
    expect(fs.readFileSync(DOC, 'utf8'), 'docs/spec-paths.md is stale: UPDATE_SPEC_PATHS_DOC=1 npx vitest run server/test/spec-paths.test.ts').toBe(text);
  });
});
