import { describe, expect, it } from 'vitest';
import { desktopAppOrigin, desktopRedirectTarget } from './desktop.ts';

describe('the desktop-app redirect only goes to the desktop app (spec §2.1)', () => {
  const site = 'http://localhost:8080';
  const app = 'http://localhost:3000';
  it('sends a desktop browser at another origin of this host to the app, token appended when present', () => {
    expect(desktopRedirectTarget({ stateCookie: 'app', origin: site, appOrigin: app, token: 'tok_1' })).toBe(`${app}/competitionList?electron=app&token=tok_1`);
    expect(desktopRedirectTarget({ stateCookie: 'app', origin: 'https://contest.example', appOrigin: 'http://contest.example:4000' })).toBe(
      'http://contest.example:4000/competitionList?electron=app',
    );
    expect(desktopRedirectTarget({ stateCookie: 'app', origin: 'https://contest.example', appOrigin: 'http://127.0.0.1:9527', token: 'a b' })).toBe(
      'http://127.0.0.1:9527/competitionList?electron=app&token=a+b',
    );
  });
  it('stays on the app itself and in a browser without the state cookie', () => {
    expect(desktopRedirectTarget({ stateCookie: 'app', origin: app, appOrigin: app, token: 't' })).toBeNull();
    expect(desktopRedirectTarget({ origin: site, appOrigin: app, token: 't' })).toBeNull();
    expect(desktopRedirectTarget({ stateCookie: 'app', origin: site, token: 't' })).toBeNull();
  });
  it('never sends anyone, or the token, to another host', () => {
    for (const foreign of [
      'https://evil.example',
      'http://localhost.evil.example:3000',
      'http://evil.example/http://localhost:3000',
      'http://localhost:3000@evil.example',
      'http://user:pw@localhost:3000',
      'http://localhost:3000/competitionList',
      'http://localhost:3000?x=1',
      '//evil.example',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
    ]) {
      expect(desktopAppOrigin(foreign, site), foreign).toBeNull();
      expect(desktopRedirectTarget({ stateCookie: 'app', origin: site, appOrigin: foreign, token: 'secret' }), foreign).toBeNull();
    }
    // A sibling domain is another host too.
    expect(desktopAppOrigin('https://contest.example', 'https://www.contest.example')).toBeNull();
    expect(desktopAppOrigin('http://localhost:3000/', site)).toBe('http://localhost:3000');
  });
});
