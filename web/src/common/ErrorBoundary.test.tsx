// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary.tsx';

afterEach(cleanup);

function Broken(): never {
  throw new Error('render failed');
}

describe('the page error boundary', () => {
  it('shows a Chinese message and a reload button when a page throws, instead of a blank screen', () => {
    // React reports the caught error on the console; it is expected here.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    quiet.mockRestore();
    expect(screen.getByRole('alert').textContent).toContain('页面加载出错了，请刷新页面后重试。');
    expect(screen.getByRole('button', { name: '刷新页面' })).toBeTruthy();
  });

  it('renders its children when nothing throws', () => {
    render(
      <ErrorBoundary>
        <p>竞赛列表</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('竞赛列表')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
