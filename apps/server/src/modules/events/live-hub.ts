import type { LiveEvent } from '@rota/contract';
import type { EventBus } from '../../lib/event-bus.js';
import { CHANNELS, messagesOf, type ScopedLiveEvent } from '../dispatch/live-events.js';

type Listener = (event: LiveEvent) => void;

/**
 * One LISTEN per instance for the console's live events, fanned out to the open streams of
 * each client; events of one client never reach another client's streams.
 */
export class LiveHub {
  private readonly byClient = new Map<number, Set<Listener>>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly bus: EventBus) {}

  add(clientId: number, listener: Listener): () => void {
    this.unsubscribe ??= this.bus.subscribe(CHANNELS.live, (payload) => {
      for (const scoped of messagesOf<ScopedLiveEvent>(payload)) this.deliver(scoped);
    });
    let set = this.byClient.get(clientId);
    if (!set) {
      set = new Set();
      this.byClient.set(clientId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.byClient.delete(clientId);
    };
  }

  private deliver(scoped: ScopedLiveEvent) {
    if (typeof scoped?.c !== 'number' || !scoped.e) return;
    for (const listener of this.byClient.get(scoped.c) ?? []) listener(scoped.e);
  }

  close() {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.byClient.clear();
  }
}
