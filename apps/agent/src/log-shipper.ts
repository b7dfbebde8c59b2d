import {
  runMessageText,
  type AgentLogBatch,
  type AgentLogLine,
  type AgentRunRef,
  type LogStream,
  type RunMessageCode,
  type RunMessageParams,
} from '@rota/contract';
import { pause } from './backoff.js';
import { errorMessage, type Logger } from './logger.js';
import { MAX_LINE_CHARS } from './line-splitter.js';
import {
  ProtocolGaveUpError,
  ProtocolRejectedError,
  UnauthorizedError,
} from './protocol-client.js';

/** A line the agent itself writes, as a run-message code and values (contract run-messages.ts). */
export interface RunMessage {
  code: RunMessageCode;
  params: RunMessageParams;
}

/** The English text stored beside a code, and the code itself. */
export const runMessage = (code: RunMessageCode, params: RunMessageParams = {}) => ({
  text: runMessageText(code, params),
  message: { code, params } satisfies RunMessage,
});

interface LogShipperOptions {
  ref: AgentRunRef;
  send: (
    batch: AgentLogBatch,
    signal: AbortSignal,
  ) => Promise<{ cancel: boolean; stop_grace_seconds?: number | null }>;
  /** The server answered `cancel: true`; with a grace when it asks for a graceful stop. */
  onCancel: (graceSeconds?: number) => void;
  /** Aborted when delivery must end (the agent is quitting): unsent lines are then lost. */
  signal: AbortSignal;
  logger: Logger;
  /** Send this often when there are lines. */
  flushMs?: number;
  /** Send at least this often, an empty batch if need be: its answer is how a cancel arrives. */
  idleFlushMs?: number;
  /** Lines kept while the server is unreachable; older ones are dropped beyond that. */
  maxPending?: number;
  /** Lines per call (the protocol's maximum). */
  maxBatch?: number;
}

interface PendingLine {
  line: AgentLogLine;
  /** A notice standing for this many dropped lines. */
  dropped?: number;
  /** A notice that a batch was refused: never itself followed by another such notice. */
  refusal?: boolean;
}

/**
 * The output of one attempt, numbered from seq 1 and sent in batches. A batch is retried until
 * the server took it; seq makes a repeated batch harmless.
 */
export class LogShipper {
  private seq = 0;
  private pending: PendingLine[] = [];
  /** How many lines at the head of `pending` are being sent right now. */
  private inFlight = 0;
  private lastSentAt = Date.now();
  private closing = false;
  /** Ends the current pause: aborted by `flush` (then replaced) and for good by `drain`. */
  private wake = new AbortController();
  private loop: Promise<void> | null = null;

  private readonly flushMs: number;
  private readonly idleFlushMs: number;
  private readonly maxPending: number;
  private readonly maxBatch: number;

  constructor(private readonly options: LogShipperOptions) {
    this.flushMs = options.flushMs ?? 500;
    this.idleFlushMs = options.idleFlushMs ?? 3_000;
    this.maxPending = options.maxPending ?? 20_000;
    this.maxBatch = options.maxBatch ?? 5_000;
  }

  /** Starts the periodic sending; call once the robot's process is about to run. */
  start(): void {
    this.loop ??= this.run();
  }

  /** `message`: a system line's run-message code and values, shown in the user's language. */
  push(stream: LogStream, text: string, message?: RunMessage): void {
    this.seq += 1;
    const line = text.length > MAX_LINE_CHARS ? text.slice(0, MAX_LINE_CHARS) : text;
    const at = new Date().toISOString();
    this.pending.push({ line: { seq: this.seq, stream, line, at, ...message } });
    if (this.pending.length > this.maxPending) this.dropOldest();
  }

  /**
   * Sends what is pending now rather than at the next tick: the run is over, and its lines
   * may travel while its result is written down.
   */
  flush(): void {
    this.wake.abort();
  }

  /** Stops the timer and sends what is left; resolves when all is sent or the signal ended it. */
  async drain(): Promise<void> {
    this.closing = true;
    this.wake.abort();
    await this.loop;
    while (this.pending.length > 0 && !this.options.signal.aborted) await this.sendBatch();
  }

  private async run(): Promise<void> {
    while (!this.closing && !this.options.signal.aborted) {
      await pause(this.flushMs, AbortSignal.any([this.wake.signal, this.options.signal]));
      if (this.closing || this.options.signal.aborted) return;
      if (this.wake.signal.aborted) this.wake = new AbortController();
      if (this.pending.length > 0 || Date.now() - this.lastSentAt >= this.idleFlushMs) {
        await this.sendBatch();
      }
    }
  }

  private async sendBatch(): Promise<void> {
    const batch = this.pending.slice(0, this.maxBatch);
    this.inFlight = batch.length;
    try {
      const answer = await this.options.send(
        { ...this.options.ref, lines: batch.map((p) => p.line) },
        this.options.signal,
      );
      this.pending.splice(0, batch.length);
      this.lastSentAt = Date.now();
      if (answer.cancel) this.options.onCancel(answer.stop_grace_seconds ?? undefined);
    } catch (error) {
      if (this.options.signal.aborted || error instanceof UnauthorizedError) {
        // Ends the run's delivery: nothing more can be sent.
        this.pending = [];
        return;
      }
      // The server will not take this batch as it is (the attempt is no longer current…):
      // dropping it keeps the rest of the output flowing.
      const why =
        error instanceof ProtocolRejectedError || error instanceof ProtocolGaveUpError
          ? error.message
          : `logs: ${errorMessage(error)}`;
      this.options.logger.warn(
        `execution ${this.options.ref.execution_id}: ${batch.length} log lines not delivered (${why})`,
      );
      this.pending.splice(0, batch.length);
      this.lastSentAt = Date.now();
      // Said in the run's own log, so whoever reads it knows lines are missing — once: a
      // refused notice is not announced by another.
      if (!batch.every((p) => p.refusal)) this.pushRefusal(batch.length, why);
    } finally {
      this.inFlight = 0;
    }
  }

  private pushRefusal(count: number, why: string): void {
    this.seq += 1;
    this.pending.push({
      refusal: true,
      line: {
        seq: this.seq,
        stream: 'system',
        line: runMessageText('lines_refused', { count, why }).slice(0, 1000),
        at: new Date().toISOString(),
        code: 'lines_refused',
        params: { count, why: why.slice(0, 500) },
      },
    });
  }

  /**
   * Replaces a chunk of the oldest unsent lines with one notice that says how many were lost;
   * the notice takes the seq of the last line it replaces, so the order stays right. A tenth of
   * the buffer goes at once, so this is not paid for every new line.
   */
  private dropOldest(): void {
    const start = this.inFlight;
    const excess = this.pending.length - this.maxPending;
    const count = Math.min(
      this.pending.length - start - 1,
      excess + Math.ceil(this.maxPending / 10),
    );
    if (count <= 0) return;
    const removed = this.pending.splice(start, count);
    const dropped = removed.reduce((n, p) => n + (p.dropped ?? 1), 0);
    const last = removed[removed.length - 1] as PendingLine;
    this.pending.splice(start, 0, {
      dropped,
      line: {
        seq: last.line.seq,
        stream: 'system',
        line: runMessageText('lines_dropped', { count: dropped }),
        at: last.line.at,
        code: 'lines_dropped',
        params: { count: dropped },
      },
    });
  }
}
