/**
 * Spec §2.1: entering `competitionList` in a browser that carries the desktop client's state cookie
 * (`state=app`) while not on the desktop app's own origin sends the user to the desktop app's
 * `competitionList` with `electron=app`, and the token when there is one.
 */
export function desktopRedirectTarget(env: { stateCookie?: string; origin: string; appOrigin?: string; token?: string | null }): string | null {
  if (env.stateCookie !== 'app' || !env.appOrigin || env.origin === env.appOrigin) return null;
  const url = new URL('/competitionList', env.appOrigin);
  url.searchParams.set('electron', 'app');
  if (env.token) url.searchParams.set('token', env.token);
  return url.toString();
}
