/**
 * The desktop client's shell: the page hands tasks to the client's download engine over its loopback bridge
 * (desktop/src/bridge.ts, protocol 1) and listens to its events. The client opened the page with the bridge's port and
 * pairing secret in the address (see `captureDesktopLaunch`); every call carries the secret, and the browser adds the
 * Origin the bridge checks.
 */
import { isDownloadState, type DownloadTask, type EngineTask, type ProgressReport } from '@contest/shared';
import type { DesktopBridgeConfig } from '../../common/desktopLaunch.ts';
import { Listeners, type CompletedReport, type DownloadShell, type Recovery, type ShellStatus } from './types.ts';

export const BRIDGE_PROTOCOL = 1;
export const SECRET_HEADER = 'x-desktop-secret';
const RECONNECT_MS = 5000;
const ROOTS_KEY = 'desktopRoots';

/** A task as the engine reports it (its states add `completed` and `failed` to spec §4's): @contest/shared's EngineTask. */
export type { EngineTask };

export class BridgeError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

type EventSourceLike = Pick<EventSource, 'addEventListener' | 'close' | 'readyState'> & {
  onerror: ((e: Event) => void) | null;
  onopen: ((e: Event) => void) | null;
};

export interface DesktopShellOptions {
  config: DesktopBridgeConfig | null;
  userId: number;
  fetch?: typeof fetch;
  eventSource?: (url: string) => EventSourceLike;
}

