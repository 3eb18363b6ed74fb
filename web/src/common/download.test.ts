// @vitest-environment happy-dom
import { message } from 'antd';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PNG, createTestApp, loggedIn, multipart, registerUser, type TestApp } from '@contest/server/test/helpers.ts';
import { fetchResumable, fileNameFromDisposition, parseContentRange } from './download.ts';
import { HttpError } from './http.ts';

const errorToast = vi.spyOn(message, 'error');
const warningToast = vi.spyOn(message, 'warning');
beforeEach(() => {
  errorToast.mockClear();
  warningToast.mockClear();
});

const FILE = new TextEncoder().encode('0123456789abcdefghijklmnopqrstuvwxyz'); // 36 bytes

/** A body that sends `chunks` and then, if `breakAfter`, fails like a dropped connection (or never ends, if `hang`). */
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

function reply(status: number, headers: Record<string, string>, stream: ReadableStream<Uint8Array> | null): Response {
  return { status, ok: status >= 200 && status < 300, headers: new Headers(headers), body: stream, redirected: false, url: '' } as unknown as Response;
}
const jsonReply = (status: number, payload: unknown) =>
  ({ ...reply(status, { 'content-type': 'application/json; charset=utf-8' }, null), json: async () => payload }) as unknown as Response;

const disposition = `attachment; filename="_____.zip"; filename*=UTF-8''${encodeURIComponent('作品A001.zip')}`;
const whole = (end: 'close' | 'break' | 'hang', upTo = FILE.length) =>
  reply(
    200,
    { 'content-type': 'application/zip', 'content-length': String(FILE.length), 'content-disposition': disposition },
    body([FILE.slice(0, 10), FILE.slice(10, upTo)], end),
  );
const part = (from: number, size = FILE.length) =>
  reply(
    206,
    {
      'content-type': 'application/zip',
      'content-range': `bytes ${from}-${size - 1}/${size}`,
      'content-length': String(size - from),
      'content-disposition': disposition,
    },
    body([FILE.slice(from)]),
  );

/** A fetch answering from a script, recording what was asked. */
function scripted(...answers: (() => Response | Promise<Response>)[]) {
  const calls: { url: string; init: RequestInit; headers: Record<string, string> }[] = [];
  const fake = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {}, headers: (init?.headers ?? {}) as Record<string, string> });
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    return next();
  });
  return { fetch: fake as unknown as typeof fetch, calls };
}

const text = async (blob: Blob) => new TextDecoder().decode(await blob.arrayBuffer());

describe('Content-Disposition and Content-Range', () => {
  it('prefers the UTF-8 name and falls back to the plain one', () => {
    expect(fileNameFromDisposition(`attachment; filename="__.png"; filename*=UTF-8''%E5%A4%B4%E5%83%8F.png`)).toBe('头像.png');
    expect(fileNameFromDisposition(`attachment; filename*=utf-8''a%20b.pdf`)).toBe('a b.pdf');
    expect(fileNameFromDisposition('attachment; filename="report 1.xlsx"')).toBe('report 1.xlsx');
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition(`attachment; filename="ok.zip"; filename*=UTF-8''%E5%ZZ`)).toBe('ok.zip');
    expect(fileNameFromDisposition(null)).toBe('download');
    expect(fileNameFromDisposition('inline', '证书.pdf')).toBe('证书.pdf');
  });

  it('reads where a part starts and the whole size', () => {
    expect(parseContentRange('bytes 10-35/36')).toEqual({ start: 10, total: 36 });
    expect(parseContentRange('bytes 0-9/*')).toEqual({ start: 0, total: null });
    expect(parseContentRange('bytes */36')).toBeNull();
    expect(parseContentRange(null)).toBeNull();
  });
});

