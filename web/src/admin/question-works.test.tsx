// @vitest-environment happy-dom
import { ADMIN_MENU_CODES, MENU_GROUP_CODES, type ManagedQuestion, type Page, type WorkVersion } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { accountKeys } from '../api/users.ts';
import { useFakeApi } from '../test/fakeApi.tsx';
import { adminRoutes } from './routes.tsx';

/** Issue 20, item 6: spec §2.3 `/question/questionWorks` is the works of the question of `?questionId=`. */
const api = useFakeApi();

const USER = { id: 2, username: 'org', userName: '王老师', faceImg: null };
const ORGANISER = [MENU_GROUP_CODES.competition, ADMIN_MENU_CODES.competition];

const question = { id: 5, competitionId: 3, competitionName: '泰迪杯', title: '销量预测' } as ManagedQuestion;
const work: WorkVersion = {
  id: 1,
  competitionId: 3,
  questionId: 5,
  teamId: 9,
  teamNo: 'T0009',
  teamName: '数据先锋队',
  version: 1,
  fileUri: 'works/0b7c2c5e-0000-4000-8000-000000000001',
  fileName: '先锋作品.zip',
  size: 2048,
  sha256: 'a'.repeat(64),
  username: 'pioneer',
  completedAt: '2026-05-01T02:00:00.000Z',
  counts: true,
};
const page = (list: WorkVersion[]): Page<WorkVersion> => ({ list, total: list.length, page: 1, limit: 20 });

function open(entry: string, codes: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(accountKeys.current, USER);
  client.setQueryData(accountKeys.permissions(USER.id), codes);
  const router = createMemoryRouter(adminRoutes, { initialEntries: [entry] });
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return router;
}

describe('/question/questionWorks', { timeout: 60_000 }, () => {
  it('shows the works of the question in the query to the competition manager, under its own tab', async () => {
    api.answers = {
      '/api/competition/question/check/5': question,
      '/api/review/works/page/5?page=1&limit=20': page([work]),
    };
    const router = open('/question/questionWorks?questionId=5', ORGANISER);
    expect(await screen.findByText('数据先锋队', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByText('先锋作品.zip')).toBeTruthy();
    expect(await screen.findByText('作品：销量预测')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/question/questionWorks');
    // The tab of the page (title from the shared route list) and the breadcrumb name it.
    expect(screen.getAllByText('赛题作品').length).toBeGreaterThan(0);
  });

  it('shows only each team’s counting version when asked', async () => {
    api.answers = {
      '/api/competition/question/check/5': question,
      'GET /api/review/works/page/5': page([work]),
    };
    open('/question/questionWorks?questionId=5', ORGANISER);
    fireEvent.click(await screen.findByRole('checkbox', { name: '只看各队有效版本' }, { timeout: 15_000 }));
    await waitFor(() => expect(api.requests.some((r) => r.url === '/api/review/works/page/5?page=1&limit=20&counting=1')).toBe(true));
  });

  it('is closed to a user without the competition manager’s menu code', async () => {
    const router = open('/question/questionWorks?questionId=5', [MENU_GROUP_CODES.review, ADMIN_MENU_CODES.reviewAssign]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/401'));
    expect(api.requests.filter((r) => r.url.includes('/works/'))).toEqual([]);
  });
});
