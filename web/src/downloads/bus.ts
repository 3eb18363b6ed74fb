/**
 * Requests to the download drawer from anywhere in the page: this module is all the entries load up front, the drawer
 * itself comes later (lazily), so a request made before it is there waits for it.
 */
export type DrawerRequest = { type: 'open' } | { type: 'clientDialog' };

const listeners = new Set<(request: DrawerRequest) => void>();
let waiting: DrawerRequest | null = null;

export function requestDrawer(request: DrawerRequest): void {
  if (!listeners.size) waiting = request;
  for (const l of [...listeners]) l(request);
}

export function onDrawerRequest(listener: (request: DrawerRequest) => void): () => void {
  listeners.add(listener);
  if (waiting) {
    const request = waiting;
    waiting = null;
    listener(request);
  }
  return () => void listeners.delete(listener);
}

/** The signed-in user whose drawer is on the page (set by the launcher), so a page can queue without asking again. */
let user: number | null = null;
export const setDownloadUser = (userId: number | null) => void (user = userId);
export const downloadUser = () => user;
