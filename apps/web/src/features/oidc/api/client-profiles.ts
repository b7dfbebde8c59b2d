import { queryOptions } from '@tanstack/react-query';
import type { ClientProfileOption } from '@rota/contract';
import { api } from '../../../lib/http';
import { oidcKeys } from './keys';

/**
 * POST `/rota/client/api/v1/profiles` `{id}` → `{data}`: one client's profiles (platform
 * administrators), since the profiles API lists only the selected client's.
 */
export function fetchClientProfiles(id: number): Promise<{ data: ClientProfileOption[] }> {
  return api.post(`/rota/client/api/v1/profiles`, { id });
}

export function clientProfilesQueryOptions(id: number) {
  return queryOptions({
    queryKey: oidcKeys.clientProfiles(id),
    queryFn: () => fetchClientProfiles(id),
    select: (answer) => answer.data,
  });
}
