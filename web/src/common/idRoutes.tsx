import { Navigate, Outlet, matchRoutes, useLocation, type RouteObject } from 'react-router';

/**
 * An id in an address is digits (spec §2.1 `competitionList/:brandId` (digits), §2.3 `/competition/edit/:competitionId`
 * (digits)). At most 15 of them, so that the number is exact in JavaScript.
 */
export const ID_PATTERN = /^\d{1,15}$/;

/** The parameters that hold an id: `id` and every name ending in `Id` (`brandId`, `teamId`, `assignmentId`…). */
export const isIdName = (name: string) => name === 'id' || name.endsWith('Id');

/** What a route may declare in its `handle`: the ids it takes from the query (`/question/questionWorks?questionId=`). */
export interface IdRouteHandle {
  queryIds?: string[];
}

/**
 * Whether the address matched by `routes` carries an id that is not digits: a route parameter named as an id, or a
 * query parameter the matched route declares it takes (which it then requires).
 */
export function hasBadId(routes: RouteObject[], location: { pathname: string; search: string }): boolean {
  const matches = matchRoutes(routes, location.pathname);
  if (!matches?.length) return false;
  // Child routes see their parents' parameters: the deepest match has them all.
  const params = matches[matches.length - 1]!.params;
  if (Object.entries(params).some(([name, value]) => isIdName(name) && !ID_PATTERN.test(value ?? ''))) return true;
  const query = new URLSearchParams(location.search);
  return matches.some(({ route }) => ((route.handle as IdRouteHandle | undefined)?.queryIds ?? []).some((name) => !ID_PATTERN.test(query.get(name) ?? '')));
}

/** Renders the matched page, or the 404 page when its address has an id that is not digits. */
function IdGuard({ routes }: { routes: RouteObject[] }) {
  const location = useLocation();
  if (hasBadId(routes, location)) return <Navigate to="/404" replace />;
  return <Outlet />;
}

/**
 * Every entry's routes (site, back office, review centre) go through this: an address whose id is not digits goes
 * straight to `/404`, before any page or layout mounts, so nothing is asked of the server with it and no error is
 * shown. A page therefore never has to check its ids itself, and a new route with an id is covered by its name alone.
 * `root` is what else the guarding route needs (the back office's error element).
 */
export function guardIds(routes: RouteObject[], root: Pick<RouteObject, 'errorElement'> = {}): RouteObject[] {
  return [{ ...root, element: <IdGuard routes={routes} />, children: routes }];
}
