/** The cookie naming the desktop app's origin (spec §9 "web app address"), set by the desktop launch (desktopLaunch.ts). */
export const APP_ORIGIN_COOKIE = 'appOrigin';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The desktop app's origin named by the cookie, if it may receive the user (and the token): a bare http(s) origin
 * (nothing after it, no user name or password) on this machine's loopback address or on the host this page is served
 * from. The launch only ever writes the origin it runs at, and a cookie without Domain is this host's alone, so a
 * genuine value always passes; anything else (a cookie tossed in from a sibling domain naming another host) is not a
 * desktop app, and nothing is sent there.
 */
export function desktopAppOrigin(value: string | undefined, pageOrigin: string): string | null {
  if (!value) return null;
  let url: URL;
  let page: URL;
  try {
    url = new URL(value);
    page = new URL(pageOrigin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // Exactly an origin: `https://host:port`, not `https://host/path`, `https://user@host` or `https://host?x`.
  if (url.origin !== value.replace(/\/$/, '') || url.username || url.password) return null;
  if (!LOOPBACK.has(url.hostname) && url.hostname !== page.hostname) return null;
  return url.origin;
}

/**
 * Spec §2.1: entering `competitionList` in a browser that carries the desktop client's state cookie
 * (`state=app`) while not on the desktop app's own origin sends the user to the desktop app's
 * `competitionList` with `electron=app`, and the token when there is one. Only to an origin `desktopAppOrigin` accepts.
 */
export function desktopRedirectTarget(env: { stateCookie?: string; origin: string; appOrigin?: string; token?: string | null }): string | null {
  if (env.stateCookie !== 'app') return null;
  const appOrigin = desktopAppOrigin(env.appOrigin, env.origin);
  if (!appOrigin || new URL(env.origin).origin === appOrigin) return null;
  const url = new URL('/competitionList', appOrigin);
  url.searchParams.set('electron', 'app');
  if (env.token) url.searchParams.set('token', env.token);
  return url.toString();
}
