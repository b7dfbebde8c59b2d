import { useMutation } from '@tanstack/react-query';
import type { MfaEnrolment } from '@rota/contract';
import { api } from '../../../lib/http';
import { MFA_BASE } from './paths';

/** POST enrol/start → a new secret with its QR code (replaces a pending unconfirmed one). */
export function startEnrolment(): Promise<MfaEnrolment> {
  return api.post<MfaEnrolment>(`${MFA_BASE}/enrol/start`, {}, { quiet: true });
}

export function useStartEnrolment() {
  // The answer holds the secret: nothing should keep it once the page has read it.
  return useMutation({ mutationFn: startEnrolment, gcTime: 0 });
}
