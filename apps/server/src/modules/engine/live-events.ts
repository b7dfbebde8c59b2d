import type { LiveEvent } from '@rota/contract';
import type { EventBus } from '../../lib/event-bus.js';
import type { WorkSignal } from './claim-waiters.js';

/** NOTIFY channels (lower-case identifiers). */
export const CHANNELS = { work: 'rota_work', live: 'rota_live' } as const;

/** A console event with the client it belongs to; the stream forwards it to that client only. */
export interface ScopedLiveEvent {
  c: number;
  e: LiveEvent;
}

/** Publishing is best effort: a lost notification costs a refetch, never a run. */
export class EnginePublisher {
  constructor(
    private readonly bus: EventBus,
    private readonly onError: (error: unknown) => void,
  ) {}

  work(signal: WorkSignal) {
    this.bus.publish(CHANNELS.work, signal).catch(this.onError);
  }

  live(clientId: number, event: LiveEvent) {
    const scoped: ScopedLiveEvent = { c: clientId, e: event };
    this.bus.publish(CHANNELS.live, scoped).catch(this.onError);
  }
}
