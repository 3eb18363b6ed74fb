import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DownloadInterrupted,
  DownloadSizeError,
  resumeDownload,
  tasksToStart,
  type EngineFailureCode,
  type EngineTask,
  type EngineTaskState,
  type ReaderLike,
  type ReplyLike,
  type ResumeAttempt,
} from '@contest/shared/downloads/index';
import { DownloadRefusedError, PART_SUFFIX, assertOnDiskInside, resolveSavePath, taskKey } from './paths.ts';

export { DownloadRefusedError, PART_SUFFIX } from './paths.ts';

/**
 * States of a download task (@contest/shared's EngineTaskState): spec §4's three, plus `completed` (the task moved to
 * the downloaded list) and `failed` (stopped with an error; resume retries it).
 */
export type DownloadState = EngineTaskState;

/** A download task with the fields of spec §3, plus what the client adds (@contest/shared's EngineTask). */
export type DownloadTask = EngineTask;

/** Task input (spec §3): dir (comma-separated folder names), downloadPath, fileName; the rest optional. */
export interface DownloadInput {
  downloadPath: string;
  fileName: string;
  dir?: string;
  key?: string;
  userId?: string | number | null;
  /** Expected sha256 of the whole file, hex. */
  sha256?: string;
  /** Add the task paused instead of waiting (a page restoring its stored list). */
  paused?: boolean;
}

export interface ProgressEvent {
  key: string;
  receivedSize: number;
  totalSize: number;
  speed: number;
  state: DownloadState;
}

export type FailureCode = EngineFailureCode;

export interface FailureEvent {
  key: string;
  code: FailureCode;
  message: string;
  status?: number;
  task: DownloadTask;
}

/** One HTTP exchange of a task, for logs and tests: where it asked from, what came back, how many body bytes. */
export interface AttemptEvent extends ResumeAttempt {
  key: string;
  url: string;
}

export interface EngineEvents {
  progress: [ProgressEvent];
  completed: [DownloadTask];
  failed: [FailureEvent];
  cancelled: [{ key: string }];
  attempt: [AttemptEvent];
}

