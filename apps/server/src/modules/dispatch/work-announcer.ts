import type { Db } from '../../db/client.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { queueTargetOfExecution } from '../executions/run-statements.js';
import type { NewExecution } from '../executions/row-statements.js';
import { ClaimWaiters, type WorkSignal } from './claim-waiters.js';
import { EmptyQueues } from './empty-queues.js';
import type { EnginePublisher } from './live-events.js';

/** A run just queued, as the statements that insert runs answer it. */
export interface QueuedRun {
  id: number;
  client: number;
  robot: number;
  vm_ids: number[] | null;
  /** What an agent must carry to take it. */
  labels: string[];
}

/**
 * Tells agents that work is queued: this instance's waiting claims at once, the other
 * instances through NOTIFY, consoles through live events. Whatever queues a run (the console,
 * a trigger, the scheduler, a retry, a claim given back) announces it here, which is also what
 * keeps the known-empty queues honest: a run that was never announced could wait a second.
 */
export class WorkAnnouncer {
  readonly waiters = new ClaimWaiters();

  readonly emptyQueues: EmptyQueues;

  constructor(
    private readonly db: Db,
    private readonly publish: EnginePublisher,
    clock: Clock = systemClock,
  ) {
    this.emptyQueues = new EmptyQueues(1000, () => clock.monotonicMs());
  }

  /** Wake-ups from any instance (NOTIFY) reach this instance's waiting agents. */
  onWork(signal: WorkSignal) {
    this.emptyQueues.queued(signal.c);
    this.waiters.signal(signal);
  }

  /** NOTIFY's connection dropped or listens again: an announcement may have been missed. */
  notifyGap(listening: boolean) {
    this.emptyQueues.listening(listening);
  }

  /** A run was committed to the queue: agents (here and elsewhere) and consoles hear of it. */
  queued(run: NewExecution, id: number) {
    this.queuedRuns([
      {
        id,
        client: run.rota_clients_id,
        robot: run.rota_robots_id,
        vm_ids: run.vm_ids,
        labels: [...run.labels],
      },
    ]);
  }

  /** Runs the scheduler or a queue trigger committed: each heard of as `queued` is. */
  queuedRuns(runs: readonly QueuedRun[]) {
    for (const run of runs) {
      this.announceQueued(run.client, run.vm_ids, 1, run.labels);
      this.publish.live(run.client, {
        type: 'execution',
        execution_id: run.id,
        rota_robots_id: run.robot,
        status: 'queued',
      });
    }
  }

  announceQueued(
    clientId: number,
    vmIds: number[] | null,
    count: number,
    labels: readonly string[] = [],
  ) {
    // Only agents carrying a run's labels are woken for it (the others' claims would find nothing).
    const signal: WorkSignal = {
      c: clientId,
      v: vmIds,
      n: count,
      ...(labels.length > 0 ? { l: [...labels] } : {}),
    };
    // This instance's agents at once; the others through NOTIFY (this one ignores its echo).
    this.emptyQueues.queued(clientId);
    this.waiters.signal(signal);
    this.publish.work(signal);
  }

  /** An execution is back in the queue (a retry, a claim given back): wake an agent for it. */
  async requeued(clientId: number, executionId: number) {
    const target = await queueTargetOfExecution(this.db, executionId).catch(() => null);
    this.announceQueued(clientId, target?.vm_ids ?? null, 1, target?.labels ?? []);
  }
}
