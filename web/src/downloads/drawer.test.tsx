// @vitest-environment happy-dom
import { createTask, type DownloadEvent, type DownloadLists, type DownloadState, type DownloadTask } from '@contest/shared';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp, message } from 'antd';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLIENT_PACKAGES, ClientDialog, UNKNOWN_OS_TEXT, detectClientOs } from './ClientDialog.tsx';
import DownloadCenter, { DownloadPanel } from './DownloadDrawer.tsx';
import { dispatchDownloads, downloadDb, readDownloading } from './store.ts';

beforeAll(() => void Object.assign(Dexie.dependencies, { indexedDB: new IDBFactory(), IDBKeyRange }));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const USER = 7;
function task(i: number, state: DownloadState = 'waiting', over: Partial<DownloadTask> = {}): DownloadTask {
  return {
    ...createTask({ dir: 'A题,001-队伍', fileName: `作品${i}.zip`, downloadPath: `/api/file/common/download?fileUri=w${i}` }, { userId: USER, root: '' }),
    state,
    ...over,
  };
}
const many = (n: number, state: DownloadState = 'waiting') => Array.from({ length: n }, (_, i) => task(i, state));

function panel(lists: Partial<DownloadLists>, dispatch = vi.fn(async (_event: DownloadEvent) => undefined)) {
  render(
    <AntApp>
      <DownloadPanel userId={USER} lists={{ downloading: [], downloaded: [], ...lists }} shell={null} dispatch={dispatch} />
    </AntApp>,
  );
  return dispatch;
}
const button = (name: RegExp | string) => screen.getByRole('button', { name });
const tab = (name: RegExp) => fireEvent.click(screen.getByRole('tab', { name }));

describe('the download drawer', () => {
  it.each([
    ['no task', [], { pause: false, resume: false, cancel: false }],
    ['a waiting task', [task(1, 'waiting')], { pause: true, resume: false, cancel: true }],
    ['a progressing task', [task(1, 'progressing')], { pause: true, resume: false, cancel: true }],
    ['only paused tasks', [task(1, 'paused'), task(2, 'paused')], { pause: false, resume: true, cancel: true }],
    ['paused and waiting tasks', [task(1, 'paused'), task(2, 'waiting')], { pause: true, resume: true, cancel: true }],
  ])('enables the batch buttons as spec §4 says: %s', (_name, downloading, enabled) => {
    panel({ downloading });
    expect((button(/全部暂停/) as HTMLButtonElement).disabled).toBe(!enabled.pause);
    expect((button(/全部继续/) as HTMLButtonElement).disabled).toBe(!enabled.resume);
    expect((button(/全部取消/) as HTMLButtonElement).disabled).toBe(!enabled.cancel);
  });

  it('sends the batch and per-item actions of the signed-in user', async () => {
    const [a, b] = [task(1, 'progressing'), task(2, 'paused')];
    const dispatch = panel({ downloading: [a, b] });
    fireEvent.click(button(/全部暂停/));
    fireEvent.click(button(/全部继续/));
    const items = screen.getAllByTestId('downloading-item');
    fireEvent.click(within(items[0]!).getByRole('button', { name: '暂停' }));
    fireEvent.click(within(items[1]!).getByRole('button', { name: '继续' }));
    fireEvent.click(within(items[1]!).getByRole('button', { name: '取消' }));
    fireEvent.click(button(/全部取消/));
    fireEvent.click(await screen.findByRole('button', { name: /确\s?定/ }));
    expect(dispatch.mock.calls.map(([e]) => e)).toEqual([
      { type: 'pauseAll', userId: USER },
      { type: 'resumeAll', userId: USER },
      { type: 'pause', userId: USER, key: a.key },
      { type: 'resume', userId: USER, key: b.key },
      { type: 'cancel', userId: USER, key: b.key },
      { type: 'cancelAll', userId: USER },
    ]);
  });

  it('shows at most 50 items per list, with the footer only when there are more', () => {
    panel({ downloading: many(51), downloaded: many(50).map((t) => ({ ...t, date: 0 })) });
    expect(screen.getAllByTestId('downloading-item')).toHaveLength(50);
    expect(screen.getByTestId('download-footer').textContent).toBe('仅显示50条下载任务');
    tab(/已下载/);
    expect(screen.getAllByTestId('downloaded-item')).toHaveLength(50);
    expect(screen.getAllByTestId('download-footer')).toHaveLength(1); // the downloading tab's, none for 50
  });

  it('shows the footer on a downloaded list of more than 50', () => {
    panel({ downloaded: many(60).map((t) => ({ ...t, date: 0 })) });
    tab(/已下载/);
    expect(screen.getAllByTestId('downloaded-item')).toHaveLength(50);
    expect(screen.getByTestId('download-footer').textContent).toBe('仅显示50条下载任务');
  });

  it('shows sizes, twice the reported speed, the time left, the overall progress and the completion time at UTC+8', () => {
    const running = task(1, 'progressing', { receivedSize: 1024, totalSize: 4096, speed: 512 });
    const done = task(2, 'waiting', { receivedSize: 2048, totalSize: 2048, date: Date.UTC(2024, 0, 1, 0, 0, 0) });
    panel({ downloading: [running, task(3), task(4)], downloaded: [done] });
    const item = screen.getAllByTestId('downloading-item')[0]!;
    expect(item.textContent).toContain('1.00 KB / 4.00 KB');
    expect(item.textContent).toContain('1.00 KB/s');
    expect(item.textContent).toContain('剩余 00:00:03');
    expect(item.textContent).toContain('下载中');
    expect(screen.getByTestId('overall-progress').dataset.percent).toBe('25');
    tab(/已下载/);
    const finished = screen.getByTestId('downloaded-item');
    expect(finished.textContent).toContain('2.00 KB');
    expect(finished.textContent).toContain('完成时间：2024-01-01 08:00:00');
  });

  it('has a floating button labelled 下载管理, and opening the drawer resets stale progressing tasks', async () => {
    const stale = task(1, 'waiting');
    await dispatchDownloads({ type: 'add', tasks: [stale] }, downloadDb());
    await dispatchDownloads({ type: 'progress', userId: USER, key: stale.key, state: 'progressing' }, downloadDb());
    function Host() {
      const [open, setOpen] = useState(false);
      const [dialog, setDialog] = useState(false);
      return <DownloadCenter userId={USER} open={open} onOpenChange={setOpen} clientDialog={dialog} onClientDialogChange={setDialog} />;
    }
    render(
      <AntApp>
        <Host />
      </AntApp>,
    );
    const float = screen.getByTestId('download-float');
    expect(float.getAttribute('aria-label')).toBe('下载管理');
    // With a task it is in full sight (idle, it steps back to half).
    await waitFor(() => expect(float.style.opacity).toBe('1'));
    fireEvent.mouseEnter(float.firstElementChild!); // the hover label's trigger
    expect((await screen.findByRole('tooltip')).textContent).toBe('下载管理');
    fireEvent.click(float);
    expect(await screen.findByRole('tab', { name: /正在下载/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /已下载/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: '下载路径' })).toBeTruthy();
    await waitFor(async () => expect((await readDownloading(USER))[0]!.state).toBe('waiting'));
    // No shell in this browser (no File System Access): the path tab offers the download client.
    tab(/下载路径/);
    fireEvent.click(screen.getByRole('button', { name: /下载客户端/ }));
    expect(await screen.findByText('下载客户端', { selector: '.ant-modal-title' })).toBeTruthy();
  });
});

