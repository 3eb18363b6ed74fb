// @vitest-environment happy-dom
import { UNREAD_CHECK_DELAY_MS, type Message, type Page, type UnreadCount } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { USER_QUERY_KEY } from '../common/auth.ts';
import { MainLayout } from './layouts/MainLayout.tsx';
import CompetitionNotices from './pages/competition/CompetitionNotices.tsx';
import MessagePage from './pages/message/MessagePage.tsx';

/** The API as a table of answers keyed by method and address (GET by address alone); every call is recorded. */
let answers: Record<string, unknown> = {};
let requests: { method: string; url: string }[] = [];

/** A stand-in for the browser's EventSource that the test drives. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  closed = false;
  private listeners = new Map<string, ((e: MessageEvent) => void)[]>();
  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (e: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

beforeEach(() => {
  requests = [];
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname, search } = new URL(url, location.href);
      const method = init.method ?? 'GET';
      requests.push({ method, url: pathname + search });
      const key = method === 'GET' ? pathname + search : `${method} ${pathname}${search}`;
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data: answers[key] ?? null }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const user = { id: 5, username: 'zhangsan', userName: '张三', faceImg: null };
const counts = (system: number, person: number): UnreadCount => ({ system, person, total: system + person });
const message = (over: Partial<Message>): Message => ({
  id: 11,
  kind: 0,
  title: '报名截止提醒',
  content: '<p>报名将于周五截止</p>',
  publishedAt: '2026-05-01T02:00:00.000Z',
  read: false,
  ...over,
});
const page = (list: Message[]): Page<Message> => ({ list, total: list.length, page: 1, limit: 20 });

function open(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        element: <MainLayout />,
        children: [
          { path: '/competitionList', element: <div>竞赛列表</div> },
          { path: '/message', element: <MessagePage /> },
          { path: '/competition/9', element: <CompetitionNotices competitionId={9} /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return { client, router, view };
}

const badge = () => screen.getByTestId('unread-badge');
/** A tab's unread count (the Badge's digits roll while they change, and it fades out at 0). */
const tabCount = (kind: number) => screen.getByTestId(`message-tab-${kind}`).getAttribute('data-count');

