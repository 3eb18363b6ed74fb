// @vitest-environment happy-dom
import { message } from 'antd';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, registerUser, type TestApp } from '@contest/server/test/helpers.ts';
import { ERROR_TOAST_SECONDS, HTTP_TEXT, HttpError, downloadBlob, http, sysTime, takeLoginRedirect } from './http.ts';
import { LOGIN_REDIRECT_KEY } from './storage.ts';

/** The client against the real server, in a DOM whose origin is that server's. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp('sqlite');
  const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  (globalThis as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${origin}/competitionList`);
  await registerUser(t.app, 'httpuser');
});
afterAll(() => t.close());

const errorToast = vi.spyOn(message, 'error');
/** Each test starts signed out, with nothing stored and no toast shown; one that needs a session signs in itself. */
beforeEach(async () => {
  localStorage.clear();
  await http.post('/api/auth/logout');
  errorToast.mockClear();
});

const logIn = () => http.post('/api/auth/login', { username: 'httpuser', password: 'Passw0rd1' });

describe('the http client', () => {
  it('resolves to the envelope data and keeps the server time', async () => {
    const data = await http.get<{ status: string }>('/api/health');
    expect(data.status).toBe('ok');
    expect(Math.abs(sysTime().getTime() - Date.now())).toBeLessThan(5_000);
  });

  it('toasts the server message for 5 s when the body status is not 200, and rejects with the field errors', async () => {
    const err = await http.post('/api/auth/login', { username: 'httpuser', password: 'Wrong1234' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).fields).toEqual({ password: '用户名或密码错误' });
    expect(errorToast).toHaveBeenCalledWith('用户名或密码错误', ERROR_TOAST_SECONDS);
    expect(ERROR_TOAST_SECONDS).toBe(5);
  });

  it('sends the AJAX and CSRF headers, so a logged-in write goes through', async () => {
    await logIn();
    const user = await http.put<{ city: string }>('/api/team/userinfo/', { city: '杭州市' });
    expect(user.city).toBe('杭州市');
  });

  it('toasts the server message on 403 and rejects', async () => {
    await logIn();
    const err = await http.get('/api/team/userinfo/list').catch((e: unknown) => e);
    expect((err as HttpError).status).toBe(403);
    expect(errorToast).toHaveBeenCalledWith('没有权限执行此操作', 5);
  });

  it('stays silent when asked, still rejecting', async () => {
    await logIn();
    await expect(http.get('/api/team/userinfo/list', undefined, { silent: true })).rejects.toBeInstanceOf(HttpError);
    expect(errorToast).not.toHaveBeenCalled();
  });

  it('says 请求超时 when the request times out', async () => {
    const err = await http.get('/api/health', undefined, { timeoutMs: 0 }).catch((e: unknown) => e);
    expect((err as HttpError).message).toBe(HTTP_TEXT.timeout);
    expect(errorToast).toHaveBeenCalledWith('请求超时', 5);
  });

  it('rejects a page returned where data was expected, with 请求错误', async () => {
    const err = await http.get('/api/docs/').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(errorToast).toHaveBeenCalledWith('请求错误', 5);
  });

  it('reads an error from a blob download’s JSON body', async () => {
    const err = await downloadBlob('/api/file/common/download?fileUri=avatar/00000000-0000-0000-0000-000000000000').catch((e: unknown) => e);
    expect((err as HttpError).status).toBe(404);
    expect(errorToast).toHaveBeenCalledWith('文件不存在', 5);
  });

  it('uses the spec texts', () => {
    expect(HTTP_TEXT).toEqual({ requestError: '请求错误', sessionExpired: '当前会话已超时，请重新登录！', timeout: '请求超时', emptyDownload: '无可下载文件' });
  });
});

describe('the address to go back to after logging in', () => {
  const take = (stored: string) => {
    localStorage.setItem(LOGIN_REDIRECT_KEY, stored);
    const target = takeLoginRedirect();
    expect(localStorage.getItem(LOGIN_REDIRECT_KEY)).toBeNull();
    return target;
  };

  it('keeps a path on this site, normalised', () => {
    expect(take('/userCenter/myInfo?tab=2#top')).toBe('/userCenter/myInfo?tab=2#top');
    expect(take('/a/./b/../c')).toBe('/a/c');
  });

  it('goes home for anything else, as the server does for single sign-on', () => {
    for (const stored of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      '/%252F%252Fevil.example',
      '/%09/evil.example',
      '/\t/evil.example',
      '/.//evil.example',
      'javascript:alert(1)',
      '/login',
      '/login?x=1',
    ]) {
      expect([stored, take(stored)]).toEqual([stored, '/']);
    }
    expect(takeLoginRedirect()).toBe('/');
  });
});
