import { queryOptions } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/http';
import { clientKeys } from './keys';
import { CLIENT_BASE } from './paths';

/**
 * Whether the signed-in user may manage clients. `me` does not say whether the user is a
 * platform administrator, so the clients `index` is asked for one row: it answers 403 to
 * everybody else. Quiet, because a refusal here is an answer, not a failure.
 */
export async function fetchClientAccess(): Promise<boolean> {
  try {
    await api.post(`${CLIENT_BASE}/index`, { page: 1, per_page: 1 }, { quiet: true });
    return true;
  } catch (error) {
    if (isApiError(error) && (error.status === 403 || error.status === 404)) return false;
    throw error;
  }
}

export function clientAccessQueryOptions() {
  return queryOptions({
    queryKey: clientKeys.access(),
    queryFn: fetchClientAccess,
    // Being a platform administrator does not change during a session.
    staleTime: Infinity,
  });
}
