import { MENU_CODES, MENU_NAMES, type Preset } from '@contest/shared';
import { describe, expect, it } from 'vitest';
import { desktopRedirectTarget } from '../common/desktop.ts';
import { sectionMode } from '../common/scroll.ts';
import { visibleTabs } from './pages/competition/CompetitionLayout.tsx';

const presets = (overrides: Partial<Record<string, Partial<Preset>>>): Preset[] =>
  MENU_CODES.map((menuCode, i) => ({
    id: i + 1,
    competitionId: 1,
    menuCode,
    name: MENU_NAMES[menuCode],
    enable: false,
    enableStartTime: null,
    deadlineStageId: null,
    realName: false,
    enableEndTime: null,
    fieldList: [],
    ...overrides[menuCode],
  }));

describe('competition tabs', () => {
  const now = new Date('2026-05-01T00:00:00Z');
  it('shows only the introduction when no preset is enabled', () => {
    expect(visibleTabs(presets({}), now).map((t) => t.key)).toEqual(['introduce']);
  });

  it('shows a tab while its preset is enabled and inside its window', () => {
    const list = presets({
      QUES_AND_DATA: { enable: true },
      COMP_INFO: { enable: true, enableStartTime: '2026-04-01T00:00:00.000Z', enableEndTime: '2026-06-01T00:00:00.000Z' },
      BEFORE_GUIDE: { enable: true, enableStartTime: '2026-05-02T00:00:00.000Z' },
      TRAINING_PLATFORM: { enable: true, enableEndTime: '2026-04-30T23:59:59.000Z' },
    });
    expect(visibleTabs(list, now).map((t) => t.key)).toEqual(['introduce', 'question', 'information']);
  });

  it('shows grades and certificates while GRADE_SET and CERTIFICATE_SET are open', () => {
    const list = presets({
      GRADE_SET: { enable: true, enableStartTime: '2026-04-01T00:00:00.000Z' },
      CERTIFICATE_SET: { enable: true, enableEndTime: '2026-04-30T00:00:00.000Z' },
    });
    expect(visibleTabs(list, now).map((t) => t.key)).toEqual(['introduce', 'grade']);
    expect(visibleTabs(presets({ GRADE_SET: { enable: true }, CERTIFICATE_SET: { enable: true } }), now).map((t) => t.key)).toEqual([
      'introduce',
      'grade',
      'certificate',
    ]);
  });

  it('takes a team through the submissions its question’s judging has: works, tests, or both', () => {
    const list = presets({ CHOICE_SET: { enable: true }, SUBMIT_WORKS: { enable: true }, SUBMIT_TEST: { enable: true } });
    const keys = (judging?: 'review' | 'auto' | 'both') => visibleTabs(list, now, judging).map((t) => t.key);
    expect(keys()).toEqual(['introduce', 'choice', 'works', 'test']);
    expect(keys('both')).toEqual(['introduce', 'choice', 'works', 'test']);
    expect(keys('review')).toEqual(['introduce', 'choice', 'works']);
    expect(keys('auto')).toEqual(['introduce', 'choice', 'test']);
  });
});

describe('section modes (spec §2.1)', () => {
  it.each([
    ['/userCenter/myInfo', 'user'],
    ['/competitionList', 'list'],
    ['/competitionList/3', 'list'],
    ['/competition/3/question', 'com'],
    ['/login', 'other'],
  ])('%s is %s', (path, mode) => expect(sectionMode(path)).toBe(mode));
});

describe('the desktop-app redirect (spec §2.1)', () => {
  const app = 'http://127.0.0.1:9527';
  it('sends a desktop browser to the app with electron=app and the token', () => {
    expect(desktopRedirectTarget({ stateCookie: 'app', origin: 'https://contest.example', appOrigin: app, token: 'abc' })).toBe(
      `${app}/competitionList?electron=app&token=abc`,
    );
    expect(desktopRedirectTarget({ stateCookie: 'app', origin: 'https://contest.example', appOrigin: app })).toBe(`${app}/competitionList?electron=app`);
  });
  it('stays put without the state cookie or on the app’s own origin', () => {
    expect(desktopRedirectTarget({ origin: 'https://contest.example', appOrigin: app })).toBeNull();
    expect(desktopRedirectTarget({ stateCookie: 'app', origin: app, appOrigin: app })).toBeNull();
  });
});
