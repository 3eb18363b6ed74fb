// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isMobileDevice } from './device.ts';
import { GuardedButton } from './GuardedButton.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the re-click guard', () => {
  it('ignores clicks for 3000 ms after a click, then accepts one again', () => {
    vi.useFakeTimers();
    const onClick = vi.fn();
    render(<GuardedButton onClick={onClick}>提交</GuardedButton>);
    const button = screen.getByRole('button');
    fireEvent.click(button);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1));
    expect((button as HTMLButtonElement).disabled).toBe(true);
    act(() => vi.advanceTimersByTime(2998));
    expect((button as HTMLButtonElement).disabled).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect((button as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('still submits the form it belongs to', () => {
    const onSubmit = vi.fn((e: { preventDefault(): void }) => e.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <GuardedButton htmlType="submit">提交</GuardedButton>
      </form>,
    );
    fireEvent.click(screen.getByRole('button'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('takes another duration when given one', () => {
    vi.useFakeTimers();
    const onClick = vi.fn();
    render(
      <GuardedButton guardMs={500} onClick={onClick}>
        提交
      </GuardedButton>,
    );
    fireEvent.click(screen.getByRole('button'));
    act(() => vi.advanceTimersByTime(500));
    fireEvent.click(screen.getByRole('button'));
    expect(onClick).toHaveBeenCalledTimes(2);
  });
});

describe('mobile detection (spec §2.2)', () => {
  const phone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148';
  const desktop = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0';
  it.each([
    [phone, 5, false, 390, true],
    [phone, 0, true, 390, true],
    [phone, 5, false, 768, false],
    [phone, 0, false, 390, false],
    [desktop, 5, true, 390, false],
  ])('%s with %i touch points, touch events %s, width %i is mobile: %s', (userAgent, maxTouchPoints, hasTouchEvent, width, expected) => {
    expect(isMobileDevice({ userAgent, maxTouchPoints, hasTouchEvent, width })).toBe(expected);
  });
});
