import type { Db } from '../../db/client.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import type { AgentPresenceService } from '../agents/presence-service.js';
import type { TaskService } from '../tasks/service.js';
import type { DispatchTimings } from '../dispatch/dispatch-service.js';
import type { Settlements } from '../dispatch/settlements.js';
import type { WorkAnnouncer } from '../dispatch/work-announcer.js';
import { dutyOlderThan, markDuty } from './engine-state-repository.js';
import {
  extendRunningLeases,
  flagStalled,
  lockExpiredLeases,
  lockStalledRuns,
} from '../executions/lease-statements.js';
import { queueDueSchedulings } from './due-schedulings.js';
import { settleAbandoned } from '../executions/settle-statements.js';
import type { EnginePublisher } from '../dispatch/live-events.js';

const REAPER_KEY = 'reaper';
const BATCH = 200;

export interface EngineLoopOptions {
  /** Milliseconds between two ticks; each instance ticks on its own. */
  intervalMs: number;
  log: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
  /** The queue trigger's periodic re-check (queue-trigger.ts). */
  queueTrigger?: { checkAll(): Promise<number> };
  /** What time it is for cron schedulings and calendars (the system's when left out). */
  clock?: Clock;
  /**
   * Maintenance over the cluster: answers true when due schedulings must queue nothing now (the
   * maintenance module lists them as skipped and leaves them due).
   */
  holdDueSchedulings?: (now: Date) => Promise<boolean>;
}

/**
 * What every instance does every second, coordinated only through the database: queue due
 * schedulings (each exactly once: SKIP LOCKED), settle runs whose agent vanished (lease out),
 * expire tasks, announce agents that went quiet. No leader: whichever instance locks a row
 * handles it.
 */
export class EngineLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      timings: DispatchTimings;
      announcer: WorkAnnouncer;
      settlements: Settlements;
      presence: AgentPresenceService;
      tasks: TaskService;
      publish: EnginePublisher;
    },
    private readonly options: EngineLoopOptions,
  ) {}

  /**
   * When every instance was down longer than a lease, no agent could heartbeat: give running
   * executions one lease to report before they count as lost (their results may be waiting
   * in an agent's outbox).
   */
  async recover(): Promise<number> {
    const lease = this.deps.timings.leaseSeconds;
    if (!(await dutyOlderThan(this.db, REAPER_KEY, lease))) return 0;
    const extended = await extendRunningLeases(this.db, lease);
    if (extended > 0) {
      this.options.log.info(
        { executions: extended },
        'engine: gave running executions one lease to report after a restart',
      );
    }
    return extended;
  }

  start() {
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch((error: unknown) => this.options.log.error({ err: error }, 'engine tick failed'))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(loop, this.options.intervalMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One pass of every duty; tests call it directly. */
  async tick(): Promise<void> {
    await this.markTick();
    await this.queueDueSchedulings();
    await this.options.queueTrigger?.checkAll();
    await this.reapLostRuns();
    await this.handleStalledRuns();
    await this.expireTasks();
    await this.announceTaskSla();
    await this.announceQuietAgents();
  }

  private async markTick() {
    await markDuty(this.db, REAPER_KEY);
  }

  /**
   * Each due interval or cron scheduling queues one run and moves its next time on past now
   * (the clock's): runs missed while every server was down are queued once (`run_once`) or not
   * at all (`skip`), never once per missed occurrence; a day its calendar excludes queues none.
   * A scheduling whose previous run still waits in the queue does not pile another on it.
   */
  async queueDueSchedulings(): Promise<number> {
    const now = (this.options.clock ?? systemClock).now();
    if (await this.options.holdDueSchedulings?.(now)) return 0;
    const queued = await queueDueSchedulings(this.db, now, BATCH);
    this.deps.announcer.queuedRuns(queued);
    return queued.length;
  }

  /** Runs whose agent stopped heartbeating: "agent lost", retried while retries remain. */
  async reapLostRuns(): Promise<number> {
    const settled = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const expired = await lockExpiredLeases(tx, BATCH, this.deps.timings.reapMarginSeconds);
      return settleAbandoned(tx, expired, 'agent_lost');
    });
    for (const s of settled) this.deps.settlements.announce(s);
    return settled.length;
  }

  /**
   * Processing runs with no activity (log line, progress call, start) for their robot's
   * `stall_minutes` at the clock's now: flagged `stalled` once (a live event), or with `kill`
   * ended as application errors "stalled", retried while retries remain. Their agent learns at
   * its next heartbeat that the attempt is no longer its own, and kills the robot.
   */
  async handleStalledRuns(): Promise<number> {
    const now = (this.options.clock ?? systemClock).now();
    const { flagged, settled } = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const stalled = await lockStalledRuns(tx, now, BATCH);
      const flagged = stalled.filter((run) => run.stall_action !== 'kill');
      await flagStalled(
        tx,
        flagged.map((run) => run.rota_executions_id),
      );
      const killed = stalled.filter((run) => run.stall_action === 'kill');
      const settled = await settleAbandoned(tx, killed, 'stalled');
      return { flagged, settled };
    });
    for (const run of flagged) {
      this.deps.publish.live(run.rota_clients_id, {
        type: 'execution',
        execution_id: run.rota_executions_id,
        rota_robots_id: run.rota_robots_id,
        status: 'processing',
        stalled: true,
      });
    }
    for (const s of settled) this.deps.settlements.announce(s);
    return flagged.length + settled.length;
  }

  async expireTasks(): Promise<number> {
    return this.deps.tasks.expireDue(BATCH * 5);
  }

  /** Tasks that became at risk or breached: a live `task` event each. */
  async announceTaskSla(): Promise<number> {
    const changed = await this.deps.tasks.slaTransitions(BATCH * 5);
    for (const task of changed) {
      this.deps.publish.live(task.rota_clients_id, {
        type: 'task',
        rota_tasks_id: task.rota_tasks_id,
        rota_robots_id: task.rota_robots_id,
        sla_state: task.sla_state,
      });
    }
    return changed.length;
  }

  private async announceQuietAgents() {
    const quiet = await this.deps.presence.markQuiet();
    for (const agent of quiet) {
      this.deps.publish.live(agent.client, {
        type: 'agent',
        rota_nodes_id: agent.id,
        connectivity: 'inactive',
      });
    }
  }
}
