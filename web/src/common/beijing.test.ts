import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { fromPicker, fromPickerOrNull, toPicker, toPickerOrNull } from './beijing.ts';

// Whatever zone this process runs in (CI: UTC), a picker reads and writes Beijing time.
describe('date inputs in Beijing time', () => {
  it('shows a stored instant at its Beijing date and time, across the date line', () => {
    expect(toPicker('2026-03-20T04:00:00.000Z').format('YYYY-MM-DD HH:mm')).toBe('2026-03-20 12:00');
    expect(toPicker('2026-03-20T16:30:00.000Z').format('YYYY-MM-DD HH:mm')).toBe('2026-03-21 00:30');
    expect(toPicker('2026-12-31T16:00:00.000Z').format('YYYY-MM-DD HH:mm')).toBe('2027-01-01 00:00');
  });
  it('reads a picked time as Beijing time, and round-trips', () => {
    expect(fromPicker(dayjs('2026-03-20 08:00', 'YYYY-MM-DD HH:mm'))).toBe('2026-03-20T00:00:00.000Z');
    expect(fromPicker(dayjs('2026-03-21 00:30', 'YYYY-MM-DD HH:mm'))).toBe('2026-03-20T16:30:00.000Z');
    for (const iso of ['2026-03-20T04:00:00.000Z', '2026-07-01T23:59:00.000Z', '2027-01-01T00:00:00.000Z']) expect(fromPicker(toPicker(iso))).toBe(iso);
    expect([toPickerOrNull(null), fromPickerOrNull(undefined)]).toEqual([null, null]);
  });
});
