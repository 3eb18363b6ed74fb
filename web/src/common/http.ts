import { CSRF_COOKIE, CSRF_HEADER, safeReturnTo, type Envelope } from '@contest/shared';
import { message } from 'antd';
import { DESKTOP_TOKEN_KEY, LOGIN_FLAG_KEY, LOGIN_REDIRECT_KEY, isDesktopApp, readCookie } from './storage.ts';

/** Texts and durations of spec §8 and §9. */
export const HTTP_TEXT = {
  requestError: '请求错误',
  sessionExpired: '当前会话已超时，请重新登录！',
  timeout: '请求超时',
  emptyDownload: '无可下载文件',
} as const;
export const ERROR_TOAST_SECONDS = 5;
export const SESSION_TOAST_SECONDS = 1;
export const LOGIN_REDIRECT_DELAY_MS = 1500;
const DEFAULT_TIMEOUT_MS = 30_000;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** Server time kept from the Date header of every reply (spec §3 `sysTime`). */
let sysTimeOffsetMs = 0;
export const sysTime = () => new Date(Date.now() + sysTimeOffsetMs);

/** Base URL: empty in the browser, the configured API server in the desktop app (spec §7). */
export function apiBase(): string {
  return isDesktopApp() ? (readCookie('apiBase') ?? '') : '';
}

/** Remembers where the user was, then goes to the login page (spec §4, §7). */
export function goLogin(): void {
  const here = location.pathname + location.search + location.hash;
  if (!here.startsWith('/login')) localStorage.setItem(LOGIN_REDIRECT_KEY, here);
  location.href = isDesktopApp() ? `${apiBase()}/login?state=app` : '/login';
}

/** Where to go after logging in: the remembered address if it is a path on this site, else home. */
export function takeLoginRedirect(): string {
  const target = localStorage.getItem(LOGIN_REDIRECT_KEY);
  localStorage.removeItem(LOGIN_REDIRECT_KEY);
  // The same normaliser the server applies to single sign-on's returnTo.
  const safe = safeReturnTo(target);
  return safe.startsWith('/login') ? '/' : safe;
}

let sessionExpiryShown = false;
function sessionExpired(): never {
  localStorage.removeItem(LOGIN_FLAG_KEY);
  if (!sessionExpiryShown) {
    sessionExpiryShown = true;
    void message.error(HTTP_TEXT.sessionExpired, SESSION_TOAST_SECONDS);
    setTimeout(() => {
      sessionExpiryShown = false;
      goLogin();
    }, LOGIN_REDIRECT_DELAY_MS);
  }
  throw new HttpError(401, HTTP_TEXT.sessionExpired);
}

function fail(status: number, text: string | undefined, fields?: Record<string, string>, silent?: boolean): never {
  const msg = text || HTTP_TEXT.requestError;
  if (!silent) void message.error(msg, ERROR_TOAST_SECONDS);
  throw new HttpError(status, msg, fields);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  params?: Record<string, string | number | boolean | undefined | null>;
  data?: unknown;
  timeoutMs?: number;
  /** Do not toast errors (the caller shows them). 401 still leads to the login page. */
  silent?: boolean;
}

function buildUrl(url: string, params?: RequestOptions['params']): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== null && v !== '') query.set(k, String(v));
  const qs = query.toString();
  return `${apiBase()}${url}${qs ? (url.includes('?') ? '&' : '?') + qs : ''}`;
}

/** The headers every call carries (spec §7): the AJAX marker, the CSRF token on writes, the desktop app's bearer token. */
export function requestHeaders(method: NonNullable<RequestOptions['method']> = 'GET'): Record<string, string> {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' };
  if (method !== 'GET') {
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) headers[CSRF_HEADER] = csrf;
  }
  if (isDesktopApp()) {
    const token = localStorage.getItem(DESKTOP_TOKEN_KEY);
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  return headers;
}

