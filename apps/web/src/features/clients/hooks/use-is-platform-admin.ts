import { useQuery } from '@tanstack/react-query';
import { ROUTE_PERMISSIONS, hasPermissions, type MeResponse } from '@rota/contract';
import { clientAccessQueryOptions } from '../api/client-access';

/**
 * Whether `user` is a platform administrator (may manage clients and access requests). Read
 * from `me` when it says so; otherwise from the clients `index`, which refuses everybody else.
 * Asked only of users who could open the clients page at all (its route permission).
 */
export function useIsPlatformAdmin(user: MeResponse | undefined): {
  isPlatformAdmin: boolean;
  isPending: boolean;
} {
  const flag = user ? (user as { is_platform_admin?: unknown }).is_platform_admin : undefined;
  const known = typeof flag === 'boolean';
  const eligible = !!user && hasPermissions(user.permissions, ROUTE_PERMISSIONS['/client']);
  const probe = useQuery({ ...clientAccessQueryOptions(), enabled: eligible && !known });
  if (!user) return { isPlatformAdmin: false, isPending: true };
  if (known) return { isPlatformAdmin: flag, isPending: false };
  if (!eligible) return { isPlatformAdmin: false, isPending: false };
  return { isPlatformAdmin: probe.data === true, isPending: probe.isPending };
}
