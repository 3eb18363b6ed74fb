// @vitest-environment happy-dom
import { ACTION_CODES, CSRF_COOKIE, type EvaluationBody, type ManagedQuestion } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuestionsPanel } from './pages/competition/parts/QuestionsPanel.tsx';

// wangEditor does not run in happy-dom: a text area stands in for it.
vi.mock('./components/RichTextEditor.tsx', () => ({
  default: ({ value, onChange }: { value?: string | null; onChange?: (html: string) => void }) => (
    <textarea value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />
  ),
}));

let writes: { at: string; body: unknown }[] = [];
let questions: ManagedQuestion[] = [];

beforeEach(() => {
  writes = [];
  document.cookie = `${CSRF_COOKIE}=csrf-token`;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname } = new URL(url, location.href);
      const method = init.method ?? 'GET';
      if (method !== 'GET') writes.push({ at: `${method} ${pathname}`, body: init.body ? JSON.parse(String(init.body)) : null });
      const answers: Record<string, unknown> = {
        '/api/team/userinfo/': { id: 2, username: 'org', userName: '组织者', faceImg: null },
        '/api/team/userinfo/permission': [ACTION_CODES.competitionEdit],
        '/api/competition/question/list/7': questions,
      };
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data: method === 'GET' ? (answers[pathname] ?? null) : null }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
configure({ asyncUtilTimeout: 15_000 });

const question = (evaluation: EvaluationBody): ManagedQuestion => ({
  id: 11,
  competitionId: 7,
  competitionName: '泰迪杯',
  title: 'A题 商品推荐',
  content: null,
  sort: 0,
  reviewed: false,
  creatorId: null,
  creatorName: null,
  judging: 'both',
  evaluation,
  scorer: null,
  answerRows: null,
  files: [],
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
});

async function edit() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/', element: <QuestionsPanel competitionId={7} /> }]);
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  fireEvent.click(await screen.findByText('编辑'));
  return (await screen.findByText('编辑赛题')).closest('.ant-modal') as HTMLElement;
}

describe('the metric in the question editor', { timeout: 60_000 }, () => {
  it('shows the chosen metric’s definition and direction, and its K, saved with the evaluation', async () => {
    questions = [question({ metric: 'mapAtK', idColumn: 'user', targetColumn: 'items', publicPercent: 30, dailyLimit: 5, k: 5 })];
    const dialog = await edit();
    expect((await within(dialog).findByTestId('metric-definition')).textContent).toBe(
      'MAP@K：每行预测为空格分隔的有序编号列表，真实值为空格分隔的集合；前K个的平均精度除以min(真实个数, K)，再对行平均（越高越好）',
    );
    const k = within(dialog).getByLabelText('K（每行计前K个）') as HTMLInputElement;
    expect(k.value).toBe('5');
    expect(within(dialog).queryByLabelText('正类标签')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]!.body).toMatchObject({
      evaluation: { metric: 'mapAtK', idColumn: 'user', targetColumn: 'items', publicPercent: 30, dailyLimit: 5, k: 5 },
    });
  });

  it('asks for the positive label of a binary metric, and leaves an empty one to its default', async () => {
    questions = [question({ metric: 'f1', idColumn: 'id', targetColumn: 'label', publicPercent: 30, dailyLimit: 5 })];
    const dialog = await edit();
    expect((await within(dialog).findByTestId('metric-definition')).textContent).toContain('F1（二分类）：正类的F1');
    expect(within(dialog).queryByLabelText('K（每行计前K个）')).toBeNull();
    const positive = within(dialog).getByLabelText('正类标签') as HTMLInputElement;
    expect(positive.value).toBe('');
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect((writes[0]!.body as { evaluation: EvaluationBody }).evaluation).toEqual({
      metric: 'f1',
      idColumn: 'id',
      targetColumn: 'label',
      publicPercent: 30,
      dailyLimit: 5,
    });
  });
});
