import { beijingMinute, countdownNextChangeMs, countdownStage, countdownText, type CountdownStage } from '@contest/shared';
import { Tag } from 'antd';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { sysTime } from './http.ts';

const STAGE_COLORS: Record<CountdownStage, string> = { days: 'blue', lastDay: 'orange', lastHour: 'red', closed: 'default' };

/**
 * The time left before a deadline, by the server's clock (sysTime): 「还剩 3 天」, then 「还剩 5 小时 42 分」 in the last day,
 * 「还剩 00:03:12」 in the last hour, then 「已截止」 (lifecycle.ts `countdownText`). It re-renders when its text next
 * changes (once a minute, then once a second in the last hour) and stops at
 * the deadline; `onExpire` runs when the deadline passes while it is on screen, for the page to ask the server again.
 */
export function Countdown({ deadline, onExpire, style }: { deadline: string; onExpire?: () => void; style?: CSSProperties }) {
  const [, setTick] = useState(0);
  const expire = useRef(onExpire);
  expire.current = onExpire;
  const remaining = new Date(deadline).getTime() - sysTime().getTime();
  const stage = countdownStage(remaining);

  useEffect(() => {
    const delay = countdownNextChangeMs(new Date(deadline).getTime() - sysTime().getTime());
    if (delay === null) return;
    const timer = setTimeout(() => {
      setTick((n) => n + 1);
      if (new Date(deadline).getTime() - sysTime().getTime() <= 0) expire.current?.();
    }, delay);
    return () => clearTimeout(timer);
  });

  return (
    <Tag
      color={STAGE_COLORS[stage]}
      data-testid="countdown"
      data-stage={stage}
      title={`截止时间 ${beijingMinute(deadline)}（北京时间）`}
      style={{ marginInlineEnd: 0, ...style }}
    >
      {countdownText(remaining)}
    </Tag>
  );
}
