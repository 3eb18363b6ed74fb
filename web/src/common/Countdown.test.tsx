// @vitest-environment happy-dom
import { competitionPhase, type CompetitionListItem, type WithPhase } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CompetitionLayout, { stageTimes } from '../site/pages/competition/CompetitionLayout.tsx';
import CompetitionListPage from '../site/pages/competition/CompetitionListPage.tsx';
import { Countdown } from './Countdown.tsx';
import { http, sysTime } from './http.ts';

const DAY = 24 * 3600_000;
const MIN = 60_000;
const DEADLINE = '2026-03-20T04:00:00.000Z'; // 2026-03-20 12:00 in Beijing
const deadline = new Date(DEADLINE).getTime();
const text = () => screen.getByTestId('countdown').textContent;
const stage = () => screen.getByTestId('countdown').getAttribute('data-stage');
const advance = (ms: number) => act(() => void vi.advanceTimersByTime(ms));

/** Sets the server's clock the way the app learns it: from the Date header of a reply (http.ts keeps the offset). */
async function serverClockAt(ms: number) {
  vi.stubGlobal(
    'fetch',
    async () =>
      new Response(JSON.stringify({ status: 200, message: '操作成功', data: null }), {
        headers: { 'content-type': 'application/json', date: new Date(ms).toUTCString() },
      }),
  );
  await http.get('/api/health');
  vi.unstubAllGlobals();
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await serverClockAt(Date.now());
});

describe('Countdown', () => {
  it('moves from days to hours and minutes in the last day, to hh:mm:ss in the last hour, then to 已截止, re-rendering on its own', async () => {
    vi.setSystemTime(deadline - (3 * DAY + 10_000));
    await serverClockAt(Date.now());
    const onExpire = vi.fn();
    render(<Countdown deadline={DEADLINE} onExpire={onExpire} />);
    expect(text()).toBe('还剩 3 天');
    expect(stage()).toBe('days');
    expect(screen.getByTestId('countdown').getAttribute('title')).toBe('截止时间 2026-03-20 12:00（北京时间）');

    advance(10_000 + DAY + 1); // just under 2 days left
    expect(text()).toBe('还剩 1 天');
    advance(DAY - 1); // exactly one day left
    expect(text()).toBe('还剩 1 天');
    advance(1);
    expect(text()).toBe('还剩 23 小时 59 分');
    expect(stage()).toBe('lastDay');

    advance(18 * 3600_000 + 17 * MIN); // 5 h 42 min 59.999 s left
    expect(text()).toBe('还剩 5 小时 42 分');
    advance(4 * 3600_000 + 42 * MIN + 59_999); // one hour left
    expect(text()).toBe('还剩 1 小时 0 分');
    advance(1);
    expect(text()).toBe('还剩 01:00:00');
    expect(stage()).toBe('lastHour');
    advance(56 * MIN + 48_000); // three minutes and twelve seconds left
    expect(text()).toBe('还剩 00:03:12');
    advance(1000);
    expect(text()).toBe('还剩 00:03:11');
    expect(onExpire).not.toHaveBeenCalled();

    // Second by second (a browser renders between its timers) to the deadline.
    for (let s = 0; s < 191; s++) advance(1000);
    expect(text()).toBe('已截止');
    expect(stage()).toBe('closed');
    expect(onExpire).toHaveBeenCalledTimes(1);
    // Nothing is left running once closed.
    expect(vi.getTimerCount()).toBe(0);
    advance(DAY);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it("follows the server's clock, not the browser's", async () => {
    // The browser's clock says three days are left; the server, whose time the replies carry, is 2 days 20 hours later.
    vi.setSystemTime(deadline - 3 * DAY);
    await serverClockAt(deadline - 4 * 3600_000);
    expect(sysTime().getTime()).toBe(deadline - 4 * 3600_000);
    render(<Countdown deadline={DEADLINE} />);
    expect(text()).toBe('还剩 4 小时 0 分');
    advance(4 * 3600_000);
    expect(text()).toBe('已截止');
  });

  it('says 已截止 at once for a deadline already past, without calling onExpire', async () => {
    vi.setSystemTime(deadline + MIN);
    await serverClockAt(Date.now());
    const onExpire = vi.fn();
    render(<Countdown deadline={DEADLINE} onExpire={onExpire} />);
    expect(text()).toBe('已截止');
    advance(DAY);
    expect(onExpire).not.toHaveBeenCalled();
  });
});

describe('the countdown on the participant site', () => {
  const dates = {
    regStartTime: '2026-03-01T00:00:00.000Z',
    regEndTime: '2026-03-10T00:00:00.000Z',
    endTime: '2026-03-31T00:00:00.000Z',
    auditStatus: 3 as const,
  };
  const presets = [{ menuCode: 'SUBMIT_WORKS' as const, enable: true, enableStartTime: null, enableEndTime: DEADLINE, deadlineStageId: null }];
  const phase = competitionPhase(dates, [], { presets }, new Date('2026-03-15T00:00:00.000Z'));
  const item: CompetitionListItem & WithPhase = {
    ...{
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
    },
    ...dates,
    phase,
  };
  // The browser's clock is wrong by a day and more; the replies carry the server's time: 18 hours before the deadline.
  const serverNow = deadline - 18 * 3600_000;
  beforeEach(() => {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(deadline - 3 * DAY);
    vi.stubGlobal('fetch', async (url: string) => {
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
              ? [{ id: 1, competitionId: 7, menuCode: 'COMP_INFO', name: '竞赛信息', enable: true, enableStartTime: null, enableEndTime: null, fieldList: [] }]
              : pathname.includes('/brand/')
                ? { list: [], total: 0 }
                : null;
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data }), {
        headers: { 'content-type': 'application/json', date: new Date(serverNow).toUTCString() },
      });
    });
  });
  afterEach(() => vi.unstubAllGlobals());
  const inApp = (node: ReactNode) => (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AntApp>{node}</AntApp>
    </QueryClientProvider>
  );

  it('shows the next deadline with the time left by the server clock on each list card', async () => {
    render(
      inApp(
        <RouterProvider
          router={createMemoryRouter([{ path: '/competitionList', element: <CompetitionListPage /> }], { initialEntries: ['/competitionList'] })}
        />,
      ),
    );
    const card = await screen.findByTestId('competition-card');
    expect(within(card).getByTestId('phase-next').textContent).toBe('提交截止 03-20 12:00');
    expect(within(card).getByTestId('countdown').textContent).toBe('还剩 18 小时 0 分');
  });

  it('shows it in the competition page header', async () => {
    render(
      inApp(
        <RouterProvider
          router={createMemoryRouter(
            [{ path: '/competition/:competitionId', element: <CompetitionLayout />, children: [{ path: 'introduce', element: <div /> }] }],
            { initialEntries: ['/competition/7/introduce'] },
          )}
        />,
      ),
    );
    const heading = await screen.findByRole('heading', { level: 2 });
    expect(within(heading).getByTestId('phase-next').textContent).toBe('提交截止 03-20 12:00');
    expect(within(heading).getByTestId('countdown').textContent).toBe('还剩 18 小时 0 分');
  });
});

describe('the stage timeline', () => {
  it('shows each stage to the minute in Beijing time, not only its day', () => {
    expect(stageTimes({ startDate: '2026-03-01T00:00:00.000Z', endDate: '2026-03-20T04:00:00.000Z' })).toBe('2026/03/01 08:00 至 2026/03/20 12:00（北京时间）');
    expect(stageTimes({ startDate: '2026-03-01T00:00:00.000Z', endDate: null })).toBe('2026/03/01 08:00 起（北京时间）');
  });
});
