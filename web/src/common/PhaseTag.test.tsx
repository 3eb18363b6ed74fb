// @vitest-environment happy-dom
import { competitionPhase, type CompetitionListItem, type WithPhase } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { App as AntApp, Table } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPETITION_COLUMNS } from '../admin/pages/competition/parts/competitionColumns.tsx';
import CompetitionLayout from '../site/pages/competition/CompetitionLayout.tsx';
import CompetitionListPage from '../site/pages/competition/CompetitionListPage.tsx';
import { PhaseTag } from './PhaseTag.tsx';

// Dates far from the test run's clock are avoided: the server's phase is what is shown; the fallback is derived.
const dates = {
  regStartTime: '2026-03-01T00:00:00.000Z',
  regEndTime: '2026-03-10T00:00:00.000Z',
  endTime: '2026-03-31T00:00:00.000Z',
  auditStatus: 3 as const,
};
const presets = [{ menuCode: 'SUBMIT_WORKS' as const, enable: true, enableStartTime: null, enableEndTime: '2026-03-20T04:00:00.000Z', deadlineStageId: null }];
const running = competitionPhase(
  dates,
  [{ id: 1, name: '初赛', startDate: '2026-03-10T00:00:00.000Z', endDate: null }],
  { presets },
  new Date('2026-03-15T00:00:00.000Z'),
);
const item: CompetitionListItem & WithPhase = {
  id: 7,
  name: '泰迪杯',
  brandId: 1,
  brandShortName: '泰迪',
  typeId: null,
  typeName: null,
  orgId: 1,
  orgName: '泰迪大学',
  cover: null,
  summary: null,
  fee: 0,
  status: 3,
  teamNum: 4,
  ...dates,
  phase: running,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('PhaseTag', () => {
  it('shows the server phase with the running stage and the next deadline in Beijing time', () => {
    render(<PhaseTag competition={item} next />);
    expect(screen.getByTestId('phase-tag').textContent).toBe('进行中 · 初赛');
    expect(screen.getByTestId('phase-next').textContent).toBe('提交截止 03-20 12:00');
  });
  it('derives the phase from the dates with the shared function when the reply has none', () => {
    const { phase: _p, ...noPhase } = item;
    render(<PhaseTag competition={{ ...noPhase, auditStatus: 1 }} next />);
    expect(screen.getByTestId('phase-tag').textContent).toBe('审核中');
    expect(screen.queryByTestId('phase-next')).toBeNull();
  });
  it('leaves out the deadline when none is ahead or when not asked', () => {
    render(<PhaseTag competition={{ ...item, phase: { ...running, code: 'review', name: '评审中', stageName: null, next: null } }} next />);
    expect(screen.getByTestId('phase-tag').textContent).toBe('评审中');
    expect(screen.queryByTestId('phase-next')).toBeNull();
    cleanup();
    render(<PhaseTag competition={item} />);
    expect(screen.queryByTestId('phase-next')).toBeNull();
  });
});

describe('the back office competition list', () => {
  it('shows the phase tag and the next deadline in the 竞赛状态 column', () => {
    render(
      <RouterProvider
        router={createMemoryRouter([{ path: '/', element: <Table rowKey="id" columns={COMPETITION_COLUMNS} dataSource={[item]} pagination={false} /> }])}
      />,
    );
    const row = screen.getByText('泰迪杯').closest('tr')!;
    expect(within(row).getByTestId('phase-tag').textContent).toBe('进行中 · 初赛');
    expect(within(row).getByTestId('phase-next').textContent).toBe('提交截止 03-20 12:00');
  });
});

describe('the participant site: list cards and competition header', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const { pathname } = new URL(url, location.href);
        const data =
          pathname === '/api/competition/public/list'
            ? { list: [item], total: 1 }
            : pathname === '/api/competition/public/7'
              ? {
                  ...item,
                  stages: [],
                  activeStageId: 0,
                  allowIndividual: false,
                  eligibility: {
                    sameSchool: false,
                    schoolAudit: false,
                    maxTeamsPerSchool: null,
                    maxTeamsPerTeacher: null,
                    groupMode: 'none' as const,
                    groupList: [],
                  },
                  minMembers: 1,
                  maxMembers: 3,
                  introduce: null,
                }
              : pathname === '/api/competition/preset/public/list/7'
                ? [
                    {
                      id: 1,
                      competitionId: 7,
                      menuCode: 'COMP_INFO',
                      name: '竞赛信息',
                      enable: true,
                      enableStartTime: null,
                      enableEndTime: null,
                      fieldList: [],
                    },
                  ]
                : pathname.includes('/brand/')
                  ? { list: [], total: 0 }
                  : null;
        return new Response(JSON.stringify({ status: 200, message: '操作成功', data }), { headers: { 'content-type': 'application/json' } });
      }),
    );
  });
  it('shows each card with its phase and next deadline', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <AntApp>
          <RouterProvider
            router={createMemoryRouter([{ path: '/competitionList', element: <CompetitionListPage /> }], { initialEntries: ['/competitionList'] })}
          />
        </AntApp>
      </QueryClientProvider>,
    );
    const card = await screen.findByTestId('competition-card');
    expect(within(card).getByTestId('phase-tag').textContent).toBe('进行中 · 初赛');
    expect(within(card).getByTestId('phase-next').textContent).toBe('提交截止 03-20 12:00');
  });

  it('shows the phase and the next deadline in the competition page header', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <AntApp>
          <RouterProvider
            router={createMemoryRouter(
              [{ path: '/competition/:competitionId', element: <CompetitionLayout />, children: [{ path: 'introduce', element: <div /> }] }],
              { initialEntries: ['/competition/7/introduce'] },
            )}
          />
        </AntApp>
      </QueryClientProvider>,
    );
    const heading = await screen.findByRole('heading', { level: 2 });
    expect(within(heading).getByTestId('phase-tag').textContent).toBe('进行中 · 初赛');
    expect(within(heading).getByTestId('phase-next').textContent).toBe('提交截止 03-20 12:00');
  });
});
