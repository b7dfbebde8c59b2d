import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MfaCodeBody } from '@rota/contract';
import { api } from '../../../lib/http';
import { authKeys } from '../../auth';
import { mfaKeys } from './keys';
import { MFA_BASE } from './paths';

/** POST disable `{code}` → message; refused while a client of the user requires the factor.
 * Quiet: a wrong code shows under the input, the page announces the success itself. */
export function disableMfa(body: MfaCodeBody): Promise<{ message: string }> {
  return api.post(`${MFA_BASE}/disable`, body, { quiet: true });
}

export function useDisableMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableMfa,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mfaKeys.all });
      void queryClient.invalidateQueries({ queryKey: authKeys.all });
    },
  });
}
