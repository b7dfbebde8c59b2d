import { eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaSchedulings } from '../../db/schema/schedulings.js';
import { boolArray, col, instantArray, intArray } from '../../lib/sql-refs.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { calendarDaysView } from '../calendars/views.js';
import type { DueMove } from './due-runs.js';
import { vmIdsOf } from './views.js';

const s = rotaSchedulings;

/**
 * The scheduler's first statement, in its transaction: up to `batch` interval and cron
 * schedulings due at `now` (the app's clock), locked (SKIP LOCKED: each is taken by one
 * instance; another instance's statement re-reads a row it waited on and finds it moved on).
 * Answers what deciding their next run needs; their calendars come from `calendarsOf`.
 */
export function lockDueSchedulings(now: Date, batch: number): SQL {
  return sql`select ${s.rota_schedulings_id} as id, ${s.trigger_type} as trigger_type,
                    ${s.interval_minutes} as interval_minutes, ${s.cron} as cron,
                    ${s.time_zone} as time_zone, ${s.missed_runs} as missed_runs,
                    ${s.rota_calendars_id} as calendar_id, ${s.next_run_at} as next_run_at
               from ${s}
              where ${s.active} and ${s.deleted_at} is null
                and ${s.next_run_at} <= ${now.toISOString()}::timestamptz
                and ${s.trigger_type} <> 'queue'
              order by ${s.next_run_at}
              limit ${batch}
              for update skip locked`;
}

/** The zone and excluded days of the calendars `ids` (read through the calendars' view). */
export function calendarsOf(ids: readonly number[]): SQL {
  return sql`select ${calendarDaysView.rota_calendars_id} as id,
                    ${calendarDaysView.time_zone} as time_zone,
                    ${calendarDaysView.excluded_dates} as excluded_dates
               from ${calendarDaysView}
              where ${calendarDaysView.rota_calendars_id} = any(${intArray(ids)})`;
}

/**
 * The scheduler's second statement: each locked scheduling's next run stored, in one update
 * (`unnest`), answering the run settings and VMs of those that `run` (the engine inserts their
 * runs from it in the same statement).
 */
export function moveDueSchedulings(moves: readonly DueMove[]): SQL {
  return sql`update ${s}
       set ${col(s.next_run_at)} = v.next_run_at
      from unnest(${intArray(moves.map((m) => m.id))},
                  ${instantArray(moves.map((m) => m.next_run_at))},
                  ${boolArray(moves.map((m) => m.run))}) as v(id, next_run_at, run)
     where ${s.rota_schedulings_id} = v.id
    returning ${s.rota_schedulings_id} as rota_schedulings_id, ${s.rota_clients_id} as rota_clients_id,
              ${s.rota_robots_id} as rota_robots_id, ${s.priority} as priority,
              ${s.timeout_minutes} as timeout_minutes, ${s.retries} as retries, ${s.sleep} as sleep,
              ${vmIdsOf(s.rota_schedulings_id)} as vm_ids, ${s.labels} as labels, v.run as run`;
}

/**
 * The queue trigger's lock: active `queue` schedulings, of the listed robots (null:
 * all), locked FOR UPDATE SKIP LOCKED so one instance at a time counts and starts their runs
 * (the holder does the work; another instance skips it). Run it as its own statement in the
 * transaction that then counts and inserts, so that statement's snapshot sees the runs a
 * previous holder committed. Answers the scheduling's run settings, trigger bounds and VMs, in
 * id order after `afterId` (the periodic pass goes through all of them a batch at a time).
 */
export function lockQueueSchedulings(
  robotIds: number[] | null,
  batch: number,
  afterId = 0,
  /** A further condition on the scheduling (the caller's fragment, given its columns). */
  only?: (of: { id: SQL; robot: SQL; client: SQL; maxConcurrent: SQL }) => SQL,
): SQL {
  const robots =
    robotIds === null ? sql`` : sql`and ${s.rota_robots_id} = any(${intArray(robotIds)})`;
  const further = only
    ? sql`and ${only({
        id: sql`${s.rota_schedulings_id}`,
        robot: sql`${s.rota_robots_id}`,
        client: sql`${s.rota_clients_id}`,
        maxConcurrent: sql`${s.max_concurrent}`,
      })}`
    : sql``;
  return sql`select ${s.rota_schedulings_id} as rota_schedulings_id,
                    ${s.rota_clients_id} as rota_clients_id, ${s.rota_robots_id} as rota_robots_id,
                    ${s.priority} as priority, ${s.timeout_minutes} as timeout_minutes,
                    ${s.retries} as retries, ${s.sleep} as sleep, ${s.min_pending} as min_pending,
                    ${s.max_concurrent} as max_concurrent,
                    ${vmIdsOf(s.rota_schedulings_id)} as vm_ids, ${s.labels} as labels
               from ${s}
              where ${s.trigger_type} = 'queue' and ${s.active} and ${s.deleted_at} is null
                and ${s.rota_schedulings_id} > ${afterId} ${robots} ${further}
              order by ${s.rota_schedulings_id}
              limit ${batch}
              for update skip locked`;
}

/**
 * Deletes, for good, the schedulings of a robot the user already deleted (soft): they go with
 * their robot. A live one stays, and its foreign key keeps the robot. Lent to module robots,
 * whose delete runs it in its transaction.
 */
export async function purgeDeletedSchedulingsOfRobot(
  db: Db,
  scope: TenantScope,
  robotId: number,
): Promise<void> {
  await db
    .delete(rotaSchedulings)
    .where(
      scope.where(
        rotaSchedulings,
        eq(rotaSchedulings.rota_robots_id, robotId),
        scope.robots(rotaSchedulings.rota_robots_id),
        isNotNull(rotaSchedulings.deleted_at),
      ),
    );
}

/**
 * What a maintenance window over the whole cluster holds back: the interval and cron
 * schedulings due at `now`, unlocked and unmoved (the scheduler leaves them due, so when the
 * window ends their missed-run policy decides). Columns: id, client, due_at.
 */
export function dueSchedulingsAt(now: Date): SQL {
  return sql`select ${s.rota_schedulings_id} as id, ${s.rota_clients_id} as client,
                    ${s.next_run_at} as due_at
               from ${s}
              where ${s.active} and ${s.deleted_at} is null
                and ${s.next_run_at} <= ${now.toISOString()}::timestamptz
                and ${s.trigger_type} <> 'queue'`;
}
