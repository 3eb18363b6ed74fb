// @vitest-environment happy-dom
import { ACTION_CODES, type Expert } from '@contest/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import ExpertPage from './pages/review/ExpertPage.tsx';

const api = useFakeApi();

const expert = (over: Partial<Expert>): Expert => ({
  userId: 1,
  username: 'judge',
  userName: null,
  organization: '评审中心',
  speciality: null,
  title: null,
  questions: 0,
  assigned: 0,
  submitted: 0,
  createdAt: '2026-05-01T02:00:00.000Z',
  platform: false,
  canEdit: true,
  ...over,
});

describe('the expert pool page', () => {
  it('offers editing and removal only on the experts the caller may change, and tags the platform’s', async () => {
    const list = [
      expert({ userId: 1, username: 'ownJudge' }),
      expert({ userId: 2, username: 'sharedJudge', organization: '平台评审中心', platform: true, canEdit: false }),
    ];
    api.answers = {
      '/api/team/userinfo/': { id: 2, username: 'org', userName: '李老师', faceImg: null },
      '/api/team/userinfo/permission': ['review:expert:menu', ACTION_CODES.expertEdit],
      '/api/review/expert/page?page=1&limit=20': { list, total: 2, page: 1, limit: 20 },
    };
    renderPage(<ExpertPage />);
    const own = (await screen.findByText('ownJudge')).closest('tr')!;
    expect(await within(own).findByText('编辑')).toBeTruthy();
    expect(within(own).getByText('删除')).toBeTruthy();
    const shared = screen.getByText('sharedJudge').closest('tr')!;
    expect(within(shared).getByText('平台')).toBeTruthy();
    expect(within(shared).queryByText('编辑')).toBeNull();
    expect(within(shared).queryByText('删除')).toBeNull();
    expect(within(shared).getByText('仅可选用')).toBeTruthy();
  });
});
