import { randomUUID } from 'node:crypto';
import type { LiveEvent } from '@rota/contract';
import type { EventBus } from '../../lib/event-bus.js';
import type { WorkSignal } from './claim-waiters.js';

/** NOTIFY channels (lower-case identifiers). */
export const CHANNELS = {
  work: 'rota_work',
  live: 'rota_live',
  agents: 'rota_agents',
  /** Tasks were created for these robots: every instance runs the queue trigger for them. */
  tasks: 'rota_tasks_created',
  /** A client's parameters changed: every instance drops what it cached of them. */
  parameters: 'rota_parameters',
} as const;

/** A client whose parameters every instance must read afresh. */
export interface ParametersChanged {
  c: number;
}

/** Robots that got new tasks, and the instance that created them (it checked at once). */
export interface TasksCreated {
  r: number[];
  i: string;
}

/** An agent whose cached identity every instance must drop (token rotated, agent deleted). */
export interface AgentChanged {
  a: number;
}

/** A console event with the client it belongs to; the stream forwards it to that client only. */
export interface ScopedLiveEvent {
  c: number;
  e: LiveEvent;
}

/** NOTIFY payloads must stay under 8,000 bytes. */
const MAX_PAYLOAD = 7000;
/**
 * Console events wait this long for company: at a thousand runs a second they go out in a few
 * dozen NOTIFYs a second instead of one per turn of the event loop (each NOTIFY is a
 * transaction). Wake-ups for agents never wait (they are sent the same turn).
 */
const LIVE_BATCH_MS = 20;

/**
 * Publishing is best effort: a lost notification costs a refetch, never a run. Messages of one
 * turn of the event loop go out together, as JSON arrays, so a burst of a thousand state
 * changes costs a handful of NOTIFYs instead of a thousand round trips.
 */
export class EnginePublisher {
  /** Tags this instance's wake-ups, so it can skip their echo (it woke its own agents at once). */
  readonly instance = randomUUID().slice(0, 8);
  private readonly pending = new Map<string, object[]>();
  private scheduled = false;
  private readonly livePending: object[] = [];
  private liveTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly bus: EventBus,
    private readonly onError: (error: unknown) => void,
  ) {}

  work(signal: WorkSignal) {
    this.enqueue(CHANNELS.work, { ...signal, i: this.instance });
  }

  agentChanged(agentId: number) {
    const message: AgentChanged = { a: agentId };
    this.enqueue(CHANNELS.agents, message);
  }

  parametersChanged(clientId: number) {
    const message: ParametersChanged = { c: clientId };
    this.enqueue(CHANNELS.parameters, message);
  }

  tasksCreated(robotIds: number[]) {
    const message: TasksCreated = { r: robotIds, i: this.instance };
    this.enqueue(CHANNELS.tasks, message);
  }

  live(clientId: number, event: LiveEvent) {
    const scoped: ScopedLiveEvent = { c: clientId, e: event };
    this.livePending.push(scoped);
    this.liveTimer ??= setTimeout(() => {
      this.liveTimer = null;
      this.send(CHANNELS.live, this.livePending.splice(0));
    }, LIVE_BATCH_MS);
    // Best effort: a closing process does not wait for the last batch.
    this.liveTimer.unref();
  }

  private enqueue(channel: string, message: object) {
    let list = this.pending.get(channel);
    if (!list) {
      list = [];
      this.pending.set(channel, list);
    }
    list.push(message);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush() {
    this.scheduled = false;
    for (const [channel, messages] of this.pending) this.send(channel, messages);
    this.pending.clear();
  }

  private send(channel: string, messages: readonly object[]) {
    let batch: string[] = [];
    let size = 2;
    const send = () => {
      if (batch.length === 0) return;
      this.bus.publish(channel, `[${batch.join(',')}]`).catch(this.onError);
      batch = [];
      size = 2;
    };
    for (const message of messages) {
      const json = JSON.stringify(message);
      if (size + json.length + 1 > MAX_PAYLOAD) send();
      batch.push(json);
      size += json.length + 1;
    }
    send();
  }
}

/** Every message of a batch (a lone object from an older instance counts as one). */
export function messagesOf<T>(payload: unknown): T[] {
  return (Array.isArray(payload) ? payload : [payload]) as T[];
}
