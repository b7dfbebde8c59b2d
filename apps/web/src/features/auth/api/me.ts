import { queryOptions } from '@tanstack/react-query';
import type { MeResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { authKeys } from './keys';
import { AUTH_BASE } from './paths';

export function fetchMe(): Promise<MeResponse> {
  // The shell paints nothing before it has the user: not held back for the first paint.
  return api.post<MeResponse>(`${AUTH_BASE}/me`, undefined, { early: true });
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: authKeys.me(),
    queryFn: fetchMe,
    staleTime: 30_000,
  });
}
