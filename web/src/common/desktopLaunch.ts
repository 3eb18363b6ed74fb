import { authApi } from '../api/auth.ts';
import { APP_ORIGIN_COOKIE, desktopAppOrigin } from './desktop.ts';
import { takeLoginRedirect } from './http.ts';
import { DESKTOP_TOKEN_KEY, readCookie } from './storage.ts';

/** Where the desktop client's loopback bridge listens, and the pairing secret it expects (desktop/README.md). */
export interface DesktopBridgeConfig {
  port: number;
  secret: string;
}

export const DESKTOP_BRIDGE_KEY = 'desktopBridge';
/** The query parameters the desktop client adds to the address it opens, beside electron=app and the token. */
const BRIDGE_PARAMS = ['desktopPort', 'desktopSecret'] as const;

function setCookie(name: string, value: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
}

/**
 * What the desktop client hands over in the address, kept before the first request so that the app's calls carry
 * its token from the start (spec §7):
 *
 * - `competitionList?electron=app` (spec §2.1) is the desktop app. Keeps the session token and the bridge's port and
 *   pairing secret, marks the app with the state cookie `app` (spec §9), which the http client reads for the bearer
 *   header, and names this origin as the desktop app's in the `appOrigin` cookie, which `competitionList` at another
 *   origin of this host redirects to (desktop.ts). The secret leaves the address bar. A token that replaces another
 *   (the hand-over after signing in again) is also given to the desktop client's bridge, which downloads with it.
 * - `/login?state=app` (spec §7: the desktop app's login) marks the browser as the desktop app's and drops the token
 *   that expired, so that signing in and asking for a new token go by the new session; `afterLogin` hands it over.
 */
export function captureDesktopLaunch(href: string = location.href): void {
  const url = new URL(href);
  if (url.pathname === '/login' && url.searchParams.get('state') === 'app') {
    setCookie('state', 'app');
    localStorage.removeItem(DESKTOP_TOKEN_KEY);
    return;
  }
  if (!url.pathname.startsWith('/competitionList') || url.searchParams.get('electron') !== 'app') return;
  const token = url.searchParams.get('token');
  const previous = localStorage.getItem(DESKTOP_TOKEN_KEY);
  if (token) localStorage.setItem(DESKTOP_TOKEN_KEY, token);
  const port = Number(url.searchParams.get('desktopPort'));
  const secret = url.searchParams.get('desktopSecret');
  const launched = Number.isInteger(port) && port > 0 && port < 65536 && secret;
  if (launched) localStorage.setItem(DESKTOP_BRIDGE_KEY, JSON.stringify({ port, secret } satisfies DesktopBridgeConfig));
  setCookie('state', 'app');
  setCookie(APP_ORIGIN_COOKIE, url.origin);
  if (token && token !== previous && !launched) void giveBridgeToken(token);
  if (BRIDGE_PARAMS.some((p) => url.searchParams.has(p))) {
    for (const p of BRIDGE_PARAMS) url.searchParams.delete(p);
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
}

/** The desktop client downloads with the token the page now holds (bridge `PUT /token`); no bridge, nothing to do. */
async function giveBridgeToken(token: string): Promise<void> {
  const bridge = desktopBridgeConfig();
  if (!bridge) return;
  try {
    await fetch(`http://127.0.0.1:${bridge.port}/token`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-desktop-secret': bridge.secret },
      body: JSON.stringify({ token }),
    });
  } catch {
    // The client is not running: it signs in again when started.
  }
}

/**
 * Where to go after signing in. For the desktop app's login (`/login?state=app`, spec §7): `competitionList` with a
 * new bearer token, which hands it to the desktop app: when the desktop app lives at another origin of this host,
 * `competitionList` redirects there with `electron=app` and the token (spec §2.1); otherwise this page is the
 * desktop app and takes it at once. Else the remembered address.
 */
export async function afterLogin(href: string = location.href): Promise<string> {
  if (new URL(href).searchParams.get('state') !== 'app') return takeLoginRedirect();
  const { token } = await authApi.desktopToken();
  const here = new URL(href).origin;
  const app = desktopAppOrigin(readCookie(APP_ORIGIN_COOKIE), here);
  const query = new URLSearchParams(app && app !== here ? { token } : { electron: 'app', token });
  return `/competitionList?${query.toString()}`;
}

/** The bridge the desktop client announced, or null in a plain browser. */
export function desktopBridgeConfig(): DesktopBridgeConfig | null {
  try {
    const value = JSON.parse(localStorage.getItem(DESKTOP_BRIDGE_KEY) ?? 'null') as Partial<DesktopBridgeConfig> | null;
    return value && Number.isInteger(value.port) && typeof value.secret === 'string' && value.secret ? { port: value.port!, secret: value.secret } : null;
  } catch {
    return null;
  }
}
