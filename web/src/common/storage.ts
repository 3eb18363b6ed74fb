/** Keys of what the browser keeps between pages (spec §4, §9). */
export const LOGIN_FLAG_KEY = 'isLogin';
export const LOGIN_REDIRECT_KEY = 'loginRedirect';
export const DESKTOP_TOKEN_KEY = 'token';
export const BRAND_ID_KEY = 'brandId';

export function readCookie(name: string): string | undefined {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

/** The desktop client marks itself with the state cookie `app` (spec §9). */
export function isDesktopApp(): boolean {
  return readCookie('state') === 'app';
}
