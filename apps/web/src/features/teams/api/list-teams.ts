import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, Team } from '@rota/contract';
import { api } from '../../../lib/http';
import { teamKeys, type TeamListBody } from './keys';
import { TEAM_BASE } from './paths';

export type { TeamListBody };
export type TeamSort = NonNullable<TeamListBody['sort']>;

/** The columns `index` sorts by (teamListQuerySchema). */
export const TEAM_SORTS = ['name', 'created_at'] as const satisfies readonly TeamSort[];

/** POST index → `{data, meta}`, each team with its robot and user counts; search: name, description. */
export function fetchTeams(body: TeamListBody): Promise<ListResponse<Team>> {
  return api.post<ListResponse<Team>>(`${TEAM_BASE}/index`, body);
}

export function teamsQueryOptions(body: TeamListBody) {
  return queryOptions({
    queryKey: teamKeys.list(body),
    queryFn: () => fetchTeams(body),
    // The previous page stays on screen (dimmed) while the next one loads.
    placeholderData: keepPreviousData,
  });
}
