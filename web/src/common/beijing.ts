import dayjs, { type Dayjs } from 'dayjs';

/**
 * Date inputs in Beijing time, whatever the browser's time zone (issue 17 item 6). A picker shows and edits a wall-clock
 * time in the browser's own zone; these helpers make that wall clock read Beijing time (UTC+8, no daylight saving):
 * a stored UTC instant becomes a picker value whose fields are its Beijing date and time, and a picked value's fields are
 * read back as Beijing time. Tables format with Asia/Shanghai too (time.ts), so what is typed is what is shown.
 */
const OFFSET_MS = 8 * 3600_000;

/** `2026-03-20T04:00:00.000Z` -> a picker value reading 2026-03-20 12:00. */
export function toPicker(iso: string): Dayjs {
  const b = new Date(new Date(iso).getTime() + OFFSET_MS);
  return dayjs(new Date(b.getUTCFullYear(), b.getUTCMonth(), b.getUTCDate(), b.getUTCHours(), b.getUTCMinutes(), b.getUTCSeconds()));
}

/** A picker value reading 2026-03-20 12:00 -> `2026-03-20T04:00:00.000Z`. */
export function fromPicker(v: Dayjs): string {
  return new Date(Date.UTC(v.year(), v.month(), v.date(), v.hour(), v.minute(), v.second()) - OFFSET_MS).toISOString();
}

export const toPickerOrNull = (iso: string | null | undefined) => (iso ? toPicker(iso) : null);
export const fromPickerOrNull = (v: Dayjs | null | undefined) => (v ? fromPicker(v) : null);
