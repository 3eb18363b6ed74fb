import type { HTMLAttributes, ReactNode } from 'react';
import './list.css';

/**
 * A card in antd's look for the competition list, the site's first screen. antd's Card can hold tabs, so it brings
 * antd's Tabs with their overflow dropdown (rc-tabs, rc-menu, rc-trigger: about 37 kB gzip) onto a page that shows
 * none (ARCHITECTURE §9's 250 kB budget).
 */
export function PlainCard({
  title,
  cover,
  hoverable,
  size,
  className,
  children,
  ...rest
}: HTMLAttributes<HTMLDivElement> & { title?: ReactNode; cover?: ReactNode; hoverable?: boolean; size?: 'small' }) {
  const classes = ['plain-card', hoverable && 'plain-card-hoverable', size === 'small' && 'plain-card-small', className].filter(Boolean).join(' ');
  return (
    <div className={classes} {...rest}>
      {title && <div className="plain-card-head">{title}</div>}
      {cover && <div className="plain-card-cover">{cover}</div>}
      <div className="plain-card-body">{children}</div>
    </div>
  );
}
