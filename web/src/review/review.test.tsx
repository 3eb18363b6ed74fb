// @vitest-environment happy-dom
import { CSRF_COOKIE, CSRF_HEADER, type ReviewTask, type ReviewWork, type ReviewWorkDetail } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reviewRoutes } from './routes.tsx';

/** The API as a table of answers; writes are recorded. */
let answers: Record<string, unknown> = {};
let writes: { method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];

beforeEach(() => {
  writes = [];
  document.cookie = `${CSRF_COOKIE}=csrf-token`;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname, search } = new URL(url, location.href);
      const method = init.method ?? 'GET';
      if (method !== 'GET') {
        writes.push({ method, path: pathname, body: JSON.parse(String(init.body)), headers: init.headers as Record<string, string> });
        return envelope(null);
      }
      const key = pathname + search;
      if (!(key in answers))
        return new Response(JSON.stringify({ status: 404, message: '不存在', data: null }), { status: 404, headers: { 'content-type': 'application/json' } });
      return envelope(answers[key]);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const envelope = (data: unknown) =>
  new Response(JSON.stringify({ status: 200, message: '操作成功', data }), { headers: { 'content-type': 'application/json' } });
const user = { id: 5, username: 'judge', userName: '李评委', faceImg: null };

function open(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(reviewRoutes, { initialEntries: [path] });
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return router;
}

const task = (over: Partial<ReviewTask>): ReviewTask => ({
  competitionId: 1,
  competitionName: '泰迪杯',
  questionId: 11,
  questionTitle: 'A题',
  total: 3,
  submitted: 1,
  blind: true,
  ...over,
});
const work = (over: Partial<ReviewWork>): ReviewWork => ({
  id: 101,
  questionId: 11,
  questionTitle: 'A题',
  competitionName: '泰迪杯',
  code: 'A0001',
  status: 0,
  total: null,
  maxTotal: 100,
  rereview: false,
  fileName: 'A0001.zip',
  size: 2048,
  workId: 501,
  version: 1,
  uploadedAt: '2026-04-30T02:00:00.000Z',
  scoredVersion: null,
  team: null,
  updatedAt: '2026-05-01T02:00:00.000Z',
  ...over,
});
/** A 60-point and a 40-point criterion. */
const criteria = [
  { id: 'c1', name: '创新性', description: '方法是否新颖', maxScore: 60 },
  { id: 'c2', name: '完整性', description: null, maxScore: 40 },
];
/** The figure of the live total, without its title. */
const liveTotal = () => screen.getByTestId('live-total').querySelector('.ant-statistic-content')?.textContent ?? '';

describe('the review centre', () => {
  it('lists the tasks by competition with their progress, and opens a question’s works', async () => {
    answers = {
      '/api/team/userinfo/': user,
      '/api/review/center/tasks': [
        task({}),
        task({ questionId: 12, questionTitle: 'B题', total: 2, submitted: 2, blind: false }),
        task({ competitionId: 2, competitionName: '数学建模', questionId: 21, questionTitle: 'C题', total: 0, submitted: 0 }),
      ],
      '/api/review/center/works?questionId=11': [work({}), work({ id: 102, code: 'A0002', status: 2, total: 81.5, rereview: true })],
    };
    const router = open('/');
    expect(await screen.findByText('泰迪杯', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('数学建模')).toBeTruthy();
    expect(screen.getByText('1/3')).toBeTruthy();
    expect(screen.getByText('2/2')).toBeTruthy();
    expect(screen.getAllByText('盲评')).toHaveLength(2);
    expect(screen.getByText('共 5 份作品，已提交 3 份')).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'A题' }));
    expect(await screen.findByText('A0002', undefined, { timeout: 5000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/question/11');
    expect(screen.getByText('复评')).toBeTruthy();
    expect(screen.getByText('81.5 / 100')).toBeTruthy();
    // Blind: nothing about the team.
    expect(screen.queryByText('队伍信息')).toBeNull();
    expect(screen.getAllByRole('button', { name: /下载作品/ })).toHaveLength(2);
    expect(screen.getByRole('link', { name: '查看评分' })).toBeTruthy();
  });

  it('says so when nothing is assigned', async () => {
    answers = { '/api/team/userinfo/': user, '/api/review/center/tasks': [] };
    open('/');
    expect(await screen.findByText('暂无分配给您的评审作品', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('我的评审任务')).toBeTruthy();
  });

  it('shows the team when the review is not blind', async () => {
    answers = {
      '/api/team/userinfo/': user,
      '/api/review/center/tasks': [task({ blind: false })],
      '/api/review/center/works?questionId=11': [work({ team: { teamName: '数据先锋队', members: ['张三', '李四'], schools: ['华南师范大学'] } })],
    };
    open('/question/11');
    expect(await screen.findByText('数据先锋队', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getAllByText('队伍信息').length).toBeGreaterThan(0);
    expect(screen.getByText('成员：张三、李四')).toBeTruthy();
  });

  it('scores a work with the live total, saves a draft and submits after confirming', async () => {
    const detail: ReviewWorkDetail = { ...work({ status: 1 }), criteria, scores: [{ criterionId: 'c1', score: 50, comment: '不错' }], comment: null };
    answers = { '/api/team/userinfo/': user, '/api/review/center/works/101': detail };
    open('/score/101');
    expect(await screen.findByText('1. 创新性', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('方法是否新颖')).toBeTruthy();
    expect(screen.getByText('满分 60 分')).toBeTruthy();
    expect(liveTotal()).toBe('— / 100');
    const inputs = screen.getAllByRole('spinbutton') as HTMLInputElement[];
    expect(inputs[0]!.value).toBe('50');
    // 50 of 60 and 30 of 40: the points add up to 80 of 100.
    fireEvent.change(inputs[1]!, { target: { value: '30' } });
    await waitFor(() => expect(liveTotal()).toBe('80 / 100'));

    fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toMatchObject({
      method: 'PUT',
      path: '/api/review/works/101',
      body: {
        scores: [
          { criterionId: 'c1', score: 50, comment: '不错' },
          { criterionId: 'c2', score: 30, comment: null },
        ],
        comment: null,
        submit: false,
        workId: 501,
      },
    });
    expect(writes[0]!.headers[CSRF_HEADER]).toBe('csrf-token');

    fireEvent.click(screen.getByRole('button', { name: '提交评分' }));
    // A loaded machine can take more than the default second to open the confirmation.
    const dialog = await screen.findByRole('dialog', undefined, { timeout: 5000 });
    expect(within(dialog).getByText('80 / 100')).toBeTruthy();
    expect(within(dialog).getByText(/只有竞赛组织方可以重新开放评分/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '确定提交' }));
    await waitFor(() => expect(writes).toHaveLength(2), { timeout: 5000 });
    expect(writes[1]!.body).toMatchObject({ submit: true, workId: 501 });
  });

  it('names the version to score, and says when the team replaced the one the judge had scored', async () => {
    const detail: ReviewWorkDetail = {
      ...work({ status: 1, workId: 502, version: 2, scoredVersion: 1 }),
      criteria,
      scores: [{ criterionId: 'c1', score: 50, comment: null }],
      comment: null,
    };
    answers = { '/api/team/userinfo/': user, '/api/review/center/works/101': detail };
    open('/score/101');
    expect(await screen.findByTestId('new-version', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('您之前评审的是第 1 版，队伍在截止前上传了第 2 版')).toBeTruthy();
    expect(screen.getByText('原评分已退回为草稿并保留，请下载新版本查看后重新提交评分。')).toBeTruthy();
    expect(screen.getByText(/^第 2 版，上传于 .+（以截止前最后上传的版本为准）$/)).toBeTruthy();
    // The kept draft is there to submit again, for the version shown.
    expect((screen.getAllByRole('spinbutton') as HTMLInputElement[])[0]!.value).toBe('50');
  });

  it('shows an out-of-range score at its field as it is typed, and sends nothing', async () => {
    const detail: ReviewWorkDetail = { ...work({ status: 1 }), criteria, scores: [{ criterionId: 'c2', score: 30, comment: null }], comment: null };
    answers = { '/api/team/userinfo/': user, '/api/review/center/works/101': detail };
    open('/score/101');
    const inputs = (await screen.findAllByRole('spinbutton', undefined, { timeout: 5000 })) as HTMLInputElement[];
    const [first, second] = screen.getAllByTestId('criterion');
    // 70 out of 60: the field says why, and keeps what was typed (no silent pull back to 60).
    fireEvent.change(inputs[0]!, { target: { value: '70' } });
    expect(await within(first!).findByText('“创新性”的分数不能超过60')).toBeTruthy();
    expect(within(second!).queryByText(/的分数/)).toBeNull();
    expect(liveTotal()).toBe('— / 100');
    fireEvent.blur(inputs[0]!);
    expect(inputs[0]!.value).toBe('70');

    fireEvent.click(screen.getByRole('button', { name: '提交评分' }));
    fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));
    await waitFor(() => expect(screen.getAllByText('请先改正标红的分数').length).toBeGreaterThan(0));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(writes).toHaveLength(0);

    // Below 0, and more than two decimals, are refused the same way; a valid score clears the error.
    fireEvent.change(inputs[0]!, { target: { value: '-1' } });
    expect(await within(first!).findByText('“创新性”的分数不能小于0')).toBeTruthy();
    fireEvent.change(inputs[0]!, { target: { value: '50.125' } });
    expect(await within(first!).findByText('“创新性”的分数至多保留两位小数')).toBeTruthy();
    fireEvent.change(inputs[0]!, { target: { value: '50' } });
    await waitFor(() => expect(within(first!).queryByText(/的分数/)).toBeNull());
    expect(liveTotal()).toBe('80 / 100');
  });

  it('will not submit an incomplete score sheet', async () => {
    const detail: ReviewWorkDetail = { ...work({}), criteria, scores: [], comment: null };
    answers = { '/api/team/userinfo/': user, '/api/review/center/works/101': detail };
    open('/score/101');
    fireEvent.click(await screen.findByRole('button', { name: '提交评分' }, { timeout: 5000 }));
    expect(await screen.findAllByText('请为此项打分')).toHaveLength(2);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(writes).toHaveLength(0);
  });

  it('shows a submitted score read-only', async () => {
    const detail: ReviewWorkDetail = {
      ...work({ status: 2, total: 80 }),
      criteria,
      scores: [
        { criterionId: 'c1', score: 50, comment: null },
        { criterionId: 'c2', score: 30, comment: null },
      ],
      comment: '总体良好',
    };
    answers = { '/api/team/userinfo/': user, '/api/review/center/works/101': detail };
    open('/score/101');
    expect(await screen.findByText(/提交，不能再修改/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(liveTotal()).toBe('80 / 100');
    expect((screen.getAllByRole('spinbutton') as HTMLInputElement[]).every((i) => i.disabled)).toBe(true);
    expect(screen.queryByRole('button', { name: '保存草稿' })).toBeNull();
    expect(screen.queryByRole('button', { name: '提交评分' })).toBeNull();
  });
});
