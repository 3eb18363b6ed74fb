import { useCallback, useEffect, useRef, useState } from 'react';

export const CLICK_GUARD_MS = 3000;

/**
 * The re-click guard of spec §5: after a click the button stays disabled for 3000 ms (or `ms`),
 * so a double click cannot send the same request twice.
 */
export function useClickGuard<A extends unknown[]>(handler: (...args: A) => unknown, ms = CLICK_GUARD_MS) {
  const [disabled, setDisabled] = useState(false);
  const guarding = useRef(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const onClick = useCallback(
    (...args: A) => {
      if (guarding.current) return;
      guarding.current = true;
      // Disabled only after this click's default action: a submit button must still submit its form.
      timers.current.push(setTimeout(() => setDisabled(true), 0));
      timers.current.push(
        setTimeout(() => {
          guarding.current = false;
          setDisabled(false);
        }, ms),
      );
      return handler(...args);
    },
    [handler, ms],
  );
  return { disabled, onClick };
}