describe('resumable download', () => {
  it('resumes a broken download from the bytes it has, with Range, reporting progress', async () => {
    const { fetch, calls } = scripted(
      () => whole('break', 20),
      () => part(20),
    );
    const progress: [number, number | null][] = [];
    const file = await fetchResumable('/api/review/center/works/7/download', { fetch, retryDelaysMs: [0, 0], onProgress: (r, t) => progress.push([r, t]) });
    expect(file!.fileName).toBe('作品A001.zip');
    expect(file!.blob.type).toBe('application/zip');
    expect(await text(file!.blob)).toBe(new TextDecoder().decode(FILE));
    expect(calls).toHaveLength(2);
    expect(calls[0]!.url).toBe('/api/review/center/works/7/download');
    expect(calls[0]!.headers.Range).toBeUndefined();
    expect(calls[1]!.headers.Range).toBe('bytes=20-');
    for (const c of calls) {
      expect(c.headers['X-Requested-With']).toBe('XMLHttpRequest');
      expect(c.init.credentials).toBe('include');
    }
    expect(progress).toContainEqual([20, 36]);
    expect(progress.at(-1)).toEqual([36, 36]);
    expect(errorToast).not.toHaveBeenCalled();
  });

  it('retries a request that fails before any reply, and a gateway error', async () => {
    const { fetch, calls } = scripted(
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => reply(503, { 'content-type': 'text/html' }, body([])),
      () => whole('close'),
    );
    const file = await fetchResumable('/f', { fetch, retryDelaysMs: [0, 0, 0] });
    expect(await text(file!.blob)).toBe(new TextDecoder().decode(FILE));
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.headers.Range === undefined)).toBe(true);
  });

  it('starts over when the server ignores the range, or answers another part', async () => {
    const { fetch, calls } = scripted(
      () => whole('break', 20),
      () => part(5),
      () => whole('close'),
    );
    const file = await fetchResumable('/f', { fetch, retryDelaysMs: [0, 0, 0] });
    expect(await text(file!.blob)).toBe(new TextDecoder().decode(FILE));
    expect(calls.map((c) => c.headers.Range)).toEqual([undefined, 'bytes=20-', undefined]);

    const again = scripted(
      () => whole('break', 20),
      () => whole('close'),
    );
    const second = await fetchResumable('/f', { fetch: again.fetch, retryDelaysMs: [0] });
    expect(await text(second!.blob)).toBe(new TextDecoder().decode(FILE));
  });

  it('resumes a download that stalls', async () => {
    const { fetch, calls } = scripted(
      () => whole('hang', 20),
      () => part(20),
    );
    const file = await fetchResumable('/f', { fetch, retryDelaysMs: [0], stallMs: 50 });
    expect(file!.blob.size).toBe(36);
    expect(calls[1]!.headers.Range).toBe('bytes=20-');
  });

  it('gives up after the retries with 请求错误', async () => {
    const { fetch, calls } = scripted(
      () => whole('break', 20),
      () => Promise.reject(new TypeError('offline')),
      () => Promise.reject(new TypeError('offline')),
    );
    const err = await fetchResumable('/f', { fetch, retryDelaysMs: [0, 0] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(calls).toHaveLength(3);
    expect(errorToast).toHaveBeenCalledWith('请求错误', 5);
  });

  it('toasts the message of a JSON error reply and does not retry it', async () => {
    const { fetch, calls } = scripted(() => jsonReply(404, { status: 404, message: '作品不存在', data: null }));
    const err = await fetchResumable('/f', { fetch, retryDelaysMs: [0, 0] }).catch((e: unknown) => e);
    expect((err as HttpError).status).toBe(404);
    expect((err as HttpError).message).toBe('作品不存在');
    expect(errorToast).toHaveBeenCalledWith('作品不存在', 5);
    expect(calls).toHaveLength(1);
  });

  it('warns 无可下载文件 for 5 s on an empty file', async () => {
    const { fetch } = scripted(() => reply(200, { 'content-length': '0' }, body([])));
    expect(await fetchResumable('/f', { fetch })).toBeNull();
    expect(warningToast).toHaveBeenCalledWith('无可下载文件', 5);
  });

  it('stops quietly when cancelled', async () => {
    const controller = new AbortController();
    const { fetch } = scripted(() => whole('break', 20));
    const pending = fetchResumable('/f', { fetch, retryDelaysMs: [10_000], signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const err = await pending.catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
    expect(errorToast).not.toHaveBeenCalled();
  });
});

describe('against the server', () => {
  let t: TestApp;
  let fileUri: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    (globalThis as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${origin}/userCenter/myCertificate`);
    await registerUser(t.app, 'downloader');
    const client = await loggedIn(t.app, 'downloader');
    const up = await client.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('头像.png', PNG) });
    fileUri = up.json().data.fileUri;
  });
  afterAll(() => t.close());

  it('resumes with the 206 the server answers to Range', async () => {
    let cut = true;
    const flaky = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      if (!cut || !res.body) return res;
      cut = false;
      // Deliver the first 30 bytes, then drop the connection.
      const reader = res.body.getReader();
      const first = (await reader.read()).value!.slice(0, 30);
      void reader.cancel();
      return reply(res.status, Object.fromEntries(res.headers.entries()), body([first], 'break'));
    }) as typeof fetch;
    const ranges: (string | undefined)[] = [];
    const spy = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      ranges.push((init?.headers as Record<string, string>).Range);
      return flaky(input, init);
    });
    const file = await fetchResumable(`/api/file/common/download?fileUri=${encodeURIComponent(fileUri)}`, {
      fetch: spy as unknown as typeof fetch,
      retryDelaysMs: [0],
    });
    expect(ranges).toEqual([undefined, 'bytes=30-']);
    expect(file!.fileName).toBe('头像.png');
    expect(Buffer.from(await file!.blob.arrayBuffer()).equals(PNG)).toBe(true);
  });
});
