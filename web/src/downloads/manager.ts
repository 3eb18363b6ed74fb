/**
 * The download manager of one signed-in user in one page: it starts the waiting tasks through the shell (at most
 * three at a time, spec §4's queue), turns the shell's progress, completion and failure into events of the shared
 * reducer, and follows what the user does in any tab (pause, resume, cancel are writes to the store; the manager
 * sees them and tells the shell). Only one tab per user runs it, under a Web Lock, so two tabs never write one file.
 */
import { tasksToStart, type DownloadEvent, type DownloadTask } from '@contest/shared';
import { message } from 'antd';
import { ERROR_TOAST_SECONDS } from '../common/http.ts';
import { dispatchDownloads, downloadDb, readDownloading, watchDownloading, type DownloadDb, type Subscription } from './store.ts';
import { EmptyDownloadError, type DownloadShell } from './shells/types.ts';

/** Downloads running at once (the desktop client's default too). */
export const PARALLEL_DOWNLOADS = 3;

export interface ManagerOptions {
  userId: number;
  shell: DownloadShell;
  db?: DownloadDb;
  parallel?: number;
  /** Take the per-user Web Lock first (off in tests). */
  lock?: boolean;
}

interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<void>;
}

export class DownloadManager {
  readonly userId: number;
  readonly shell: DownloadShell;
  private readonly db: DownloadDb;
  private readonly parallel: number;
  /** Handed to the shell and not finished. */
  private readonly running = new Set<string>();
  /** Handed to the shell in this page at some time, so a resumed task is resumed rather than started afresh. */
  private readonly handed = new Set<string>();
  /** Completions on their way to the store: their leaving the list is no cancellation. */
  private readonly finishing = new Set<string>();
  private previous: DownloadTask[] = [];
  private latest: DownloadTask[] | null = null;
  private reconciling = false;
  private again = false;
  private pending: DownloadEvent[] = [];
  private chain: Promise<void> = Promise.resolve();
  private flushQueued = false;
  private subscription: Subscription | null = null;
  private offs: (() => void)[] = [];
  private readonly stopper = new AbortController();
  private release: (() => void) | null = null;
  /** Resolves once the manager runs (after the lock, the recovery and the first reset). */
  readonly ready: Promise<void>;

  constructor(options: ManagerOptions) {
    this.userId = options.userId;
    this.shell = options.shell;
    this.db = options.db ?? downloadDb();
    this.parallel = options.parallel ?? PARALLEL_DOWNLOADS;
    const locks = (globalThis.navigator as (Navigator & { locks?: LockManagerLike }) | undefined)?.locks;
    if (options.lock === false || !locks) this.ready = this.run();
    else
      this.ready = new Promise<void>((resolve, reject) => {
        locks
          .request(
            `contest-downloads-${this.userId}`,
            { signal: this.stopper.signal },
            () =>
              new Promise<void>((releaseLock) => {
                this.release = releaseLock;
                this.run().then(resolve, reject);
              }),
          )
          .catch((err) => (this.stopper.signal.aborted ? resolve() : reject(err)));
      });
  }

  private async run() {
    if (this.stopper.signal.aborted) return;
    this.offs = [
      this.shell.onProgress((key, report) => this.enqueue({ type: 'progress', userId: this.userId, key, ...report })),
      this.shell.onComplete((key, report) => {
        this.running.delete(key);
        this.handed.delete(key);
        this.finishing.add(key);
        this.enqueue({ type: 'complete', userId: this.userId, key, date: Date.now(), ...report });
      }),
      this.shell.onError((key, error) => this.failed(key, error)),
      this.shell.onStatus(() => this.reconcile()),
    ];
    const stored = await readDownloading(this.userId, this.db);
    const recovery = this.shell.recover ? await this.shell.recover(stored).catch(() => ({ completed: [], running: [] })) : { completed: [], running: [] };
    for (const key of recovery.running) {
      this.running.add(key);
      this.handed.add(key);
    }
    for (const done of recovery.completed) this.finishing.add(done.key);
    // Spec §4: nothing runs before the manager starts, so "progressing" is stale (openPanel), except what the shell
    // says it is still running; what it finished meanwhile completes first.
    this.enqueue(
      ...recovery.completed.map((c): DownloadEvent => ({ type: 'complete', userId: this.userId, ...c })),
      { type: 'openPanel', userId: this.userId },
      ...recovery.running.map((key): DownloadEvent => ({ type: 'progress', userId: this.userId, key, state: 'progressing' })),
    );
    await this.chain;
    if (this.stopper.signal.aborted) return;
    this.subscription = watchDownloading(this.userId, (tasks) => this.reconcile(tasks), this.db);
  }

