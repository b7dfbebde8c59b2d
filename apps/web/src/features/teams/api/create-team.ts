import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Team, TeamCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { invalidateAfterTeamChange } from './invalidate-after-team-change';
import { TEAM_BASE } from './paths';

/**
 * POST create `{name, description, robots, users}` → 201 `{message, data}`; 409
 * `duplicate_team_name` on `name`, 400 `robot_not_found` / `user_not_found` on the sets.
 */
export function createTeam(body: TeamCreate): Promise<{ message: string; data: Team }> {
  return api.post(`${TEAM_BASE}/create`, body);
}

export function useCreateTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTeam,
    onSuccess: () => invalidateAfterTeamChange(queryClient),
  });
}
