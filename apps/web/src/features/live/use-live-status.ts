import { useSyncExternalStore } from 'react';
import { liveConnection, type LiveStatus } from './live-connection';

/** The stream's state, for the "Ao vivo" indicator and for polling while it is down. */
export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(
    liveConnection.subscribeStatus,
    liveConnection.getStatus,
    () => 'idle' as const,
  );
}
