// @vitest-environment happy-dom
import { createTask, type DownloadTask, type ProgressReport } from '@contest/shared';
import { message } from 'antd';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DownloadManager } from './manager.ts';
import { EmptyDownloadError, Listeners, type CompletedReport, type DownloadShell, type Recovery, type ShellStatus } from './shells/types.ts';
import { DownloadDb, dispatchDownloads, readDownloaded, readDownloading } from './store.ts';

beforeAll(() => void Object.assign(Dexie.dependencies, { indexedDB: new IDBFactory(), IDBKeyRange }));

/** A shell that records what it is told and reports what a test makes it report. */
class FakeShell implements DownloadShell {
  readonly kind = 'browser' as const;
  ready = true;
  readonly calls: string[] = [];
  recovery: Recovery | null = null;
  readonly notified: string[] = [];
  readonly statusL = new Listeners<[ShellStatus]>();
  readonly progressL = new Listeners<[string, ProgressReport]>();
  readonly completeL = new Listeners<[string, CompletedReport]>();
  readonly errorL = new Listeners<[string, Error]>();
  root = () => '';
  status = (): ShellStatus => ({ ready: this.ready, rootLabel: 'x', problem: this.ready ? null : 'no', action: null });
  onStatus = (l: (s: ShellStatus) => void) => this.statusL.add(l);
  prepare = async () => this.ready;
  start = (t: DownloadTask) => void this.calls.push(`start ${t.fileName}`);
  resume = (t: DownloadTask) => void this.calls.push(`resume ${t.fileName}`);
  pause = (key: string) => void this.calls.push(`pause ${this.name(key)}`);
  cancel = (key: string, task?: DownloadTask) => void this.calls.push(`cancel ${this.name(key)}${task ? ' (known)' : ''}`);
  onProgress = (l: (k: string, r: ProgressReport) => void) => this.progressL.add(l);
  onComplete = (l: (k: string, r: CompletedReport) => void) => this.completeL.add(l);
  onError = (l: (k: string, e: Error) => void) => this.errorL.add(l);
  notifyComplete = (t: DownloadTask) => void this.notified.push(t.fileName);
  close = () => undefined;
  names = new Map<string, string>();
  name = (key: string) => this.names.get(key) ?? key;
  declare recover?: (tasks: readonly DownloadTask[]) => Promise<Recovery>;
}

const USER = 7;
let managers: DownloadManager[] = [];
let databases: DownloadDb[] = [];
afterEach(() => {
  managers.forEach((m) => m.stop());
  databases.forEach((d) => d.close());
  managers = [];
  databases = [];
  vi.restoreAllMocks();
});

