// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { adminRoutes } from '../admin/routes.tsx';
import { reviewRoutes } from '../review/routes.tsx';
import { siteRoutes } from '../site/routes.tsx';
import { useFakeApi } from '../test/fakeApi.tsx';
import { accountKeys } from '../api/users.ts';
import { isIdName } from './idRoutes.tsx';

/** Item 7 of issue 20: an id that is not digits goes to the 404 page before anything is asked of the server. */
const api = useFakeApi();

/** Every full path of a route table. */
function paths(routes: RouteObject[], base = ''): string[] {
  return routes.flatMap((r) => {
    const own = r.path === undefined ? base : r.path.startsWith('/') ? r.path : `${base.replace(/\/$/, '')}/${r.path}`;
    return [...(r.path === undefined ? [] : [own]), ...paths(r.children ?? [], own)];
  });
}

/** Each path with an id parameter, once for each of its ids set to `abc` (the others digits). */
function badAddresses(routes: RouteObject[]): string[] {
  return [...new Set(paths(routes))].flatMap((path) => {
    const ids = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!).filter(isIdName);
    return ids.map((bad) => path.replace(/:(\w+)/g, (_, name: string) => (name === bad ? 'abc' : isIdName(name) ? '7' : 'x')));
  });
}

const USER = { id: 2, username: 'org', userName: '李老师', faceImg: null };
const ALL_ADMIN = [
  'competition:competition:menu',
  'competition:brand:menu',
  'competition:competitionAudit:menu',
  'competition:question:menu',
  'review:assign:menu',
  'bdrace:competition',
  'bdrace:review',
];

/** The app at `entry`, signed in as the entries' gate leaves it: user and permissions loaded. */
function open(routes: RouteObject[], entry: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(accountKeys.current, USER);
  client.setQueryData(accountKeys.permissions(USER.id), ALL_ADMIN);
  const router = createMemoryRouter(routes, { initialEntries: [entry] });
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return router;
}

const apps: [string, RouteObject[], string[]][] = [
  [
    'site',
    siteRoutes,
    ['/competitionList/abc', '/competition/abc', '/competition/abc/works', '/competition/7/team/abc', '/registration/abc', '/join/7/abc', '/payment/7/abc'],
  ],
  [
    'back office',
    adminRoutes,
    [
      '/competition/edit/abc',
      '/competition/view/abc',
      '/competition/brand/nav/abc',
      '/question/work/abc',
      '/question/judge/abc',
      '/question/grade/abc',
      '/question/awards/abc',
      '/question/certificate/abc',
    ],
  ],
  ['review centre', reviewRoutes, ['/question/abc', '/score/abc']],
];

describe('an address whose id is not digits', () => {
  for (const [app, routes, expected] of apps) {
    it(`covers every route of the ${app} with an id`, () => {
      // The spec's routes are all there: the guard is checked against each of them below.
      expect(badAddresses(routes)).toEqual(expect.arrayContaining(expected));
    });

    for (const address of badAddresses(routes)) {
      it(`${app}: ${address} shows the 404 page and asks nothing with it`, async () => {
        const router = open(routes, address);
        await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
        expect(await screen.findByText('抱歉，您访问的页面不存在。')).toBeTruthy();
        expect(api.requests.map((r) => r.url).filter((u) => /abc|NaN|undefined/.test(u))).toEqual([]);
      });
    }
  }

  it('a digit id still opens its page', async () => {
    api.answers = { '/api/competition/brand/public/7': { id: 7, name: '泰迪杯', shortName: '泰迪杯', logo: null } };
    const router = open(siteRoutes, '/competitionList/7');
    await waitFor(() => expect(api.requests.some((r) => r.url.startsWith('/api/competition/brand/public/7'))).toBe(true));
    expect(router.state.location.pathname).toBe('/competitionList/7');
  });

  it('back office: /question/questionWorks takes its question in the query, and only digits', async () => {
    for (const address of ['/question/questionWorks?questionId=abc', '/question/questionWorks']) {
      const router = open(adminRoutes, address);
      await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
      expect(api.requests.map((r) => r.url).filter((u) => /abc|NaN|\/0\b|undefined/.test(u))).toEqual([]);
      router.dispose();
      cleanup();
    }
  });
});
