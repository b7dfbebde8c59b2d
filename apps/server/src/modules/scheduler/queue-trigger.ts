import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { WorkAnnouncer } from '../dispatch/work-announcer.js';
import type { EnginePublisher, TasksCreated } from '../dispatch/live-events.js';
import { messagesOf } from '../dispatch/live-events.js';
import { startQueueRuns, type QueueTriggeredRun } from '../executions/queue-run-statements.js';

/** Schedulings one transaction locks at most. */
const BATCH = 200;

export interface QueueTriggerOptions {
  /** Task creations within this many milliseconds are checked together. */
  debounceMs?: number;
  log: { error(obj: unknown, msg?: string): void };
}

/**
 * Work queues that start their robots (`trigger_type: queue`): while a robot has at
 * least `min_pending` due tasks, each active queue scheduling of it keeps up to
 * `max_concurrent` runs queued or processing. It reacts to task creation (here at once, on the
 * other instances through NOTIFY), debounced so a burst of tasks costs one pass, and EngineLoop
 * re-checks every scheduling each tick (runs that ended free slots; postponed tasks become due).
 * The database decides: the scheduling row is locked while its runs are counted and inserted,
 * so several instances never start more than `max_concurrent`.
 */
export class QueueTrigger {
  private readonly waiting = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private readonly debounceMs: number;

  constructor(
    private readonly db: Db,
    private readonly announcer: WorkAnnouncer,
    private readonly publish: EnginePublisher,
    private readonly clock: Clock,
    private readonly options: QueueTriggerOptions,
  ) {
    this.debounceMs = options.debounceMs ?? 50;
  }

  /** Tasks were committed for these robots on this instance: check here, and tell the others. */
  tasksCreated(robotIds: number[]) {
    if (robotIds.length === 0) return;
    this.publish.tasksCreated(robotIds);
    this.later(robotIds);
  }

  /**
   * A run of one of the robot's schedulings ended on this instance: a queue scheduling of it may
   * have a free slot (a robot without one costs one indexed lookup, debounced).
   */
  runEnded(robotId: number) {
    this.later([robotId]);
  }

  /** A CHANNELS.tasks notification (this instance skips its own echo: it checked already). */
  onNotified(payload: unknown) {
    for (const message of messagesOf<TasksCreated>(payload)) {
      if (message.i !== this.publish.instance && Array.isArray(message.r)) this.later(message.r);
    }
  }

  private later(robotIds: number[]) {
    if (this.stopped) return;
    for (const id of robotIds) this.waiting.add(id);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      const robots = [...this.waiting];
      this.waiting.clear();
      this.enqueue(() => this.check(robots)).catch((error: unknown) =>
        this.options.log.error({ err: error }, 'queue trigger failed'),
      );
    }, this.debounceMs);
  }

  /** One check at a time per instance (other instances are kept apart by the row locks). */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /**
   * Queues the runs the queue schedulings of these robots (null: all of them) are short of, and
   * wakes agents for them. Answers the runs queued.
   */
  async check(robotIds: number[] | null): Promise<QueueTriggeredRun[]> {
    const all: QueueTriggeredRun[] = [];
    // A batch at a time, each its own transaction, so locks are short and every one is seen.
    for (let afterId = 0; ;) {
      const pass = await this.db.transaction(async (txRaw) =>
        startQueueRuns(txRaw as unknown as Db, robotIds, this.clock.now(), {
          size: BATCH,
          afterId,
        }),
      );
      this.announcer.queuedRuns(pass.runs);
      all.push(...pass.runs);
      if (pass.locked < BATCH) return all;
      afterId = pass.lastId;
    }
  }

  /** The periodic re-check (EngineLoop.tick): every active queue scheduling, in batches. */
  async checkAll(): Promise<number> {
    return (await this.enqueue(() => this.check(null))).length;
  }

  /** Resolves when the checks asked for so far (debounced ones included) have run. */
  async settled(): Promise<void> {
    while (this.timer || this.waiting.size > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await this.chain;
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.waiting.clear();
    await this.chain;
  }
}
