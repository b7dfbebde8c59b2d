import { sql, type SQL } from 'drizzle-orm';
import { rotaSchedulings } from '../../db/schema.js';
import { col } from '../../lib/sql-refs.js';
import { vmIdsOf } from './views.js';

const s = rotaSchedulings;

/**
 * The scheduler's half of its one statement (the engine inserts the runs from it): up to
 * `batch` due schedulings, locked (SKIP LOCKED: each is taken by one instance), their next time
 * moved past now. Runs missed while every server was down come back as one, not one per
 * interval. Answers the scheduling's run settings and VMs.
 */
export function takeDueSchedulings(batch: number): SQL {
  return sql`with due as (
      select ${s.rota_schedulings_id} as id
        from ${s}
       where ${s.active} and ${s.deleted_at} is null and ${s.next_run_at} <= now()
       order by ${s.next_run_at}
       limit ${batch}
       for update skip locked
    )
    update ${s}
       set ${col(s.next_run_at)} = case
             when ${s.next_run_at} + make_interval(mins => ${s.interval_minutes}) > now()
               then ${s.next_run_at} + make_interval(mins => ${s.interval_minutes})
             else now() + make_interval(mins => ${s.interval_minutes}) end
      from due
     where ${s.rota_schedulings_id} = due.id
    returning ${s.rota_schedulings_id} as rota_schedulings_id, ${s.rota_clients_id} as rota_clients_id,
              ${s.rota_robots_id} as rota_robots_id, ${s.priority} as priority,
              ${s.timeout_minutes} as timeout_minutes, ${s.retries} as retries, ${s.sleep} as sleep,
              ${vmIdsOf(s.rota_schedulings_id)} as vm_ids`;
}

/**
 * The queue trigger's lock (issue 13): active `queue` schedulings, of the listed robots (null:
 * all), locked FOR UPDATE SKIP LOCKED so one instance at a time counts and starts their runs
 * (the holder does the work; another instance skips it). Run it as its own statement in the
 * transaction that then counts and inserts, so that statement's snapshot sees the runs a
 * previous holder committed. Answers the scheduling's run settings, trigger bounds and VMs.
 */
export function lockQueueSchedulings(robotIds: number[] | null, batch: number): SQL {
  const robots =
    robotIds === null
      ? sql``
      : sql`and ${s.rota_robots_id} = any(${`{${robotIds.join(',')}}`}::integer[])`;
  return sql`select ${s.rota_schedulings_id} as rota_schedulings_id,
                    ${s.rota_clients_id} as rota_clients_id, ${s.rota_robots_id} as rota_robots_id,
                    ${s.priority} as priority, ${s.timeout_minutes} as timeout_minutes,
                    ${s.retries} as retries, ${s.sleep} as sleep, ${s.min_pending} as min_pending,
                    ${s.max_concurrent} as max_concurrent,
                    ${vmIdsOf(s.rota_schedulings_id)} as vm_ids
               from ${s}
              where ${s.trigger_type} = 'queue' and ${s.active} and ${s.deleted_at} is null
                ${robots}
              order by ${s.rota_schedulings_id}
              limit ${batch}
              for update skip locked`;
}
