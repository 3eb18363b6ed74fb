// @vitest-environment happy-dom
import { ACTION_CODES } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientBuild } from '@contest/shared';
import ClientPage from './pages/system/ClientPage.tsx';

const SHA = 'ab12cd34ef56'.padEnd(64, '0');
const idle: ClientBuild = { state: 'idle', done: 0, total: 0, step: null, error: null, platformUrl: null, requestedAt: null, finishedAt: null };
let answers: Record<string, unknown> = {};
const posts: string[] = [];

beforeEach(() => {
  posts.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const { pathname } = new URL(url, location.href);
      const key = `${init?.method ?? 'GET'} ${pathname}`;
      if (init?.method === 'POST') posts.push(pathname);
      const answer = answers[key];
      const data = typeof answer === 'function' ? (answer as () => unknown)() : (answer ?? null);
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data }), { headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function page(permissions: string[]) {
  answers['GET /api/team/userinfo/'] = { id: 1, username: 'admin', userName: null, faceImg: null };
  answers['GET /api/team/userinfo/permission'] = ['system:client:menu', ...permissions];
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ClientPage />
      </QueryClientProvider>
    </AntApp>,
  );
}
const row = (platform: string) => screen.getByText(platform, { selector: 'td' }).closest('tr')!;

describe('the client versions page', () => {
  it('on a fresh platform says what to do, builds both packages with progress, then shows them', async () => {
    let packages: unknown[] = [];
    let build: ClientBuild = idle;
    answers = {
      'GET /api/system/client': () => packages,
      'GET /api/system/client/build': () => build,
      'POST /api/system/client/build': () => {
        build = { ...idle, state: 'running', done: 2, total: 6, step: '压缩 clientApp-win.zip', platformUrl: 'https://contest.example.org' };
        return { ...idle, state: 'queued', platformUrl: 'https://contest.example.org' };
      },
    };
    page([ACTION_CODES.clientEdit]);
    await screen.findByRole('button', { name: /生成客户端/ });
    expect((await screen.findByTestId('absent-win')).textContent).toBe('尚未发布：点击右上角「生成客户端」由服务器生成，或上传安装包');
    expect(screen.getByTestId('absent-mac')).toBeTruthy();
    expect(within(row('Windows')).getByText('未发布')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/npm run|desktop:build/);
    expect(screen.getAllByRole('button', { name: /上传安装包/ })).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: /生成客户端/ }));
    await waitFor(() => expect(posts).toEqual(['/api/system/client/build']));
    expect(await screen.findByText('客户端生成已排队，即将开始…')).toBeTruthy();
    // The page asks again while the build is under way.
    expect(await screen.findByText('正在生成客户端：第 3/6 步，压缩 clientApp-win.zip', undefined, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByTestId('build-progress').textContent).toContain('33%');
    expect((screen.getByRole('button', { name: /正在生成/ }) as HTMLButtonElement).disabled).toBe(true);

    packages = [
      {
        platform: 'win',
        fileName: 'clientApp-win.zip',
        size: 31_457_280,
        sha256: SHA,
        updatedAt: '2026-05-01T02:00:00.000Z',
        source: 'build',
        platformUrl: 'https://contest.example.org',
        nodeVersion: '20.20.2',
      },
      {
        platform: 'mac',
        fileName: 'clientApp-mac.zip',
        size: 73_400_320,
        sha256: SHA,
        updatedAt: '2026-05-01T02:00:00.000Z',
        source: 'build',
        platformUrl: 'https://contest.example.org',
        nodeVersion: '20.20.2',
      },
    ];
    build = { ...build, state: 'done', done: 6, total: 6, step: '完成', finishedAt: '2026-05-01T02:00:00.000Z' };
    expect(await screen.findByText('客户端已于 2026/05/01 10:00 生成', undefined, { timeout: 4000 })).toBeTruthy();
    await waitFor(() => expect(within(row('Windows')).getByText('已发布')).toBeTruthy());
    const win = row('Windows');
    expect(within(win).getByText('30.00 MB')).toBeTruthy();
    expect(within(win).getByText('2026/05/01 10:00')).toBeTruthy();
    expect(within(win).getByText('ab12cd34ef56…')).toBeTruthy();
    expect(within(win).getByText('服务器生成，Node.js 20.20.2，连接 https://contest.example.org')).toBeTruthy();
    expect(within(row('Mac')).getByText('70.00 MB')).toBeTruthy();
    expect(screen.getByRole('button', { name: /生成客户端/ })).toBeTruthy();
  }, 15_000);

  it('shows a failed build and why, and to a reader without the permission neither button', async () => {
    answers = {
      'GET /api/system/client': [
        { platform: 'mac', fileName: 'clientApp-mac.zip', size: 2048, sha256: SHA, updatedAt: '2026-05-01T02:00:00.000Z', source: 'upload' },
      ],
      'GET /api/system/client/build': {
        ...idle,
        state: 'failed',
        error: '无法连接 npm 仓库下载 Node.js 运行环境，请检查服务器的网络或 npm 仓库设置（npm view failed）',
      },
    };
    page([]);
    expect(await screen.findByText('客户端生成失败')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('absent-win').textContent).toBe('尚未发布：请联系有发布权限的管理员生成'));
    expect(document.body.textContent).toContain('无法连接 npm 仓库下载 Node.js 运行环境');
    expect(within(row('Mac')).getByText('管理员上传')).toBeTruthy();
    expect(within(row('Mac')).getByText('2.00 KB')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /生成客户端/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /上传安装包/ })).toBeNull();
  });
});
