import { DownloadInterrupted, DownloadSizeError, resumeDownload, parseContentRange as parseRange } from '@contest/shared';
import { message } from 'antd';
import { ERROR_TOAST_SECONDS, HTTP_TEXT, HttpError, apiBase, checkDownloadReply, requestHeaders, saveBlob } from './http.ts';

/** How often a download that was cut off starts again from where it stopped, and the waits in between. */
export const DOWNLOAD_RETRY_DELAYS_MS = [1000, 3000, 5000];
/** A download that receives nothing for this long is cut off and resumed, like a broken connection. */
export const DOWNLOAD_STALL_MS = 30_000;

export interface DownloadOptions {
  /** Bytes received so far and the file's size (null while the server has not said). */
  onProgress?: (received: number, total: number | null) => void;
  /** Waits before each retry; their number is the number of retries. */
  retryDelaysMs?: number[];
  stallMs?: number;
  /** Cancels the download; a cancelled download rejects with an `AbortError` and says nothing. */
  signal?: AbortSignal;
  /** Do not toast errors (the caller shows them). */
  silent?: boolean;
  /** The fetch to use (tests). */
  fetch?: typeof fetch;
}

export interface Downloaded {
  blob: Blob;
  fileName: string;
}

/**
 * The file name of a `Content-Disposition` header: the UTF-8 `filename*` (RFC 5987) when there is one, else the plain
 * `filename`, else `fallback`.
 */
export function fileNameFromDisposition(header: string | null | undefined, fallback = 'download'): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*UTF-8'[^']*'([^;]+)/i.exec(header)?.[1]?.trim();
  if (star) {
    try {
      return decodeURIComponent(star.replace(/^"|"$/g, ''));
    } catch {
      // a malformed escape: fall through to the plain name
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header)?.[1];
  if (quoted) return quoted.replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
  return bare || fallback;
}

/** `Content-Range: bytes 100-199/1000` → its start and the whole size (null when `*`). */
export function parseContentRange(header: string | null | undefined): { start: number; total: number | null } | null {
  const range = parseRange(header);
  return range && { start: range.start, total: range.total };
}

/** Gateways answer these while the server restarts: worth another try, like a broken connection. */
const TRANSIENT = new Set([502, 503, 504]);
const isJsonReply = (res: Response) => (res.headers.get('content-type') ?? '').includes('application/json');

/** A JSON reply with status 200 where a file was expected: nothing to save. */
class NoFile extends Error {}

/**
 * Fetches a file with the http client's conventions (AJAX header, credentials, the desktop app's token, spec §7),
 * reporting progress. When the connection breaks (or stalls), it asks again for the rest with `Range: bytes=N-` and
 * keeps the bytes it has, up to `retryDelaysMs.length` times in a row without new bytes; a server that answers the
 * whole file (200) or another part starts it over. This is the Range resume loop of the download shells
 * (@contest/shared resumeDownload) with memory as the sink. Error replies are told as the http client tells them
 * (spec §8) and reject with an `HttpError`; an empty file warns 无可下载文件 for 5 s and resolves to null, as does a
 * JSON reply with status 200.
 */
export async function fetchResumable(url: string, options: DownloadOptions = {}): Promise<Downloaded | null> {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let chunks: Uint8Array[] = [];
  let received = 0;
  let total: number | null = null;
  let fileName: string | null = null;
  let type = '';

  try {
    ({ received, total } = await resumeDownload<Response>({
      fetch: (input, init) => doFetch(input, { headers: init.headers, credentials: 'include', signal: init.signal as AbortSignal }),
      url: `${apiBase()}${url}`,
      offset: 0,
      headers: () => requestHeaders('GET'),
      check: async (res) => {
        if (TRANSIENT.has(res.status) && !isJsonReply(res)) throw new DownloadInterrupted();
        if (!(await checkDownloadReply(res, options.silent))) throw new NoFile();
      },
      begin: (start, res, size) => {
        if (start === 0) chunks = [];
        received = start;
        total = size;
        if (fileName === null) fileName = fileNameFromDisposition(res.headers.get('content-disposition'));
        type ||= (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
        options.onProgress?.(received, total);
      },
      write: (chunk) => {
        chunks.push(chunk);
        received += chunk.byteLength;
        options.onProgress?.(received, total);
      },
      retryDelaysMs: options.retryDelaysMs ?? DOWNLOAD_RETRY_DELAYS_MS,
      resetRetriesOnProgress: true,
      stallMs: options.stallMs ?? DOWNLOAD_STALL_MS,
      signal: options.signal,
    }));
  } catch (err) {
    if (options.signal?.aborted) throw new DOMException('下载已取消', 'AbortError');
    if (err instanceof NoFile) return null;
    if (err instanceof DownloadInterrupted || err instanceof DownloadSizeError) {
      const stalled = err instanceof DownloadInterrupted && err.stalled;
      const text = stalled ? HTTP_TEXT.timeout : HTTP_TEXT.requestError;
      if (!options.silent) void message.error(text, ERROR_TOAST_SECONDS);
      throw new HttpError(stalled ? 408 : 0, text);
    }
    throw err;
  }

  options.onProgress?.(received, total ?? received);
  if (received === 0) {
    if (!options.silent) void message.warning(HTTP_TEXT.emptyDownload, ERROR_TOAST_SECONDS);
    return null;
  }
  return { blob: new Blob(chunks as BlobPart[], type ? { type } : undefined), fileName: fileName ?? 'download' };
}

/** Downloads a file (see `fetchResumable`) and saves it under the server's name. Resolves to whether it was saved. */
export async function downloadFile(url: string, options: DownloadOptions = {}): Promise<boolean> {
  const file = await fetchResumable(url, options);
  if (!file) return false;
  saveBlob(file.blob, file.fileName);
  return true;
}

/**
 * Opens a file (a PDF) in a new tab, whatever `Content-Disposition` the server sends: the tab is opened at once, while
 * the click still counts as the user's (so no popup blocker stops it), and shows the file once it has arrived.
 */
export async function viewFile(url: string, options: DownloadOptions = {}): Promise<boolean> {
  const tab = window.open('', '_blank');
  if (tab) {
    tab.document.title = '正在打开…';
    tab.document.body.textContent = '正在打开文件，请稍候…';
  }
  try {
    const file = await fetchResumable(url, options);
    if (!file) {
      tab?.close();
      return false;
    }
    const href = URL.createObjectURL(file.blob);
    if (tab) tab.location.href = href;
    else window.open(href, '_blank');
    // The tab has read it by then; a reload of the tab after that finds nothing, like any downloaded blob.
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
    return true;
  } catch (err) {
    tab?.close();
    throw err;
  }
}
