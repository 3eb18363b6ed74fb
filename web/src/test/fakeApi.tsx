import { CSRF_COOKIE } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';

export interface FakeRequest {
  method: string;
  url: string;
  body: unknown;
}

export interface FakeApi {
  /**
   * The answers by address: a GET by its path and query (`/api/x?page=1&limit=20`, or with `GET ` before it, or
   * `GET /api/x` for any query), another method by `METHOD /path`. A function is called with the request's body.
   * An Error (or a function's Error) is a refusal: its `status` (400 if it has none) with its message, and its
   * `fields` if it has any.
   * Anything else answers `data: null`. Reset before each test.
   */
  answers: Record<string, unknown>;
  /** Every request made, in order. */
  requests: FakeRequest[];
}

/**
 * The API as a table of answers in the spec's envelope (§7), for the web tests: call it once at the top of a test
 * file. Each test starts with no answers and no requests, and a CSRF cookie for the writes; the page is unmounted
 * after it.
 */
export function useFakeApi(): FakeApi {
  const api: FakeApi = { answers: {}, requests: [] };
  beforeEach(() => {
    api.answers = {};
    api.requests = [];
    document.cookie = `${CSRF_COOKIE}=csrf-token`;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const { pathname, search } = new URL(url, location.href);
        const method = init.method ?? 'GET';
        const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
        api.requests.push({ method, url: pathname + search, body });
        const keys = method === 'GET' ? [pathname + search, `GET ${pathname + search}`, `GET ${pathname}`] : [`${method} ${pathname}`];
        const found = keys.find((k) => k in api.answers);
        const answer = found === undefined ? null : api.answers[found];
        const data = typeof answer === 'function' ? (answer as (body: unknown) => unknown)(body) : answer;
        if (data instanceof Error) {
          const { fields, status = 400 } = data as Error & { fields?: Record<string, string>; status?: number };
          return new Response(JSON.stringify({ status, message: data.message, data: fields ? { fields } : null }), {
            status,
            headers: { 'content-type': 'application/json' },
          });
        }
        return new Response(JSON.stringify({ status: 200, message: '操作成功', data: data ?? null }), { headers: { 'content-type': 'application/json' } });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  return api;
}

/** Renders a back-office page as the app does (antd's App, a fresh query client without retries), at `entry` if given. */
export function renderPage(page: ReactNode, entry?: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AntApp>
      <QueryClientProvider client={client}>{entry === undefined ? page : <MemoryRouter initialEntries={[entry]}>{page}</MemoryRouter>}</QueryClientProvider>
    </AntApp>,
  );
}
