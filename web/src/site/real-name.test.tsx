// @vitest-environment happy-dom
import { REAL_NAME_TEXT, mainlandCheckDigit, type RealNameView } from '@contest/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import RealNamePage from './pages/userCenter/RealNamePage.tsx';

const api = useFakeApi();
const none: RealNameView = {
  state: 'none',
  docType: null,
  name: null,
  numberMask: null,
  reason: null,
  submittedAt: null,
  decidedAt: null,
  autoCheck: true,
  checksLeft: 5,
};
const number = '11010519900307123' + mainlandCheckDigit('11010519900307123');
const posts = () => api.requests.filter((r) => r.method === 'POST');

async function fill(label: string, value: string) {
  fireEvent.change(await screen.findByLabelText(label), { target: { value } });
}

describe('实名认证 in the user centre', () => {
  it('checks a 居民身份证 at once: a wrong number is refused before sending, the register’s refusal is shown by the field', async () => {
    api.answers = {
      '/api/account/realname': none,
      'POST /api/account/realname': Object.assign(new Error(REAL_NAME_TEXT.mismatch), { fields: { name: REAL_NAME_TEXT.mismatch } }),
    };
    renderPage(<RealNamePage />, '/userCenter/realName');
    expect(await screen.findByText('每天可核对5次', { exact: false })).toBeTruthy();
    await fill('姓名', '李雷');
    await fill('证件号码', number.slice(0, 17) + (number[17] === '1' ? '2' : '1'));
    fireEvent.click(screen.getByRole('button', { name: '立即认证' }));
    expect(await screen.findByText('你输入的身份证号非法')).toBeTruthy();
    expect(posts()).toEqual([]);

    await fill('证件号码', number.toLowerCase());
    fireEvent.click(screen.getByRole('button', { name: '立即认证' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]!.body).toEqual({ docType: 'idCard', name: '李雷', number: number.toLowerCase(), fileUri: null });
    // No photo is asked of a 居民身份证 checked at once.
    expect(screen.queryByText('证件照片')).toBeNull();
    expect((await screen.findAllByText(REAL_NAME_TEXT.mismatch)).length).toBeGreaterThan(0);
  });

  it('asks a passport for its photo, for the platform to review', async () => {
    api.answers = { '/api/account/realname': none };
    renderPage(<RealNamePage />, '/userCenter/realName');
    fireEvent.mouseDown(await screen.findByRole('combobox'));
    fireEvent.click(await screen.findByText('护照'));
    await fill('姓名', 'Tom Lee');
    await fill('证件号码', 'E12345678');
    fireEvent.click(await screen.findByRole('button', { name: '提交审核' }));
    expect(await screen.findByText('请上传证件照片（人像信息页）')).toBeTruthy();
    expect(screen.getByRole('button', { name: '上传证件照片' })).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('shows where the person stands: waiting for review, verified, or why the platform refused', async () => {
    api.answers = {
      '/api/account/realname': {
        ...none,
        state: 'pending',
        docType: 'passport',
        name: 'Tom Lee',
        numberMask: 'E12**5678',
        submittedAt: '2026-03-20T02:00:00Z',
      },
    };
    const pending = renderPage(<RealNamePage />, '/userCenter/realName');
    expect(await screen.findByText('人工审核中')).toBeTruthy();
    expect(screen.getByText(/护照（E12\*\*5678）正在由平台审核/)).toBeTruthy();
    pending.unmount();

    api.answers = { '/api/account/realname': { ...none, state: 'rejected', reason: '照片不清晰' } };
    const rejected = renderPage(<RealNamePage />, '/userCenter/realName');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('上次提交未通过审核')).toBeTruthy();
    expect(within(alert).getByText('照片不清晰')).toBeTruthy();
    rejected.unmount();

    api.answers = {
      '/api/account/realname': {
        ...none,
        state: 'verified',
        docType: 'idCard',
        name: '李雷',
        numberMask: '110***********1234',
        decidedAt: '2026-03-20T02:00:00Z',
      },
    };
    renderPage(<RealNamePage />, '/userCenter/realName');
    expect(await screen.findByText('已完成实名认证')).toBeTruthy();
    expect(screen.getByText('110***********1234')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '立即认证' })).toBeNull();
  });
});
