/**
 * The browser shell: where the File System Access API exists (Chromium, Edge), files are written into a folder the
 * user picked once, in the tasks' folder layout. Each file streams into `<name>.part`, resumes with HTTP Range from the
 * bytes the `.part` already holds, and takes its own name when complete.
 */
import { DownloadInterrupted, PART_SUFFIX, resumeDownload, type DownloadTask, type ProgressReport } from '@contest/shared';
import Dexie, { type Table } from 'dexie';
import { HTTP_TEXT, apiBase, checkDownloadReply, requestHeaders } from '../../common/http.ts';
import { EmptyDownloadError, Listeners, type CompletedReport, type DownloadShell, type ShellStatus } from './types.ts';

/** The parts of the File System Access API the shell uses, so tests can hand it an in-memory folder. */
export interface WritableLike {
  write(data: FileSystemWriteChunkType): Promise<void>;
  seek(position: number): Promise<void>;
  close(): Promise<void>;
  abort(reason?: unknown): Promise<void>;
}
export interface FileHandleLike {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<Blob>;
  createWritable(options?: { keepExistingData?: boolean }): Promise<WritableLike>;
  move?(newName: string): Promise<void>;
}
type Permission = 'granted' | 'denied' | 'prompt';
export interface DirHandleLike {
  readonly kind: 'directory';
  readonly name: string;
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<DirHandleLike>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<FileHandleLike>;
  removeEntry(name: string): Promise<void>;
  queryPermission?(descriptor: { mode: 'readwrite' }): Promise<Permission>;
  requestPermission?(descriptor: { mode: 'readwrite' }): Promise<Permission>;
}

/** Where the chosen folder's handle is kept between visits (IndexedDB can hold handles; localStorage cannot). */
export interface FolderStore {
  load(): Promise<DirHandleLike | null>;
  save(handle: DirHandleLike): Promise<void>;
}

class FolderDb extends Dexie {
  folders!: Table<DirHandleLike, string>;
  constructor() {
    super('contestDownloadFolder');
    this.version(1).stores({ folders: '' });
  }
}
let folderDb: FolderDb | null = null;
export const idbFolderStore: FolderStore = {
  load: async () => ((folderDb ??= new FolderDb()), (await folderDb.folders.get('root')) ?? null),
  save: async (handle) => {
    folderDb ??= new FolderDb();
    await folderDb.folders.put(handle, 'root');
  },
};

