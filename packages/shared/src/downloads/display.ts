/** Spec §9 display of download tasks; sizes use the shared formatSize (B/KB/MB/GB, 1024 steps, two decimals). */
import { formatDuration, formatSize } from '../format.ts';
import type { DownloadTask } from './task.ts';

/**
 * Spec §9 shows twice the reported value as the per-second speed: shells report the bytes of each half-second
 * interval, and a shell must keep to that for the figures to be true.
 */
export const SPEED_FACTOR = 2;

/** `512` reported -> `"1.00 KB/s"`. */
export function formatSpeed(speed: number): string {
  return `${formatSize(speed * SPEED_FACTOR)}/s`;
}

/** Time left at the current speed as `HH:MM:SS`, or `--` while the speed or the total size is unknown. */
export function formatRemaining(task: Pick<DownloadTask, 'receivedSize' | 'totalSize' | 'speed'>): string {
  const perSecond = task.speed * SPEED_FACTOR;
  const left = task.totalSize - task.receivedSize;
  if (!(perSecond > 0) || !Number.isFinite(perSecond) || !(task.totalSize > 0) || !(left >= 0)) return '--';
  // Rounded up: "00:00:00" would claim it is done while bytes are still missing.
  return formatDuration(Math.ceil(left / perSecond));
}

/** Spec §9 shifts completion times by 8 hours: the stored instant shown as China Standard Time (UTC+8, no DST). */
export const COMPLETION_TIME_SHIFT_MS = 8 * 60 * 60 * 1000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Ms since the epoch -> `YYYY-MM-DD HH:mm:ss` in UTC+8 whatever the machine's time zone; `--` when absent. */
export function formatCompletionTime(date: number | null): string {
  if (date === null || !Number.isFinite(date)) return '--';
  const d = new Date(date + COMPLETION_TIME_SHIFT_MS);
  if (Number.isNaN(d.getTime())) return '--'; // beyond the range Date can hold
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}
