// @vitest-environment happy-dom
import { sampleCsv, type Leaderboard, type MyTests } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within, configure } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { axisRange, scoreChartOption } from './pages/question/ScoreChart.tsx';
import TestTab from './pages/question/TestTab.tsx';

/** The API as a table of answers; every request is recorded with its status. */
let answers: Record<string, unknown> = {};
let requests: string[] = [];

beforeEach(() => {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const { pathname, search } = new URL(url, location.href);
      requests.push(pathname + search);
      const data = answers[pathname + search] ?? answers[pathname] ?? null;
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data }), { headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const user = { id: 5, username: 'zhangsan', userName: '张三', faceImg: null };
const team = { id: 9, name: '数据先锋队', choiceQuestionList: [{ questionId: 11, title: 'A题 客户流失预测' }], memberList: [], teacherList: [] };
const mine: MyTests = {
  list: [],
  dailyLimit: 5,
  usedToday: 1,
  format: { metric: 'auc', higherIsBetter: true, idColumn: 'customer_id', targetColumn: 'churn' },
  leaderboardPublished: false,
  disqualified: null,
  realNameRefusal: null,
};
const entry = (rank: number, teamId: number, teamName: string, score: number) => ({
  rank,
  teamId,
  teamName,
  score,
  submissions: 2,
  lastAt: '2026-03-20T02:00:00.000Z',
});
const publicBoard: Leaderboard = {
  board: 'public',
  metric: 'auc',
  higherIsBetter: true,
  published: false,
  entries: [entry(1, 4, '别的队', 0.93), entry(2, 9, '数据先锋队', 0.91), entry(3, 7, '第三队', 0.8)],
  total: 3,
  mine: entry(2, 9, '数据先锋队', 0.91),
};
const closedPrivate: Leaderboard = { board: 'private', metric: 'auc', higherIsBetter: true, published: false, entries: [], total: 0 };

/** The SUBMIT_TEST menu as the competition has it: on, and open unless a test says otherwise. */
let testPreset = {
  id: 2,
  competitionId: 3,
  menuCode: 'SUBMIT_TEST',
  name: '提交测试',
  enable: true,
  enableStartTime: null as string | null,
  enableEndTime: null as string | null,
  fieldList: [],
};

function open() {
  answers = {
    '/api/team/userinfo/': user,
    '/api/team/competition/3/detail': { team, invitations: [] },
    '/api/review/test/list/11': mine,
    '/api/review/test/leaderboard/11?board=public': publicBoard,
    '/api/review/test/leaderboard/11?board=private': closedPrivate,
    ...answers,
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const competition = { id: 3, name: '泰迪杯', endTime: '2099-01-01T00:00:00.000Z', stages: [] };
  const router = createMemoryRouter(
    [
      {
        path: '/competition/:competitionId',
        element: <Outlet context={{ competition, presets: [testPreset] }} />,
        children: [{ path: 'test', element: <TestTab /> }],
      },
    ],
    { initialEntries: ['/competition/3/test'] },
  );
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
}

// Rendering antd in happy-dom is slow on a busy machine: wait for what the page shows, not for a fixed second.
configure({ asyncUtilTimeout: 15_000 });

describe('the test tab', { timeout: 60_000 }, () => {
  beforeEach(() => {
    testPreset = { ...testPreset, enableStartTime: null, enableEndTime: null };
  });

  it('offers the upload only when it can succeed: within the window and the day’s quota, saying why otherwise', async () => {
    answers = {};
    open();
    const upload = () => screen.getByRole('button', { name: /上传预测文件/ }) as HTMLButtonElement;
    await screen.findByTestId('quota');
    expect(upload().disabled).toBe(false);
    expect(screen.queryByTestId('test-blocked')).toBeNull();
    cleanup();
    answers = { '/api/review/test/list/11': { ...mine, usedToday: 5 } };
    open();
    expect((await screen.findByTestId('test-blocked')).textContent).toBe('今日 5 次提交已用完，北京时间明天 00:00 恢复');
    expect(upload().disabled).toBe(true);
    cleanup();
    testPreset = { ...testPreset, enableEndTime: '2026-03-19T04:00:00.000Z' };
    answers = {};
    open();
    expect((await screen.findByTestId('test-blocked')).textContent).toBe('提交测试已于 2026-03-19 12:00 截止');
    expect(upload().disabled).toBe(true);
  });

  it('shows a visitor the public board, and the way to take part', async () => {
    answers = {
      '/api/team/userinfo/': null,
      '/api/competition/question/public/list/3': [
        { id: 11, competitionId: 3, title: 'A题 客户流失预测', content: null, judging: 'auto', files: [] },
        { id: 12, competitionId: 3, title: 'B题 论文', content: null, judging: 'review', files: [] },
      ],
    };
    open();
    const boards = await screen.findByTestId('public-boards');
    expect(within(boards).getByText('登录并报名参赛后可提交测试文件')).toBeTruthy();
    expect(await within(boards).findByText('别的队')).toBeTruthy();
    // Only the automatically scored question has a board; nobody's row is marked as the visitor's.
    expect(within(boards).getByText('排行榜：A题 客户流失预测')).toBeTruthy();
    expect(within(boards).queryByText('排行榜：B题 论文')).toBeNull();
    expect(screen.queryByTestId('my-row')).toBeNull();
    expect(screen.queryByRole('button', { name: /上传预测文件/ })).toBeNull();
  });

  it("spells out the file format with the question's columns and offers a sample made in the browser", async () => {
    answers = {};
    open();
    const format = await screen.findByTestId('file-format');
    expect(within(format).getByText('customer_id')).toBeTruthy();
    expect(within(format).getByText('churn')).toBeTruthy();
    expect(format.textContent).toContain('评分指标：AUC，越高越好');
    expect(screen.getByTestId('metric-definition').textContent).toBe('指标定义：ROC曲线下面积：随机取一正一负样本，正样本得分更高的概率（并列计一半）。');
    expect(screen.getByTestId('sample-csv').textContent).toBe('customer_id,churn\n1,0.92\n2,0.13');
    // The file to download lists every id of the test set: the server makes it.
    const link = screen.getByTestId('sample-download');
    expect(link.getAttribute('download')).toBe('sample_submission.csv');
    expect(link.getAttribute('href')).toBe('/api/review/test/sample/11');
    expect(link.textContent).toContain('含测试集全部编号');
  });

  it('explains a prediction of several classes and the setting a metric reads', async () => {
    answers = { '/api/review/test/list/11': { ...mine, format: { metric: 'multiLogLoss', higherIsBetter: false, idColumn: 'id', targetColumn: 'species' } } };
    open();
    const format = await screen.findByTestId('file-format');
    expect(format.textContent).toContain('和每个类别一列（列名为类别标签）；此后每行一个测试集编号及其属于各类别的概率，每行概率之和为1');
    expect(format.textContent).not.toContain('species');
    expect(screen.getByTestId('sample-csv').textContent).toBe('id,A,B\n1,0.7,0.3\n2,0.3,0.7');
    cleanup();
    answers = { '/api/review/test/list/11': { ...mine, format: { metric: 'mapAtK', higherIsBetter: true, idColumn: 'user', targetColumn: 'items', k: 5 } } };
    open();
    expect((await screen.findByTestId('metric-definition')).textContent).toContain('；K = 5。');
    expect(screen.getByTestId('sample-csv').textContent).toBe('user,items\n1,item7 item2 item9\n2,item4');
  });

  it('makes a sample that fits the metric and quotes awkward column names', () => {
    expect(sampleCsv({ metric: 'rmse', idColumn: 'id', targetColumn: 'y' })).toBe('id,y\r\n1,12.5\r\n2,3.8\r\n');
    expect(sampleCsv({ metric: 'accuracy', idColumn: '编号', targetColumn: 'label, final' })).toBe('编号,"label, final"\r\n1,1\r\n2,0\r\n');
  });

  it("highlights the team's own row and names the metric and its direction", async () => {
    answers = {};
    open();
    const row = await screen.findByTestId('my-row');
    expect(within(row).getByText('数据先锋队')).toBeTruthy();
    expect(within(row).getByText('我的队伍')).toBeTruthy();
    expect(within(row).getByTestId('board-score').textContent).toBe('0.91');
    expect(screen.getAllByTestId('my-row')).toHaveLength(1);
    expect(screen.getByTestId('board-metric').textContent).toContain('评分指标：AUC，越高越好');
    expect(screen.getByTestId('board-metric').textContent).toContain('我的队伍第 2 名');
    expect(screen.getByRole('columnheader', { name: '成绩（越高越好）' })).toBeTruthy();
  });

  it('says plainly that the private board opens with the results, without an error', async () => {
    answers = {};
    open();
    await screen.findByTestId('my-row');
    fireEvent.click(screen.getByRole('tab', { name: '私榜' }));
    expect((await screen.findByTestId('private-closed')).textContent).toContain('私榜尚未公布，将在成绩公布后显示');
    await waitFor(() => expect(requests).toContain('/api/review/test/leaderboard/11?board=private'));
  });

  it('names a lower-is-better metric so', async () => {
    answers = {
      '/api/review/test/leaderboard/11?board=public': { ...publicBoard, metric: 'rmse', higherIsBetter: false },
      '/api/review/test/list/11': { ...mine, format: { metric: 'rmse', higherIsBetter: false, idColumn: 'id', targetColumn: 'y' } },
    };
    open();
    expect((await screen.findByTestId('board-metric')).textContent).toContain('均方根误差（RMSE），越低越好');
    expect(screen.getByTestId('file-format').textContent).toContain('越低越好');
  });

  it("pins the team's own row on top of a page it is not on, and follows it when paged", async () => {
    // The server pages the board (50 a page) and sends the team's own row and rank with every page.
    const many = Array.from({ length: 120 }, (_, i) => entry(i + 1, i === 72 ? 9 : 100 + i, i === 72 ? '数据先锋队' : `队伍${i + 1}`, 0.99 - i / 1000));
    const pageOf = (n: number) => ({ ...publicBoard, entries: many.slice((n - 1) * 50, n * 50), total: 120, mine: many[72] });
    answers = { '/api/review/test/leaderboard/11?board=public': pageOf(1), '/api/review/test/leaderboard/11?board=public&page=2': pageOf(2) };
    open();
    const pinned = await screen.findByTestId('my-row-pinned');
    expect(pinned.textContent).toContain('73');
    expect(pinned.textContent).toContain('数据先锋队');
    expect(screen.queryByTestId('my-row')).toBeNull();
    expect(screen.getByTestId('board-metric').textContent).toContain('我的队伍第 73 名');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(requests).toContain('/api/review/test/leaderboard/11?board=public&page=2'));
    const row = await screen.findByTestId('my-row');
    expect(row.textContent).toContain('数据先锋队');
    expect(screen.queryByTestId('my-row-pinned')).toBeNull();
  });

  it("lists the team's submissions with formatted scores and a refused file's problems line by line", async () => {
    const scored = {
      id: 1,
      questionId: 11,
      teamId: 9,
      username: 'zhangsan',
      fileName: 'good.csv',
      size: 2048,
      status: 2,
      reason: null,
      publicScore: 0.8981573211808995,
      privateScore: null,
      selected: false,
      createdAt: '2026-03-20T02:00:00.000Z',
      scoredAt: '2026-03-20T02:00:05.000Z',
    };
    const failed = {
      ...scored,
      id: 2,
      fileName: 'bad.csv',
      status: 3,
      publicScore: null,
      createdAt: '2026-03-20T03:05:00.000Z',
      reason: '第3行：编号“u0”重复；第4行：编号“zz”不在测试集中',
    };
    answers = { '/api/review/test/list/11': { ...mine, list: [failed, scored] } };
    open();
    const problems = await screen.findByTestId('test-problems');
    expect([...problems.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['第3行：编号“u0”重复', '第4行：编号“zz”不在测试集中']);
    expect(screen.getAllByTestId('public-score').map((e) => e.textContent)).toEqual(['—', '0.898157']);
    expect(screen.getByRole('cell', { name: '2026/03/20 11:05' })).toBeTruthy();
  });

  it('says plainly that a question without automatic scoring has no test, offering no upload and asking for no board', async () => {
    // The organiser removed the evaluation after approval: the list answers with no format and no daily limit.
    answers = { '/api/review/test/list/11': { ...mine, dailyLimit: null, usedToday: 0, format: null } };
    open();
    const notice = await screen.findByTestId('no-scoring');
    expect(notice.textContent).toContain('该赛题没有自动评分');
    expect(notice.textContent).toContain('无需上传预测文件');
    expect(screen.queryByRole('button', { name: /上传预测文件/ })).toBeNull();
    expect(screen.queryByTestId('quota')).toBeNull();
    expect(document.body.textContent).not.toContain('今日已提交');
    expect(document.body.textContent).not.toContain('赛题不存在');
    expect(requests.some((r) => r.startsWith('/api/review/test/leaderboard/'))).toBe(false);
  });

  it("fits the chart's axis to the scores, inside the metric's range", () => {
    // AUC of 0.95 to 0.99: a tenth of the spread either side, but never past 1.
    expect(axisRange([0.95, 0.99], 'auc')).toEqual({ min: 0.946, max: 0.994 });
    expect(axisRange([0.5, 1], 'auc')).toEqual({ min: 0.45, max: 1 });
    // An error never goes below 0; one score alone gets a margin of its tenth.
    expect(axisRange([0.02, 3], 'rmse')).toEqual({ min: 0, max: 3.298 });
    expect(axisRange([5], 'mae')).toEqual({ min: 4.5, max: 5.5 });
    // An own program's score has no known range.
    expect(axisRange([-2, 2], 'custom')).toEqual({ min: -2.4, max: 2.4 });
  });

  it("draws the team's scores in submission order with the best so far, labelled in Beijing time", () => {
    const at = (id: number, createdAt: string, publicScore: number) => ({
      id,
      questionId: 11,
      teamId: 9,
      username: 'z',
      fileName: `${id}.csv`,
      size: 1,
      status: 2,
      reason: null,
      publicScore,
      privateScore: null,
      selected: false,
      createdAt,
      scoredAt: createdAt,
      cancelReason: null,
    });
    const list = [at(3, '2026-03-21T16:30:00.000Z', 0.7), at(1, '2026-03-20T02:00:00.000Z', 0.8), at(2, '2026-03-20T03:00:00.000Z', 0.9)];
    const higher = scoreChartOption(list, true);
    expect(higher.xAxis.data).toEqual(['03/20 10:00', '03/20 11:00', '03/22 00:30']);
    expect(higher.series[0]!.data).toEqual([0.8, 0.9, 0.7]);
    expect(higher.series[1]!.data).toEqual([0.8, 0.9, 0.9]);
    const lower = scoreChartOption(list, false);
    expect(lower.series[1]!.data).toEqual([0.8, 0.8, 0.7]);
    expect(lower.yAxis.inverse).toBe(true);
  });
});