async function send(url: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers = requestHeaders(method);
  let body: BodyInit | undefined;
  if (options.data instanceof FormData || options.data instanceof URLSearchParams) body = options.data;
  else if (options.data !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.data);
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    const res = await fetch(buildUrl(url, options.params), { method, headers, body, credentials: 'include', signal: controller.signal });
    const date = res.headers.get('date');
    if (date) sysTimeOffsetMs = Date.parse(date) - Date.now();
    return res;
  } catch (err) {
    if ((err as Error).name === 'AbortError') fail(408, HTTP_TEXT.timeout, undefined, options.silent);
    fail(0, undefined, undefined, options.silent);
  } finally {
    clearTimeout(timer);
  }
}

function isJson(res: Response) {
  return (res.headers.get('content-type') ?? '').includes('application/json');
}

function handleEnvelope<T>(res: Response, env: Envelope<T>, silent?: boolean): T {
  if (res.status === 401 || env.status === 401) sessionExpired();
  if (res.status === 403) fail(403, env.message, undefined, silent);
  if (env.status !== 200) {
    const fields = (env.data as { fields?: Record<string, string> } | null)?.fields;
    fail(env.status ?? res.status, env.message, fields, silent);
  }
  return env.data;
}

/** One call of the API (spec §7, §8): resolves to the envelope's `data`, or rejects after telling the user. */
export async function request<T>(url: string, options: RequestOptions = {}): Promise<T> {
  const res = await send(url, options);
  if (!isJson(res)) {
    if (res.status === 401) sessionExpired();
    // A page instead of data: if we were sent elsewhere (a login page), the session is gone.
    const requested = new URL(buildUrl(url, options.params), location.href).pathname;
    const landed = res.url ? new URL(res.url, location.href).pathname : requested;
    if (!res.redirected && landed === requested) fail(res.status, undefined, undefined, options.silent);
    sessionExpired();
  }
  const env = (await res.json()) as Envelope<T>;
  return handleEnvelope(res, env, options.silent);
}

/** A file as the one field (`file`) of a form upload, as the server's upload routes read it. */
export function formOf(file: File) {
  const form = new FormData();
  form.append('file', file);
  return form;
}

export const http = {
  get: <T>(url: string, params?: RequestOptions['params'], options: RequestOptions = {}) => request<T>(url, { ...options, params }),
  post: <T>(url: string, data?: unknown, options: RequestOptions = {}) => request<T>(url, { ...options, method: 'POST', data }),
  put: <T>(url: string, data?: unknown, options: RequestOptions = {}) => request<T>(url, { ...options, method: 'PUT', data }),
  delete: <T>(url: string, options: RequestOptions = {}) => request<T>(url, { ...options, method: 'DELETE' }),
};

/**
 * Whether a download's reply carries the file. One that does not is told as spec §8 says: 401 leads to the login
 * page, an error's message is read from the JSON body and toasted (then this rejects); a JSON reply with status 200
 * has no file (false).
 */
export async function checkDownloadReply(res: Response, silent?: boolean): Promise<boolean> {
  if (res.status === 401) sessionExpired();
  if (isJson(res)) {
    const env = (await res.json()) as Envelope<unknown>;
    handleEnvelope(res, env, silent);
    return false;
  }
  if (!res.ok) fail(res.status, undefined, undefined, silent);
  return true;
}

/** Downloads a file as a blob; an error reply's message is read from the blob's JSON (spec §8). */
export async function downloadBlob(url: string, options: RequestOptions = {}): Promise<{ blob: Blob; fileName: string } | null> {
  const res = await send(url, options);
  if (!(await checkDownloadReply(res, options.silent))) return null;
  const blob = await res.blob();
  if (blob.size === 0) {
    void message.warning(HTTP_TEXT.emptyDownload, ERROR_TOAST_SECONDS);
    return null;
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="([^"]+)"/i.exec(disposition)?.[1];
  const fileName = star ? decodeURIComponent(star) : (plain ?? 'download');
  return { blob, fileName };
}

/** Saves a downloaded blob under its name through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
