// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { DESKTOP_BRIDGE_KEY, captureDesktopLaunch, desktopBridgeConfig } from './desktopLaunch.ts';
import { isDesktopApp } from './storage.ts';

afterEach(() => {
  localStorage.clear();
  document.cookie = 'state=; path=/; max-age=0';
});

describe('the desktop launch (spec §2.1)', () => {
  it('keeps the token and the bridge, marks the desktop app and takes the secret out of the address', () => {
    history.replaceState(null, '', '/competitionList?electron=app&token=tok_12345678901234567890&desktopPort=41234&desktopSecret=s3cr3t#top');
    captureDesktopLaunch();
    expect(localStorage.getItem('token')).toBe('tok_12345678901234567890');
    expect(desktopBridgeConfig()).toEqual({ port: 41234, secret: 's3cr3t' });
    expect(isDesktopApp()).toBe(true);
    expect(location.pathname + location.search + location.hash).toBe('/competitionList?electron=app&token=tok_12345678901234567890#top');
  });

  it('does nothing in a plain browser, and ignores a bridge without a usable port', () => {
    history.replaceState(null, '', '/competitionList?token=x&desktopPort=41234&desktopSecret=s');
    captureDesktopLaunch();
    expect(desktopBridgeConfig()).toBeNull();
    expect(isDesktopApp()).toBe(false);
    history.replaceState(null, '', '/competitionList?electron=app&desktopPort=99999&desktopSecret=s');
    captureDesktopLaunch();
    expect(desktopBridgeConfig()).toBeNull();
    localStorage.setItem(DESKTOP_BRIDGE_KEY, '{not json');
    expect(desktopBridgeConfig()).toBeNull();
  });
});
