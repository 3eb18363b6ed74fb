import { DESKTOP_TOKEN_KEY } from './storage.ts';

/** Where the desktop client's loopback bridge listens, and the pairing secret it expects (desktop/README.md). */
export interface DesktopBridgeConfig {
  port: number;
  secret: string;
}

export const DESKTOP_BRIDGE_KEY = 'desktopBridge';
/** The query parameters the desktop client adds to the address it opens, beside electron=app and the token. */
const BRIDGE_PARAMS = ['desktopPort', 'desktopSecret'] as const;

/**
 * Spec §2.1: `competitionList` opened with `electron=app` is the desktop app. Keeps what the desktop client handed
 * over in the address (the session token, the bridge's port and pairing secret) and marks the app with the state
 * cookie `app` (spec §9), which the http client reads for the bearer header. The secret leaves the address bar.
 */
export function captureDesktopLaunch(href: string = location.href): void {
  const url = new URL(href);
  if (url.searchParams.get('electron') !== 'app') return;
  const token = url.searchParams.get('token');
  if (token) localStorage.setItem(DESKTOP_TOKEN_KEY, token);
  const port = Number(url.searchParams.get('desktopPort'));
  const secret = url.searchParams.get('desktopSecret');
  if (Number.isInteger(port) && port > 0 && port < 65536 && secret) {
    localStorage.setItem(DESKTOP_BRIDGE_KEY, JSON.stringify({ port, secret } satisfies DesktopBridgeConfig));
  }
  document.cookie = 'state=app; path=/; SameSite=Lax';
  if (BRIDGE_PARAMS.some((p) => url.searchParams.has(p))) {
    for (const p of BRIDGE_PARAMS) url.searchParams.delete(p);
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
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
