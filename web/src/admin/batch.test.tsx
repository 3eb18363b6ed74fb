// @vitest-environment happy-dom
import type { Invoice, Order, Page, Register, Todo, WorkVersion } from '@contest/shared';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import HomePage from './pages/HomePage.tsx';
import InvoicePage from './pages/financial/InvoicePage.tsx';
import OrderPage from './pages/financial/OrderPage.tsx';
import RegisterManagerPage from './pages/register/RegisterManagerPage.tsx';
import WorksPage from './pages/question/WorksPage.tsx';
import AssignPage from './pages/review/AssignPage.tsx';

/** The API as a table of api.answers keyed by method and address (GET by address alone); every request is recorded. */
const api = useFakeApi();

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
  api.answers = {
    ...api.answers,
    '/api/team/userinfo/': { id: 2, username: 'org', userName: '李老师', faceImg: null },
    '/api/team/userinfo/permission': codes,
    '/api/competition/listAuth?limit=100': { list: [{ id: 3, name: '泰迪杯' }], total: 1, page: 1, limit: 100 },
  };
  renderPage(children, entry);
}

describe('the registration list', () => {
  it('approves the selected registrations at once and says how many were already decided and which unpaid ones waited', async () => {
    api.answers = {
      '/api/team/register/list?page=1&limit=20': page([register(1), register(2), register(3)]),
      'POST /api/team/register/flow/batch': {
        done: 1,
        decided: 1,
        skipped: 1,
        notFound: 0,
        results: [],
        skippedWhy: '尚未缴费',
        skippedNames: ['队伍9（T9）'],
      },
    };
    open(ORGANISER, '/register/manager', <RegisterManagerPage />);
    const row1 = (await screen.findByText('队伍1')).closest('tr')!;
    fireEvent.click(within(row1).getByRole('checkbox'));
    fireEvent.click(within(screen.getByText('队伍3').closest('tr')!).getByRole('checkbox'));
    expect(await screen.findByText('已选择 2 条')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '批量通过' }));
    expect(await screen.findByText('确定通过所选的 2 条报名吗？已审核的和尚未缴费的将跳过，跳过的队伍会列出。')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('已通过 1 条，1 条已被处理，1 条尚未缴费，已跳过：队伍9（T9）')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/team/register/flow/batch',
      body: { ids: [1, 3], action: 'approve' },
    });
    // The selection is cleared and the list reloaded.
    await waitFor(() => expect(screen.queryByText(/已选择/)).toBeNull());
  });

  it('warns before approving one registration that has not paid', async () => {
    api.answers = {
      '/api/team/register/list?page=1&limit=20': page([register(1), register(2, { orderId: 7, payStatus: 0 })]),
      'POST /api/team/register/flow/2': null,
    };
    open(ORGANISER, '/register/manager', <RegisterManagerPage />);
    fireEvent.click(await within((await screen.findByText('队伍1')).closest('tr')!).findByText('通过'));
    expect(await screen.findByText('确定通过队伍“队伍1”的报名吗？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    fireEvent.click(within(screen.getByText('队伍2').closest('tr')!).getByText('通过'));
    const warning = await screen.findByText('队伍“队伍2”尚未缴费（待支付），确定不等缴费就通过它的报名吗？');
    fireEvent.click(within(warning.closest('.ant-modal-content') as HTMLElement).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'POST')).toEqual({ method: 'POST', url: '/api/team/register/flow/2', body: { action: 'approve' } }),
    );
  });

  it('rejects the selection with one required reason', async () => {
    api.answers = {
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
    fireEvent.click(within(dialog).getByRole('button', { name: /驳\s*回/ }));
    expect(await within(dialog).findByText('请填写驳回原因')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('驳回原因'), { target: { value: '材料不全' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /驳\s*回/ }));
    expect(await screen.findByText('已驳回 2 条')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ ids: [1, 2], action: 'reject', reason: '材料不全' });
  });

  it('opens filtered to what waits from the address, and only reviewers see the batch actions', async () => {
    api.answers = { '/api/team/register/list?page=1&limit=20&status=0&competitionId=3': page([register(1)]) };
    open(['payment:register:menu'], '/register/manager?status=0&competitionId=3', <RegisterManagerPage />);
    fireEvent.click(within((await screen.findByText('队伍1')).closest('tr')!).getByRole('checkbox'));
    expect(await screen.findByText('已选择 1 条')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '批量通过' })).toBeNull();
    expect(screen.getByRole('button', { name: /导出Excel/ })).toBeTruthy();
    // The selection is exported on its own.
    fireEvent.click(screen.getByRole('button', { name: /导出所选/ }));
    await waitFor(() => expect(api.requests.some((r) => r.url === '/api/team/register/list?ids=1&export=xlsx')).toBe(true));
    // The quick filter and the status field both say 待审核.
    expect(screen.getAllByTitle('待审核').map((e) => Boolean(e.closest('.ant-segmented-item-selected')))).toEqual(expect.arrayContaining([true, false]));
  });

  it('shows the filter of the address and removes it with 全部, the address following', async () => {
    api.answers = {
      '/api/team/register/list?page=1&limit=20&status=0': page([register(1)]),
      '/api/team/register/list?page=1&limit=20': page([register(1), register(2, { status: 1 })]),
    };
    open(
      ORGANISER,
      '/register/manager?status=0',
      <Routes>
        <Route
          path="/register/manager"
          element={
            <>
              <RegisterManagerPage />
              <Where />
            </>
          }
        />
      </Routes>,
    );
    await screen.findByText('队伍1');
    expect(screen.queryByText('队伍2')).toBeNull();
    expect(screen.getAllByTitle('待审核').some((e) => e.closest('.ant-segmented-item-selected'))).toBe(true);
    fireEvent.click(screen.getByText('全部', { selector: '.ant-segmented-item-label' }));
    expect(await screen.findByText('队伍2')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/register/manager');
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
    api.answers = {
      '/api/order/list?page=1&limit=20&waiting=1': page([order(1), order(2)]),
      'PUT /api/order/confirm/batch': { done: 1, decided: 1, skipped: 0, notFound: 0, results: [] },
    };
    open(['order:order:menu', 'order:order:edit'], '/financial/order?waiting=1', <OrderPage />);
    await screen.findByText('队伍1（T1）');
    expect(screen.getByTitle('待确认转账').closest('.ant-segmented-item')!.className).toContain('selected');
    fireEvent.click((await screen.findAllByRole('checkbox'))[0]);
    expect(await screen.findByText('已选择 2 条')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: '批量确认收款' }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText('已确认收款 1 条，1 条已被处理')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'PUT')).toEqual({ method: 'PUT', url: '/api/order/confirm/batch', body: { ids: [1, 2] } });
  });

  it('lets a reader without the finance code select paid orders and export them, without the batch actions', async () => {
    api.answers = { '/api/order/list?page=1&limit=20': page([order(1, { payStatus: 1 }), order(2)]) };
    open(['order:order:menu'], '/financial/order', <OrderPage />);
    fireEvent.click(within((await screen.findByText('队伍1（T1）')).closest('tr')!).getByRole('checkbox'));
    expect(await screen.findByText('已选择 1 条')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '批量确认收款' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /导出所选/ }));
    await waitFor(() => expect(api.requests.some((r) => r.url === '/api/order/list?ids=1&export=xlsx')).toBe(true));
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
    api.answers = {
      '/api/invoice/list?page=1&limit=20&status=0&competitionId=3': page([invoice(1), invoice(2)]),
      'PUT /api/invoice/reject/batch': { done: 2, decided: 0, skipped: 0, notFound: 0, results: [] },
    };
    open(['invoice:invoice:menu', 'invoice:invoice:edit'], '/financial/invoice?status=0&competitionId=3', <InvoicePage />);
    await screen.findByText('抬头1');
    fireEvent.click((await screen.findAllByRole('checkbox'))[0]);
    fireEvent.click(await screen.findByRole('button', { name: '批量驳回' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('驳回原因'), { target: { value: '税号有误' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /驳\s*回/ }));
    expect(await screen.findByText('已驳回 2 条')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'PUT')).toEqual({
      method: 'PUT',
      url: '/api/invoice/reject/batch',
      body: { ids: [1, 2], reason: '税号有误' },
    });
  });

  it('opens on 待开票 from the address, shows it as the chosen filter, and lists everything once it is removed', async () => {
    api.answers = {
      '/api/invoice/list?page=1&limit=20&status=0': page([invoice(1)]),
      '/api/invoice/list?page=1&limit=20': page([invoice(1), invoice(2, { status: 1, invoiceNo: 'NO2' })]),
    };
    open(
      ['invoice:invoice:menu'],
      '/financial/invoice?status=0',
      <Routes>
        <Route
          path="/financial/invoice"
          element={
            <>
              <InvoicePage />
              <Where />
            </>
          }
        />
      </Routes>,
    );
    await screen.findByText('抬头1');
    expect(screen.queryByText('抬头2')).toBeNull();
    expect(screen.getAllByTitle('待开票').some((e) => e.closest('.ant-segmented-item-selected'))).toBe(true);
    fireEvent.click(screen.getByText('全部', { selector: '.ant-segmented-item-label' }));
    expect(await screen.findByText('抬头2')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/financial/invoice');
    // Picked by hand, 待开票 goes back into the address.
    fireEvent.click(screen.getByText('待开票', { selector: '.ant-segmented-item-label' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/financial/invoice?status=0'));
    await waitFor(() => expect(screen.queryByText('抬头2')).toBeNull());
  });
});

function Where() {
  const { pathname, search } = useLocation();
  return <div data-testid="where">{pathname + search}</div>;
}

describe('the home page', () => {
  const todo = (counts: Partial<Todo['counts']>, over: Partial<Todo> = {}): Todo => ({
    counts: {
      applicationsToReview: null,
      competitionsToAudit: null,
      questionsToReview: null,
      registrationsToReview: null,
      transfersToConfirm: null,
      invoicesToIssue: null,
      disputesToAnswer: null,
      judgesNotFinished: null,
      ...counts,
    },
    running: [
      {
        id: 3,
        name: '泰迪杯',
        registrations: 40,
        approved: 30,
        paid: 25,
        submissions: 12,
        reviewsDone: 6,
        reviewsTotal: 24,
        daily: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 5, 3, 1],
      },
    ],
    days: Array.from({ length: 14 }, (_, i) => `2026-05-${String(i + 1).padStart(2, '0')}`),
    disputeQuestions: [{ questionId: 7, questionTitle: '销量预测', competitionName: '泰迪杯', pending: 1 }],
    reviewQuestions: [],
    ...over,
  });
  const home = (
    <Routes>
      <Route path="/index" element={<HomePage />} />
      <Route path="*" element={<Where />} />
    </Routes>
  );

  it('lists what waits for an organiser, each linking to the list filtered to it', async () => {
    api.answers = {
      '/api/system/todo': todo({ registrationsToReview: 28, transfersToConfirm: 2, invoicesToIssue: 0, disputesToAnswer: 1, judgesNotFinished: 3 }),
    };
    open(['payment:register:menu'], '/index', home);
    expect(await screen.findByText('待审核报名')).toBeTruthy();
    expect(screen.queryByText('待审核竞赛')).toBeNull();
    expect(screen.queryByText('注册用户')).toBeNull();
    const hrefs = screen.getAllByRole('link').map((a) => [a.getAttribute('aria-label') ?? a.textContent, a.getAttribute('href')]);
    expect(hrefs).toEqual(
      expect.arrayContaining([
        ['待审核报名 28', '/register/manager?status=0'],
        ['待确认转账 2', '/financial/order?waiting=1'],
        ['待开票 0', '/financial/invoice?status=0'],
        ['待答复成绩申诉 1', '/question/grade/7?dispute=0'],
        ['未完成评审的专家 3', '/review/assign?unfinished=1'],
      ]),
    );
    fireEvent.click(screen.getByRole('link', { name: '待审核报名 28' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/register/manager?status=0');
  });

  it('lists the questions to choose from when disputes wait on several', async () => {
    const disputeQuestions = [
      { questionId: 7, questionTitle: '销量预测', competitionName: '泰迪杯', pending: 2 },
      { questionId: 9, questionTitle: '图像识别', competitionName: '数据杯', pending: 1 },
    ];
    api.answers = { '/api/system/todo': todo({ disputesToAnswer: 3 }, { disputeQuestions }) };
    open(['payment:register:menu'], '/index', home);
    fireEvent.click(await screen.findByRole('button', { name: '待答复成绩申诉 3' }));
    const links = (await screen.findAllByRole('link')).filter((a) => a.getAttribute('href')?.startsWith('/question/grade/'));
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['销量预测（泰迪杯）', '/question/grade/7?dispute=0'],
      ['图像识别（数据杯）', '/question/grade/9?dispute=0'],
    ]);
  });

  it('draws each running competition’s figures once the charts have loaded', async () => {
    api.answers = { '/api/system/todo': todo({ registrationsToReview: 0 }) };
    open(['payment:register:menu'], '/index', home);
    const card = await screen.findByTestId('running-3', {}, { timeout: 5000 });
    expect(within(card).getByText('泰迪杯')).toBeTruthy();
    expect(within(card).getByText('6/24')).toBeTruthy();
    expect(within(card).getByRole('link', { name: '报名管理' }).getAttribute('href')).toBe('/register/manager?competitionId=3');
    // The charts are drawn as SVG: the figures' bars carry registrations, approved, paid and submitted as labels.
    await waitFor(() => expect(card.querySelectorAll('svg').length).toBeGreaterThanOrEqual(2));
    const labels = [...card.querySelectorAll('svg')[0]!.querySelectorAll('text')].map((t) => t.textContent);
    expect(labels).toEqual(expect.arrayContaining(['40', '30', '25', '12']));
    expect(card.querySelectorAll('svg')[1]!.querySelectorAll('path').length).toBeGreaterThan(0);
  });

  it('adds competitions to audit and the platform counters for the administrator', async () => {
    api.answers = {
      '/api/system/todo': todo({ competitionsToAudit: 2, registrationsToReview: 0 }),
      '/api/system/dashboard': { users: 10, activeUsers: 9, organisations: 2, roles: 4, sessions: 3 },
    };
    open(['system:user:menu', 'competition:competition:audit'], '/index', home);
    expect(await screen.findByRole('link', { name: '待审核竞赛 2' })).toBeTruthy();
    expect(screen.getByRole('link', { name: '待审核竞赛 2' }).getAttribute('href')).toBe('/competition/audit');
    expect(await screen.findByText('注册用户')).toBeTruthy();
  });

  it('leads the administrator to the applications and to the questions added after approval', async () => {
    const reviewQuestions = [
      { questionId: 11, questionTitle: '新增B题', competitionId: 3, competitionName: '泰迪杯' },
      { questionId: 12, questionTitle: '新增C题', competitionId: 5, competitionName: '数据杯' },
    ];
    api.answers = { '/api/system/todo': todo({ applicationsToReview: 1, questionsToReview: 1 }, { reviewQuestions: reviewQuestions.slice(0, 1) }) };
    open(['competition:competition:audit'], '/index', home);
    expect((await screen.findByRole('link', { name: '待审核组织方申请 1' })).getAttribute('href')).toBe('/partner/apply');
    expect(screen.getByRole('link', { name: '待审核赛题 1' }).getAttribute('href')).toBe('/competition/edit/3?tab=questions');
    cleanup();
    api.answers = { '/api/system/todo': todo({ questionsToReview: 2 }, { reviewQuestions }) };
    open(['competition:competition:audit'], '/index', home);
    fireEvent.click(await screen.findByRole('button', { name: '待审核赛题 2' }));
    const links = (await screen.findAllByRole('link')).filter((a) => a.getAttribute('href')?.startsWith('/competition/edit/'));
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['新增B题（泰迪杯）', '/competition/edit/3?tab=questions'],
      ['新增C题（数据杯）', '/competition/edit/5?tab=questions'],
    ]);
  });
});

