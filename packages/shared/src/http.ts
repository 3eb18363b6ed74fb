// What the browser's http client and pager need, kept free of zod: importing a constant from a module that also builds
// schemas brings the whole of zod onto the participant's first screen (ARCHITECTURE §9).

/** Names of the cookies the browser holds. */
export const SESSION_COOKIE = 'contest_token';
export const CSRF_COOKIE = 'contest_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export const PAGE_SIZES = [10, 20, 30, 50] as const;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
