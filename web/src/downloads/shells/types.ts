import type { DownloadTask, ProgressReport } from '@contest/shared';

/** Where a shell stands: whether it can download now, where files go, and what the user must do if it cannot. */
export interface ShellStatus {
  ready: boolean;
  /** The download root as shown to the user (a folder name in the browser, an absolute path in the desktop client). */
  rootLabel: string | null;
  /** Why it is not ready, for the drawer. */
  problem: string | null;
  /** The user can fix the problem with a click (choose a folder, grant access again, reconnect). */
  action: string | null;
}

export interface CompletedReport {
  receivedSize: number;
  totalSize: number;
}

/** What a shell already knows about the stored tasks when the manager starts (the desktop client outlives the page). */
export interface Recovery {
  /** Tasks it finished while no page was listening. */
  completed: ({ key: string; date: number } & CompletedReport)[];
  /** Tasks it is still running or has queued. */
  running: string[];
}

type Off = () => void;

/**
 * The one interface of the download shells (issue 8): whatever does the work, the web drives it the same way. A shell
 * downloads what it is given and reports; the queue, the states and the limits are the manager's (spec §4).
 */
export interface DownloadShell {
  readonly kind: 'desktop' | 'browser';
  /** The root a new task's save path is built from (`createTask`'s root). */
  root(): string;
  status(): ShellStatus;
  onStatus(listener: (status: ShellStatus) => void): Off;
  /**
   * Called from a click: makes the shell ready if it can (picks a folder, asks for access again, connects), telling
   * the user why not otherwise. Resolves to whether it is ready.
   */
  prepare(): Promise<boolean>;
  /** Starts a task; a task already under way is left alone. */
  start(task: DownloadTask): void;
  pause(key: string): void;
  /** Continues a task paused in this shell from what it already has. */
  resume(task: DownloadTask): void;
  /** Stops a task and throws away what it had; `task` (when known) locates what a task not running left behind. */
  cancel(key: string, task?: DownloadTask): void;
  /** Progress at most every half second; `speed` is bytes of the last half second (spec §9 doubles it). */
  onProgress(listener: (key: string, report: ProgressReport) => void): Off;
  onComplete(listener: (key: string, report: CompletedReport) => void): Off;
  onError(listener: (key: string, error: Error) => void): Off;
  /** Spec §4: told once a completed task has moved to downloaded. */
  notifyComplete?(task: DownloadTask): void;
  recover?(tasks: readonly DownloadTask[]): Promise<Recovery>;
  close(): void;
}

/** A download with nothing in it (spec §5: 无可下载文件); the manager drops such a task. */
export class EmptyDownloadError extends Error {
  override name = 'EmptyDownloadError';
}

/** A tiny typed event list, so each shell need not repeat it. */
export class Listeners<A extends unknown[]> {
  private readonly set = new Set<(...args: A) => void>();
  add(listener: (...args: A) => void): Off {
    this.set.add(listener);
    return () => void this.set.delete(listener);
  }
  emit(...args: A): void {
    for (const l of [...this.set]) l(...args);
  }
}
