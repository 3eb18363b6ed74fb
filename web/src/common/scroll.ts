/** Section modes of spec §2.1: scrolling to the top happens only when the mode changes. */
export type SectionMode = 'user' | 'list' | 'com' | 'other';

export function sectionMode(pathname: string): SectionMode {
  if (pathname.startsWith('/userCenter')) return 'user';
  if (pathname.startsWith('/competitionList')) return 'list';
  if (pathname.startsWith('/competition/')) return 'com';
  return 'other';
}

export const SCROLL_MS = 800;

/** Scrolls the window to the top over `ms` milliseconds, easing out. */
export function scrollToTop(ms = SCROLL_MS): void {
  const from = window.scrollY;
  if (from === 0) return;
  const start = performance.now();
  const frame = (t: number) => {
    const p = Math.min(1, (t - start) / ms);
    window.scrollTo(0, from * (1 - (1 - (1 - p) ** 3)));
    if (p < 1) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}
