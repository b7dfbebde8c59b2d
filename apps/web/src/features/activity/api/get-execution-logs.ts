import { queryOptions } from '@tanstack/react-query';
import type { ExecutionLogLine, ExecutionLogQuery, ExecutionLogResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { activityKeys } from './keys';
import { ACTIVITY_BASE } from './paths';

/** Lines the console keeps (and draws) of one execution's log: the newest ones. */
export const LOG_TAIL_LIMIT = 5000;
/** Lines asked per call. */
const LOG_PAGE = 1000;
/** Calls one refresh may make to catch up before it shows what it has. */
const MAX_ROUNDS = 10;

/** What the log view shows: the newest lines, oldest first, and where the next fetch starts. */
export type LogTail = {
  lines: ExecutionLogLine[];
  /** The seq of the newest line held; the next fetch asks for the lines after it. */
  cursor: number;
  /** Older lines were left out to keep LOG_TAIL_LIMIT. */
  truncated: boolean;
};

/** POST logs `{id, after, limit}` → lines with seq > after, oldest first, and `meta.last_seq`. */
export function fetchExecutionLogs(body: ExecutionLogQuery): Promise<ExecutionLogResponse> {
  // Quiet: the log view says so itself, and a tail that polls must not stack popups.
  return api.post<ExecutionLogResponse>(`${ACTIVITY_BASE}/logs`, body, { quiet: true });
}

/**
 * The log tail as a query that grows: each fetch reads the tail already cached and asks only for
 * the lines after its cursor, so a `log` live event (which invalidates this query) costs one small
 * call. A log far longer than the limit is not paged through: after a full page, when
 * `meta.last_seq` says more than LOG_TAIL_LIMIT lines are still ahead, it jumps to the last ones.
 */
export function executionLogsQueryOptions(id: number) {
  return queryOptions({
    queryKey: activityKeys.logs(id),
    queryFn: async ({ client, queryKey }): Promise<LogTail> => {
      const previous = client.getQueryData<LogTail>(queryKey);
      let lines = previous?.lines ?? [];
      let cursor = previous?.cursor ?? 0;
      let truncated = previous?.truncated ?? false;
      for (let round = 0; round < MAX_ROUNDS; round += 1) {
        const answer = await fetchExecutionLogs({ id, after: cursor, limit: LOG_PAGE });
        const fresh = answer.data.filter((line) => line.seq > cursor);
        for (const line of fresh) cursor = Math.max(cursor, line.seq);
        if (fresh.length > 0) lines = lines.concat(fresh);
        const newest = answer.meta.last_seq;
        if (answer.data.length >= LOG_PAGE && newest - cursor > LOG_TAIL_LIMIT) {
          lines = [];
          cursor = newest - LOG_TAIL_LIMIT;
          truncated = true;
          continue;
        }
        if (answer.data.length < LOG_PAGE) break;
      }
      if (lines.length > LOG_TAIL_LIMIT) {
        lines = lines.slice(-LOG_TAIL_LIMIT);
        truncated = true;
      }
      return { lines, cursor, truncated };
    },
    // Thousands of lines: comparing them deeply on every refetch would cost more than it saves.
    structuralSharing: false,
  });
}

/** Lines a search shows (the newest matches, oldest first). */
export const LOG_SEARCH_LIMIT = 1000;

/** The lines holding `search` (case-insensitive), refreshed like the tail. */
export function executionLogSearchQueryOptions(id: number, search: string) {
  return queryOptions({
    queryKey: activityKeys.logSearch(id, search),
    queryFn: async () =>
      (await fetchExecutionLogs({ id, after: 0, limit: LOG_SEARCH_LIMIT, search })).data,
  });
}
