import { queryOptions } from '@tanstack/react-query';
import type { UserSession } from '@rota/contract';
import { api } from '../../../lib/http';
import { sessionKeys } from './keys';
import { SESSIONS_BASE } from './paths';

/** POST index → `{data}`: the caller's live sessions, newest first, `current` marks this one. */
export function fetchSessions(): Promise<{ data: UserSession[] }> {
  return api.post<{ data: UserSession[] }>(`${SESSIONS_BASE}/index`, {});
}

export function sessionsQueryOptions() {
  return queryOptions({ queryKey: sessionKeys.list(), queryFn: fetchSessions });
}
