// @vitest-environment happy-dom
import { createTask, type ProgressReport } from '@contest/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrowserShell, PART_SUFFIX, type DirHandleLike, type FileHandleLike, type FolderStore, type WritableLike } from './shells/browserShell.ts';
import { EmptyDownloadError } from './shells/types.ts';

const FILE = new TextEncoder().encode('0123456789abcdefghijklmnopqrstuvwxyz'); // 36 bytes
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const notFound = () => new DOMException('not found', 'NotFoundError');

/**
 * An in-memory folder behaving like the File System Access API: a writable works on a copy (empty unless
 * keepExistingData) that replaces the file only when it is closed; an aborted one leaves the file as it was.
 */
class FakeFile implements FileHandleLike {
  readonly kind = 'file' as const;
  bytes = new Uint8Array(0);
  writers = 0;
  constructor(readonly name: string) {}
  async getFile() {
    return new Blob([this.bytes.slice()]);
  }
  async createWritable(options: { keepExistingData?: boolean } = {}): Promise<WritableLike> {
    let swap = options.keepExistingData ? this.bytes.slice() : new Uint8Array(0);
    let position = 0;
    this.writers++;
    return {
      write: async (data) => {
        const chunk = data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : new Uint8Array(data as Uint8Array);
        if (position + chunk.length > swap.length) {
          const grown = new Uint8Array(position + chunk.length);
          grown.set(swap);
          swap = grown;
        }
        swap.set(chunk, position);
        position += chunk.length;
      },
      seek: async (p) => void (position = p),
      close: async () => {
        this.bytes = swap;
        this.writers--;
      },
      abort: async () => void this.writers--,
    };
  }
}

class FakeDir implements DirHandleLike {
  readonly kind = 'directory' as const;
  readonly dirs = new Map<string, FakeDir>();
  readonly files = new Map<string, FakeFile>();
  permission: 'granted' | 'prompt' = 'granted';
  constructor(readonly name: string) {}
  async getDirectoryHandle(name: string, options: { create?: boolean } = {}) {
    let dir = this.dirs.get(name);
    if (!dir && !options.create) throw notFound();
    if (!dir) this.dirs.set(name, (dir = new FakeDir(name)));
    return dir;
  }
  async getFileHandle(name: string, options: { create?: boolean } = {}) {
    let file = this.files.get(name);
    if (!file && !options.create) throw notFound();
    if (!file) this.files.set(name, (file = new FakeFile(name)));
    return file;
  }
  async removeEntry(name: string) {
    if (!this.files.delete(name) && !this.dirs.delete(name)) throw notFound();
  }
  async queryPermission() {
    return this.permission;
  }
  async requestPermission() {
    return (this.permission = 'granted' as const);
  }
  /** The file at `a/b/c`, or undefined. */
  at(path: string): FakeFile | undefined {
    const parts = path.split('/');
    let dir: FakeDir | undefined = this;
    for (const p of parts.slice(0, -1)) dir = dir?.dirs.get(p);
    return dir?.files.get(parts.at(-1)!);
  }
}

/** A body sending `chunks`, then ending, failing like a dropped connection, or never ending. */
function body(chunks: Uint8Array[], end: 'close' | 'break' | 'hang' = 'close') {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) return controller.enqueue(chunks[i++]!);
      if (end === 'close') return controller.close();
      if (end === 'break') return controller.error(new TypeError('network error'));
      return new Promise(() => undefined);
    },
  });
}
const whole = (chunks = [FILE.slice(0, 10), FILE.slice(10)], end: 'close' | 'break' | 'hang' = 'close') =>
  new Response(body(chunks, end), { status: 200, headers: { 'content-type': 'application/zip', 'content-length': String(FILE.length) } });
const part = (from: number, chunks = [FILE.slice(from)], end: 'close' | 'break' | 'hang' = 'close') =>
  new Response(body(chunks, end), {
    status: 206,
    headers: {
      'content-type': 'application/zip',
      'content-range': `bytes ${from}-${FILE.length - 1}/${FILE.length}`,
      'content-length': String(FILE.length - from),
    },
  });

/** A fetch answering from a script, recording the Range of each request. */
function scripted(...answers: ((signal: AbortSignal) => Response)[]) {
  const ranges: (string | null)[] = [];
  const urls: string[] = [];
  const fake = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(url));
    ranges.push((init?.headers as Record<string, string>)?.Range ?? null);
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    const res = next(init!.signal!);
    // A request that is aborted ends its body, as in a browser.
    init?.signal?.addEventListener('abort', () => void res.body?.cancel().catch(() => undefined));
    return res;
  });
  return { fetch: fake as unknown as typeof fetch, ranges, urls };
}

const folderOf = (root: FakeDir): FolderStore => ({ load: async () => root, save: async () => undefined });
const task = createTask(
  { dir: 'A题 客户流失预测,001-数据先锋队', fileName: '作品.zip', downloadPath: '/api/file/common/download?fileUri=works/1' },
  { userId: 7, root: '' },
);

