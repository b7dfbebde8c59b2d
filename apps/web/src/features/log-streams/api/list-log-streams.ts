import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, LogStreamConfig } from '@rota/contract';
import { api } from '../../../lib/http';
import { logStreamKeys, type LogStreamListBody } from './keys';
import { LOG_STREAM_BASE } from './paths';

export type { LogStreamListBody };
export type LogStreamSort = NonNullable<LogStreamListBody['sort']>;

/** The columns `index` sorts by (logStreamListQuerySchema). */
export const LOG_STREAM_SORTS = ['name', 'created_at'] as const satisfies readonly LogStreamSort[];

/** POST index → `{data, meta}`; search runs over the name and the host. */
export function fetchLogStreams(body: LogStreamListBody): Promise<ListResponse<LogStreamConfig>> {
  return api.post<ListResponse<LogStreamConfig>>(`${LOG_STREAM_BASE}/index`, body);
}

export function logStreamsQueryOptions(body: LogStreamListBody) {
  return queryOptions({
    queryKey: logStreamKeys.list(body),
    queryFn: () => fetchLogStreams(body),
    placeholderData: keepPreviousData,
  });
}
