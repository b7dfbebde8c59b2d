import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MfaCodeBody, MfaRecoveryCodes } from '@rota/contract';
import { api } from '../../../lib/http';
import { authKeys } from '../../auth';
import { mfaKeys } from './keys';
import { MFA_BASE } from './paths';

/** POST enrol/confirm `{code}` → the 10 recovery codes, shown once; the factor is on. */
export function confirmEnrolment(body: MfaCodeBody): Promise<MfaRecoveryCodes> {
  return api.post<MfaRecoveryCodes>(`${MFA_BASE}/enrol/confirm`, body, { quiet: true });
}

export function useConfirmEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEnrolment,
    gcTime: 0,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: mfaKeys.all });
      void queryClient.invalidateQueries({ queryKey: authKeys.all });
    },
  });
}
