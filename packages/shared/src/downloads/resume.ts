/**
 * The one HTTP Range resume loop (issue 18.6), run by the browser shell (into a `.part` in the chosen folder), the
 * desktop client's engine (into a `.part` on disk) and the page's plain file downloads (into memory). The caller gives
 * a fetch-like function and a sink; the loop asks for the rest with `Range: bytes=N-`, decides what each reply means,
 * streams the body to the sink and tries again after a broken or stalled connection.
 *
 * Runtime-neutral: the shared package is compiled without DOM or Node types, so the few globals the loop needs (both
 * runtimes have them) are declared here, and a reply only needs the parts of `Response` the loop reads.
 */

interface SignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
declare const AbortController: new () => { readonly signal: SignalLike; abort(): void };
declare const DOMException: new (message: string, name: string) => Error;
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

export interface ReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}

/** The parts of a fetch `Response` the loop reads. */
export interface ReplyLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: { getReader(): ReaderLike } | null;
  arrayBuffer?(): Promise<ArrayBuffer>;
}

export type FetchLike<R extends ReplyLike = ReplyLike> = (url: string, init: { headers: Record<string, string>; signal: SignalLike }) => Promise<R>;

/** One request of a download, for logs and tests: where it asked from, what came back, how many body bytes. */
export interface ResumeAttempt {
  from: number;
  status: number;
  bytes: number;
  outcome: 'done' | 'aborted' | 'error' | 'restart';
}

/**
 * A try that may work later: a broken or stalled connection, or what the caller's `check` says is passing (a gateway
 * error). The loop tries again after the next delay; when none is left it throws the last one.
 */
