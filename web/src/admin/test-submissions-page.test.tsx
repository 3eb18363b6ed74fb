// @vitest-environment happy-dom
import type { Leaderboard, QuestionSubmission, QuestionSubmissions } from '@contest/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import TestSubmissionsPage from './pages/question/TestSubmissionsPage.tsx';

const api = useFakeApi();

const submission = (over: Partial<QuestionSubmission>): QuestionSubmission => ({
  id: 7,
  questionId: 5,
  teamId: 3,
  teamName: '甲队',
  username: 'alice',
  fileName: 'best.csv',
  fileUri: 'prediction/abc.csv',
  size: 2048,
  status: 2,
  reason: null,
  publicScore: 0.912345678,
  privateScore: 0.9,
  selected: true,
  createdAt: '2026-04-01T02:00:00.000Z',
  scoredAt: '2026-04-01T02:00:05.000Z',
  scorerLog: null,
  cancelReason: null,
  cancelledAt: null,
  ...over,
});
const board = (which: 'public' | 'private'): Leaderboard => ({
  board: which,
  metric: 'auc',
  higherIsBetter: true,
  published: false,
  entries: [{ rank: 1, teamId: 3, teamName: '甲队', score: 0.91, submissions: 2, lastAt: '2026-04-01T02:00:00.000Z' }],
  total: 1,
});

function open(reply: Partial<QuestionSubmissions>, codes = ['competition:competition:menu', 'competition:competition:edit']) {
  api.answers = {
    '/api/team/userinfo/': { id: 2, username: 'org', userName: '李老师', faceImg: null },
    '/api/team/userinfo/permission': codes,
    '/api/competition/question/check/5': {
      id: 5,
      title: '流失预测',
      competitionId: 3,
      competitionName: '泰迪杯',
      judging: 'auto',
      evaluation: { metric: 'auc' },
    },
    'GET /api/review/test/leaderboard/5': board('public'),
    'GET /api/review/test/submissions/5': { list: [], total: 0, page: 1, limit: 20, disqualified: [], locked: false, ...reply },
  };
  renderPage(
    <Routes>
      <Route path="/question/test/:questionId" element={<TestSubmissionsPage />} />
    </Routes>,
    '/question/test/5',
  );
}