describe('the download client dialog', () => {
  it('detects Windows and Mac, and nothing else', () => {
    expect(detectClientOs('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36')).toBe('win');
    expect(detectClientOs('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe('mac');
    expect(detectClientOs('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', 'Linux x86_64')).toBeNull();
    expect(detectClientOs('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148')).toBeNull();
    expect(detectClientOs('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36')).toBeNull();
    expect(detectClientOs('', 'Win32')).toBe('win');
  });

  it('says works cannot be downloaded in the browser and lists the three steps, linking the package for the OS', () => {
    render(<ClientDialog open os="win" onClose={() => undefined} />);
    expect(screen.getByText('下载客户端', { selector: '.ant-modal-title' })).toBeTruthy();
    expect(document.body.textContent).toContain('无法在当前浏览器中下载');
    expect(screen.getByText('下载客户端安装包')).toBeTruthy();
    expect(screen.getByText('解压安装包')).toBeTruthy();
    expect(document.body.textContent).toContain('无需安装');
    expect(screen.getByText('双击运行启动程序“启动客户端.cmd”')).toBeTruthy();
    expect(screen.getByRole('link', { name: /下载Windows客户端/ }).getAttribute('href')).toBe(CLIENT_PACKAGES.win);
    expect(document.body.textContent).not.toContain(UNKNOWN_OS_TEXT);
    cleanup();
    render(<ClientDialog open os="mac" onClose={() => undefined} />);
    expect(screen.getByRole('link', { name: /下载Mac客户端/ }).getAttribute('href')).toBe('/profile/clientApp-mac.zip');
    expect(screen.getByText('双击运行启动程序“启动客户端.command”')).toBeTruthy();
  });

  it('on an unknown OS says only Windows and Mac clients exist', () => {
    const warning = vi.spyOn(message, 'warning');
    render(<ClientDialog open os={null} onClose={() => undefined} />);
    expect(screen.getByTestId('unknown-os').textContent).toBe('目前只提供Windows和Mac客户端');
    fireEvent.click(screen.getByRole('button', { name: /下载客户端/ }));
    expect(warning).toHaveBeenCalledWith('目前只提供Windows和Mac客户端', 5);
  });
});

describe('the floating button when idle', () => {
  it('steps back to half sight so that what it floats over can be read', async () => {
    render(
      <AntApp>
        <DownloadCenter userId={USER + 1} open={false} onOpenChange={() => {}} clientDialog={false} onClientDialogChange={() => {}} />
      </AntApp>,
    );
    await waitFor(() => expect(screen.getByTestId('download-float').style.opacity).toBe('0.55'));
  });
});
