// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DESKTOP_BRIDGE_KEY, afterLogin, captureDesktopLaunch, desktopBridgeConfig } from './desktopLaunch.ts';
import { readCookie, isDesktopApp } from './storage.ts';

afterEach(() => {
  localStorage.clear();
  // A date in the past, not max-age=0: happy-dom keeps a cookie that expires in the very millisecond it was cleared.
  document.cookie = 'state=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  document.cookie = 'appOrigin=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  vi.unstubAllGlobals();
});

describe('the desktop launch (spec §2.1)', () => {
  it('keeps the token and the bridge, marks the desktop app, names its origin and takes the secret out of the address', () => {
    history.replaceState(null, '', '/competitionList?electron=app&token=tok_12345678901234567890&desktopPort=41234&desktopSecret=s3cr3t#top');
    captureDesktopLaunch();
    expect(localStorage.getItem('token')).toBe('tok_12345678901234567890');
    expect(desktopBridgeConfig()).toEqual({ port: 41234, secret: 's3cr3t' });
    expect(isDesktopApp()).toBe(true);
    // What competitionList at another origin of this host redirects to.
    expect(readCookie('appOrigin')).toBe(location.origin);
    expect(location.pathname + location.search + location.hash).toBe('/competitionList?electron=app&token=tok_12345678901234567890#top');
  });

  it('does nothing in a plain browser, and ignores a bridge without a usable port', () => {
    history.replaceState(null, '', '/competitionList?token=x&desktopPort=41234&desktopSecret=s');
    captureDesktopLaunch();
    expect(desktopBridgeConfig()).toBeNull();
    expect(isDesktopApp()).toBe(false);
    expect(readCookie('appOrigin')).toBeUndefined();
    history.replaceState(null, '', '/competitionList?electron=app&desktopPort=99999&desktopSecret=s');
    captureDesktopLaunch();
    expect(desktopBridgeConfig()).toBeNull();
    localStorage.setItem(DESKTOP_BRIDGE_KEY, '{not json');
    expect(desktopBridgeConfig()).toBeNull();
  });

  it('gives a token handed over later to the desktop client’s bridge, with the pairing secret', () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => new Response('{"ok":true}'));
    vi.stubGlobal('fetch', fetchMock);
    captureDesktopLaunch(`${location.origin}/competitionList?electron=app&token=tok_first_000000000000&desktopPort=41234&desktopSecret=s3cr3t`);
    expect(fetchMock).not.toHaveBeenCalled();
    captureDesktopLaunch(`${location.origin}/competitionList?electron=app&token=tok_second_00000000000`);
    expect(localStorage.getItem('token')).toBe('tok_second_00000000000');
    expect(fetchMock).toHaveBeenCalledWith('http://127.0.0.1:41234/token', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-desktop-secret': 's3cr3t' },
      body: JSON.stringify({ token: 'tok_second_00000000000' }),
    });
  });
});

describe('the desktop app’s login, /login?state=app (spec §7)', () => {
  const tokenReply = () =>
    new Response(JSON.stringify({ status: 200, message: 'ok', data: { token: 'tok_new_0000000000000', expiresAt: '2030-01-01T00:00:00Z' } }), {
      headers: { 'content-type': 'application/json' },
    });

  it('marks the desktop app and drops the token that expired', () => {
    localStorage.setItem('token', 'tok_expired_000000000');
    captureDesktopLaunch(`${location.origin}/login?state=app`);
    expect(isDesktopApp()).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('after signing in goes to competitionList with a new token: at once on the app, through the redirect elsewhere', async () => {
    const fetchMock = vi.fn(async (_url: string) => tokenReply());
    vi.stubGlobal('fetch', fetchMock);
    expect(await afterLogin(`${location.origin}/login?state=app`)).toBe('/competitionList?electron=app&token=tok_new_0000000000000');
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/auth/token');
    document.cookie = `appOrigin=${encodeURIComponent('http://localhost:3000')}; path=/`;
    expect(await afterLogin('http://localhost:8080/login?state=app')).toBe('/competitionList?token=tok_new_0000000000000');
    // A plain login goes where the user was.
    localStorage.setItem('loginRedirect', '/userCenter/myInfo');
    expect(await afterLogin(`${location.origin}/login`)).toBe('/userCenter/myInfo');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
