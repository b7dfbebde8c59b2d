import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { agentKeys } from './keys';
import { AGENT_BASE } from './paths';

/**
 * POST rotate_token `{id}` → 200 `{message, data: {token}}`: a new token, shown this once; the
 * old one stops working. `announce` shows the server's message like the other answers' popups.
 */
export function rotateAgentToken(
  id: number,
): Promise<{ message: string; data: { token: string } }> {
  return api.post(`${AGENT_BASE}/rotate_token`, { id }, { announce: true });
}

export function useRotateAgentToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateAgentToken,
    // The answer holds a token: once the page has read it, nothing should keep it around.
    gcTime: 0,
    // The agent disconnects until restarted with the new token.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });
}