function setup(names: string[]) {
  const db = new DownloadDb(`test-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  databases.push(db);
  const shell = new FakeShell();
  const tasks = names.map((n) => createTask({ dir: 'A题', fileName: n, downloadPath: `/files/${n}` }, { userId: USER, root: '' }));
  for (const t of tasks) shell.names.set(t.key, t.fileName);
  const byName = (n: string) => tasks.find((t) => t.fileName === n)!;
  const start = async () => {
    const manager = new DownloadManager({ userId: USER, shell, db, lock: false });
    managers.push(manager);
    await manager.ready;
    await manager.settled();
    return manager;
  };
  const states = async () => Object.fromEntries((await readDownloading(USER, db)).map((t) => [t.fileName, t.state]));
  return { db, shell, tasks, byName, start, states };
}

describe('the download manager', () => {
  it('starts waiting tasks through the shell, three at a time, in queue order', async () => {
    const { db, shell, tasks, start, states } = setup(['1.zip', '2.zip', '3.zip', '4.zip']);
    await dispatchDownloads({ type: 'add', tasks }, db);
    const manager = await start();
    await vi.waitFor(() => expect(shell.calls).toEqual(['start 1.zip', 'start 2.zip', 'start 3.zip']));
    expect(await states()).toEqual({ '1.zip': 'progressing', '2.zip': 'progressing', '3.zip': 'progressing', '4.zip': 'waiting' });

    shell.completeL.emit(tasks[0]!.key, { receivedSize: 10, totalSize: 10 });
    await vi.waitFor(() => expect(shell.calls).toContain('start 4.zip'));
    await manager.settled();
    expect(shell.notified).toEqual(['1.zip']);
    expect(await readDownloaded(USER, db)).toMatchObject([{ fileName: '1.zip', receivedSize: 10, totalSize: 10 }]);
    // A completion is no cancellation: the shell is not told to throw the file away.
    expect(shell.calls.filter((c) => c.startsWith('cancel'))).toEqual([]);
  });

  it('writes progress, which never unpauses a paused task', async () => {
    const { db, shell, tasks, byName, start, states } = setup(['a.zip']);
    await dispatchDownloads({ type: 'add', tasks }, db);
    const manager = await start();
    await vi.waitFor(() => expect(shell.calls).toEqual(['start a.zip']));
    shell.progressL.emit(byName('a.zip').key, { receivedSize: 5, totalSize: 10, speed: 2 });
    await manager.settled();
    expect(await readDownloading(USER, db)).toMatchObject([{ receivedSize: 5, totalSize: 10, speed: 2, state: 'progressing' }]);
    await dispatchDownloads({ type: 'pause', userId: USER, key: byName('a.zip').key }, db);
    await vi.waitFor(() => expect(shell.calls).toEqual(['start a.zip', 'pause a.zip']));
    shell.progressL.emit(byName('a.zip').key, { state: 'progressing', receivedSize: 6 });
    await manager.settled();
    expect(await states()).toEqual({ 'a.zip': 'paused' });
  });

  it('follows pause, resume and cancel made in the store (any tab), and cancels what it never ran', async () => {
    const { db, shell, tasks, byName, start } = setup(['a.zip', 'b.zip', 'c.zip', 'd.zip']);
    await dispatchDownloads({ type: 'add', tasks }, db);
    await dispatchDownloads({ type: 'pause', userId: USER, key: byName('d.zip').key }, db);
    const manager = await start();
    await vi.waitFor(() => expect(shell.calls).toHaveLength(3));
    await dispatchDownloads({ type: 'pause', userId: USER, key: byName('a.zip').key }, db);
    await vi.waitFor(() => expect(shell.calls).toContain('pause a.zip'));
    await dispatchDownloads({ type: 'resume', userId: USER, key: byName('a.zip').key }, db);
    await vi.waitFor(() => expect(shell.calls).toContain('resume a.zip'));
    await dispatchDownloads({ type: 'cancel', userId: USER, key: byName('b.zip').key }, db);
    await dispatchDownloads({ type: 'cancel', userId: USER, key: byName('d.zip').key }, db);
    await vi.waitFor(() => expect(shell.calls).toEqual(expect.arrayContaining(['cancel b.zip (known)', 'cancel d.zip (known)'])));
    await manager.settled();
    expect(shell.calls.slice(0, 3)).toEqual(['start a.zip', 'start b.zip', 'start c.zip']);
  });

  it('resets stale progressing tasks when it starts, and keeps running ones progressing when the panel opens', async () => {
    const { db, shell, tasks, byName, start, states } = setup(['a.zip', 'b.zip']);
    await dispatchDownloads({ type: 'add', tasks }, db);
    await dispatchDownloads(
      tasks.map((t) => ({ type: 'progress' as const, userId: USER, key: t.key, state: 'progressing' as const })),
      db,
    );
    shell.ready = false;
    const manager = await start();
    expect(await states()).toEqual({ 'a.zip': 'waiting', 'b.zip': 'waiting' });
    shell.ready = true;
    shell.statusL.emit(shell.status());
    await vi.waitFor(() => expect(shell.calls).toEqual(['start a.zip', 'start b.zip']));
    await manager.settled();
    await dispatchDownloads({ type: 'openPanel', userId: USER }, db);
    await vi.waitFor(async () => expect(await states()).toEqual({ 'a.zip': 'progressing', 'b.zip': 'progressing' }));
    await manager.settled();
    expect(shell.calls).toEqual(['start a.zip', 'start b.zip']);
    expect(byName('a.zip')).toBeTruthy();
  });

  it('pauses a task that failed, telling why, and drops an empty one with 无可下载文件', async () => {
    const error = vi.spyOn(message, 'error');
    const warning = vi.spyOn(message, 'warning');
    const { db, shell, tasks, byName, start, states } = setup(['a.zip', 'b.zip']);
    await dispatchDownloads({ type: 'add', tasks }, db);
    const manager = await start();
    await vi.waitFor(() => expect(shell.calls).toHaveLength(2));
    shell.errorL.emit(byName('a.zip').key, new Error('无权下载该文件'));
    shell.errorL.emit(byName('b.zip').key, new EmptyDownloadError('无可下载文件'));
    await manager.settled();
    expect(await states()).toEqual({ 'a.zip': 'paused' });
    expect(error).toHaveBeenCalledWith('“a.zip”下载失败：无权下载该文件', 5);
    expect(warning).toHaveBeenCalledWith('“b.zip”：无可下载文件', 5);
  });

  it('takes over what the desktop client finished or still runs while the page was away', async () => {
    const { db, shell, tasks, byName, start, states } = setup(['done.zip', 'running.zip', 'stale.zip']);
    await dispatchDownloads({ type: 'add', tasks }, db);
    await dispatchDownloads(
      tasks.map((t) => ({ type: 'progress' as const, userId: USER, key: t.key, state: 'progressing' as const })),
      db,
    );
    shell.recover = async () => ({
      completed: [{ key: byName('done.zip').key, date: 5, receivedSize: 3, totalSize: 3 }],
      running: [byName('running.zip').key],
    });
    const manager = await start();
    await vi.waitFor(() => expect(shell.calls).toEqual(['start stale.zip']));
    await manager.settled();
    expect(await states()).toEqual({ 'running.zip': 'progressing', 'stale.zip': 'progressing' });
    expect(await readDownloaded(USER, db)).toMatchObject([{ fileName: 'done.zip', date: 5 }]);
    expect(shell.notified).toEqual(['done.zip']);
    expect(shell.calls.some((c) => c.startsWith('cancel'))).toBe(false);
  });
});
