// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import UserPage from './pages/system/UserPage.tsx';

const api = useFakeApi();

function open(codes: string[]) {
  api.answers = {
    '/api/team/userinfo/': { id: 1, username: 'admin', userName: '管理员', faceImg: null },
    '/api/team/userinfo/permission': codes,
    'GET /api/team/userinfo/list': { list: [], total: 0, page: 1, limit: 20 },
    '/api/system/role/options': [
      { id: 2, code: 'organiser', name: '组织方' },
      { id: 3, code: 'judge', name: '评审专家' },
    ],
    '/api/system/org/options': [{ id: 7, name: '示例大学' }],
  };
  renderPage(<UserPage />, '/system/user');
}

describe('新增用户', () => {
  it('creates an account with its name, organisation and roles, checking the password first', async () => {
    open(['system:user:menu', 'system:user:edit']);
    api.answers['POST /api/system/user'] = { id: 42, username: 'newjudge' };
    fireEvent.click(await screen.findByRole('button', { name: '新增用户' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'newjudge' } });
    fireEvent.change(within(dialog).getByLabelText('初始密码'), { target: { value: 'Passw0rd9' } });
    fireEvent.change(within(dialog).getByLabelText('确认密码'), { target: { value: 'Passw0rd8' } });
    fireEvent.change(within(dialog).getByLabelText('姓名（选填）'), { target: { value: ' 李评委 ' } });
    fireEvent.click(within(dialog).getByLabelText('评审专家'));
    fireEvent.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
    expect(await within(dialog).findByText('两次输入的密码不一致')).toBeTruthy();
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('确认密码'), { target: { value: 'Passw0rd9' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
    await waitFor(() =>
      expect(api.requests.find((r) => r.method === 'POST')).toMatchObject({
        url: '/api/system/user',
        body: { username: 'newjudge', password: 'Passw0rd9', userName: '李评委', roleIds: [3] },
      }),
    );
    expect(await screen.findByText('用户“newjudge”已创建')).toBeTruthy();
  });

  it('is not offered to those who may only look', async () => {
    open(['system:user:menu']);
    expect(await screen.findByRole('button', { name: '查 询' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '新增用户' })).toBeNull();
  });
});
