// @vitest-environment happy-dom
import { CSRF_COOKIE, type Invoice, type Order, type Page, type Register, type Todo } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import HomePage from './pages/HomePage.tsx';
import InvoicePage from './pages/financial/InvoicePage.tsx';
import OrderPage from './pages/financial/OrderPage.tsx';
import RegisterManagerPage from './pages/register/RegisterManagerPage.tsx';

/** The API as a table of answers keyed by method and address (GET by address alone); every request is recorded. */
let answers: Record<string, unknown> = {};
let requests: { method: string; url: string; body: unknown }[] = [];

beforeEach(() => {
  requests = [];
  document.cookie = `${CSRF_COOKIE}=csrf-token`;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname, search } = new URL(url, location.href);
      const method = init.method ?? 'GET';
      requests.push({ method, url: pathname + search, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const answer = answers[method === 'GET' ? pathname + search : `${method} ${pathname}`];
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data: answer ?? null }), { headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ORGANISER = ['payment:register:menu', 'payment:register:audit', 'competition:competition:menu'];

const register = (id: number, over: Partial<Register> = {}): Register => ({
  id,
  competitionId: 3,
  competitionName: '泰迪杯',
  teamId: id,
  teamNo: `T${id}`,
  teamName: `队伍${id}`,
  individual: true,
  memberNum: 1,
  userId: id,
  username: `user${id}`,
  status: 0,
  reason: null,
  orderId: null,
  payStatus: null,
  attachments: [],
  createdAt: '2026-05-01T02:00:00.000Z',
  updatedAt: '2026-05-01T02:00:00.000Z',
  ...over,
});
const page = <T,>(list: T[]): Page<T> => ({ list, total: list.length, page: 1, limit: 20 });

function open(codes: string[], entry: string, children: ReactNode) {
  answers = {
    ...answers,
    '/api/team/userinfo/': { id: 2, username: 'org', userName: '李老师', faceImg: null },
    '/api/team/userinfo/permission': codes,
    '/api/competition/listAuth?limit=100': { list: [{ id: 3, name: '泰迪杯' }], total: 1, page: 1, limit: 100 },
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[entry]}>{children}</MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );
}

describe('the registration list', () => {
  it('approves the selected registrations at once and says how many were already decided', async () => {
    answers = {
      '/api/team/register/list?page=1&limit=20': page([register(1), register(2), register(3)]),
      'POST /api/team/register/flow/batch': { done: 1, decided: 1, notFound: 0, results: [] },
    };
    open(ORGANISER, '/register/manager', <RegisterManagerPage />);
    const row1 = (await screen.findByText('队伍1')).closest('tr')!;
    fireEvent.click(within(row1).getByRole('checkbox'));
    fireEvent.click(within(screen.getByText('队伍3').closest('tr')!).getByRole('checkbox'));
    expect(await screen.findByText('已选择 2 条')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '批量通过' }));
    expect(await screen.findByText('确定通过所选的 2 条报名吗？已审核的将跳过。')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('已通过 1 条，1 条已被处理')).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')).toEqual({ method: 'POST', url: '/api/team/register/flow/batch', body: { ids: [1, 3], action: 'approve' } });
    // The selection is cleared and the list reloaded.
    await waitFor(() => expect(screen.queryByText(/已选择/)).toBeNull());
  });

  it('rejects the selection with one required reason', async () => {
    answers = {
      '/api/team/register/list?page=1&limit=20': page([register(1), register(2)]),
      'POST /api/team/register/flow/batch': { done: 2, decided: 0, notFound: 0, results: [] },
    };
    open(ORGANISER, '/register/manager', <RegisterManagerPage />);
    await screen.findByText('队伍1');
    // The header checkbox selects the whole page.
    fireEvent.click(screen.getAllByRole('checkbox')[0]);
    fireEvent.click(await screen.findByRole('button', { name: '批量驳回' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('驳回所选的 2 条报名')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await within(dialog).findByText('请填写驳回原因')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('驳回原因'), { target: { value: '材料不全' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('已驳回 2 条')).toBeTruthy();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ ids: [1, 2], action: 'reject', reason: '材料不全' });
  });

  it('opens filtered to what waits from the address, and only reviewers see the batch actions', async () => {
    answers = { '/api/team/register/list?page=1&limit=20&status=0&competitionId=3': page([register(1)]) };
    open(['payment:register:menu'], '/register/manager?status=0&competitionId=3', <RegisterManagerPage />);
    fireEvent.click(within((await screen.findByText('队伍1')).closest('tr')!).getByRole('checkbox'));
    expect(await screen.findByText('已选择 1 条')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '批量通过' })).toBeNull();
    expect(screen.getAllByRole('button', { name: /导出Excel/ })).toHaveLength(2);
    // The quick filter and the status field both say 待审核.
    expect(screen.getAllByTitle('待审核').map((e) => Boolean(e.closest('.ant-segmented-item-selected')))).toEqual(expect.arrayContaining([true, false]));
  });
});

const order = (id: number, over: Partial<Order> = {}): Order =>
  ({
    id,
    orderNo: `2026050110000000000${id}`,
    competitionId: 3,
    competitionName: '泰迪杯',
    teamId: id,
    teamNo: `T${id}`,
    teamName: `队伍${id}`,
    userId: id,
    username: `user${id}`,
    amount: 5000,
    payStatus: 0,
    payMethod: 4,
    payerOrg: null,
    voucher: 'voucher/0b7c2c5e-0000-4000-8000-000000000001',
    tradeNo: null,
    refundFlag: false,
    refundReason: null,
    competitionVisible: false,
    createdAt: '2026-05-01T02:00:00.000Z',
    paidAt: null,
    ...over,
  }) as Order;

