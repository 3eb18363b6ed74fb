import { useRef, type KeyboardEvent } from 'react';
import './list.css';

export interface StatusTab {
  key: string;
  label: string;
}

/**
 * The competition list's status filter (全部 / 报名中 / 进行中 / 已结束) in antd's tab look, drawn with plain buttons:
 * antd's Tabs brings its overflow dropdown (rc-menu, rc-trigger, about 34 kB gzip) onto the site's first screen
 * (ARCHITECTURE §9), and four short labels never overflow. A tab list for assistive technology, arrow keys included.
 */
export function StatusTabs({ items, activeKey, onChange }: { items: StatusTab[]; activeKey: string; onChange: (key: string) => void }) {
  const list = useRef<HTMLDivElement>(null);
  const move = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = items[(index + step + items.length) % items.length]!;
    onChange(next.key);
    list.current?.querySelector<HTMLButtonElement>(`[data-key="${next.key}"]`)?.focus();
  };
  return (
    <div className="status-tabs" role="tablist" ref={list}>
      {items.map((item, i) => {
        const active = item.key === activeKey;
        return (
          <button
            key={item.key}
            type="button"
            role="tab"
            data-key={item.key}
            aria-selected={active}
            tabIndex={active ? 0 : -1}
            className={active ? 'status-tab status-tab-active' : 'status-tab'}
            onClick={() => onChange(item.key)}
            onKeyDown={(e) => move(e, i)}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
