import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import type { LiveEvent } from '@rota/contract';
import { liveConnection, type LiveStatus } from './live-connection';

/**
 * Calls `handler` for every live event while the component is mounted (and `enabled`). The
 * shell already refreshes the queries events touch; this is for what a page does beyond that.
 */
export function useLiveEvents(handler: (event: LiveEvent) => void, enabled = true): void {
  const onEvent = useEffectEvent(handler);
  useEffect(() => {
    if (!enabled) return undefined;
    return liveConnection.subscribe((event) => onEvent(event));
  }, [enabled]);
}

/** The stream's state, for the "Ao vivo" indicator and for polling while it is down. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    liveConnection.subscribeStatus,
    liveConnection.getStatus,
    () => 'idle' as const,
  );
}
