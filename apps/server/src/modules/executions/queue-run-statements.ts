import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaExecutions } from '../../db/schema/executions.js';
import { robotSummaries } from '../robots/views.js';
import { labelsAtQueue } from './row-statements.js';
import { lockQueueSchedulings } from '../schedulings/statements.js';
import { pendingDueTaskCount } from '../tasks/statements.js';
import { col, intArray } from '../../lib/sql-refs.js';
import { rowsOf } from '../../lib/sql-rows.js';

const E = rotaExecutions;

interface LockedQueueScheduling {
  rota_schedulings_id: number;
  rota_clients_id: number;
  rota_robots_id: number;
  priority: number;
  timeout_minutes: number;
  retries: number;
  sleep: number;
  min_pending: number;
  max_concurrent: number;
  vm_ids: number[] | null;
  labels: string[];
}

/** A run the queue trigger queued. */
export interface QueueTriggeredRun {
  id: number;
  client: number;
  robot: number;
  vm_ids: number[] | null;
  labels: string[];
}

/** How many runs of the scheduling `schedulingId` names are queued or processing. */
const activeRunsOf = (schedulingId: SQL) =>
  sql<number>`(select count(*)::int from ${E}
                where ${E.rota_schedulings_id} = ${schedulingId}
                  and ${E.status} in ('queued', 'processing'))`;

/**
 * One pass of the queue trigger over the active `queue` schedulings of `robotIds` (null: all),
 * up to `batch.size` of them after id `batch.afterId`, in the caller's transaction: each is locked (SKIP LOCKED: another instance
 * holding it does the work), then a second statement, whose snapshot sees every run a previous
 * holder committed, counts its runs queued or processing and its robot's due tasks, and queues
 * min(max_concurrent − active, due − waiting) runs when at least min_pending tasks are due, where
 * `waiting` are its runs still queued: each of those will take a due task, so no run is started
 * that would find no task to take (it would end at once). Runs already processing took their
 * tasks out of `pending` and take more as they go.
 */
export async function startQueueRuns(
  tx: Db,
  robotIds: number[] | null,
  now: Date,
  batch: { size: number; afterId: number },
): Promise<{ runs: QueueTriggeredRun[]; locked: number; lastId: number }> {
  const locked = await rowsOf<LockedQueueScheduling>(
    tx,
    // Only schedulings with a free slot whose robot has a due task (as this statement's snapshot
    // sees them; the next statement decides): idle and full queues cost one index probe each.
    lockQueueSchedulings(
      robotIds,
      batch.size,
      batch.afterId,
      ({ id, robot, client, maxConcurrent }) =>
        sql`${activeRunsOf(id)} < ${maxConcurrent}
            and ${pendingDueTaskCount(client, robot, now, 1)} > 0`,
    ),
  );
  const lastId = locked.at(-1)?.rota_schedulings_id ?? batch.afterId;
  if (locked.length === 0) return { runs: [], locked: 0, lastId };
  const r = robotSummaries;
  const wanted = await rowsOf<{ id: number; start: number }>(
    tx,
    sql`with s as (
          select * from unnest(${intArray(locked.map((l) => l.rota_schedulings_id))},
                               ${intArray(locked.map((l) => l.rota_clients_id))},
                               ${intArray(locked.map((l) => l.rota_robots_id))},
                               ${intArray(locked.map((l) => l.min_pending))},
                               ${intArray(locked.map((l) => l.max_concurrent))})
                   as s(id, client, robot, min_pending, max_concurrent)
        ),
        counted as (
          select s.id, s.min_pending, s.max_concurrent, ${activeRunsOf(sql`s.id`)} as active,
                 (select count(*)::int from ${E}
                   where ${E.rota_schedulings_id} = s.id and ${E.status} = 'queued') as waiting,
                 ${pendingDueTaskCount(
                   sql`s.client`,
                   sql`s.robot`,
                   now,
                   sql`s.min_pending + s.max_concurrent`,
                 )} as due
            from s
            join ${r} on ${r.rota_robots_id} = s.robot and ${r.active}
        )
        select id, least(max_concurrent - active, due - waiting) as start
          from counted
         where due >= min_pending and active < max_concurrent and due > waiting`,
  );
  const runs: QueueTriggeredRun[] = [];
  const byId = new Map(locked.map((l) => [l.rota_schedulings_id, l]));
  for (const { id, start } of wanted) {
    const s = byId.get(id)!;
    const vmIds = s.vm_ids ? intArray(s.vm_ids) : sql`null`;
    runs.push(
      ...(await rowsOf<QueueTriggeredRun>(
        tx,
        sql`insert into ${E}
              (${col(E.rota_clients_id)}, ${col(E.rota_robots_id)}, ${col(E.rota_schedulings_id)},
               ${col(E.vm_ids)}, ${col(E.trigger)}, ${col(E.priority)}, ${col(E.timeout_seconds)},
               ${col(E.retries)}, ${col(E.sleep_seconds)}, ${col(E.labels)})
            select ${s.rota_clients_id}, ${s.rota_robots_id}, ${s.rota_schedulings_id}, ${vmIds},
                   'schedule', ${s.priority}, ${s.timeout_minutes * 60}, ${s.retries}, ${s.sleep},
                   ${labelsAtQueue(s.rota_robots_id, sql`${`{${s.labels.join(',')}}`}::text[]`)}
              from generate_series(1, ${start})
            returning ${E.rota_executions_id} as id, ${E.rota_clients_id} as client,
                      ${E.rota_robots_id} as robot, ${E.vm_ids} as vm_ids,
                      ${E.labels} as labels`,
      )),
    );
  }
  return { runs, locked: locked.length, lastId };
}
