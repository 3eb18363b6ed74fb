// @vitest-environment happy-dom
import { ACTION_CODES, CSRF_COOKIE, type ManagedQuestion } from '@contest/shared';
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

/** The API as a table of GET answers; writes are recorded with their bodies. */
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

const question = (reviewed: boolean): ManagedQuestion => ({
  id: 11,
  competitionId: 7,
  competitionName: '泰迪杯',
  title: 'A题 客户流失预测',
  content: null,
  sort: 0,
  reviewed,
  creatorId: null,
  creatorName: null,
  judging: 'both',
  evaluation: { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 30, dailyLimit: 5 },
  scorer: null,
  answerRows: null,
  files: [],
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
});

const TITLE = '.ant-modal-confirm-title';
const confirmation = async () => (await screen.findByText('关闭自动评分？', { selector: TITLE })).closest('.ant-modal') as HTMLElement;

async function turnScoringOffAndSave() {
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
  const dialog = (await screen.findByText('编辑赛题')).closest('.ant-modal') as HTMLElement;
  // Judged by experts alone: no automatic scoring any more.
  fireEvent.click(within(dialog).getByLabelText('专家评审（提交作品）'));
  fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }));
}

describe('removing automatic scoring from a question', { timeout: 60_000 }, () => {
  it('asks an approved question’s organiser to confirm, naming the consequence, and saves only when confirmed', async () => {
    questions = [question(true)];
    await turnScoringOffAndSave();
    const warning = await confirmation();
    expect(warning.textContent).toContain('“A题 客户流失预测”已审核通过');
    expect(warning.textContent).toContain('参赛者将不能再在“提交测试”页上传预测文件，公榜与私榜也不再显示');
    expect(writes).toEqual([]);
    // Cancel keeps the edit dialog open and writes nothing.
    fireEvent.click(within(warning).getByRole('button', { name: /取\s*消/ }));
    expect(screen.getByText('编辑赛题')).toBeTruthy();
    expect(writes).toEqual([]);
    // Saving again and confirming sends the question without its evaluation.
    const dialog = screen.getByText('编辑赛题').closest('.ant-modal') as HTMLElement;
    const save = within(dialog).getByRole('button', { name: /保\s*存/ });
    await waitFor(() => expect(save.className).not.toContain('ant-btn-loading'));
    fireEvent.click(save);
    // (The cancelled confirmation may linger, closed, in happy-dom: wait for a new one.)
    const again = await waitFor(() => {
      const open = screen
        .getAllByText('关闭自动评分？', { selector: TITLE })
        .map((e) => e.closest('.ant-modal') as HTMLElement)
        .find((m) => m !== warning);
      expect(open).toBeTruthy();
      return open!;
    });
    fireEvent.click(within(again).getByRole('button', { name: '确定关闭' }));
    await waitFor(() =>
      expect(writes).toEqual([
        { at: 'PUT /api/competition/question/11', body: { title: 'A题 客户流失预测', content: null, sort: 0, judging: 'review', evaluation: null } },
      ]),
    );
  });

  it('saves a question not yet approved without asking', async () => {
    questions = [question(false)];
    await turnScoringOffAndSave();
    await waitFor(() => expect(writes.map((w) => w.at)).toEqual(['PUT /api/competition/question/11']));
    expect(screen.queryAllByText('关闭自动评分？', { selector: TITLE })).toHaveLength(0);
  });
});
