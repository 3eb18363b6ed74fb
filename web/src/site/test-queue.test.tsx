// @vitest-environment happy-dom
import type { TestSubmission } from '@contest/shared';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TestHistory } from './pages/question/TestHistory.tsx';

const submission = (over: Partial<TestSubmission>): TestSubmission => ({
  id: 1,
  questionId: 3,
  teamId: 4,
  username: 'alice',
  fileName: 'pred.csv',
  size: 2048,
  status: 0,
  reason: null,
  publicScore: null,
  privateScore: null,
  selected: false,
  createdAt: '2026-03-20T02:00:00.000Z',
  scoredAt: null,
  cancelReason: null,
  ...over,
});

afterEach(cleanup);

describe('the test history of a waiting submission', () => {
  it('says where it stands in the queue and about how long it waits, and nothing once scored', () => {
    render(
      <TestHistory
        loading={false}
        onSelect={() => undefined}
        list={[
          submission({ id: 2, fileName: 'second.csv', queue: { ahead: 4, waitSeconds: 300 } }),
          submission({ id: 1, status: 2, publicScore: 0.8, fileName: 'first.csv' }),
        ]}
      />,
    );
    const notes = screen.getAllByTestId('test-queue');
    expect(notes.map((n) => n.textContent)).toEqual(['前面还有 4 个，预计等待约 5 分钟']);
    const waiting = screen.getByText('second.csv').closest('tr')!;
    expect(within(waiting).getByText('排队中')).toBeTruthy();
    expect(within(waiting).getByTestId('test-queue')).toBeTruthy();
  });
});

describe('the test history of a submission whose score the organiser cancelled', () => {
  it('says so with the reason and offers no final selection for it', () => {
    render(
      <TestHistory
        loading={false}
        onSelect={() => undefined}
        list={[
          submission({ id: 2, status: 2, publicScore: 0.9, fileName: 'copied.csv', cancelReason: '使用了测试集标签' }),
          submission({ id: 1, status: 2, publicScore: 0.8, fileName: 'own.csv' }),
        ]}
      />,
    );
    const cancelled = screen.getByText('copied.csv').closest('tr')!;
    expect(within(cancelled).getByText('成绩已取消')).toBeTruthy();
    expect(within(cancelled).getByTestId('cancel-note').textContent).toBe('主办方已取消该提交的成绩，不计入排行榜。原因：使用了测试集标签');
    expect(within(cancelled).queryByRole('switch')).toBeNull();
    expect(within(screen.getByText('own.csv').closest('tr')!).getByRole('switch')).toBeTruthy();
  });
});

describe('the final selection', () => {
  it('holds the other switches once two are chosen, saying why, before a third is tried', () => {
    render(
      <TestHistory
        loading={false}
        onSelect={() => undefined}
        list={[1, 2, 3].map((id) => submission({ id, status: 2, publicScore: id / 10, fileName: `p${id}.csv`, selected: id < 3 }))}
      />,
    );
    const [a, b, c] = ['p1.csv', 'p2.csv', 'p3.csv'].map((name) => within(screen.getByText(name).closest('tr')!).getByRole('switch'));
    expect([a!.hasAttribute('disabled'), b!.hasAttribute('disabled'), c!.hasAttribute('disabled')]).toEqual([false, false, true]);
  });
});
