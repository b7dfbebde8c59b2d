import { hasPermissions, type Permission } from '@rota/contract';
import { useCurrentUser } from './use-current-user';

/**
 * Whether the signed-in user holds every given permission, to hide buttons and row
 * actions they may not use; the server refuses them anyway.
 *
 *   const can = useCan();
 *   {can('ROBOS.CREATE') ? <Button>…</Button> : null}
 */
export function useCan(): (...required: Permission[]) => boolean {
  const { data: user } = useCurrentUser();
  return (...required) => hasPermissions(user?.permissions, required);
}
