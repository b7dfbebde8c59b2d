import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { invalidateAfterTeamChange } from './invalidate-after-team-change';
import { TEAM_BASE } from './paths';

/** POST delete `{id}` → 202; its members see every robot again unless in another team. */
export function deleteTeam(id: number): Promise<{ message: string }> {
  return api.post(`${TEAM_BASE}/delete`, { id });
}

export function useDeleteTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTeam,
    onSuccess: () => invalidateAfterTeamChange(queryClient),
  });
}