describe('the message page', () => {
  beforeEach(() => {
    answers = {
      '/api/team/userinfo/': user,
      '/api/message/notice/check/read': counts(2, 1),
      '/api/message/notice/page/0?page=1&limit=20': page([
        message({}),
        message({ id: 12, title: '赛题已发布' }),
        message({ id: 13, title: '平台维护通知', read: true }),
      ]),
      '/api/message/notice/page/1?page=1&limit=20': page([message({ id: 21, kind: 1, title: '你已通过报名审核' })]),
      '/api/message/notice/page/1?page=1&limit=20&unread=1': page([]),
      'PUT /api/message/notice/user/11': counts(1, 1),
      'PUT /api/message/notice/user/all?kind=0': counts(0, 1),
    };
  });

  it('shows both tabs with their unread counts and marks the unread messages', async () => {
    open('/message');
    expect(await screen.findByText('报名截止提醒')).toBeTruthy();
    expect(screen.getByTestId('message-tab-0').textContent).toContain('系统通知');
    expect(screen.getByTestId('message-tab-1').textContent).toContain('个人消息');
    await waitFor(() => expect(tabCount(0)).toBe('2'));
    expect(within(screen.getByTestId('message-tab-0')).getByTitle('2')).toBeTruthy();
    expect(tabCount(1)).toBe('1');
    expect(screen.getAllByTestId('message-unread').map((e) => e.textContent)).toEqual(['报名截止提醒', '赛题已发布']);
    expect(screen.getAllByTestId('message-read').map((e) => e.textContent)).toEqual(['平台维护通知']);
    // The header badge reads the same counts at once.
    expect(badge().getAttribute('data-count')).toBe('3');
  });

  it('opens a message, marks it read and updates the tab and the header badge from the reply', async () => {
    open('/message');
    fireEvent.click(await screen.findByText('报名截止提醒'));
    expect(await screen.findByText('报名将于周五截止')).toBeTruthy();
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(requests.filter((r) => r.method === 'PUT')).toEqual([{ method: 'PUT', url: '/api/message/notice/user/11' }]);
    await waitFor(() => expect(tabCount(0)).toBe('1'));
    expect(badge().getAttribute('data-count')).toBe('2');
    expect(screen.getAllByTestId('message-unread').map((e) => e.textContent)).toEqual(['赛题已发布']);
    // Opening a message already read asks nothing.
    fireEvent.click(screen.getByText('平台维护通知'));
    expect(await screen.findAllByText('报名将于周五截止')).toHaveLength(2);
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('marks all of a kind read', async () => {
    open('/message');
    await screen.findByText('报名截止提醒');
    fireEvent.click(screen.getByRole('button', { name: '全部标为已读' }));
    await waitFor(() => expect(requests.some((r) => r.url === '/api/message/notice/user/all?kind=0')).toBe(true));
    await waitFor(() => expect(screen.queryAllByTestId('message-unread')).toHaveLength(0));
    // The counts are a query of their own, refreshed after the list's: on a loaded machine they may land a moment later.
    await waitFor(() => expect(tabCount(0)).toBe('0'));
    expect(tabCount(1)).toBe('1');
    await waitFor(() => expect(badge().getAttribute('data-count')).toBe('1'));
    await waitFor(() => expect((screen.getByRole('button', { name: /全部标为已读/ }) as HTMLButtonElement).disabled).toBe(true));
  });

  it('switches to personal messages and shows only the unread ones on request', async () => {
    const { router } = open('/message');
    await screen.findByText('报名截止提醒');
    fireEvent.click(screen.getByTestId('message-tab-1'));
    expect(await screen.findByText('你已通过报名审核')).toBeTruthy();
    expect(router.state.location.search).toBe('?kind=1');
    fireEvent.click(screen.getByRole('switch', { name: '只看未读' }));
    expect(await screen.findByText('暂无消息')).toBeTruthy();
    expect(requests.some((r) => r.url === '/api/message/notice/page/1?page=1&limit=20&unread=1')).toBe(true);
  });

  it('asks an anonymous visitor to log in', async () => {
    answers['/api/team/userinfo/'] = null;
    open('/message');
    expect(await screen.findByText('请先登录')).toBeTruthy();
    expect(screen.queryByTestId('unread-badge')).toBeNull();
    expect(requests.some((r) => r.url.startsWith('/api/message/'))).toBe(false);
  });
});

describe('the header unread badge', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answers = { '/api/team/userinfo/': user, '/api/message/notice/check/read': counts(120, 30) };
  });

  const checks = () => requests.filter((r) => r.url === '/api/message/notice/check/read').length;

  it('checks 2 s after the layout is created, caps the count at 99+ and follows the stream', async () => {
    const { client, view } = open('/competitionList');
    expect(await screen.findByTestId('unread-badge')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(UNREAD_CHECK_DELAY_MS - 300));
    expect(checks()).toBe(0);
    expect(FakeEventSource.instances).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(400));
    await waitFor(() => expect(checks()).toBe(1));
    await waitFor(() => expect(within(badge()).getByText('99+')).toBeTruthy());
    expect(badge().getAttribute('data-count')).toBe('150');
    // Personal messages are among the unread: the bell opens their tab.
    expect(badge().closest('a')?.getAttribute('href')).toBe('/message?kind=1');

    // After the first check the stream keeps the count live.
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0]!;
    expect(source.url).toBe('/api/message/notice/stream');
    expect(source.init).toEqual({ withCredentials: true });
    act(() => source.emit('unread', counts(4, 3)));
    await waitFor(() => expect(badge().getAttribute('data-count')).toBe('7'));
    expect(within(badge()).queryByText('99+')).toBeNull();
    act(() => source.emit('unread', 'not counts'));
    expect(badge().getAttribute('data-count')).toBe('7');
    expect(client.getQueryData(['unread'])).toEqual(counts(4, 3));

    // A scoring finished on a question: its boards and the team's list go stale, so an open test tab reloads them.
    client.setQueryData(['leaderboard', 11, 'public'], { entries: [] });
    client.setQueryData(['tests', 11], { list: [] });
    client.setQueryData(['leaderboard', 12, 'public'], { entries: [] });
    act(() => source.emit('board', { questionId: 11 }));
    await waitFor(() => expect(client.getQueryState(['leaderboard', 11, 'public'])?.isInvalidated).toBe(true));
    expect(client.getQueryState(['tests', 11])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['leaderboard', 12, 'public'])?.isInvalidated).toBe(false);
    act(() => source.emit('board', 'no question'));
    expect(badge().getAttribute('data-count')).toBe('7');

    // Logging out closes it; so does leaving the layout.
    act(() => client.setQueryData(USER_QUERY_KEY, null));
    await waitFor(() => expect(source.closed).toBe(true));
    view.unmount();
    expect(checks()).toBe(1);
  });

  it('opens the tab that holds the unread items, the personal one when both do', async () => {
    answers['/api/message/notice/check/read'] = counts(3, 0);
    answers['/api/message/notice/page/0?page=1&limit=20'] = page([message({})]);
    answers['/api/message/notice/page/1?page=1&limit=20'] = page([message({ id: 21, kind: 1, title: '队伍邀请：数据队' })]);
    const { router } = open('/competitionList');
    await act(() => vi.advanceTimersByTimeAsync(UNREAD_CHECK_DELAY_MS + 100));
    await waitFor(() => expect(badge().getAttribute('data-count')).toBe('3'));
    const bell = () => badge().closest('a')!;
    // Only system notices unread: the system tab.
    expect(bell().getAttribute('href')).toBe('/message');
    expect(bell().getAttribute('aria-label')).toBe('消息（3条未读）');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0]!;

    // A personal message arrives while system notices are unread too: the personal tab, where the new item is.
    act(() => source.emit('unread', counts(3, 1)));
    await waitFor(() => expect(bell().getAttribute('href')).toBe('/message?kind=1'));
    fireEvent.click(bell());
    await waitFor(() => expect(router.state.location.pathname).toBe('/message'));
    expect(router.state.location.search).toBe('?kind=1');
    expect(await screen.findByText('队伍邀请：数据队')).toBeTruthy();
    expect(screen.queryByText('报名截止提醒')).toBeNull();

    // Only personal messages unread: still the personal tab; nothing unread: the first tab.
    act(() => source.emit('unread', counts(0, 2)));
    await waitFor(() => expect(bell().getAttribute('href')).toBe('/message?kind=1'));
    act(() => source.emit('unread', counts(0, 0)));
    await waitFor(() => expect(bell().getAttribute('href')).toBe('/message'));
  });

  it('closes the stream when the layout goes away', async () => {
    const { view } = open('/competitionList');
    await screen.findByTestId('unread-badge');
    await act(() => vi.advanceTimersByTimeAsync(UNREAD_CHECK_DELAY_MS + 100));
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    view.unmount();
    expect(FakeEventSource.instances[0]!.closed).toBe(true);
  });

  it('neither checks nor listens for an anonymous visitor', async () => {
    answers['/api/team/userinfo/'] = null;
    open('/competitionList');
    expect(await screen.findByText('登录')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(UNREAD_CHECK_DELAY_MS * 2));
    expect(checks()).toBe(0);
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(screen.queryByTestId('unread-badge')).toBeNull();
  });
});