describe('the organiser’s view of a question’s test submissions', () => {
  it('lists every team’s files with a download, scores, selection and failures, and the teams disqualified', async () => {
    open({
      list: [
        submission({}),
        submission({
          id: 8,
          teamId: 4,
          teamName: '乙队',
          fileName: 'bad.csv',
          status: 3,
          publicScore: null,
          privateScore: null,
          selected: false,
          reason: '第3行：编号“u0”重复',
        }),
      ],
      total: 2,
      disqualified: [{ teamId: 6, teamName: '丙队', reason: '一人多号', username: 'org', createdAt: '2026-04-02T02:00:00.000Z' }],
    });
    const row = (await screen.findByText('best.csv')).closest('tr')!;
    expect(screen.getByText('best.csv').getAttribute('href')).toContain(encodeURIComponent('prediction/abc.csv'));
    // Rounded, with the exact value on hover.
    expect(within(row).getByTitle('0.912345678').textContent).toBe('0.912346');
    expect(within(row).getByText('已选')).toBeTruthy();
    expect(within(screen.getByText('bad.csv').closest('tr')!).getByText('第3行：编号“u0”重复')).toBeTruthy();
    expect(within(screen.getByTestId('disqualified')).getByText('一人多号')).toBeTruthy();
    // Both boards are there; the organiser sees the private one before it is published.
    expect(await screen.findByRole('tab', { name: '私榜' })).toBeTruthy();
    expect(await screen.findByTestId('board-metric')).toBeTruthy();
  });

  it('cancels a score only with a reason, and sends it', async () => {
    open({ list: [submission({})], total: 1 });
    api.answers['PUT /api/review/test/cancel/7'] = null;
    fireEvent.click(await screen.findByText('取消成绩'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '取消成绩' }));
    expect(await within(dialog).findByText('请填写取消成绩原因')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'PUT')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('取消成绩原因'), { target: { value: '使用了测试集标签' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '取消成绩' }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'PUT')).toMatchObject({
        url: '/api/review/test/cancel/7',
        body: { cancelled: true, reason: '使用了测试集标签' },
      }),
    );
  });

  it('disqualifies a team with a reason and restores it after asking', async () => {
    open({
      list: [submission({})],
      total: 1,
      disqualified: [{ teamId: 6, teamName: '丙队', reason: '一人多号', username: 'org', createdAt: '2026-04-02T02:00:00.000Z' }],
    });
    api.answers['PUT /api/review/test/disqualify/5'] = null;
    fireEvent.click(await screen.findByText('取消队伍成绩'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('取消队伍“甲队”在该赛题的成绩')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('取消成绩原因'), { target: { value: '代码抄袭' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '取消成绩' }));
    await waitFor(() => expect(api.requests.find((r) => r.method === 'PUT')).toMatchObject({ body: { teamId: 3, disqualified: true, reason: '代码抄袭' } }));
    fireEvent.click(within(screen.getByTestId('disqualified')).getByText('恢复'));
    fireEvent.click(
      within(await screen.findByText(/恢复队伍“丙队”的成绩/).then((t) => t.closest('.ant-modal-content') as HTMLElement)).getByRole('button', {
        name: /确\s*定/,
      }),
    );
    await waitFor(() => expect(api.requests.filter((r) => r.method === 'PUT')[1]).toMatchObject({ body: { teamId: 6, disqualified: false } }));
  });

  it('offers nothing to cancel to those who may only look', async () => {
    open({ list: [submission({})], total: 1 }, ['competition:competition:menu']);
    expect(await screen.findByText('best.csv')).toBeTruthy();
    expect(screen.queryByText('取消成绩')).toBeNull();
    expect(screen.queryByText('取消队伍成绩')).toBeNull();
  });

  it('offers nothing to cancel once the grades are confirmed', async () => {
    open({ list: [submission({})], total: 1, locked: true });
    expect(await screen.findByText('该赛题的成绩已确认公布，提交和队伍的成绩不能再取消或恢复')).toBeTruthy();
    expect(screen.queryByText('取消成绩')).toBeNull();
    expect(screen.queryByText('取消队伍成绩')).toBeNull();
  });

  it('shows the teams whose files agree beyond independent models, with the evidence, and cancels one with a reason', async () => {
    const side = (teamId: number, teamName: string, submissionId: number) => ({
      teamId,
      teamNo: `T${teamId}`,
      teamName,
      submissionId,
      fileName: `${teamName}.csv`,
      privateScore: 0.8,
      createdAt: '2026-04-01T02:00:00.000Z',
    });
    open({ list: [], total: 0 });
    api.answers['GET /api/review/test/duplicates/5'] = {
      files: 12,
      pairs: [{ a: side(3, '甲队', 7), b: side(9, '影子队', 31), identical: 996, sharedWrong: 412, wrongShare: 978, privateRows: 3500 }],
    };
    const card = await screen.findByTestId('duplicates');
    expect(await within(card).findByText('99.6%')).toBeTruthy();
    expect(within(card).getByText('约 412 行（占双方错误预测的 98%）')).toBeTruthy();
    expect(within(card).getByText('已比对 12 个文件')).toBeTruthy();
    api.answers['PUT /api/review/test/disqualify/5'] = null;
    fireEvent.click((await within(card).findAllByText('取消队伍成绩'))[1]!);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('取消队伍“影子队”在该赛题的成绩')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('取消成绩原因'), { target: { value: '与甲队提交完全相同，一人多号' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '取消成绩' }));
    await waitFor(() => expect(api.requests.find((r) => r.method === 'PUT')).toMatchObject({ body: { teamId: 9, disqualified: true } }));
  });
});
