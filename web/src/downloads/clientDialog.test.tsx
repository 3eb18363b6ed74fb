// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_NOT_PUBLISHED as NOT_PUBLISHED_TEXT, type ClientStatus } from '@contest/shared';
import { CLIENT_PACKAGES, ClientDialog } from './ClientDialog.tsx';

let status: ClientStatus;
const fetchMock = vi.fn(async (url: string) => {
  expect(new URL(url, location.href).pathname).toBe('/api/system/client/status');
  return new Response(JSON.stringify({ status: 200, message: '操作成功', data: status }), { headers: { 'content-type': 'application/json' } });
});
const pkg = (available: boolean) =>
  available ? { available, size: 30_000_000, updatedAt: '2026-05-01T02:00:00.000Z' } : { available, size: null, updatedAt: null };

beforeEach(() => {
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the download client dialog and unpublished packages', () => {
  it('says the client is not published instead of linking a missing package', async () => {
    status = { win: pkg(false), mac: pkg(true) };
    render(<ClientDialog open os="win" onClose={() => undefined} />);
    expect((await screen.findByTestId('client-missing')).textContent).toBe('客户端尚未发布，请联系管理员在 系统管理 → 客户端版本 中生成');
    expect(NOT_PUBLISHED_TEXT).toBe('客户端尚未发布，请联系管理员在 系统管理 → 客户端版本 中生成');
    expect(screen.queryByRole('link', { name: /下载Windows客户端/ })).toBeNull();
    expect(document.querySelector(`a[href="${CLIENT_PACKAGES.win}"]`)).toBeNull();
  });

  it('links a published package', async () => {
    status = { win: pkg(false), mac: pkg(true) };
    render(<ClientDialog open os="mac" onClose={() => undefined} />);
    // Once the answer arrives, a published package keeps its link and shows its size and date.
    expect((await screen.findByTestId('client-size')).textContent).toBe('28.61 MB · 更新于 2026/05/01');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('link', { name: /下载Mac客户端/ }).getAttribute('href')).toBe(CLIENT_PACKAGES.mac);
    expect(screen.queryByTestId('client-missing')).toBeNull();
  });

  it('on an unknown OS lists only the published packages, or says none is', async () => {
    status = { win: pkg(false), mac: pkg(true) };
    render(<ClientDialog open os={null} onClose={() => undefined} />);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Windows版' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Mac版' }).getAttribute('href')).toBe(CLIENT_PACKAGES.mac);
    cleanup();
    status = { win: pkg(false), mac: pkg(false) };
    render(<ClientDialog open os={null} onClose={() => undefined} />);
    expect((await screen.findByTestId('client-missing')).textContent).toBe(NOT_PUBLISHED_TEXT);
    expect(screen.getByTestId('unknown-os').textContent).toBe('目前只提供Windows和Mac客户端');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('asks nothing while closed', () => {
    render(<ClientDialog open={false} os="win" onClose={() => undefined} />);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
