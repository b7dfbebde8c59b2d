import { queryOptions } from '@tanstack/react-query';
import type { AlertFeed } from '@rota/contract';
import { api } from '../../../lib/http';
import { alertKeys } from './keys';
import { ALERT_FEED_BASE } from './paths';

/** Entries the bell lists. */
export const FEED_LIMIT = 20;

/**
 * POST index `{limit}` → `{data, unread}`. Quiet: the bell is on every page, and a failure of it
 * is not worth a popup over the page's own work (the icon just shows no count).
 */
export async function fetchAlertFeed(): Promise<AlertFeed> {
  return api.post<AlertFeed>(`${ALERT_FEED_BASE}/index`, { limit: FEED_LIMIT }, { quiet: true });
}

export function alertFeedQueryOptions() {
  return queryOptions({
    queryKey: alertKeys.feed(),
    queryFn: fetchAlertFeed,
    // `alert` live events invalidate it; a stream that reconnects refetches on focus anyway.
    staleTime: 60_000,
    retry: false,
  });
}
