import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Appends to `file`, once a second, the longest event-loop delay of that second in milliseconds, as a JSON line
 * `{"t": <epoch ms>, "maxMs": <number>}` (EVENT_LOOP_REPORT; the bench reads it to show that no request holds the one
 * event loop that every request of the process shares). Nothing is measured when it is not set.
 */
export function reportEventLoopDelay(file: string): () => void {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    fs.appendFileSync(file, `${JSON.stringify({ t: Date.now(), maxMs: histogram.max / 1e6 })}\n`);
    histogram.reset();
  }, 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}
