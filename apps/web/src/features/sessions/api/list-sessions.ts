import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, SessionListQuery, UserSession } from '@rota/contract';
import { api } from '../../../lib/http';
import { sessionKeys } from './keys';
import { SESSIONS_BASE } from './paths';

/**
 * POST index → `{data, meta}`: a page of the caller's live sessions, this one first (`current`),
 * then the others newest first.
 */
export function fetchSessions(body: SessionListQuery): Promise<ListResponse<UserSession>> {
  return api.post<ListResponse<UserSession>>(`${SESSIONS_BASE}/index`, body);
}

export function sessionsQueryOptions(body: SessionListQuery) {
  return queryOptions({
    queryKey: sessionKeys.list(body),
    queryFn: () => fetchSessions(body),
    placeholderData: keepPreviousData,
  });
}
