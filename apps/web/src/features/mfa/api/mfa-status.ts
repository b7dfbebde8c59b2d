import { queryOptions } from '@tanstack/react-query';
import type { MfaStatus } from '@rota/contract';
import { api } from '../../../lib/http';
import { mfaKeys } from './keys';
import { MFA_BASE } from './paths';

/** POST status → whether the factor is on, since when, recovery codes left, whether required. */
export function fetchMfaStatus(): Promise<MfaStatus> {
  return api.post<MfaStatus>(`${MFA_BASE}/status`, {});
}

export function mfaStatusQueryOptions() {
  return queryOptions({ queryKey: mfaKeys.status(), queryFn: fetchMfaStatus });
}
