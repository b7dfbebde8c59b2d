import { sql } from 'drizzle-orm';
import { AGENT_ACTIVE_WINDOW_SECONDS, translateMessage } from '@rota/contract';
import type { Db } from '../../db/client.js';
import type { DispatchService } from './dispatch-service.js';
import { lockExpiredLeases, settleAttempt, type Settled } from './execution-repository.js';
import type { EnginePublisher } from './live-events.js';
import { rowsOf } from './sql-rows.js';

const REAPER_KEY = 'reaper';
const BATCH = 200;

export interface EngineLoopOptions {
  /** Milliseconds between two ticks; each instance ticks on its own. */
  intervalMs: number;
  log: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
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
    private readonly dispatch: DispatchService,
    private readonly publish: EnginePublisher,
    private readonly options: EngineLoopOptions,
  ) {}

  /**
   * When every instance was down longer than a lease, no agent could heartbeat: give running
   * executions one lease to report before they count as lost (their results may be waiting
   * in an agent's outbox).
   */
  async recover(): Promise<number> {
    const [state] = await rowsOf<{ stale: boolean }>(
      this.db,
      sql`select at < now() - make_interval(secs => ${this.dispatch.timings.leaseSeconds}) as stale
            from engine_state where key = ${REAPER_KEY}`,
    );
    if (state && !state.stale) return 0;
    const extended = await rowsOf<{ id: number }>(
      this.db,
      sql`update rota_executions
             set lease_expires_at = now() + make_interval(secs => ${this.dispatch.timings.leaseSeconds})
           where status = 'processing' and lease_expires_at < now() + make_interval(secs => ${this.dispatch.timings.leaseSeconds})
          returning rota_executions_id as id`,
    );
    if (extended.length > 0) {
      this.options.log.info(
        { executions: extended.length },
        'engine: gave running executions one lease to report after a restart',
      );
    }
    return extended.length;
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
    await this.reapLostRuns();
    await this.expireTasks();
    await this.announceQuietAgents();
  }

  private async markTick() {
    await this.db.execute(
      sql`insert into engine_state (key, at) values (${REAPER_KEY}, now())
          on conflict (key) do update set at = excluded.at`,
    );
  }

  /**
   * Each due scheduling queues one run and moves its next time on past now: runs missed while
   * every server was down are queued once, not once per missed interval. A scheduling whose
   * previous run still waits in the queue does not pile another on it.
   */
  async queueDueSchedulings(): Promise<number> {
    const queued = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      return rowsOf<{ id: number; client: number; robot: number; vm_ids: number[] | null }>(
        tx,
        sql`with due as (
              select s.rota_schedulings_id
                from rota_schedulings s
               where s.active and s.deleted_at is null and s.next_run_at <= now()
               order by s.next_run_at
               limit ${BATCH}
               for update of s skip locked
            ),
            moved as (
              update rota_schedulings s
                 set next_run_at = case
                       when s.next_run_at + make_interval(mins => s.interval_minutes) > now()
                         then s.next_run_at + make_interval(mins => s.interval_minutes)
                       else now() + make_interval(mins => s.interval_minutes) end
                from due
               where s.rota_schedulings_id = due.rota_schedulings_id
              returning s.*
            )
            insert into rota_executions
              (rota_clients_id, rota_robots_id, rota_schedulings_id, vm_ids, trigger, priority,
               timeout_seconds, retries, sleep_seconds)
            select m.rota_clients_id, m.rota_robots_id, m.rota_schedulings_id,
                   (select nullif(array_agg(sv.rota_vms_id order by sv.rota_vms_id), '{}')
                      from rota_scheduling_vms sv
                     where sv.rota_schedulings_id = m.rota_schedulings_id),
                   'schedule', m.priority, m.timeout_minutes * 60, m.retries, m.sleep
              from moved m
              join rota_robots r on r.rota_robots_id = m.rota_robots_id and r.active
             where not exists (select 1 from rota_executions q
                                where q.rota_schedulings_id = m.rota_schedulings_id
                                  and q.status = 'queued')
            returning rota_executions_id as id, rota_clients_id as client,
                      rota_robots_id as robot, vm_ids`,
      );
    });
    for (const run of queued) {
      this.dispatch.announceQueued(run.client, run.vm_ids, 1);
      this.publish.live(run.client, {
        type: 'execution',
        execution_id: run.id,
        rota_robots_id: run.robot,
        status: 'queued',
      });
    }
    return queued.length;
  }

  /** Runs whose agent stopped heartbeating: "agent lost", retried while retries remain. */
  async reapLostRuns(): Promise<number> {
    const settled = await this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const expired = await lockExpiredLeases(tx, BATCH, this.dispatch.timings.reapMarginSeconds);
      const out: Settled[] = [];
      for (const execution of expired) {
        out.push(
          await settleAttempt(tx, execution, {
            status: 'application_error',
            exit_code: null,
            message: translateMessage('en', 'agent_lost'),
          }),
        );
      }
      return out;
    });
    for (const s of settled) this.dispatch.afterSettle(s);
    return settled.length;
  }

  async expireTasks(): Promise<number> {
    const expired = await rowsOf<{ id: number }>(
      this.db,
      sql`update rota_tasks set status = 'expired', updated_at = now()
           where rota_tasks_id in (select rota_tasks_id from rota_tasks
                                    where status = 'pending' and expiration_date <= now()
                                    limit ${BATCH * 5})
          returning rota_tasks_id as id`,
    );
    return expired.length;
  }

  private async announceQuietAgents() {
    const quiet = await rowsOf<{ id: number; client: number }>(
      this.db,
      sql`update rota_nodes set online = false
           where online and (last_seen_at is null
                 or last_seen_at < now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS}))
          returning rota_nodes_id as id, rota_clients_id as client`,
    );
    for (const agent of quiet) {
      this.publish.live(agent.client, {
        type: 'agent',
        rota_nodes_id: agent.id,
        connectivity: 'inactive',
      });
    }
  }
}
