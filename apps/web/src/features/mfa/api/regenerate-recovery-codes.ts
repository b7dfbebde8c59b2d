import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MfaCodeBody, MfaRecoveryCodes } from '@rota/contract';
import { api } from '../../../lib/http';
import { mfaKeys } from './keys';
import { MFA_BASE } from './paths';

/** POST recovery-codes `{code}` → 10 new codes; the old ones stop working. */
export function regenerateRecoveryCodes(body: MfaCodeBody): Promise<MfaRecoveryCodes> {
  return api.post<MfaRecoveryCodes>(`${MFA_BASE}/recovery-codes`, body, { quiet: true });
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateRecoveryCodes,
    gcTime: 0,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: mfaKeys.all }),
  });
}