interface Run {
  shell: BrowserShell;
  progress: ProgressReport[];
  done: Promise<{ receivedSize: number; totalSize: number }>;
  failed: Promise<Error>;
}
let shells: BrowserShell[] = [];
afterEach(() => {
  shells.forEach((s) => s.close());
  shells = [];
});

async function shellFor(root: FakeDir, fetch: typeof globalThis.fetch): Promise<Run> {
  const shell = new BrowserShell({ folders: folderOf(root), fetch, progressMs: 10, retryDelaysMs: [0, 0], checkpointBytes: 8 });
  shells.push(shell);
  await shell.whenLoaded();
  const progress: ProgressReport[] = [];
  shell.onProgress((key, report) => key === task.key && progress.push(report));
  const done = new Promise<{ receivedSize: number; totalSize: number }>((resolve) => shell.onComplete((key, r) => key === task.key && resolve(r)));
  const failed = new Promise<Error>((resolve) => shell.onError((key, e) => key === task.key && resolve(e)));
  return { shell, progress, done, failed };
}

const PART_PATH = `A题 客户流失预测/001-数据先锋队/作品.zip${PART_SUFFIX}`;
const FINAL_PATH = 'A题 客户流失预测/001-数据先锋队/作品.zip';

describe('the browser shell', () => {
  it('is ready once a folder with write access is there, and asks again when access is gone', async () => {
    const root = new FakeDir('下载');
    root.permission = 'prompt';
    const { shell } = await shellFor(root, scripted().fetch);
    expect(shell.status()).toMatchObject({ ready: false, rootLabel: '下载', action: '授权访问' });
    expect(await shell.prepare()).toBe(true);
    expect(shell.status()).toEqual({ ready: true, rootLabel: '下载', problem: null, action: null });

    const none = new BrowserShell({ folders: { load: async () => null, save: async () => undefined }, pick: async () => root });
    shells.push(none);
    await none.whenLoaded();
    expect(none.status()).toMatchObject({ ready: false, rootLabel: null, action: '选择文件夹' });
    expect(await none.prepare()).toBe(true);
    expect(none.status().rootLabel).toBe('下载');
  });

  it("resumes from the bytes a .part already holds with a Range request, in the task's folders", async () => {
    const root = new FakeDir('下载');
    const existing = await (
      await (await root.getDirectoryHandle('A题 客户流失预测', { create: true })).getDirectoryHandle('001-数据先锋队', { create: true })
    ).getFileHandle(`作品.zip${PART_SUFFIX}`, { create: true });
    (existing as FakeFile).bytes = FILE.slice(0, 10);
    const server = scripted(() => part(10, [FILE.slice(10, 20), FILE.slice(20)]));
    const { shell, done, progress } = await shellFor(root, server.fetch);
    shell.start(task);
    expect(await done).toEqual({ receivedSize: 36, totalSize: 36 });
    expect(server.ranges).toEqual(['bytes=10-']);
    expect(server.urls).toEqual(['/api/file/common/download?fileUri=works/1']);
    expect(text(root.at(FINAL_PATH)!.bytes)).toBe(text(FILE));
    expect(root.at(PART_PATH)).toBeUndefined();
    expect(progress.at(-1)).toEqual({ receivedSize: 36, totalSize: 36, speed: 0 });
  });

  it('goes on from what it has when the connection breaks, and after a pause', async () => {
    const root = new FakeDir('下载');
    let hung!: () => void;
    const server = scripted(
      () => whole([FILE.slice(0, 12)], 'break'),
      () => part(12, [FILE.slice(12, 20)], 'hang'),
      () => part(20),
    );
    const { shell, done } = await shellFor(root, server.fetch);
    const paused = new Promise<void>((resolve) => (hung = resolve));
    shell.onProgress((_key, r) => r.receivedSize === 20 && hung());
    shell.start(task);
    await paused;
    shell.pause(task.key);
    await shell.settled(task.key);
    // What arrived before the pause is on disk.
    expect(text(root.at(PART_PATH)!.bytes)).toBe(text(FILE.slice(0, 20)));
    expect(root.at(PART_PATH)!.writers).toBe(0);
    shell.resume(task);
    await done;
    expect(server.ranges).toEqual([null, 'bytes=12-', 'bytes=20-']);
    expect(text(root.at(FINAL_PATH)!.bytes)).toBe(text(FILE));
  });

  it('resumes at once after a pause, while the paused transfer is still closing its file', async () => {
    const root = new FakeDir('下载');
    const server = scripted(
      () => whole([FILE.slice(0, 16)], 'hang'),
      () => part(16),
    );
    const { shell, done } = await shellFor(root, server.fetch);
    const at16 = new Promise<void>((resolve) => shell.onProgress((_k, r) => r.receivedSize === 16 && resolve()));
    shell.start(task);
    await at16;
    shell.pause(task.key);
    shell.resume(task);
    await done;
    expect(server.ranges).toEqual([null, 'bytes=16-']);
    expect(text(root.at(FINAL_PATH)!.bytes)).toBe(text(FILE));
  });

  it('commits what it has written now and then, so a closed tab loses little', async () => {
    const root = new FakeDir('下载');
    const { shell } = await shellFor(root, scripted(() => whole([FILE.slice(0, 10), FILE.slice(10, 20)], 'hang')).fetch);
    const at20 = new Promise<void>((resolve) => shell.onProgress((_k, r) => r.receivedSize === 20 && resolve()));
    shell.start(task);
    await at20;
    // Checkpoints (here every 8 bytes at least, then doubling) close the writable: the bytes are in the .part.
    expect(text(root.at(PART_PATH)!.bytes)).toBe(text(FILE.slice(0, 20)));
    expect(root.at(PART_PATH)!.writers).toBe(1);
  });

  it('starts over, leaving no old tail, when the server ignores the range', async () => {
    const root = new FakeDir('下载');
    const stale = (await root.getDirectoryHandle('A题 客户流失预测', { create: true })).getDirectoryHandle('001-数据先锋队', { create: true });
    ((await (await stale).getFileHandle(`作品.zip${PART_SUFFIX}`, { create: true })) as FakeFile).bytes = new TextEncoder().encode('X'.repeat(50));
    const server = scripted(() => whole());
    const { shell, done } = await shellFor(root, server.fetch);
    shell.start(task);
    await done;
    expect(server.ranges).toEqual(['bytes=50-']);
    expect(text(root.at(FINAL_PATH)!.bytes)).toBe(text(FILE));
  });

  it('completes without downloading again when the .part already holds the whole file (416)', async () => {
    const root = new FakeDir('下载');
    const dir = await (await root.getDirectoryHandle('A题 客户流失预测', { create: true })).getDirectoryHandle('001-数据先锋队', { create: true });
    ((await dir.getFileHandle(`作品.zip${PART_SUFFIX}`, { create: true })) as FakeFile).bytes = FILE.slice();
    const server = scripted(
      () =>
        new Response('{"status":416,"message":"请求的文件范围无效","data":null}', {
          status: 416,
          headers: { 'content-type': 'application/json', 'content-range': `bytes */${FILE.length}` },
        }),
    );
    const { shell, done } = await shellFor(root, server.fetch);
    shell.start(task);
    expect(await done).toEqual({ receivedSize: 36, totalSize: 36 });
    expect(text(root.at(FINAL_PATH)!.bytes)).toBe(text(FILE));
  });

  it('reports progress as bytes per half second', async () => {
    const root = new FakeDir('下载');
    const { shell, progress, done } = await shellFor(root, scripted(() => whole()).fetch);
    shell.start(task);
    await done;
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) expect(p.speed).toBeGreaterThanOrEqual(0);
    expect(progress.at(-1)!.receivedSize).toBe(36);
  });

  it('deletes the .part when a task is cancelled, running or not', async () => {
    const root = new FakeDir('下载');
    const { shell } = await shellFor(root, scripted(() => whole([FILE.slice(0, 10)], 'hang')).fetch);
    const started = new Promise<void>((resolve) => shell.onProgress((_k, r) => r.receivedSize === 10 && resolve()));
    shell.start(task);
    await started;
    shell.cancel(task.key);
    await shell.settled(task.key);
    await vi.waitFor(() => expect(root.at(PART_PATH)).toBeUndefined());

    (
      (await (
        await (await root.getDirectoryHandle('A题 客户流失预测')).getDirectoryHandle('001-数据先锋队')
      ).getFileHandle(`作品.zip${PART_SUFFIX}`, { create: true })) as FakeFile
    ).bytes = FILE.slice(0, 5);
    shell.cancel(task.key, task);
    await vi.waitFor(() => expect(root.at(PART_PATH)).toBeUndefined());
  });

  it('reports an empty file as 无可下载文件 and leaves nothing behind', async () => {
    const root = new FakeDir('下载');
    const { shell, failed } = await shellFor(root, scripted(() => new Response(new Uint8Array(0), { status: 200, headers: { 'content-length': '0' } })).fetch);
    shell.start(task);
    const err = await failed;
    expect(err).toBeInstanceOf(EmptyDownloadError);
    expect(err.message).toBe('无可下载文件');
    expect(root.at(PART_PATH)).toBeUndefined();
    expect(root.at(FINAL_PATH)).toBeUndefined();
  });

  it("tells the server's error and keeps the bytes for a later resume", async () => {
    const root = new FakeDir('下载');
    const server = scripted(
      () => new Response('{"status":403,"message":"无权下载该文件","data":null}', { status: 403, headers: { 'content-type': 'application/json' } }),
    );
    const { shell, failed } = await shellFor(root, server.fetch);
    shell.start(task);
    expect((await failed).message).toBe('无权下载该文件');
  });
});
