import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { invalidateAfterTeamChange } from './invalidate-after-team-change';
import { TEAM_BASE } from './paths';

/** PUT update `{id, ...changes}` → 204; `robots` / `users`, when sent, replace the whole sets. */
export function updateTeam(body: TeamUpdate): Promise<void> {
  return api.put<void>(`${TEAM_BASE}/update`, body);
}

export function useUpdateTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTeam,
    onSuccess: () => invalidateAfterTeamChange(queryClient),
  });
}
