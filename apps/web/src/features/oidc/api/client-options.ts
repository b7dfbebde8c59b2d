import { queryOptions } from '@tanstack/react-query';
import type { Client, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { oidcKeys } from './keys';

/** The clients to choose from (platform administrators): the clients `index`, by name. */
export function fetchClientOptions(search: string): Promise<ListResponse<Client>> {
  return api.post(`/rota/client/api/v1/index`, {
    search: search || undefined,
    sort: 'name',
    order: 'asc',
    per_page: 50,
  });
}

export function clientOptionsQueryOptions(search = '') {
  return queryOptions({
    queryKey: oidcKeys.clientOptions(search),
    queryFn: () => fetchClientOptions(search),
  });
}
