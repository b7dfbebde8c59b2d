import type { AgentStreamOperation, ClaimedRun } from '@rota/contract';
import type { Waiter } from '../dispatch/claim-waiters.js';
import type { AgentIdentity } from '../dispatch/dispatch-service.js';
import type { AgentStreamServer, Stream } from './agent-stream.js';

/** A claim's body, as the stream's long poll reads it. */
export interface ClaimBody {
  wait_seconds: number;
  max?: number;
}

/** One message being answered. */
export interface Call {
  stream: Stream;
  id: number;
  op: AgentStreamOperation | 'unknown';
  started: number;
  /** Among the stream's pending calls until answered. */
  counted: boolean;
}

/**
 * A claim that found nothing, waiting for work between attempts. It is itself the
 * waiter among ClaimWaiters' and passes itself to its timer: parked, it holds no suspended async
 * function and no closure, ≈1 KB an idle agent where a claim held in an async frame took ≈5 KB.
 * Each attempt joins the waiters before its statement runs, so work queued meanwhile is not
 * missed, as in DispatchService.claimMany.
 */
export class LongPoll implements Waiter {
  woken = false;
  /** Set while parked between attempts. */
  private timer: NodeJS.Timeout | null = null;
  /** The last attempt's answer ("no work"), sent when the deadline comes. */
  private empty: unknown = null;

  constructor(
    private readonly server: AgentStreamServer,
    private readonly call: Call,
    private readonly agent: AgentIdentity,
    private readonly claim: ClaimBody,
    private readonly deadline: number,
  ) {}

  get vmId(): number {
    return this.agent.rota_vms_id;
  }

  get labels(): readonly string[] {
    return this.agent.labels;
  }

  start(): void {
    this.woken = false;
    this.server.waiters.join(this.agent.rota_clients_id, this);
    this.server.attempt(this.call, this.agent, this.call.op as 'claim', this.claim).then(
      (outcome) => this.attempted(outcome),
      (error: unknown) => {
        this.leave();
        this.server.answerError(this.call, error);
      },
    );
  }

  /** Work may be there (or the instance is stopping): the next attempt, now if parked. */
  wake(): void {
    if (this.woken) return;
    this.woken = true;
    // Woken during an attempt: seen when it ends.
    if (this.timer === null) return;
    this.unpark();
    // After the signal that woke it has gone through the waiters (it joins them again).
    queueMicrotask(() => this.start());
  }

  /** The stream closed: nobody to answer, and no run was handed to it. */
  drop(): void {
    this.unpark();
  }

  /** The deadline came with no work: "no work". */
  expire(): void {
    this.unpark();
    this.server.send(this.call, 200, this.empty);
  }

  private attempted({ answer, runs }: { answer: unknown; runs: ClaimedRun[] }): void {
    const left = this.deadline - Date.now();
    const { stream } = this.call;
    if (runs.length > 0 || left <= 0 || stream.closed || this.server.waiters.closed) {
      this.leave();
      return this.server.send(this.call, 200, answer, this.agent, runs);
    }
    if (this.woken) {
      this.leave();
      return this.start();
    }
    this.empty = answer;
    this.timer = setTimeout(expirePoll, left, this);
    (stream.parked ??= []).push(this);
  }

  private unpark(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.leave();
    const { stream } = this.call;
    const at = stream.parked?.indexOf(this) ?? -1;
    if (at >= 0) stream.parked!.splice(at, 1);
    if (stream.parked?.length === 0) stream.parked = null;
  }

  private leave(): void {
    this.server.waiters.leave(this.agent.rota_clients_id, this);
  }
}

function expirePoll(poll: LongPoll): void {
  poll.expire();
}
