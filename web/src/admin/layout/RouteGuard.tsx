import { routeAllowed, type AdminRoute } from '@contest/shared';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { usePermissions } from '../../common/auth.ts';

/** A page whose code the user lacks sends them to `/401`; the server refuses its calls as well. */
export function RouteGuard({ permission, children }: { permission?: AdminRoute['meta']['permission']; children: ReactNode }) {
  const { codes } = usePermissions();
  if (!routeAllowed(permission, codes)) return <Navigate to="/401" replace />;
  return <>{children}</>;
}
