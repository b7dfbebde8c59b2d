import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgentUpdateRequest, agentAutoUpdateResponseSchema } from '@rota/contract';
import type { z } from 'zod';
import { api } from '../../../lib/http';
import { agentKeys } from './keys';
import { AGENT_BASE } from './paths';

export type AgentAutoUpdate = z.infer<typeof agentAutoUpdateResponseSchema>['data'];

/**
 * POST update `{ids} | {rota_vms_id} | {all: true}` → `{message, data: {requested}}`: those
 * agents update themselves between runs; the server's message says how many were asked.
 */
export function requestAgentUpdate(
  body: AgentUpdateRequest,
): Promise<{ message: string; data: { requested: number } }> {
  return api.post(`${AGENT_BASE}/update`, body, { announce: true });
}

export function useRequestAgentUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestAgentUpdate,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });
}

/** POST auto_update/show → whether the client's agents update on their own. */
export const autoUpdateQueryOptions = () =>
  queryOptions({
    queryKey: [...agentKeys.all, 'auto-update'] as const,
    queryFn: () =>
      api.post<{ data: AgentAutoUpdate }>(`${AGENT_BASE}/auto_update/show`, {}).then((r) => r.data),
  });

export function useSetAutoUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      api.post<{ data: AgentAutoUpdate }>(`${AGENT_BASE}/auto_update`, { enabled }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });
}
