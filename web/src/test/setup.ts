/**
 * For the web tests (files with a DOM): a page's first render loads lazy chunks and antd, which on CI's two shared
 * cores can take longer than Testing Library's default second. `findBy…` and `waitFor` wait up to ten seconds; they
 * return as soon as what they look for is there, so a fast machine waits no longer.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 10_000 });
}
export {};