describe('the judges not finished', () => {
  it('opens from the address on the judges with works left, each leading to its question’s assignments', async () => {
    api.answers = {
      '/api/system/todo/judges?page=1&limit=20': page([
        {
          questionId: 7,
          questionTitle: '销量预测',
          competitionId: 3,
          competitionName: '泰迪杯',
          judgeId: 11,
          username: 'judge1',
          userName: '王教授',
          assigned: 4,
          submitted: 1,
        },
      ]),
    };
    open(
      ['review:assign:menu', 'competition:competition:menu'],
      '/review/assign?unfinished=1',
      <Routes>
        <Route
          path="/review/assign"
          element={
            <>
              <AssignPage />
              <Where />
            </>
          }
        />
      </Routes>,
    );
    const row = (await screen.findByText('王教授（judge1）')).closest('tr')!;
    expect(within(row).getByText('1/4')).toBeTruthy();
    expect(within(row).getByRole('link', { name: '查看评审分配' }).getAttribute('href')).toBe('/question/judge/7');
    expect(screen.getByTitle('未完成评审的专家').closest('.ant-segmented-item')!.className).toContain('selected');
    // One competition's judges: the choice goes to the address and the server, from the first page.
    api.answers['/api/system/todo/judges?page=1&limit=20&competitionId=3'] = page([]);
    fireEvent.mouseDown((await screen.findAllByLabelText('竞赛'))[0]!.closest('.ant-select')!.querySelector('.ant-select-selector')!);
    const option = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.ant-select-item-option[title="泰迪杯"]');
      expect(found).toBeTruthy();
      return found!;
    });
    fireEvent.click(option);
    expect(await screen.findByText('评审专家都已提交全部评分')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/review/assign?unfinished=1&competitionId=3');
    // Back to the questions: the filter leaves the address, the competition stays chosen.
    fireEvent.click(screen.getByText('按赛题', { selector: '.ant-segmented-item-label' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/review/assign?competitionId=3'));
  });
});

describe('the works list', () => {
  const work = (id: number, over: Partial<WorkVersion> = {}): WorkVersion => ({
    id,
    competitionId: 3,
    questionId: 5,
    teamId: id,
    teamNo: `T${id}`,
    teamName: `队伍${id}`,
    version: 1,
    fileUri: `works/0b7c2c5e-0000-4000-8000-00000000000${id}`,
    fileName: `作品${id}.zip`,
    size: 1024,
    sha256: 'a'.repeat(64),
    username: `user${id}`,
    completedAt: '2026-05-01T02:00:00.000Z',
    counts: true,
    ...over,
  });

  it('zips and exports only the selected works', async () => {
    api.answers = {
      '/api/competition/question/check/5': { id: 5, title: '销量预测', competitionId: 3, competitionName: '泰迪杯' },
      '/api/review/works/page/5?page=1&limit=20': page([work(1), work(2), work(3)]),
    };
    open(
      ['competition:competition:menu'],
      '/question/work/5',
      <Routes>
        <Route path="/question/work/:questionId" element={<WorksPage />} />
      </Routes>,
    );
    fireEvent.click(within((await screen.findByText('队伍1')).closest('tr')!).getByRole('checkbox'));
    fireEvent.click(within(screen.getByText('队伍3').closest('tr')!).getByRole('checkbox'));
    expect(await screen.findByText('已选择 2 条')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /打包下载所选/ }));
    await waitFor(() =>
      expect(api.requests.some((r) => r.url === '/api/review/works/export/5?ids=1%2C3' || r.url === '/api/review/works/export/5?ids=1,3')).toBe(true),
    );
    fireEvent.click(screen.getByRole('button', { name: /导出所选/ }));
    await waitFor(() => expect(api.requests.some((r) => /^\/api\/review\/works\/page\/5\?ids=1(%2C|,)3&export=xlsx$/.test(r.url))).toBe(true));
    fireEvent.click(screen.getByText('取消选择'));
    await waitFor(() => expect(screen.queryByText(/已选择/)).toBeNull());
  });
});
