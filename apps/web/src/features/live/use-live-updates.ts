import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { liveConnection } from './live-connection';
import { createLiveInvalidator } from './live-invalidation';

/**
 * The shell's side of live updates: while a user is signed in (`scope`, the selected client, is
 * known), one stream is open and its events refresh the queries they touch. Unmounting the shell
 * (sign-out, a 401) closes it; another client opens a new one.
 */
export function useLiveUpdates(scope: number | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (scope === undefined) return undefined;
    const invalidator = createLiveInvalidator(queryClient);
    const unsubscribe = liveConnection.subscribe(invalidator.handle);
    const unsubscribeReconnect = liveConnection.subscribeReconnect(invalidator.refreshAll);
    liveConnection.start(String(scope));
    return () => {
      unsubscribe();
      unsubscribeReconnect();
      invalidator.dispose();
      liveConnection.stop();
    };
  }, [scope, queryClient]);
}
