import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Agent, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { agentKeys, type AgentListBody } from './keys';
import { AGENT_BASE } from './paths';

export type { AgentListBody };
export type AgentSort = NonNullable<AgentListBody['sort']>;

/** The columns `index` sorts by (agentListQuerySchema). */
export const AGENT_SORTS = [
  'name',
  'last_seen_at',
  'created_at',
] as const satisfies readonly AgentSort[];

/**
 * Connectivity follows heartbeats (active while the last one is under 30 s old), so an open list
 * asks again now and then.
 */
export const AGENTS_REFRESH_MS = 30_000;

/** POST index with `rota_vms_id` and `connectivity` filters → `{data, meta}`. */
export function fetchAgents(body: AgentListBody): Promise<ListResponse<Agent>> {
  return api.post<ListResponse<Agent>>(`${AGENT_BASE}/index`, body);
}

export function agentsQueryOptions(body: AgentListBody) {
  return queryOptions({
    queryKey: agentKeys.list(body),
    queryFn: () => fetchAgents(body),
    placeholderData: keepPreviousData,
    refetchInterval: AGENTS_REFRESH_MS,
  });
}
