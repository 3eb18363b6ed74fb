// @vitest-environment happy-dom
import type { Assignment, Page, QuestionJudge } from '@contest/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import JudgePage from './pages/question/JudgePage.tsx';

const api = useFakeApi();
const page = <T,>(list: T[]): Page<T> => ({ list, total: list.length, page: 1, limit: 20 });
const judge: QuestionJudge = {
  questionId: 5,
  userId: 9,
  username: 'judge9',
  userName: '王教授',
  organization: '甲大学',
  speciality: null,
  title: null,
  assigned: 1,
  submitted: 0,
} as QuestionJudge;
const assignment = (over: Partial<Assignment> = {}): Assignment => ({
  id: 1,
  questionId: 5,
  teamId: 3,
  teamNo: 'T3',
  teamName: '队伍3',
  judgeId: 9,
  judgeUsername: 'judge9',
  judgeName: '王教授',
  code: 'A0001',
  status: 1,
  total: 80,
  maxTotal: 100,
  rereview: false,
  updatedAt: '2026-05-01T02:00:00.000Z',
  submittedAt: null,
  scoredVersion: null,
  currentVersion: 1,
  ...over,
});
const WARNING = '提交作品尚未截止（2026-06-30 12:00），现在分配后队伍仍可上传新版本：专家评过的版本被替换时，评分会退回给专家重新评审。确定现在分配吗？';

function open(assignments: Assignment[]) {
  api.answers = {
    '/api/team/userinfo/': { id: 2, username: 'org', userName: '李老师', faceImg: null },
    '/api/team/userinfo/permission': ['competition:competition:menu', 'review:assign:edit', 'review:assign:menu'],
    '/api/competition/question/check/5': { id: 5, title: '论文题', competitionId: 3, competitionName: '泰迪杯', judging: 'review' },
    '/api/review/judge/5': [judge],
    'GET /api/review/assign/page/5': page(assignments),
  };
  renderPage(
    <Routes>
      <Route path="/question/judge/:questionId" element={<JudgePage />} />
    </Routes>,
    '/question/judge/5',
  );
}

describe('assigning works to the judges of a question', () => {
  it('asks once, with the risk the server names, before assigning while works can still be replaced', async () => {
    open([]);
    let calls = 0;
    api.answers['POST /api/review/works/5'] = () =>
      calls++ === 0 ? Object.assign(new Error(WARNING), { status: 409, fields: { early: WARNING } }) : { created: 2, short: [], held: 0 };
    fireEvent.click(await screen.findByRole('button', { name: /自动分配/ }));
    const warning = await screen.findByText(WARNING);
    // The one dialog of the click is the warning: no generic 确定分配吗 before it.
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    fireEvent.click(within(warning.closest('.ant-modal-content') as HTMLElement).getByRole('button', { name: '仍然现在分配' }));
    expect(await screen.findByText('自动分配完成，新分配 2 份')).toBeTruthy();
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual(['/api/review/works/5', '/api/review/works/5?early=1']);
  });

  it('assigns nothing when the organiser waits for the deadline', async () => {
    open([]);
    api.answers['POST /api/review/works/5'] = Object.assign(new Error(WARNING), { status: 409, fields: { early: WARNING } });
    fireEvent.click(await screen.findByRole('button', { name: /自动分配/ }));
    const warning = await screen.findByText(WARNING);
    fireEvent.click(within(warning.closest('.ant-modal-content') as HTMLElement).getByRole('button', { name: '等截止后再分配' }));
    // Declining settles the button (it stops spinning) without a second request.
    await waitFor(() => expect(document.querySelector('.ant-btn-loading')).toBeNull());
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(screen.queryByText(/自动分配完成/)).toBeNull();
  });

  it('marks a score given back because the team replaced the version it was for', async () => {
    open([
      assignment({ scoredVersion: 1, currentVersion: 2 }),
      assignment({ id: 2, teamId: 4, teamNo: 'T4', teamName: '队伍4', status: 2, scoredVersion: 1, currentVersion: 1 }),
    ]);
    expect(await screen.findByText('评的是第 1 版，现为第 2 版')).toBeTruthy();
    expect(within(screen.getByText('队伍4').closest('tr')!).queryByText(/评的是/)).toBeNull();
  });
});
