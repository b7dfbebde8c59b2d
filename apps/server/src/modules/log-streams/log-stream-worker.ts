import type { Db } from '../../db/client.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { EventBus } from '../../lib/event-bus.js';
import { DESTINATION_NOT_ALLOWED, type OutboundPolicy } from '../../lib/outbound-address.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { nextAttemptAt } from '../alerts/alert-worker.js';
import { findLogStreamById, type LogStreamRow } from './repository.js';
import { formatSyslog, sendSyslog, type SendResult, type SyslogEvent } from './syslog.js';
import {
  lockDueMessages,
  recordFailure,
  removeDelivered,
  streamsWithDueMessages,
  type LockedMessage,
} from './worker-repository.js';

const BATCH = 200;

/** The channel the outbox's triggers notify when they add a message. */
export const LOG_STREAM_CHANNEL = 'rota_log_stream';

const FAILED_RUN_STATUSES = new Set(['business_error', 'application_error', 'timeout']);

/** Warning for a run that failed, notice for an audit record, informational otherwise. */
function severityOf(kind: string, data: Record<string, unknown>): number {
  if (kind === 'audit') return 5;
  if (kind === 'execution.finished' && FAILED_RUN_STATUSES.has(String(data.status))) return 4;
  return 6;
}

/** What one outbox row says to the receiver: its ids, its kind, its time, its content. */
export function eventOf(message: {
  event_uid: string;
  client: number;
  kind: string;
  occurred_at: Date | string;
  data: Record<string, unknown>;
}): SyslogEvent {
  const occurred = new Date(message.occurred_at);
  return {
    kind: message.kind,
    occurred_at: occurred,
    severity: severityOf(message.kind, message.data),
    body: {
      id: message.event_uid,
      type: message.kind,
      occurred_at: occurred.toISOString(),
      rota_clients_id: message.client,
      ...message.data,
    },
  };
}

export interface LogStreamWorkerOptions {
  clock?: Clock;
  secretBox: SecretBox;
  outbound: OutboundPolicy;
  bus?: EventBus;
  log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** The pass that catches what a lost notification left (retries are due by the clock). */
  intervalMs?: number;
}

/**
 * The log streams' worker: each pass sends every stream's due messages on one connection per
 * stream, oldest first, and retries a stream that failed on the alerts' schedule (10 s, 30 s,
 * 2 min, 10 min, then hourly, given up after a day). Every instance runs one; row locks keep two
 * from sending one message at once. A trigger's NOTIFY starts a pass at once.
 */
export class LogStreamWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private again = false;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: LogStreamWorkerOptions,
  ) {}

  private now(): Date {
    return (this.options.clock ?? systemClock).now();
  }

  /** One pass over the streams with due messages. Tests call it directly. */
  async tick(): Promise<void> {
    for (const stream of await streamsWithDueMessages(this.db, this.now())) {
      if (this.stopped) return;
      await this.sendStream(stream);
    }
  }

  /** Sends one message to a stream now, outside the outbox: the "test" button. */
  async sendTest(row: LogStreamRow, event: SyslogEvent): Promise<SendResult> {
    const result = await this.send(row, [formatSyslog(event)]);
    if (!result.ok) {
      this.options.log.warn(
        { stream: row.rota_log_streams_id, test: true, detail: result.error },
        'log stream not delivered',
      );
    }
    return result;
  }

  private async sendStream(streamId: number): Promise<void> {
    const row = await findLogStreamById(this.db, streamId);
    if (!row) return; // deleted meanwhile: its messages went with it
    for (;;) {
      const locked = await lockDueMessages(this.db, streamId, this.now(), BATCH);
      if (locked.length === 0) return;
      let result: SendResult;
      try {
        result = await this.send(
          row,
          locked.map((m) => formatSyslog(eventOf(m))),
        );
      } catch (error) {
        this.options.log.warn({ err: error, stream: streamId }, 'log stream send failed');
        result = { ok: false, error: 'internal error' };
      }
      if (result.ok) {
        await removeDelivered(
          this.db,
          locked.map((m) => m.id),
        );
        if (locked.length < BATCH || this.stopped) return;
        continue;
      }
      await this.failed(streamId, locked, result.error);
      return;
    }
  }

  private async failed(streamId: number, locked: LockedMessage[], error: string) {
    const now = this.now();
    this.options.log.warn(
      { stream: streamId, messages: locked.length, detail: error },
      'log stream not delivered',
    );
    await recordFailure(
      this.db,
      locked.map((m) => {
        const first = m.first_attempt_at ? new Date(m.first_attempt_at) : now;
        return {
          id: m.id,
          first_attempt_at: first,
          next: nextAttemptAt(m.attempts + 1, first, now),
        };
      }),
      // Only whether the guard refused it is kept; the transport's words stay in the log.
      error === DESTINATION_NOT_ALLOWED ? DESTINATION_NOT_ALLOWED : 'not_delivered',
    );
  }

  private send(row: LogStreamRow, messages: string[]): Promise<SendResult> {
    const ca = row.ca_certificate ? this.options.secretBox.open(row.ca_certificate) : null;
    return sendSyslog(
      { transport: row.transport === 'tls' ? 'tls' : 'tcp', host: row.host, port: row.port, ca },
      messages,
      this.options.outbound,
    );
  }

  /** Runs a pass now, or right after the one running. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const interval = this.options.intervalMs ?? 5000;
    this.running = this.tick()
      .catch((err: unknown) => this.options.log.error({ err }, 'log stream worker pass failed'))
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          this.timer = setTimeout(() => this.wake(), interval);
        }
      });
  }

  start() {
    this.unsubscribe = this.options.bus?.subscribe(LOG_STREAM_CHANNEL, () => this.wake()) ?? null;
    this.wake();
  }

  async stop() {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