  /** Follows a new snapshot of the list, one pass at a time. */
  private reconcile(tasks?: DownloadTask[]) {
    if (tasks) this.latest = tasks;
    if (!this.latest || this.stopper.signal.aborted) return;
    if (this.reconciling) {
      this.again = true;
      return;
    }
    this.reconciling = true;
    void (async () => {
      try {
        do {
          this.again = false;
          await this.pass(this.latest!);
        } while (this.again && !this.stopper.signal.aborted);
      } catch (err) {
        console.error('下载调度失败', err);
      } finally {
        this.reconciling = false;
      }
    })();
  }

  private async pass(list: DownloadTask[]) {
    const byKey = new Map(list.map((t) => [t.key, t]));
    // Gone from the list without completing: cancelled (one by one, or all), here or in another tab.
    for (const before of this.previous) {
      if (byKey.has(before.key)) continue;
      if (this.finishing.delete(before.key)) continue;
      this.running.delete(before.key);
      this.handed.delete(before.key);
      this.shell.cancel(before.key, before);
    }
    this.previous = list;
    for (const key of [...this.running]) {
      if (byKey.get(key)?.state === 'paused') {
        this.running.delete(key);
        this.shell.pause(key);
      }
    }
    // Still running in the shell but reset to waiting (the panel was opened): it is progressing.
    const reassert = [...this.running].filter((key) => byKey.get(key)?.state === 'waiting');
    const view = list.map((t) => (reassert.includes(t.key) ? { ...t, state: 'progressing' as const } : t));
    const toStart = this.shell.status().ready ? tasksToStart(view, this.parallel) : [];
    const marks = [...reassert, ...toStart.map((t) => t.key)];
    if (!marks.length) return;
    for (const t of toStart) this.running.add(t.key);
    this.enqueue(...marks.map((key): DownloadEvent => ({ type: 'progress', userId: this.userId, key, state: 'progressing' })));
    await this.chain;
    for (const task of toStart) {
      if (!this.running.has(task.key)) continue; // failed or paused meanwhile
      if (this.handed.has(task.key)) this.shell.resume(task);
      else this.shell.start(task);
      this.handed.add(task.key);
    }
  }

  private failed(key: string, error: Error) {
    this.running.delete(key);
    this.handed.delete(key);
    const task = this.latest?.find((t) => t.key === key);
    if (error instanceof EmptyDownloadError) {
      // Spec §5: nothing to download; such a task would only fail again.
      void message.warning(`${task ? `“${task.fileName}”：` : ''}${error.message}`, ERROR_TOAST_SECONDS);
      this.enqueue({ type: 'cancel', userId: this.userId, key });
      return;
    }
    // The spec has no failed state: the task is paused, so the user can resume it once the cause is gone.
    void message.error(`${task ? `“${task.fileName}”` : '文件'}下载失败：${error.message}`, ERROR_TOAST_SECONDS);
    this.enqueue({ type: 'pause', userId: this.userId, key });
  }

  /** Events of one moment go to the store in one transaction, in order. */
  private enqueue(...events: DownloadEvent[]) {
    this.pending.push(...events);
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.chain = this.chain.then(async () => {
      await Promise.resolve();
      this.flushQueued = false;
      const batch = this.pending.splice(0);
      try {
        const notified = await dispatchDownloads(batch, this.db);
        const told = new Set(notified.map((t) => t.key));
        for (const e of batch) if (e.type === 'complete' && !told.has(e.key)) this.finishing.delete(e.key);
        for (const task of notified) this.shell.notifyComplete?.(task);
      } catch (err) {
        console.error('下载列表写入失败', err);
      }
    });
  }

  /** Waits until what was reported has been written (tests). */
  async settled(): Promise<void> {
    let before: Promise<void>;
    do {
      before = this.chain;
      await before;
      await new Promise((r) => setTimeout(r, 0));
    } while (before !== this.chain || this.reconciling);
  }

  stop(): void {
    this.stopper.abort();
    this.subscription?.unsubscribe();
    for (const off of this.offs) off();
    this.offs = [];
    this.release?.();
  }
}

let current: DownloadManager | null = null;

/** The page's manager for the signed-in user, started on first use. */
export function pageManager(userId: number, shell: DownloadShell): DownloadManager {
  if (current && current.userId === userId && current.shell === shell) return current;
  current?.stop();
  current = new DownloadManager({ userId, shell });
  return current;
}

/** Any manager running in this page (queueDownloads uses its user). */
export const activeManager = () => current;