describe('the order list', () => {
  it('opens on the transfers waiting from the address and confirms the selected ones at once', async () => {
    answers = {
      '/api/order/list?page=1&limit=20&waiting=1': page([order(1), order(2)]),
      'PUT /api/order/confirm/batch': { done: 1, decided: 1, skipped: 0, notFound: 0, results: [] },
    };
    open(['order:order:menu', 'order:order:edit'], '/financial/order?waiting=1', <OrderPage />);
    await screen.findByText('队伍1（T1）');
    fireEvent.click((await screen.findAllByRole('checkbox'))[0]);
    fireEvent.click(await screen.findByRole('button', { name: '批量确认收款（2）' }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('已确认收款 1 条，1 条已被处理')).toBeTruthy();
    expect(requests.find((r) => r.method === 'PUT')).toEqual({ method: 'PUT', url: '/api/order/confirm/batch', body: { ids: [1, 2] } });
  });
});

const invoice = (id: number, over: Partial<Invoice> = {}): Invoice =>
  ({
    id,
    orderId: id,
    orderNo: `2026050110000000000${id}`,
    competitionId: 3,
    competitionName: '泰迪杯',
    teamName: `队伍${id}`,
    userId: id,
    username: `user${id}`,
    amount: 5000,
    type: 'normal',
    title: { kind: 'personal', name: `抬头${id}` },
    email: null,
    status: 0,
    invoiceNo: null,
    fileUri: null,
    reason: null,
    issuedAt: null,
    createdAt: '2026-05-01T02:00:00.000Z',
    ...over,
  }) as Invoice;

describe('the invoice list', () => {
  it('opens on what waits for the competition in the address and rejects the selection with one reason', async () => {
    answers = {
      '/api/invoice/list?page=1&limit=20&status=0&competitionId=3': page([invoice(1), invoice(2)]),
      'PUT /api/invoice/reject/batch': { done: 2, decided: 0, skipped: 0, notFound: 0, results: [] },
    };
    open(['invoice:invoice:menu', 'invoice:invoice:edit'], '/financial/invoice?competitionId=3', <InvoicePage />);
    await screen.findByText('抬头1');
    fireEvent.click((await screen.findAllByRole('checkbox'))[0]);
    fireEvent.click(await screen.findByRole('button', { name: '批量驳回（2）' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('驳回原因'), { target: { value: '税号有误' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('已驳回 2 条')).toBeTruthy();
    expect(requests.find((r) => r.method === 'PUT')).toEqual({ method: 'PUT', url: '/api/invoice/reject/batch', body: { ids: [1, 2], reason: '税号有误' } });
  });
});

function Where() {
  const { pathname, search } = useLocation();
  return <div data-testid="where">{pathname + search}</div>;
}

describe('the home page', () => {
  const todo = (counts: Partial<Todo['counts']>): Todo => ({
    counts: { competitionsToAudit: null, registrationsToReview: null, transfersToConfirm: null, invoicesToIssue: null, disputesToAnswer: null, judgesNotFinished: null, ...counts },
    running: [{ id: 3, name: '泰迪杯', registrations: 40, approved: 30, paid: 25, submissions: 12, reviewsDone: 6, reviewsTotal: 24 }],
  });
  const home = (
    <Routes>
      <Route path="/index" element={<HomePage />} />
      <Route path="*" element={<Where />} />
    </Routes>
  );

  it('lists what waits for an organiser, each linking to the list filtered to it', async () => {
    answers = { '/api/system/todo': todo({ registrationsToReview: 28, transfersToConfirm: 2, invoicesToIssue: 0, disputesToAnswer: 1, judgesNotFinished: 3 }) };
    open(['payment:register:menu'], '/index', home);
    expect(await screen.findByText('待审核报名')).toBeTruthy();
    expect(screen.queryByText('待审核竞赛')).toBeNull();
    expect(screen.queryByText('注册用户')).toBeNull();
    const hrefs = screen.getAllByRole('link').map((a) => [a.getAttribute('aria-label') ?? a.textContent, a.getAttribute('href')]);
    expect(hrefs).toEqual(
      expect.arrayContaining([
        ['待审核报名 28', '/register/manager?status=0'],
        ['待确认转账 2', '/financial/order?waiting=1'],
        ['待开票 0', '/financial/invoice'],
        ['待答复成绩申诉 1', '/review/grade'],
        ['未完成评审的专家 3', '/review/assign'],
      ]),
    );
    // The running competitions' figures.
    expect(screen.getByText('泰迪杯')).toBeTruthy();
    expect(screen.getByText('6/24')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: '待审核报名 28' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/register/manager?status=0');
  });

  it('adds competitions to audit and the platform counters for the administrator', async () => {
    answers = {
      '/api/system/todo': todo({ competitionsToAudit: 2, registrationsToReview: 0 }),
      '/api/system/dashboard': { users: 10, activeUsers: 9, organisations: 2, roles: 4, sessions: 3 },
    };
    open(['system:user:menu', 'competition:competition:audit'], '/index', home);
    expect(await screen.findByRole('link', { name: '待审核竞赛 2' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '待审核竞赛 2' }).getAttribute('href')).toBe('/competition/audit');
    expect(await screen.findByText('注册用户')).toBeTruthy();
  });
});