/** Roots the client has used, newest first: a task queued before the user moved the root still finds its folders. */
function knownRoots(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(ROOTS_KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}
function rememberRoot(root: string) {
  localStorage.setItem(ROOTS_KEY, JSON.stringify([root, ...knownRoots().filter((r) => r !== root)].slice(0, 10)));
}

/**
 * The folder segments of a save path under one of `roots` (the first that holds it): the engine rebuilds the path from
 * its own root, `dir` and the file name.
 */
export function dirUnderRoot(savePath: string, roots: readonly string[]): string[] | null {
  for (const root of roots) {
    const sep = root.includes('\\') ? '\\' : '/';
    const prefix = root.replace(/[\\/]+$/, '') + sep;
    if (!savePath.startsWith(prefix)) continue;
    const parts = savePath.slice(prefix.length).split(sep);
    parts.pop();
    return parts;
  }
  return null;
}

export class DesktopShell implements DownloadShell {
  readonly kind = 'desktop' as const;
  private rootPath: string | null = null;
  private connected = false;
  private problem: string | null = '正在连接下载客户端…';
  private events: EventSourceLike | null = null;
  private reconnect: ReturnType<typeof setTimeout> | undefined;
  private connecting: Promise<boolean> | null = null;
  private closed = false;
  /** Tasks handed to the engine by this page and not finished: a reconnecting page checks them against a snapshot. */
  private readonly started = new Map<string, DownloadTask>();
  private readonly statusListeners = new Listeners<[ShellStatus]>();
  private readonly progress = new Listeners<[string, ProgressReport]>();
  private readonly completed = new Listeners<[string, CompletedReport]>();
  private readonly failed = new Listeners<[string, Error]>();
  private readonly doFetch: typeof fetch;
  private readonly base: string;
  /** One task's calls go out one after the other: a quick pause then resume must reach the client in that order. */
  private readonly lanes = new Map<string, Promise<unknown>>();

  constructor(private readonly options: DesktopShellOptions) {
    this.doFetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.base = options.config ? `http://127.0.0.1:${options.config.port}` : '';
    void this.connect();
  }

  private changed() {
    this.statusListeners.emit(this.status());
  }

  root(): string {
    return this.rootPath ?? '';
  }

  status(): ShellStatus {
    if (!this.options.config) return { ready: false, rootLabel: null, problem: '未找到下载客户端的连接信息，请从下载客户端重新打开平台', action: null };
    if (this.connected && this.rootPath) return { ready: true, rootLabel: this.rootPath, problem: null, action: null };
    return { ready: false, rootLabel: this.rootPath, problem: this.problem, action: this.connecting ? null : '重新连接' };
  }

  onStatus(listener: (status: ShellStatus) => void) {
    return this.statusListeners.add(listener);
  }

  async prepare(): Promise<boolean> {
    if (!this.status().ready) await this.connect();
    return this.status().ready;
  }

  private async call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
    const { config } = this.options;
    if (!config) throw new BridgeError(0, '未找到下载客户端的连接信息');
    let res: Response;
    try {
      res = await this.doFetch(this.base + path, {
        method,
        headers: { [SECRET_HEADER]: config.secret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch {
      this.lost('无法连接下载客户端，请确认客户端正在运行');
      throw new BridgeError(0, '无法连接下载客户端，请确认客户端正在运行');
    }
    const data = (await res.json().catch(() => null)) as (T & { error?: string; code?: string }) | null;
    if (!res.ok) {
      if (res.status === 401) this.lost('下载客户端拒绝了连接（配对密钥不正确），请从下载客户端重新打开平台');
      throw new BridgeError(res.status, data?.error ?? `下载客户端出错（HTTP ${res.status}）`, data?.code);
    }
    return data as T;
  }

  private inLane(key: string, work: () => Promise<unknown>): void {
    const next = (this.lanes.get(key) ?? Promise.resolve()).then(work, work);
    this.lanes.set(key, next);
    void next.finally(() => this.lanes.get(key) === next && this.lanes.delete(key));
  }

  private lost(problem: string) {
    const was = this.connected;
    this.connected = false;
    this.problem = problem;
    if (was) this.changed();
  }

  /** Asks for the client's status and root, then listens to its events. */
  connect(): Promise<boolean> {
    if (this.closed || !this.options.config) return Promise.resolve(false);
    this.connecting ??= (async () => {
      clearTimeout(this.reconnect);
      try {
        const status = await this.call<{ protocol: number; root: string }>('GET', '/status');
        if (status.protocol !== BRIDGE_PROTOCOL) {
          this.lost('下载客户端的版本与平台不匹配，请下载最新的客户端');
          return false;
        }
        this.setRoot(status.root);
        this.connected = true;
        this.problem = null;
        this.listen();
        return true;
      } catch (err) {
        if (err instanceof BridgeError && err.status !== 0) this.lost(err.message);
        this.scheduleReconnect();
        return false;
      } finally {
        this.connecting = null;
        this.changed();
      }
    })();
    this.changed();
    return this.connecting;
  }

  private scheduleReconnect() {
    clearTimeout(this.reconnect);
    if (!this.closed) this.reconnect = setTimeout(() => void this.connect(), RECONNECT_MS);
  }

  private setRoot(root: string) {
    this.rootPath = root;
    rememberRoot(root);
  }

  private listen() {
    const { config, userId } = this.options;
    if (this.events || !config) return;
    // EventSource sends no headers: the bridge takes the secret from the query here.
    const url = `${this.base}/events?secret=${encodeURIComponent(config.secret)}&userId=${encodeURIComponent(userId)}`;
    const source = this.options.eventSource?.(url) ?? (new EventSource(url) as EventSourceLike);
    this.events = source;
    const data = <T>(e: Event) => JSON.parse((e as MessageEvent<string>).data) as T;
    source.onopen = () => {
      if (!this.connected) {
        this.connected = true;
        this.problem = null;
        this.changed();
      }
    };
    source.onerror = () => {
      this.lost('与下载客户端的连接已断开，正在重新连接…');
      if (source.readyState === 2 /* CLOSED: the browser gave up */) {
        source.close();
        this.events = null;
        this.scheduleReconnect();
      }
    };
    source.addEventListener('snapshot', (e) => this.onSnapshot(data<{ root: string; tasks: EngineTask[] }>(e)));
    source.addEventListener('root', (e) => {
      this.setRoot(data<{ root: string }>(e).root);
      this.changed();
    });
    source.addEventListener('progress', (e) => {
      const p = data<{ key: string; receivedSize: number; totalSize: number; speed: number; state: EngineTask['state'] }>(e);
      const report: ProgressReport = { receivedSize: p.receivedSize, totalSize: p.totalSize, speed: p.speed };
      // Spec §4: the desktop shell may set any state; completion and failure come as their own events.
      if (isDownloadState(p.state)) report.state = p.state;
      this.progress.emit(p.key, report);
    });
    source.addEventListener('completed', (e) => this.finish(data<EngineTask>(e)));
    source.addEventListener('failed', (e) => {
      const f = data<{ key: string; message: string }>(e);
      this.started.delete(f.key);
      this.failed.emit(f.key, new Error(f.message));
    });
  }

  /** After a reconnection: what finished or vanished (a restarted client) while the page was not listening. */
  private onSnapshot(snapshot: { root: string; tasks: EngineTask[] }) {
    if (snapshot.root && snapshot.root !== this.rootPath) {
      this.setRoot(snapshot.root);
      this.changed();
    }
    const known = new Map(snapshot.tasks.map((t) => [t.key, t]));
    for (const [key, task] of [...this.started]) {
      const t = known.get(key);
      if (!t) {
        this.started.delete(key);
        this.start(task); // the client restarted: its .part lets it go on where it stopped
      } else if (t.state === 'completed') this.finish(t);
      else if (t.state === 'failed') {
        this.started.delete(key);
        this.failed.emit(key, new Error(t.error ?? '下载失败'));
      }
    }
  }

  private finish(t: EngineTask) {
    this.started.delete(t.key);
    this.completed.emit(t.key, { receivedSize: t.receivedSize, totalSize: t.totalSize || t.receivedSize });
  }

  private fail(key: string, err: unknown) {
    this.started.delete(key);
    this.failed.emit(key, err instanceof Error ? err : new Error(String(err)));
  }

  start(task: DownloadTask): void {
    const dir = dirUnderRoot(
      task.savePath,
      [this.rootPath, ...knownRoots()].filter((r): r is string => Boolean(r)),
    );
    if (!dir) {
      this.fail(task.key, new Error('该任务的保存位置不在下载客户端的下载目录中，请取消后重新添加'));
      return;
    }
    this.started.set(task.key, task);
    const input = { downloadPath: task.downloadPath, fileName: task.fileName, dir: dir.join(','), key: task.key, userId: task.userId };
    this.inLane(task.key, () =>
      this.call<{ tasks: EngineTask[] }>('POST', '/tasks', { tasks: [input] })
        .then(async ({ tasks }) => {
          // Adding a task the engine still holds returns it as it is: one paused there is continued.
          const t = tasks.find((x) => x.key === task.key);
          if (t && (t.state === 'paused' || t.state === 'failed')) await this.call('POST', `/tasks/${encodeURIComponent(task.key)}/resume`);
        })
        .catch((err) => this.fail(task.key, err)),
    );
  }

  resume(task: DownloadTask): void {
    this.started.set(task.key, task);
    this.inLane(task.key, () =>
      this.call('POST', `/tasks/${encodeURIComponent(task.key)}/resume`).catch((err) => {
        if (err instanceof BridgeError && err.status === 404) this.start(task);
        else this.fail(task.key, err);
      }),
    );
  }

  pause(key: string): void {
    this.inLane(key, () => this.call('POST', `/tasks/${encodeURIComponent(key)}/pause`).catch(() => undefined));
  }

  cancel(key: string): void {
    this.started.delete(key);
    this.inLane(key, () => this.call('POST', `/tasks/${encodeURIComponent(key)}/cancel`).catch(() => undefined));
  }

  /** Spec §4: the completed task is in the downloaded list now, so the engine can forget it (its file stays). */
  notifyComplete(task: DownloadTask): void {
    this.inLane(task.key, () => this.call('POST', `/tasks/${encodeURIComponent(task.key)}/cancel`).catch(() => undefined));
  }

  /**
   * What the client did while no page listened: a task the page had handed over (stored as progressing) that the
   * engine has completed, and the tasks it is still running.
   */
  async recover(tasks: readonly DownloadTask[]): Promise<Recovery> {
    if (!(await this.prepare())) return { completed: [], running: [] };
    const { tasks: engine } = await this.call<{ tasks: EngineTask[] }>('GET', `/tasks?userId=${encodeURIComponent(this.options.userId)}`);
    const stored = new Map(tasks.map((t) => [t.key, t]));
    const completed: Recovery['completed'] = [];
    const running: string[] = [];
    for (const t of engine) {
      const mine = stored.get(t.key);
      if (!mine) continue;
      if (t.state === 'completed' && mine.state === 'progressing') {
        completed.push({ key: t.key, date: t.date ?? Date.now(), receivedSize: t.receivedSize, totalSize: t.totalSize || t.receivedSize });
      } else if (t.state === 'waiting' || t.state === 'progressing') {
        running.push(t.key);
        this.started.set(t.key, mine);
      }
    }
    return { completed, running };
  }

  /** Moves the client's download root (an absolute path on the user's computer); new tasks are saved there. */
  async changeRoot(root: string): Promise<string> {
    const { root: resolved } = await this.call<{ root: string }>('PUT', '/root', { root });
    this.setRoot(resolved);
    this.changed();
    return resolved;
  }

  onProgress(listener: (key: string, report: ProgressReport) => void) {
    return this.progress.add(listener);
  }
  onComplete(listener: (key: string, report: CompletedReport) => void) {
    return this.completed.add(listener);
  }
  onError(listener: (key: string, error: Error) => void) {
    return this.failed.add(listener);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnect);
    this.events?.close();
    this.events = null;
  }
}
