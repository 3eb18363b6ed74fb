// @vitest-environment happy-dom
import type { Preset, Register } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, configure } from '@testing-library/react';
import { App as AntApp, message } from 'antd';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ChoiceTab from './pages/question/ChoiceTab.tsx';

/** The API as a table of answers; a write answers `refuse` (a 409 with the server's reason) when set. */
let answers: Record<string, unknown> = {};
let refuse: string | null = null;
let writes: string[] = [];
let reads: string[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (e: PromiseRejectionEvent) => unhandled.push(e.reason);

const envelope = (data: unknown, status = 200, message = '操作成功') =>
  new Response(JSON.stringify({ status, message, data }), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  writes = [];
  reads = [];
  refuse = null;
  unhandled.length = 0;
  window.addEventListener('unhandledrejection', onUnhandled);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname } = new URL(url, location.href);
      if ((init.method ?? 'GET') !== 'GET') {
        writes.push(pathname);
        return refuse ? envelope(null, 409, refuse) : envelope(null);
      }
      reads.push(pathname);
      return envelope(answers[pathname] ?? null);
    }),
  );
});
afterEach(() => {
  window.removeEventListener('unhandledrejection', onUnhandled);
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const user = { id: 5, username: 'zhangsan', userName: '张三', faceImg: null };
const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const competition = { id: 3, name: '泰迪杯', fee: 5000, endTime: later(30), stages: [] };
const presets = [
  { id: 1, competitionId: 3, menuCode: 'CHOICE_SET', name: '选择赛题', enable: true, enableStartTime: null, enableEndTime: null, fieldList: [] },
] as unknown as Preset[];
const register = (status: number, payStatus: number | null) => ({ id: 7, status, payStatus }) as unknown as Register;
const team = (reg: Register) => ({ id: 9, leaderId: 5, name: '数据先锋队', choiceQuestionList: [], memberList: [], teacherList: [], register: reg });

function open() {
  const router = createMemoryRouter(
    [{ path: '/competition/:competitionId', element: <Outlet context={{ competition, presets }} />, children: [{ path: 'choice', element: <ChoiceTab /> }] }],
    { initialEntries: ['/competition/3/choice'] },
  );
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
}

const chooseButton = () => screen.findByRole('button', { name: '选择该赛题' });

// Rendering antd in happy-dom is slow on a busy machine: wait for what the page shows, not for a fixed second.
configure({ asyncUtilTimeout: 15_000 });

describe('the choice tab', { timeout: 60_000 }, () => {
  beforeEach(() => {
    answers = { '/api/team/userinfo/': user, '/api/competition/question/public/list/3': [{ id: 11, title: 'A题', content: null }] };
  });

  it('offers the choice only once the registration is approved and paid, saying why before', async () => {
    answers['/api/team/competition/3/detail'] = { team: team(register(0, 0)), invitations: [] };
    open();
    expect(((await chooseButton()) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('choice-window').textContent).toContain('报名审核通过后才能选题');
    cleanup();
    answers['/api/team/competition/3/detail'] = { team: team(register(1, 0)), invitations: [] };
    open();
    expect(((await chooseButton()) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('choice-window').textContent).toContain('请先完成缴费再选题');
    cleanup();
    answers['/api/team/competition/3/detail'] = { team: team(register(1, 1)), invitations: [] };
    open();
    expect(((await chooseButton()) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByTestId('choice-window').textContent).toMatch(/选题截止时间 \d{4}\/\d\d\/\d\d \d\d:\d\d/);
  });

  it('closes the dialog on a refusal, shows the server’s reason and throws nothing', async () => {
    answers['/api/team/competition/3/detail'] = { team: team(register(1, 1)), invitations: [] };
    refuse = '选择赛题已于 2026-03-19 12:00 截止';
    const toast = vi.spyOn(message, 'error');
    open();
    fireEvent.click(await chooseButton());
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('选择赛题已于 2026-03-19 12:00 截止', expect.any(Number)));
    // The dialog's action settles (antd would otherwise keep it open and rethrow), and the team is read afresh.
    await waitFor(() => expect(reads.filter((r) => r === '/api/team/competition/3/detail')).toHaveLength(2));
    expect(writes).toEqual(['/api/team/choiceQuestion/9']);
    expect(unhandled).toEqual([]);
  });
});
