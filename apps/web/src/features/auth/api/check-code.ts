import { queryOptions } from '@tanstack/react-query';
import type { MessageResponse } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { authKeys } from './keys';
import { AUTH_BASE } from './paths';

export function checkCode(code: string): Promise<MessageResponse> {
  return plainApi.post<MessageResponse>(`${AUTH_BASE}/check-code`, { code });
}

/** Checked once per visit of the change-password page: a code's validity changes with time. */
export function checkCodeQueryOptions(code: string) {
  return queryOptions({
    queryKey: authKeys.checkCode(code),
    queryFn: () => checkCode(code),
    staleTime: Infinity,
    gcTime: 0,
  });
}