export interface EngineOptions {
  /** Download root: every file is saved below it. */
  root: string;
  /** Downloads running at once (default 3). */
  concurrency?: number;
  /** Bearer token sent as `Authorization: Bearer …` (spec §7), or a function giving the current one. */
  token?: string | null | (() => string | null | undefined);
  /** When set, only URLs on this origin are accepted (the token is never sent elsewhere). */
  origin?: string;
  /** Progress events interval (default 500 ms). */
  progressIntervalMs?: number;
  /** Retries after a network error or a 5xx/429 reply before the task fails (default 3). */
  retries?: number;
  /** First retry delay, doubled each time (default 1000 ms). */
  retryDelayMs?: number;
  /** A socket idle for this long is given up (default 30 s). */
  idleTimeoutMs?: number;
  /** Bandwidth cap per download in bytes per second; 0 or absent: none. */
  maxBytesPerSecond?: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
class IntegrityError extends Error {
  constructor(
    readonly code: 'SIZE_MISMATCH' | 'SHA256_MISMATCH',
    message: string,
  ) {
    super(message);
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The sha256 (hex) of the whole file a response announces: `x-sha256`, `Digest: sha-256=…` or `Repr-Digest`. */
export function announcedSha256(headers: { get(name: string): string | null }): string | undefined {
  const x = headers.get('x-sha256');
  if (x !== null && SHA256_HEX.test(x.trim().toLowerCase())) return x.trim().toLowerCase();
  for (const name of ['repr-digest', 'digest']) {
    const value = headers.get(name);
    if (value === null) continue;
    for (const item of value.split(',')) {
      const m = /^\s*sha-256\s*=\s*:?([A-Za-z0-9+/=]+):?\s*$/i.exec(item);
      if (!m) continue;
      const bytes = Buffer.from(m[1]!, 'base64');
      if (bytes.length === 32) return bytes.toString('hex');
    }
  }
  return undefined;
}

async function fileSize(p: string): Promise<number> {
  try {
    const st = await fsp.lstat(p);
    return st.isFile() ? st.size : 0;
  } catch {
    return 0;
  }
}

async function sha256OfFile(p: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(p)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function readMessage(reply: ReplyLike): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = reply.body?.getReader();
  try {
    while (reader && size <= 64 * 1024) {
      const { done, value } = await reader.read();
      if (done || !value) break;
      chunks.push(Buffer.from(value));
      size += value.byteLength;
    }
  } catch {
    // The message is only decoration.
  } finally {
    void reader?.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const json = JSON.parse(text) as { message?: unknown };
    if (typeof json.message === 'string') return json.message;
  } catch {
    // not JSON
  }
  return text.slice(0, 200) || `HTTP ${reply.status}`;
}

/** A Node reply in the shape the shared resume loop reads (`Response`'s status, headers and body reader). */
interface NodeReply extends ReplyLike {
  /** Why a redirect was not followed. */
  refused?: string;
}

function nodeReply(res: http.IncomingMessage, refused?: string): NodeReply {
  const iterator = (res as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const reader: ReaderLike = {
    read: async () => {
      const next = await iterator.next();
      return next.done ? { done: true } : { done: false, value: next.value };
    },
    cancel: async () => void res.destroy(),
  };
  return {
    status: res.statusCode ?? 0,
    headers: {
      get: (name) => {
        const v = res.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
      },
    },
    body: { getReader: () => reader },
    ...(refused ? { refused } : {}),
  };
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The download engine: a queue running a few downloads at once, each streamed into `<savePath>.part`, resumed
 * with `Range` from what that file already holds (after a pause, a crash or a restart), checked for size and
 * sha256, then renamed into place.
 */
export class DownloadEngine extends EventEmitter<EngineEvents> {
  private readonly tasks = new Map<string, DownloadTask>();
  private readonly running = new Map<string, Running>();
  private readonly headerSha = new Map<string, string>();
  private readonly lastSample = new Map<string, { at: number; size: number }>();
  /** The root each task was accepted under (a root change applies to new tasks only). */
  private readonly roots = new Map<string, string>();
  private root: string;
  private concurrency: number;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: EngineOptions) {
    super();
    this.root = options.root;
    this.concurrency = Math.max(1, options.concurrency ?? 3);
  }

  getRoot(): string {
    return this.root;
  }

  /** New tasks are saved under the new root; tasks already queued keep their save path. */
  setRoot(root: string): void {
    this.root = root;
  }

  setConcurrency(n: number): void {
    this.concurrency = Math.max(1, Math.floor(n));
    this.pump();
  }

  setToken(token: string | null): void {
    this.options.token = token;
  }

  list(userId?: string | number | null): DownloadTask[] {
    return [...this.tasks.values()].filter((t) => userId === undefined || String(t.userId) === String(userId)).map((t) => ({ ...t }));
  }

  get(key: string): DownloadTask | undefined {
    const t = this.tasks.get(key);
    return t && { ...t };
  }

  /** Checks a task input without adding it: throws DownloadRefusedError when it would be refused. */
  async check(input: DownloadInput): Promise<{ savePath: string; key: string; url: string }> {
    if (!input || typeof input !== 'object') throw new DownloadRefusedError('任务格式不正确', 'BAD_INPUT');
    const url = this.checkUrl(input.downloadPath);
    const savePath = resolveSavePath(this.root, input.dir, input.fileName);
    await assertOnDiskInside(this.root, savePath, false);
    if (input.key !== undefined && (typeof input.key !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(input.key))) {
      throw new DownloadRefusedError('任务标识格式不正确', 'BAD_INPUT');
    }
    if (input.sha256 !== undefined && (typeof input.sha256 !== 'string' || !SHA256_HEX.test(input.sha256.toLowerCase()))) {
      throw new DownloadRefusedError('sha256须为64位十六进制', 'BAD_INPUT');
    }
    const key = input.key ?? taskKey(savePath);
    for (const other of this.tasks.values()) {
      if (other.key !== key && other.savePath === savePath && other.state !== 'completed' && other.state !== 'failed') {
        throw new DownloadRefusedError(`该文件已在下载中：${savePath}`, 'DUPLICATE');
      }
    }
    return { savePath, key, url };
  }

  private checkUrl(downloadPath: unknown): string {
    if (typeof downloadPath !== 'string' || downloadPath.length > 8192) throw new DownloadRefusedError('下载地址不正确', 'BAD_INPUT');
    let url: URL;
    try {
      url = new URL(downloadPath);
    } catch {
      throw new DownloadRefusedError(`下载地址不正确：${downloadPath}`, 'BAD_INPUT');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DownloadRefusedError(`只能下载http或https地址：${downloadPath}`, 'FOREIGN_URL');
    if (url.username || url.password) throw new DownloadRefusedError('下载地址不能包含用户名或密码', 'FOREIGN_URL');
    if (this.options.origin && url.origin !== new URL(this.options.origin).origin) {
      throw new DownloadRefusedError(`只能从平台下载文件：${url.origin}`, 'FOREIGN_URL');
    }
    return url.toString();
  }

  /**
   * Adds a task (waiting, or paused when asked). Adding the key of a task that is still queued returns it unchanged;
   * a completed or failed one is replaced. What a `.part` file already holds counts as received.
   */
  async add(input: DownloadInput): Promise<DownloadTask> {
    const { savePath, key, url } = await this.check(input);
    const existing = this.tasks.get(key);
    if (existing && existing.state !== 'completed' && existing.state !== 'failed') return { ...existing };
    const task: DownloadTask = {
      key,
      userId: input.userId ?? null,
      fileName: input.fileName,
      downloadPath: url,
      savePath,
      state: input.paused ? 'paused' : 'waiting',
      receivedSize: await fileSize(savePath + PART_SUFFIX),
      totalSize: 0,
      speed: 0,
      date: null,
      ...(input.sha256 ? { sha256: input.sha256.toLowerCase() } : {}),
    };
    this.tasks.set(key, task);
    this.roots.set(key, this.root);
    this.emitProgress(task);
    this.pump();
    return { ...task };
  }

  async pause(key: string): Promise<void> {
    const task = this.tasks.get(key);
    if (!task || (task.state !== 'waiting' && task.state !== 'progressing')) return;
    task.state = 'paused';
    task.speed = 0;
    await this.stop(key);
    this.emitProgress(task);
  }

  resume(key: string): void {
    const task = this.tasks.get(key);
    if (!task || (task.state !== 'paused' && task.state !== 'failed')) return;
    task.state = 'waiting';
    delete task.error;
    delete task.errorCode;
    this.emitProgress(task);
    this.pump();
  }

  /** Stops the task and deletes its `.part`; a completed task just leaves the list (its file stays). */
  async cancel(key: string): Promise<void> {
    const task = this.tasks.get(key);
    if (!task) return;
    this.tasks.delete(key);
    await this.stop(key);
    if (task.state !== 'completed') await fsp.rm(task.savePath + PART_SUFFIX, { force: true });
    this.headerSha.delete(key);
    this.roots.delete(key);
    this.emit('cancelled', { key });
    this.pump();
  }

  private select(userId?: string | number | null) {
    return [...this.tasks.values()].filter((t) => userId === undefined || String(t.userId) === String(userId));
  }

  async pauseAll(userId?: string | number | null): Promise<void> {
    await Promise.all(this.select(userId).map((t) => this.pause(t.key)));
  }

  resumeAll(userId?: string | number | null): void {
    for (const t of this.select(userId)) this.resume(t.key);
  }

  async cancelAll(userId?: string | number | null): Promise<void> {
    await Promise.all(this.select(userId).map((t) => this.cancel(t.key)));
  }

  /** Stops every download (their `.part` files stay, so a later run resumes them) and the progress timer. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.running.keys()].map((k) => this.stop(k)));
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Waits until the task is completed or failed (or gone); resolves with its final copy. */
  whenSettled(key: string): Promise<DownloadTask | undefined> {
    return new Promise((resolve) => {
      const check = () => {
        const t = this.tasks.get(key);
        if (!t || t.state === 'completed' || t.state === 'failed') {
          this.off('progress', onProgress);
          this.off('cancelled', onProgress);
          resolve(t && { ...t });
          return true;
        }
        return false;
      };
      const onProgress = () => void check();
      if (!check()) {
        this.on('progress', onProgress);
        this.on('cancelled', onProgress);
      }
    });
  }

  private async stop(key: string): Promise<void> {
    const run = this.running.get(key);
    if (!run) return;
    run.controller.abort();
    await run.done;
  }

  /**
   * Spec §4's queue through the web's own scheduler (@contest/shared tasksToStart), in the order added. A task whose
   * download is still stopping (paused, or resumed meanwhile) holds its place, as if progressing.
   */
  private pump(): void {
    if (this.closed) return;
    const view = [...this.tasks.values()].map((task) => ({ task, state: this.running.has(task.key) ? 'progressing' : task.state }));
    for (const { task } of tasksToStart(view, this.concurrency)) this.start(task);
  }

  private start(task: DownloadTask): void {
    const controller = new AbortController();
    task.state = 'progressing';
    task.speed = 0;
    this.lastSample.set(task.key, { at: Date.now(), size: task.receivedSize });
    this.emitProgress(task);
    this.ensureTimer();
    const done = this.run(task, controller.signal)
      .catch(() => {})
      .finally(() => {
        this.running.delete(task.key);
        this.lastSample.delete(task.key);
        this.pump();
      });
    this.running.set(task.key, { controller, done });
  }

  private ensureTimer(): void {
    if (this.timer) return;
    const interval = this.options.progressIntervalMs ?? 500;
    this.timer = setInterval(() => this.tick(), interval);
    this.timer.unref();
  }

  private tick(): void {
    const now = Date.now();
    let any = false;
    for (const task of this.tasks.values()) {
      if (task.state !== 'progressing') continue;
      any = true;
      const last = this.lastSample.get(task.key);
      if (last) {
        const seconds = (now - last.at) / 1000;
        // Spec §9: the page shows twice the reported value per second, so the report is bytes per half second.
        task.speed = seconds > 0 ? Math.max(0, Math.round((task.receivedSize - last.size) / seconds / 2)) : 0;
      }
      this.lastSample.set(task.key, { at: now, size: task.receivedSize });
      this.emitProgress(task);
    }
    if (!any && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private emitProgress(task: DownloadTask): void {
    this.emit('progress', { key: task.key, receivedSize: task.receivedSize, totalSize: task.totalSize, speed: task.speed, state: task.state });
  }

  private isCurrent(task: DownloadTask): boolean {
    return this.tasks.get(task.key) === task;
  }

  private async run(task: DownloadTask, signal: AbortSignal): Promise<void> {
    try {
      await this.transfer(task, signal);
      if (signal.aborted || !this.isCurrent(task)) return;
      task.state = 'completed';
      task.speed = 0;
      task.date = Date.now();
      this.headerSha.delete(task.key);
      this.emitProgress(task);
      this.emit('completed', { ...task });
    } catch (err) {
      if (signal.aborted || !this.isCurrent(task)) return;
      this.fail(task, err);
    }
  }

  private fail(task: DownloadTask, err: unknown): void {
    let code: FailureCode = 'NETWORK';
    let status: number | undefined;
    // A 5xx or 429 the retries did not get past fails as that HTTP error.
    if (err instanceof DownloadInterrupted && err.cause instanceof HttpError) err = err.cause;
    if (err instanceof HttpError) {
      code = 'HTTP';
      status = err.status;
    } else if (err instanceof IntegrityError) code = err.code;
    else if (err instanceof DownloadRefusedError) code = 'UNSAFE_PATH';
    else if ((err as NodeJS.ErrnoException)?.syscall && !['read', 'connect', 'getaddrinfo'].includes((err as NodeJS.ErrnoException).syscall!)) code = 'IO';
    const message = err instanceof Error ? err.message : String(err);
    task.state = 'failed';
    task.speed = 0;
    task.error = message;
    task.errorCode = code;
    this.emitProgress(task);
    this.emit('failed', { key: task.key, code, message, ...(status ? { status } : {}), task: { ...task } });
  }

  private token(): string | null | undefined {
    const t = this.options.token;
    return typeof t === 'function' ? t() : t;
  }

  /**
   * The fetch the shared resume loop calls: a GET with the bearer token (only ever to the task's origin, also after a
   * redirect) through Node's http, following up to 5 redirects.
   */
  private async request(urlText: string, init: { headers: Record<string, string>; signal: unknown }): Promise<NodeReply> {
    let url = new URL(urlText);
    const origin = url.origin;
    const signal = init.signal as AbortSignal;
    for (let hops = 0; ; hops++) {
      const headers: Record<string, string> = { ...init.headers };
      const token = this.token();
      if (token && url.origin === origin) headers.authorization = `Bearer ${token}`;
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const lib = url.protocol === 'https:' ? https : http;
        const req = lib.request(url, { method: 'GET', headers, signal }, resolve);
        req.setTimeout(this.options.idleTimeoutMs ?? 30_000, () => req.destroy(new Error('连接超时')));
        req.on('error', reject);
        req.end();
      });
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && res.headers.location && hops < 5) {
        const next = new URL(res.headers.location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') return nodeReply(res, '下载地址重定向到不支持的协议');
        res.resume();
        url = next;
        continue;
      }
      return nodeReply(res);
    }
  }

  private async transfer(task: DownloadTask, signal: AbortSignal): Promise<void> {
    const part = task.savePath + PART_SUFFIX;
    const root = this.roots.get(task.key) ?? this.root;
    await assertOnDiskInside(root, task.savePath, true);
    const retries = this.options.retries ?? 3;
    const baseDelay = this.options.retryDelayMs ?? 1000;
    const rate = this.options.maxBytesPerSecond ?? 0;
    let fh: fsp.FileHandle | null = null;
    let position = 0;
    let began = 0;
    let bytes = 0;

    try {
      const result = await resumeDownload({
        fetch: (url, init) => this.request(url, init),
        url: task.downloadPath,
        offset: await fileSize(part),
        headers: () => ({ 'accept-encoding': 'identity', 'x-requested-with': 'XMLHttpRequest' }),
        check: async (reply) => {
          if (reply.status === 200) return;
          const message = reply.refused ?? `下载失败（HTTP ${reply.status}）：${await readMessage(reply)}`;
          const err = new HttpError(reply.status, message);
          // Network errors, 5xx and 429 are worth another try; other replies fail the task with the server's message.
          if (!reply.refused && (reply.status >= 500 || reply.status === 429)) throw new DownloadInterrupted(message, false, { cause: err });
          throw err;
        },
        begin: async (start, reply, total) => {
          const announced = announcedSha256(reply.headers);
          if (announced) this.headerSha.set(task.key, announced);
          else if (start === 0) this.headerSha.delete(task.key);
          // Everything received is written before the next chunk is read, so a pause or a kill loses nothing.
          const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | NOFOLLOW | (start === 0 ? fs.constants.O_TRUNC : 0);
          fh = await fsp.open(part, flags, 0o644);
          position = start;
          task.receivedSize = start;
          task.totalSize = total ?? 0;
          began = Date.now();
          bytes = 0;
        },
        write: async (chunk) => {
          let offset = 0;
          while (offset < chunk.length) {
            const { bytesWritten } = await fh!.write(chunk, offset, chunk.length - offset, position);
            offset += bytesWritten;
            position += bytesWritten;
          }
          bytes += chunk.length;
          task.receivedSize = position;
          if (rate > 0) {
            const ahead = (bytes / rate) * 1000 - (Date.now() - began);
            if (ahead > 0) await sleep(ahead, undefined, { signal });
          }
        },
        end: async (ok) => {
          const handle = fh as fsp.FileHandle | null;
          fh = null;
          if (!handle) return;
          try {
            if (ok) await handle.sync();
          } finally {
            await handle.close();
          }
        },
        retryDelaysMs: Array.from({ length: retries }, (_, i) => baseDelay * 2 ** i),
        stallMs: this.options.idleTimeoutMs ?? 30_000,
        signal,
        onAttempt: (a) => this.emit('attempt', { key: task.key, url: task.downloadPath, ...a }),
      });
      // A .part that already held the whole file (416) began no reply.
      if (result.total !== null) task.totalSize = result.total;
    } catch (err) {
      if (err instanceof DownloadSizeError) {
        await fsp.rm(part, { force: true });
        throw new IntegrityError('SIZE_MISMATCH', err.message);
      }
      throw err;
    }

    const size = await fileSize(part);
    if (task.totalSize > 0 && size !== task.totalSize) {
      await fsp.rm(part, { force: true });
      throw new IntegrityError('SIZE_MISMATCH', `文件大小不符：收到${size}字节，应为${task.totalSize}字节`);
    }
    task.receivedSize = size;
    const expected = [task.sha256, this.headerSha.get(task.key)].filter((s): s is string => Boolean(s));
    if (expected.length) {
      const actual = await sha256OfFile(part);
      if (expected.some((e) => e !== actual)) {
        await fsp.rm(part, { force: true });
        this.headerSha.delete(task.key);
        throw new IntegrityError('SHA256_MISMATCH', `文件校验失败：sha256为${actual}，应为${expected.find((e) => e !== actual)}`);
      }
    }
    if (signal.aborted) return;
    // The final name must still be ours to write: not a link planted while we were downloading.
    await assertOnDiskInside(root, task.savePath, false);
    await fsp.rename(part, task.savePath);
  }
}