describe('a competition’s announcements', () => {
  beforeEach(() => {
    answers = {
      '/api/team/userinfo/': user,
      '/api/message/notice/check/read': counts(1, 0),
      '/api/message/notice/competition/9?page=1&limit=5': page([
        message({ id: 31, title: '开赛公告', content: '<p>比赛开始了</p>' }),
        message({ id: 32, kind: 1, title: '请补交材料', read: true }),
      ]),
      'PUT /api/message/notice/user/31': counts(0, 0),
    };
  });

  it('lists the notices that reached the user and marks one read when it is opened', async () => {
    open('/competition/9');
    expect(await screen.findByText('开赛公告')).toBeTruthy();
    const card = screen.getByTestId('competition-notices');
    expect(within(card).getByText('公告')).toBeTruthy();
    expect(screen.getAllByTestId('notice-unread').map((e) => e.textContent)).toEqual(['开赛公告']);
    expect(screen.getAllByTestId('notice-read').map((e) => e.textContent)).toEqual(['请补交材料本队']);
    fireEvent.click(screen.getByText('开赛公告'));
    expect(await screen.findByText('比赛开始了')).toBeTruthy();
    await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toEqual([{ method: 'PUT', url: '/api/message/notice/user/31' }]));
    await waitFor(() => expect(screen.queryAllByTestId('notice-unread')).toHaveLength(0));
  });

  it('shows nothing, and asks nothing, for a visitor', async () => {
    answers['/api/team/userinfo/'] = null;
    open('/competition/9');
    expect(await screen.findByText('登录')).toBeTruthy();
    expect(screen.queryByTestId('competition-notices')).toBeNull();
    expect(requests.some((r) => r.url.startsWith('/api/message/'))).toBe(false);
  });
});