type PickerOptions = { id?: string; mode?: 'readwrite'; startIn?: string };
type Picker = (options: PickerOptions) => Promise<DirHandleLike>;
/** Chromium's picker (not in TypeScript's DOM types); its handles must fit DirHandleLike, which this checks. */
const windowPicker = (): Picker | undefined => {
  const pick = (globalThis as unknown as { showDirectoryPicker?: (options: PickerOptions) => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker;
  return pick && ((options) => pick.call(globalThis, options));
};

/** Whether this browser can write into a folder of the user's choosing. */
export const hasFileSystemAccess = () => typeof windowPicker() === 'function';

export { PART_SUFFIX };
/** Waits before each new try of a broken download, counted from the last bytes that arrived. */
const RETRY_DELAYS_MS = [1000, 3000, 5000];
const STALL_MS = 30_000;
/**
 * Written bytes reach the file only when its writable closes, so the shell closes and reopens it now and then: when
 * the bytes since the last close reach the size already on disk (and at least 32 MB). Reopening copies the file, so
 * spacing the checkpoints geometrically keeps the copying below twice the file, while a closed tab loses at most the
 * bytes since the last checkpoint.
 */
const CHECKPOINT_MIN_BYTES = 32 * 1024 * 1024;
const TRANSIENT = new Set([502, 503, 504]);

export interface BrowserShellOptions {
  folders?: FolderStore;
  pick?: Picker;
  fetch?: typeof fetch;
  /** Progress interval; `speed` is reported per such interval scaled to half a second. */
  progressMs?: number;
  retryDelaysMs?: number[];
  stallMs?: number;
  checkpointBytes?: number;
}

const abortError = () => new DOMException('下载已停止', 'AbortError');
const isAbort = (err: unknown) => (err as Error)?.name === 'AbortError';

/** `a/b/c.zip` -> folders `a`, `b` and file `c.zip`; the save path is relative to the chosen folder (root ''). */
export function splitSavePath(savePath: string): { dirs: string[]; name: string } {
  const parts = savePath.split(/[\\/]/).filter((p) => p !== '');
  const name = parts.pop();
  if (!name || [...parts, name].some((p) => /^\.+$/.test(p))) throw new Error(`保存路径不正确：${savePath}`);
  return { dirs: parts, name };
}

interface Transfer {
  controller: AbortController;
  cancelled: boolean;
  done: Promise<void>;
}

export class BrowserShell implements DownloadShell {
  readonly kind = 'browser' as const;
  private handle: DirHandleLike | null = null;
  private permission: Permission | null = null;
  private loaded = false;
  private readonly loading: Promise<void>;
  private readonly transfers = new Map<string, Transfer>();
  /** Tasks resumed while their paused transfer was still stopping. */
  private readonly restarts = new Map<string, DownloadTask>();
  private readonly statusListeners = new Listeners<[ShellStatus]>();
  private readonly progress = new Listeners<[string, ProgressReport]>();
  private readonly completed = new Listeners<[string, CompletedReport]>();
  private readonly failed = new Listeners<[string, Error]>();
  private readonly folders: FolderStore;
  private readonly doFetch: typeof fetch;
  private readonly progressMs: number;

  constructor(private readonly options: BrowserShellOptions = {}) {
    this.folders = options.folders ?? idbFolderStore;
    this.doFetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.progressMs = options.progressMs ?? 500;
    this.loading = this.load();
  }

  private async load() {
    try {
      this.handle = await this.folders.load();
      if (this.handle) this.permission = await this.query(this.handle);
    } catch (err) {
      console.error('下载文件夹读取失败', err);
    }
    this.loaded = true;
    this.changed();
  }

  /** Resolves once the remembered folder (if any) has been read. */
  whenLoaded(): Promise<void> {
    return this.loading;
  }

  private query = async (handle: DirHandleLike): Promise<Permission> => (handle.queryPermission ? handle.queryPermission({ mode: 'readwrite' }) : 'granted');

  private changed() {
    this.statusListeners.emit(this.status());
  }

  root(): string {
    return '';
  }

  status(): ShellStatus {
    if (!this.loaded) return { ready: false, rootLabel: null, problem: '正在读取下载文件夹…', action: null };
    if (!this.handle) return { ready: false, rootLabel: null, problem: '请先选择保存下载文件的文件夹', action: '选择文件夹' };
    if (this.permission !== 'granted')
      return { ready: false, rootLabel: this.handle.name, problem: `需要重新授权访问下载文件夹“${this.handle.name}”`, action: '授权访问' };
    return { ready: true, rootLabel: this.handle.name, problem: null, action: null };
  }

  onStatus(listener: (status: ShellStatus) => void) {
    return this.statusListeners.add(listener);
  }

  /** From a click: asks for access again, or for a folder when there is none. */
  async prepare(): Promise<boolean> {
    await this.loading;
    if (!this.handle) return this.chooseFolder();
    if (this.permission !== 'granted') {
      try {
        this.permission = this.handle.requestPermission ? await this.handle.requestPermission({ mode: 'readwrite' }) : 'granted';
      } catch {
        this.permission = 'prompt'; // no user activation left: the drawer offers the button again
      }
      this.changed();
    }
    return this.status().ready;
  }

  /** From a click: lets the user pick the download folder (new tasks and resumed ones are written there). */
  async chooseFolder(): Promise<boolean> {
    const pick = this.options.pick ?? windowPicker();
    if (!pick) return false;
    try {
      const handle = await pick({ id: 'contest-downloads', mode: 'readwrite', startIn: 'downloads' });
      this.handle = handle;
      this.permission = await this.query(handle);
      await this.folders.save(handle).catch((err) => console.error('下载文件夹保存失败', err));
    } catch (err) {
      if (!isAbort(err)) throw err; // the user closed the picker
    }
    this.changed();
    return this.status().ready;
  }

  start(task: DownloadTask): void {
    const current = this.transfers.get(task.key);
    if (current && !current.controller.signal.aborted) return; // already under way
    if (current) {
      // Paused a moment ago and still closing its file: go on once it has.
      this.restarts.set(task.key, task);
      void current.done.finally(() => {
        const next = this.restarts.get(task.key);
        this.restarts.delete(task.key);
        if (next) this.start(next);
      });
      return;
    }
    const controller = new AbortController();
    const transfer: Transfer = { controller, cancelled: false, done: Promise.resolve() };
    this.transfers.set(task.key, transfer);
    transfer.done = this.run(task, transfer)
      .then((report) => {
        if (this.transfers.get(task.key) === transfer) this.transfers.delete(task.key);
        this.completed.emit(task.key, report);
      })
      .catch(async (err: unknown) => {
        if (this.transfers.get(task.key) === transfer) this.transfers.delete(task.key);
        if (transfer.cancelled) return this.removePart(task.savePath);
        if (controller.signal.aborted) return; // paused
        if ((err as Error)?.name === 'NotAllowedError') {
          this.permission = 'prompt';
          this.changed();
        }
        this.failed.emit(task.key, err instanceof Error ? err : new Error(String(err)));
      });
  }

  resume(task: DownloadTask): void {
    this.start(task);
  }

  pause(key: string): void {
    this.restarts.delete(key);
    this.transfers.get(key)?.controller.abort();
  }

  /** Stops the task and deletes its `.part`; given the task, also one from an earlier visit that is not running. */
  cancel(key: string, task?: DownloadTask): void {
    this.restarts.delete(key);
    const transfer = this.transfers.get(key);
    if (transfer) {
      transfer.cancelled = true;
      transfer.controller.abort();
    } else if (task) {
      void this.removePart(task.savePath);
    }
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

  /** Waits for a task's transfer to settle (tests, and pausing before a folder change). */
  async settled(key: string): Promise<void> {
    await this.transfers.get(key)?.done.catch(() => undefined);
  }

  close(): void {
    for (const t of this.transfers.values()) t.controller.abort();
  }

  private async folderOf(dirs: string[], create: boolean): Promise<DirHandleLike> {
    if (!this.handle) throw new Error('请先选择保存下载文件的文件夹');
    let dir = this.handle;
    for (const name of dirs) dir = await dir.getDirectoryHandle(name, { create });
    return dir;
  }

  private async removePart(savePath: string) {
    try {
      const { dirs, name } = splitSavePath(savePath);
      await (await this.folderOf(dirs, false)).removeEntry(name + PART_SUFFIX);
    } catch {
      // nothing was written, or it is gone already
    }
  }

  private async run(task: DownloadTask, transfer: Transfer): Promise<CompletedReport> {
    const { signal } = transfer.controller;
    const { dirs, name } = splitSavePath(task.savePath);
    const dir = await this.folderOf(dirs, true);
    const part = await dir.getFileHandle(name + PART_SUFFIX, { create: true });
    const url = /^https?:\/\//i.test(task.downloadPath) ? task.downloadPath : `${apiBase()}${task.downloadPath}`;
    const checkpointMin = this.options.checkpointBytes ?? CHECKPOINT_MIN_BYTES;

    let received = (await part.getFile()).size;
    let total: number | null = null;
    // Progress: every interval, the bytes of that interval scaled to half a second (spec §9 shows twice that).
    let reported = received;
    let reportedAt = Date.now();
    const report = () => {
      const now = Date.now();
      const speed = Math.max(0, Math.round(((received - reported) * 500) / Math.max(1, now - reportedAt)));
      reported = received;
      reportedAt = now;
      this.progress.emit(task.key, { receivedSize: received, totalSize: total ?? 0, speed });
    };
    let writable: WritableLike | null = null;
    let committed = 0;
    const ticker = setInterval(report, this.progressMs);
    try {
      // The Range resume loop the desktop client runs too (@contest/shared resumeDownload), writing into the .part.
      ({ received, total } = await resumeDownload<Response>({
        fetch: (input, init) => this.doFetch(input, { headers: init.headers, credentials: 'include', signal: init.signal as AbortSignal }),
        url,
        offset: received,
        headers: () => requestHeaders('GET'),
        check: async (res) => {
          if (TRANSIENT.has(res.status) && !(res.headers.get('content-type') ?? '').includes('application/json')) throw new DownloadInterrupted();
          if (!(await checkDownloadReply(res, true))) throw new EmptyDownloadError(HTTP_TEXT.emptyDownload);
        },
        begin: async (start, _res, size) => {
          received = start;
          total = size;
          reported = Math.min(reported, received);
          // Nothing kept when starting over, so a longer older .part leaves no tail behind.
          writable = await part.createWritable({ keepExistingData: start > 0 });
          if (start > 0) await writable.seek(start);
          committed = start;
        },
        write: async (chunk) => {
          await writable!.write(chunk as Uint8Array<ArrayBuffer>);
          received += chunk.byteLength;
          if (received - committed >= Math.max(checkpointMin, committed)) {
            await writable!.close();
            writable = await part.createWritable({ keepExistingData: true });
            await writable.seek(received);
            committed = received;
          }
        },
        // Keep what arrived for the next try (or the resume); a cancelled task's bytes are thrown away anyway.
        end: async (ok) => {
          const w = writable as WritableLike | null;
          writable = null;
          if (w) await (!ok && transfer.cancelled ? w.abort() : w.close());
        },
        retryDelaysMs: this.options.retryDelaysMs ?? RETRY_DELAYS_MS,
        resetRetriesOnProgress: true,
        stallMs: this.options.stallMs ?? STALL_MS,
        signal,
      }));
    } catch (err) {
      if (signal.aborted) throw abortError();
      if (err instanceof DownloadInterrupted) throw new Error(err.stalled ? HTTP_TEXT.timeout : HTTP_TEXT.requestError);
      throw err;
    } finally {
      clearInterval(ticker);
    }
    if (received === 0) {
      await dir.removeEntry(name + PART_SUFFIX).catch(() => undefined);
      throw new EmptyDownloadError(HTTP_TEXT.emptyDownload);
    }
    await this.promote(dir, part, name);
    this.progress.emit(task.key, { receivedSize: received, totalSize: total ?? received, speed: 0 });
    return { receivedSize: received, totalSize: total ?? received };
  }

  /** `<name>.part` becomes `<name>`, replacing an earlier download of the same file. */
  private async promote(dir: DirHandleLike, part: FileHandleLike, name: string) {
    await dir.removeEntry(name).catch(() => undefined);
    if (typeof part.move === 'function') {
      try {
        await part.move(name);
        return;
      } catch {
        // moving is not supported for this folder: copy instead
      }
    }
    const target = await dir.getFileHandle(name, { create: true });
    const writable = await target.createWritable({ keepExistingData: false });
    try {
      await writable.write(await part.getFile());
      await writable.close();
    } catch (err) {
      await writable.abort().catch(() => undefined);
      throw err;
    }
    await dir.removeEntry(name + PART_SUFFIX);
  }
}