export class DownloadInterrupted extends Error {
  override name = 'DownloadInterrupted';
  constructor(
    message = '网络连接中断',
    readonly stalled = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The whole body of a reply arrived, yet the bytes held differ from the file size the server announced. */
export class DownloadSizeError extends Error {
  override name = 'DownloadSizeError';
  constructor(
    readonly received: number,
    readonly total: number,
  ) {
    super(`文件大小不符：收到${received}字节，应为${total}字节`);
  }
}

export interface ResumeOptions<R extends ReplyLike> {
  fetch: FetchLike<R>;
  url: string;
  /** Bytes already held from an earlier try (a `.part` file): the first request asks for the rest. */
  offset: number;
  /** Request headers, asked for before each request; the loop adds `Range`. */
  headers?: () => Record<string, string>;
  /**
   * Any reply but a 206 that continues what is held, or a 416 to a resumed request. Return to take it as the whole
   * file (a 200); throw DownloadInterrupted to try again later; throw anything else to stop with that error.
   */
  check(reply: R): void | Promise<void>;
  /** A reply's bytes follow: they go at `start` (0: what was held is dropped, the server is sending the whole file). */
  begin(start: number, reply: R, total: number | null): void | Promise<void>;
  write(chunk: Uint8Array): void | Promise<void>;
  /** After each reply that began, whatever happened: `ok` when its body arrived whole (keep what arrived anyway). */
  end?(ok: boolean): void | Promise<void>;
  /** The waits before each new try; their number is the number of tries. */
  retryDelaysMs: readonly number[];
  /** Count the tries from the last time bytes arrived (a long download may break more than once). */
  resetRetriesOnProgress?: boolean;
  /** No byte (or no reply) for this long: the request is given up and tried again like a broken connection. */
  stallMs?: number;
  signal?: SignalLike;
  onAttempt?(attempt: ResumeAttempt): void;
}

export interface Resumed {
  /** Bytes held at the end: the file size. */
  received: number;
  /** The size the server announced, null if it never did. */
  total: number | null;
}

/** `Content-Range: bytes a-b/total` (total may be `*`). */
export function parseContentRange(header: string | null | undefined): { start: number; end: number; total: number | null } | null {
  const m = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(header?.trim() ?? '');
  if (!m) return null;
  return { start: Number(m[1]), end: Number(m[2]), total: m[3] === '*' ? null : Number(m[3]) };
}

/** The `Content-Length` of a reply, null when absent or not a plain number. */
export function contentLength(reply: ReplyLike): number | null {
  const v = reply.headers.get('content-length');
  return v !== null && /^\d+$/.test(v.trim()) ? Number(v) : null;
}

/** Lets go of a reply whose body is not wanted. */
const discard = (reply: ReplyLike) => {
  try {
    void reply.body
      ?.getReader()
      .cancel()
      .catch(() => undefined);
  } catch {
    // already read or locked
  }
};

const abortError = () => new DOMException('下载已停止', 'AbortError');

const sleep = (ms: number, signal?: SignalLike) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const done = () => {
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', stop);
  });

/** Ask again from byte 0: the server answered another part than the one asked for, or refused the range. */
class Restart extends Error {}

/**
 * Downloads `url` into the sink, resuming from `offset`:
 * - `206` whose `Content-Range` starts where the held bytes end (and whose total has not changed) appends;
 * - `416` to a resumed request completes when its `Content-Range: bytes *\/N` says the held bytes are the whole file,
 *   else it starts over, as does a `206` for another part: at once the first time, after the next delay later on;
 * - anything else goes to `check`: a `200` is the whole file (the held bytes are dropped);
 * - a broken or stalled connection, or a body shorter than its reply announced, is tried again after the next delay,
 *   asking for the rest; when the delays run out the last DownloadInterrupted is thrown;
 * - a whole body leaving the held bytes other than the announced total throws DownloadSizeError.
 * Aborting `signal` rejects with an `AbortError` at once.
 */
export async function resumeDownload<R extends ReplyLike>(o: ResumeOptions<R>): Promise<Resumed> {
  let received = Math.max(0, o.offset);
  let total: number | null = null;
  let failures = 0;
  let restarted = false;

  for (;;) {
    if (o.signal?.aborted) throw abortError();
    const from = received;
    const attempt = new AbortController();
    let reader: ReaderLike | undefined;
    const stop = () => {
      attempt.abort();
      // Aborting the request should end its body; cancelling the reader makes sure.
      void reader?.cancel().catch(() => undefined);
    };
    o.signal?.addEventListener('abort', stop);
    let timer: unknown;
    let stalled = false;
    // Only waiting for the network counts: a sink that takes its time (a checkpoint, a bandwidth cap) is no stall.
    const watch = () => {
      if (o.stallMs === undefined) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        stalled = true;
        stop();
      }, o.stallMs);
    };
    const unwatch = () => clearTimeout(timer);
    const broken = (cause?: unknown) => new DownloadInterrupted(stalled ? '下载超时：长时间没有收到数据' : '网络连接中断', stalled, { cause });
    let record: ResumeAttempt | null = null;
    let began = false;
    let gained = false;
    try {
      const headers = { ...o.headers?.() };
      if (from > 0) headers.Range = `bytes=${from}-`;
      watch();
      let reply: R;
      try {
        reply = await o.fetch(o.url, { headers, signal: attempt.signal });
      } catch (err) {
        throw broken(err);
      } finally {
        unwatch();
      }
      record = { from, status: reply.status, bytes: 0, outcome: 'error' };

      let expected: number | null;
      if (reply.status === 416 && from > 0) {
        discard(reply);
        const whole = /^bytes\s+\*\/(\d+)\s*$/i.exec(reply.headers.get('content-range') ?? '')?.[1];
        if (whole !== undefined && Number(whole) === from) {
          // The bytes held are the whole file (a stop between the last byte and the rename).
          record.outcome = 'done';
          return { received, total: from };
        }
        record.outcome = 'restart';
        throw new Restart('服务器不接受续传范围');
      }
      if (reply.status === 206) {
        const range = parseContentRange(reply.headers.get('content-range'));
        if (!range || range.start !== from || (total !== null && range.total !== null && range.total !== total)) {
          discard(reply);
          record.outcome = 'restart';
          throw new Restart(`服务器返回的范围与请求不符：${reply.headers.get('content-range') ?? '无'}`);
        }
        received = from;
        total = range.total;
        expected = range.end - range.start + 1;
      } else {
        try {
          await o.check(reply);
        } catch (err) {
          discard(reply);
          throw err;
        }
        // The whole file: a first answer, or a server that ignored the range.
        received = 0;
        total = contentLength(reply);
        expected = total;
      }

      began = true;
      await o.begin(received, reply, total);
      const take = async (chunk: Uint8Array) => {
        await o.write(chunk);
        received += chunk.byteLength;
        record!.bytes += chunk.byteLength;
        gained = true;
      };
      if (reply.body) {
        reader = reply.body.getReader();
        for (;;) {
          watch();
          let chunk: { done: boolean; value?: Uint8Array };
          try {
            chunk = await reader.read();
          } catch (err) {
            throw broken(err);
          } finally {
            unwatch();
          }
          if (attempt.signal.aborted) throw broken();
          if (chunk.done) break;
          if (chunk.value?.byteLength) await take(chunk.value);
        }
        reader = undefined;
      } else if (reply.arrayBuffer) {
        await take(new Uint8Array(await reply.arrayBuffer()));
      }
      if (expected !== null && record.bytes !== expected) {
        const more = record.bytes > expected;
        // More than announced: what is held cannot be trusted, so the next try asks for the whole file.
        if (more) received = 0;
        throw new DownloadInterrupted(`连接中断：收到${record.bytes}字节，应为${expected}字节`);
      }
      began = false;
      await o.end?.(true);
      record.outcome = 'done';
      if (total !== null && received !== total) throw new DownloadSizeError(received, total);
      return { received, total };
    } catch (err) {
      if (record && record.outcome !== 'done' && record.outcome !== 'restart') record.outcome = o.signal?.aborted ? 'aborted' : 'error';
      if (began) {
        began = false;
        await Promise.resolve(o.end?.(false)).catch(() => undefined);
      }
      if (o.signal?.aborted) throw abortError();
      let failure = err;
      if (err instanceof Restart) {
        received = 0;
        if (!restarted) {
          restarted = true;
          continue;
        }
        failure = new DownloadInterrupted(err.message);
      }
      if (!(failure instanceof DownloadInterrupted)) throw failure;
      if (gained && o.resetRetriesOnProgress) failures = 0;
      const delay = o.retryDelaysMs[failures++];
      if (delay === undefined) throw failure;
      // The attempt is told before the wait, so a log shows it when it happened.
      if (record) o.onAttempt?.(record);
      record = null;
      await sleep(delay, o.signal);
    } finally {
      unwatch();
      o.signal?.removeEventListener('abort', stop);
      if (reader) void reader.cancel().catch(() => undefined);
      if (record) o.onAttempt?.(record);
    }
  }
}
