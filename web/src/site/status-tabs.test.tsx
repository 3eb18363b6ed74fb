// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusTabs } from './pages/competition/StatusTabs.tsx';

afterEach(cleanup);

const ITEMS = [
  { key: '', label: '全部' },
  { key: '2', label: '报名中' },
  { key: '4', label: '已结束' },
];

function Harness() {
  const [key, setKey] = useState('');
  return (
    <>
      <StatusTabs items={ITEMS} activeKey={key} onChange={setKey} />
      <output data-testid="chosen">{key || 'all'}</output>
    </>
  );
}

describe('the competition list status tabs', () => {
  it('is a tab list: a click or the arrow keys choose, one tab in the tab order, the chosen one selected', () => {
    render(<Harness />);
    const tab = (name: string) => screen.getByRole('tab', { name });
    expect(screen.getByRole('tablist')).toBeTruthy();
    expect(tab('全部').getAttribute('aria-selected')).toBe('true');
    expect(ITEMS.map((i) => tab(i.label).tabIndex)).toEqual([0, -1, -1]);
    fireEvent.click(tab('已结束'));
    expect(screen.getByTestId('chosen').textContent).toBe('4');
    expect(tab('已结束').getAttribute('aria-selected')).toBe('true');
    expect(tab('全部').getAttribute('aria-selected')).toBe('false');
    // Right from the last wraps to the first; left from the first to the last; focus follows.
    fireEvent.keyDown(tab('已结束'), { key: 'ArrowRight' });
    expect(screen.getByTestId('chosen').textContent).toBe('all');
    expect(document.activeElement).toBe(tab('全部'));
    fireEvent.keyDown(tab('全部'), { key: 'ArrowLeft' });
    expect(screen.getByTestId('chosen').textContent).toBe('4');
    fireEvent.keyDown(tab('已结束'), { key: 'Enter' });
    expect(screen.getByTestId('chosen').textContent).toBe('4');
  });
});
