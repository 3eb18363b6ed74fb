import type { NavLink } from '@contest/shared';

export type NavItem = NavLink & { children?: NavLink[] };

/** A header or footer link; type 0 opens in the same window, 1 in a new one (spec §2.2). */
export function LinkOut({ link }: { link: NavLink }) {
  return link.type === 1 ? (
    <a href={link.url} target="_blank" rel="noopener noreferrer">
      {link.name}
    </a>
  ) : (
    <a href={link.url}>{link.name}</a>
  );
}
