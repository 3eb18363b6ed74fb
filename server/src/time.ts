/** China Standard Time has no daylight saving: Beijing is always UTC+8. */
const OFFSET_MS = 8 * 3600_000;

/** A moment as Beijing wall-clock time, `YYYY-MM-DDTHH:mm:ss`: for quota days, order numbers, gateways, exports. */
export function beijing(d: Date): string {
  return new Date(d.getTime() + OFFSET_MS).toISOString().slice(0, 19);
}
