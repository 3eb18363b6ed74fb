// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { App as AntApp, Form } from 'antd';
import type { Dayjs } from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPicker } from '../common/beijing.ts';
import { DateTimePicker } from './components/DateTimePicker.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the date and time picker', () => {
  it('fills 此刻 with the present moment in Beijing time, whatever the browser’s zone', async () => {
    // The test browser's zone is not Beijing's: its own "now" would read 04:00, eight hours off.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-20T04:00:30.000Z'));
    let picked: Dayjs | null = null;
    render(
      <AntApp>
        <Form onValuesChange={(_, v: { at: Dayjs }) => (picked = v.at)}>
          <Form.Item name="at" label="时间">
            <DateTimePicker />
          </Form.Item>
        </Form>
      </AntApp>,
    );
    fireEvent.mouseDown(screen.getByRole('textbox'));
    fireEvent.click(screen.getByRole('textbox'));
    fireEvent.click(await screen.findByTestId('picker-now'));
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('2026-03-20 12:00');
    expect(fromPicker(picked!)).toBe('2026-03-20T04:00:00.000Z');
    // antd's own 此刻 (the browser's wall clock) is not offered.
    expect(screen.queryByText('此刻')).toBeNull();
  });
});
