import type { ReactNode } from 'react';
import { ROUTE_PERMISSIONS, hasPermissions, type ConsoleRoute } from '@rota/contract';
import { AccessDenied } from '../../../components/access-denied';
import { PageSkeleton } from '../../../components/page-skeleton';
import { useCurrentUser } from '../../auth';

/**
 * A page needs every permission its route lists; without a user (not signed in, or
 * `me` failed) it is denied. The server enforces the same rule on the API behind the page.
 */
export function PermissionGuard({ route, children }: { route: ConsoleRoute; children: ReactNode }) {
  const { data: user, isLoading } = useCurrentUser();
  if (isLoading) return <PageSkeleton />;
  if (!user || !hasPermissions(user.permissions, ROUTE_PERMISSIONS[route])) {
    return <AccessDenied />;
  }
  return children;
}
