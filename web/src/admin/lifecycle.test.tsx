// @vitest-environment happy-dom
import { ACTION_CODES, CSRF_COOKIE } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import GradePage from './pages/question/GradePage.tsx';

/** The API as a table of answers by address; a page-like read answers an empty page; writes are recorded. */
let answers: Record<string, unknown> = {};
let writes: string[] = [];
const QUESTION = 11;
const SUMMARY = `/api/review/works/grade/summary/${QUESTION}`;
// Far in the future, so the still-open window stays open whatever day the test runs.
const OPEN = { kind: 'SUBMIT_WORKS', name: '提交作品', end: '2099-03-20T04:00:00.000Z' };

beforeEach(() => {
  writes = [];
  document.cookie = `${CSRF_COOKIE}=csrf-token`;
  answers = {
    '/api/team/userinfo/': { id: 1, username: 'org', userName: '组织者' },
    '/api/team/userinfo/permission': [ACTION_CODES.gradeEdit, 'competition:grade:menu'],
    [`/api/competition/question/check/${QUESTION}`]: { id: QUESTION, title: 'A题', competitionId: 7, competitionName: '泰迪杯' },
    [SUMMARY]: { gradeState: 0, calculatedAt: null, confirmedAt: null, unfinished: [], submissionOpen: OPEN },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname } = new URL(url, location.href);
      const method = init.method ?? 'GET';
      if (method !== 'GET') writes.push(`${method} ${pathname}`);
      const data = method !== 'GET' ? answers[SUMMARY] : pathname in answers ? answers[pathname] : { list: [], total: 0 };
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data }), { headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open() {
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={[`/question/grade/${QUESTION}`]}>
          <Routes>
            <Route path="/question/grade/:questionId" element={<GradePage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </AntApp>,
  );
}

describe('early actions on the grade page', () => {
  it('asks before computing grades while submission is open, naming the deadline', async () => {
    open();
    fireEvent.click(await screen.findByRole('button', { name: /计算成绩/ }, { timeout: 10_000 }));
    expect((await screen.findByTestId('early-warning')).textContent).toBe('提交作品尚未截止（03-20 12:00），现在计算的成绩可能不是最终成绩，确定继续？');
    expect(writes).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(writes).toEqual([`POST /api/review/works/calcFinalScore/${QUESTION}`]));
  });

  it('computes at once once submission has closed', async () => {
    answers[SUMMARY] = { gradeState: 0, calculatedAt: null, confirmedAt: null, unfinished: [], submissionOpen: null };
    open();
    fireEvent.click(await screen.findByRole('button', { name: /计算成绩/ }, { timeout: 10_000 }));
    await waitFor(() => expect(writes).toEqual([`POST /api/review/works/calcFinalScore/${QUESTION}`]));
    expect(screen.queryByTestId('early-warning')).toBeNull();
  });

  it('holds back 确认成绩 while submission is open, naming the deadline as the server does', async () => {
    answers[SUMMARY] = { gradeState: 1, calculatedAt: '2026-03-01T00:00:00.000Z', confirmedAt: null, unfinished: [], submissionOpen: OPEN };
    open();
    const button = (await screen.findByRole('button', { name: /确认成绩/ }, { timeout: 10_000 })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect((await screen.findByTestId('publish-refusal')).textContent).toContain('提交作品将于 2099-03-20 12:00 截止，截止前不能公布成绩');
    // The button's tooltip gives the same reason.
    fireEvent.pointerEnter(button);
    expect((await screen.findByRole('tooltip', {}, { timeout: 5_000 })).textContent).toBe('提交作品将于 2099-03-20 12:00 截止，截止前不能公布成绩');
    fireEvent.click(button);
    expect(writes).toEqual([]);
    // Computing stays possible, after the early warning.
    fireEvent.click(screen.getByRole('button', { name: /重新计算/ }));
    expect((await screen.findByTestId('early-warning')).textContent).toBe('提交作品尚未截止（03-20 12:00），现在计算的成绩可能不是最终成绩，确定继续？');
  });

  it('confirms once submission has closed, asking only what confirming does', async () => {
    answers[SUMMARY] = { gradeState: 1, calculatedAt: '2026-03-01T00:00:00.000Z', confirmedAt: null, unfinished: [], submissionOpen: null };
    open();
    const button = (await screen.findByRole('button', { name: /确认成绩/ }, { timeout: 10_000 })) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(screen.queryByTestId('publish-refusal')).toBeNull();
    fireEvent.click(button);
    expect(await screen.findByText(/确认后成绩将被锁定/)).toBeTruthy();
    expect(screen.queryByTestId('early-warning')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(writes).toEqual([`POST /api/review/works/confirmFinalScore/${QUESTION}`]));
  });

  it('lets a deadline that has passed on this clock through, though the summary was read before it', async () => {
    answers[SUMMARY] = { gradeState: 1, calculatedAt: '2026-03-01T00:00:00.000Z', confirmedAt: null, unfinished: [], submissionOpen: { ...OPEN, end: '2000-01-01T00:00:00.000Z' } };
    open();
    const button = (await screen.findByRole('button', { name: /确认成绩/ }, { timeout: 10_000 })) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(screen.queryByTestId('publish-refusal')).toBeNull();
  });
});
