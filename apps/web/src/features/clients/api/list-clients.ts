import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Client, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { clientKeys, type ClientListBody } from './keys';
import { CLIENT_BASE } from './paths';

export type { ClientListBody };
export type ClientSort = NonNullable<ClientListBody['sort']>;

/** The columns `index` sorts by (clientListQuerySchema). */
export const CLIENT_SORTS = ['name', 'created_at'] as const satisfies readonly ClientSort[];

/**
 * POST index → `{data, meta}` with each client's member count. Quiet: a 403 (not a platform
 * administrator) is shown by the page as a denial, not as a popup.
 */
export function fetchClients(body: ClientListBody): Promise<ListResponse<Client>> {
  return api.post<ListResponse<Client>>(`${CLIENT_BASE}/index`, body, { quiet: true });
}

export function clientsQueryOptions(body: ClientListBody) {
  return queryOptions({
    queryKey: clientKeys.list(body),
    queryFn: () => fetchClients(body),
    placeholderData: keepPreviousData,
  });
}
