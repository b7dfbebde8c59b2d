import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { MAX_PAGE_SIZE, profileSortColumns, type ListResponse, type Profile } from '@rota/contract';
import { api } from '../../../lib/http';
import { profileKeys, type ProfileListBody } from './keys';
import { PROFILE_BASE } from './paths';

export type { ProfileListBody };

/** The columns `index` sorts by (profileListQuerySchema). */
export const PROFILE_SORTS = profileSortColumns;

/** POST index → `{data, meta}` of the selected client's profiles, each with its member count. */
export function fetchProfiles(body: ProfileListBody): Promise<ListResponse<Profile>> {
  return api.post<ListResponse<Profile>>(`${PROFILE_BASE}/index`, body);
}

export function profilesQueryOptions(body: ProfileListBody) {
  return queryOptions({
    queryKey: profileKeys.list(body),
    queryFn: () => fetchProfiles(body),
    placeholderData: keepPreviousData,
  });
}

/**
 * The selected client's profiles for a select, by name. A client holds a handful of profiles;
 * one full page covers them.
 */
export function profileOptionsQueryOptions() {
  return queryOptions({
    queryKey: profileKeys.options(),
    queryFn: async () =>
      (await fetchProfiles({ page: 1, per_page: MAX_PAGE_SIZE, sort: 'name', order: 'asc' }))
        .data ?? [],
    staleTime: 30_000,
  });
}
