/**
 * Cross-tab session messages. One channel per tab, used both to post and to listen: a
 * BroadcastChannel never receives its own messages, so a tab does not react to itself.
 */
export const SESSION_CHANNEL = 'rota-session';

export type SessionMessage = { type: 'sign-out' };

let channel: BroadcastChannel | null | undefined;

function getChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    // Old browsers (and some test environments) have no BroadcastChannel: stay single-tab.
    channel =
      typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);
  }
  return channel;
}

export function postSessionMessage(message: SessionMessage): void {
  getChannel()?.postMessage(message);
}

export function subscribeSessionMessages(handler: (message: SessionMessage) => void): () => void {
  const current = getChannel();
  if (!current) return () => {};
  const listener = (event: MessageEvent<unknown>) => {
    const data = event.data as Partial<SessionMessage> | null;
    if (data && data.type === 'sign-out') handler({ type: 'sign-out' });
  };
  current.addEventListener('message', listener);
  return () => current.removeEventListener('message', listener);
}

/** Tests swap BroadcastChannel for a fake; this drops the cached channel. */
export function resetSessionChannel(): void {
  channel?.close();
  channel = undefined;
}
