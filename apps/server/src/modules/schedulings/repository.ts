import { asc, eq, inArray, isNotNull, isNull, notInArray, or, sql } from 'drizzle-orm';
import type {
  Scheduling,
  SchedulingCreate,
  SchedulingListQuery,
  SchedulingUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaSchedulings, rotaSchedulingVms } from '../../db/schema/schedulings.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { listTotal } from '../../lib/row-counts.js';
import { col, instantArray, intArray } from '../../lib/sql-refs.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { calendarDaysView as calendars } from '../calendars/views.js';
import { robotSummaries as robots } from '../robots/views.js';
import { vmNames } from '../vms/views.js';

/** What is stored: the create fields with the interval, time zone and first run settled. */
export type SchedulingFields = Omit<SchedulingCreate, 'vms' | 'interval_minutes' | 'time_zone'> & {
  interval_minutes: number;
  time_zone: string | null;
  next_run_at: Date | null;
};

const sortable = {
  name: rotaSchedulings.name,
  interval_minutes: rotaSchedulings.interval_minutes,
  priority: rotaSchedulings.priority,
  next_run_at: rotaSchedulings.next_run_at,
  created_at: rotaSchedulings.created_at,
  deleted_at: rotaSchedulings.deleted_at,
} as const;

const deletedFilter = {
  not_deleted: isNull(rotaSchedulings.deleted_at),
  deleted: isNotNull(rotaSchedulings.deleted_at),
  all: undefined,
} as const;

/** The join to the scheduling's robot (for its name and the search). */
const robotOf = (scope: TenantScope) =>
  scope.where(robots, eq(robots.rota_robots_id, rotaSchedulings.rota_robots_id));

/**
 * The scheduling's VMs by name, as a column of its row: a page and its VMs in one statement (they
 * were a second round trip after the page; with 8 users clicking at once, the schedulings page
 * took twice the time of the others). Each scheduling's VMs are one index range.
 */
function vmsColumn(db: Db, scope: TenantScope) {
  const vms = db
    .select({
      vms: sql`json_agg(json_build_object('rota_vms_id', ${vmNames.rota_vms_id}, 'name', ${vmNames.name}) order by ${vmNames.name}, ${vmNames.rota_vms_id})`,
    })
    .from(rotaSchedulingVms)
    .innerJoin(
      vmNames,
      scope.where(vmNames, eq(vmNames.rota_vms_id, rotaSchedulingVms.rota_vms_id)),
    )
    .where(
      scope.where(
        rotaSchedulingVms,
        eq(rotaSchedulingVms.rota_schedulings_id, rotaSchedulings.rota_schedulings_id),
      ),
    );
  return sql<Scheduling['vms']>`coalesce((${vms}), '[]'::json)`;
}

function selectSchedulings(db: Db, scope: TenantScope) {
  return db
    .select({
      rota_schedulings_id: rotaSchedulings.rota_schedulings_id,
      name: rotaSchedulings.name,
      rota_robots_id: rotaSchedulings.rota_robots_id,
      rota_robots_name: robots.name,
      trigger_type: rotaSchedulings.trigger_type,
      interval_minutes: rotaSchedulings.interval_minutes,
      cron: rotaSchedulings.cron,
      time_zone: rotaSchedulings.time_zone,
      missed_runs: rotaSchedulings.missed_runs,
      rota_calendars_id: rotaSchedulings.rota_calendars_id,
      min_pending: rotaSchedulings.min_pending,
      max_concurrent: rotaSchedulings.max_concurrent,
      next_run_at: rotaSchedulings.next_run_at,
      timeout_minutes: rotaSchedulings.timeout_minutes,
      retries: rotaSchedulings.retries,
      priority: rotaSchedulings.priority,
      sleep: rotaSchedulings.sleep,
      labels: rotaSchedulings.labels,
      active: rotaSchedulings.active,
      deleted_at: rotaSchedulings.deleted_at,
      created_at: rotaSchedulings.created_at,
      updated_at: rotaSchedulings.updated_at,
      vms: vmsColumn(db, scope),
    })
    .from(rotaSchedulings)
    .innerJoin(robots, robotOf(scope));
}

/**
 * By its name or its robot's: written as two index lookups (the robot side as a subquery) since
 * an OR across the join cannot use either trigram index and scans every scheduling.
 */
function searchSchedulings(scope: TenantScope, search: string | undefined) {
  if (!search) return undefined;
  const robotsNamed = searchAny(search, [robots.name])!;
  // `= any(array(...))` runs the robot lookup once, so both sides are index scans; `in (...)`
  // became a hashed subplan that scanned every scheduling.
  return or(
    searchAny(search, [rotaSchedulings.name]),
    sql`${rotaSchedulings.rota_robots_id} = any(array(select ${robots.rota_robots_id} from ${robots} where ${scope.where(robots, robotsNamed)}))`,
  );
}

export type SchedulingRow = Awaited<ReturnType<typeof selectSchedulings>>[number];

export async function listSchedulings(db: Db, scope: TenantScope, query: SchedulingListQuery) {
  const filters = [
    scope.robots(rotaSchedulings.rota_robots_id),
    searchSchedulings(scope, query.search),
    query.rota_robots_id === undefined
      ? undefined
      : eq(rotaSchedulings.rota_robots_id, query.rota_robots_id),
    query.active === undefined ? undefined : eq(rotaSchedulings.active, query.active),
    query.trigger_type === undefined
      ? undefined
      : eq(rotaSchedulings.trigger_type, query.trigger_type),
    query.rota_calendars_id === undefined
      ? undefined
      : eq(rotaSchedulings.rota_calendars_id, query.rota_calendars_id),
  ];
  const where = scope.where(rotaSchedulings, deletedFilter[query.deleted], ...filters);
  return pageOf(
    query,
    selectSchedulings(db, scope)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, rotaSchedulings.rota_schedulings_id))
      .$dynamic(),
    // No join to the robot for the count: counting 100,000 schedulings through it costs ~80 ms.
    // The live schedulings of the client, unfiltered: the maintained count.
    listTotal(
      db,
      scope,
      'rota_schedulings',
      {
        whole: query.deleted === 'not_deleted' && filters.every((f) => f === undefined),
        searched: Boolean(query.search),
      },
      () => db.select({ total: count() }).from(rotaSchedulings).where(where),
    ),
    (row) => row,
  );
}

/** Deleted ones too: show answers them with their `deleted_at`. */
export async function findScheduling(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<SchedulingRow | undefined> {
  const [row] = await selectSchedulings(db, scope).where(
    scope.where(
      rotaSchedulings,
      eq(rotaSchedulings.rota_schedulings_id, id),
      scope.robots(rotaSchedulings.rota_robots_id),
    ),
  );
  return row;
}

export async function insertScheduling(db: Db, scope: TenantScope, values: SchedulingFields) {
  const [row] = await db
    .insert(rotaSchedulings)
    .values(scope.stamp(values))
    .returning({ id: rotaSchedulings.rota_schedulings_id });
  return row!.id;
}

/** Only a live one: a deleted scheduling is read-only until restored. */
export async function updateScheduling(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Omit<SchedulingUpdate, 'id' | 'vms'> & { next_run_at?: Date | null },
): Promise<boolean> {
  const updated = await db
    .update(rotaSchedulings)
    .set({ ...values, updated_at: sql`now()` })
    .where(
      scope.where(
        rotaSchedulings,
        eq(rotaSchedulings.rota_schedulings_id, id),
        scope.robots(rotaSchedulings.rota_robots_id),
        isNull(rotaSchedulings.deleted_at),
      ),
    )
    .returning({ id: rotaSchedulings.rota_schedulings_id });
  return updated.length > 0;
}

/**
 * Makes the scheduling's VMs exactly `vmIds`. Rows of VMs it keeps stay as they are, so their
 * ids (what /scheduling/vms deletes by) do not change under the console.
 */
export async function replaceSchedulingVms(
  db: Db,
  scope: TenantScope,
  schedulingId: number,
  vmIds: readonly number[],
) {
  await db
    .delete(rotaSchedulingVms)
    .where(
      scope.where(
        rotaSchedulingVms,
        eq(rotaSchedulingVms.rota_schedulings_id, schedulingId),
        vmIds.length > 0 ? notInArray(rotaSchedulingVms.rota_vms_id, [...vmIds]) : undefined,
      ),
    );
  if (vmIds.length === 0) return;
  await db
    .insert(rotaSchedulingVms)
    .values(
      vmIds.map((vmId) => scope.stamp({ rota_schedulings_id: schedulingId, rota_vms_id: vmId })),
    )
    .onConflictDoNothing();
}

/**
 * Soft delete (`deleted`) or restore: flips only a row in the other state. Deleted rows stay so
 * executions keep pointing at them; restoring fails on the partial unique index if a live one
 * took the name meanwhile.
 */
export async function setSchedulingDeleted(
  db: Db,
  scope: TenantScope,
  id: number,
  deleted: boolean,
): Promise<boolean> {
  const changed = await db
    .update(rotaSchedulings)
    .set({ deleted_at: deleted ? sql`now()` : null, updated_at: sql`now()` })
    .where(
      scope.where(
        rotaSchedulings,
        eq(rotaSchedulings.rota_schedulings_id, id),
        scope.robots(rotaSchedulings.rota_robots_id),
        deleted ? isNull(rotaSchedulings.deleted_at) : isNotNull(rotaSchedulings.deleted_at),
      ),
    )
    .returning({ id: rotaSchedulings.rota_schedulings_id });
  return changed.length > 0;
}

/** Whether the scheduling exists in the scope and is live, deleted, or neither (undefined). */
export async function schedulingState(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<'live' | 'deleted' | undefined> {
  const [row] = await db
    .select({ deleted_at: rotaSchedulings.deleted_at })
    .from(rotaSchedulings)
    .where(
      scope.where(
        rotaSchedulings,
        eq(rotaSchedulings.rota_schedulings_id, id),
        scope.robots(rotaSchedulings.rota_robots_id),
      ),
    );
  if (!row) return undefined;
  return row.deleted_at ? 'deleted' : 'live';
}

export const liveSchedulingIds = (db: Db, scope: TenantScope) =>
  db
    .select({ id: rotaSchedulings.rota_schedulings_id })
    .from(rotaSchedulings)
    .where(
      scope.where(
        rotaSchedulings,
        isNull(rotaSchedulings.deleted_at),
        scope.robots(rotaSchedulings.rota_robots_id),
      ),
    );

/** A calendar of the scope, read through the calendars' view (undefined: none such). */
export async function calendarOf(db: Db, scope: TenantScope, id: number) {
  const [row] = await db
    .select({ time_zone: calendars.time_zone, excluded_dates: calendars.excluded_dates })
    .from(calendars)
    .where(scope.where(calendars, eq(calendars.rota_calendars_id, id)));
  return row;
}

/** The calendars of `ids`, whatever their client: the scheduler's rows carry their own. */
export async function calendarsByIds(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      rota_calendars_id: calendars.rota_calendars_id,
      time_zone: calendars.time_zone,
      excluded_dates: calendars.excluded_dates,
    })
    .from(calendars)
    .where(inArray(calendars.rota_calendars_id, [...ids]));
}

/** What deciding a scheduling's next run reads of it. */
export const timingColumns = {
  rota_schedulings_id: rotaSchedulings.rota_schedulings_id,
  trigger_type: rotaSchedulings.trigger_type,
  interval_minutes: rotaSchedulings.interval_minutes,
  cron: rotaSchedulings.cron,
  time_zone: rotaSchedulings.time_zone,
  missed_runs: rotaSchedulings.missed_runs,
  rota_calendars_id: rotaSchedulings.rota_calendars_id,
  active: rotaSchedulings.active,
  next_run_at: rotaSchedulings.next_run_at,
};

/**
 * The scheduling's timing, locked for the change's transaction (so the scheduler, which takes
 * due rows with SKIP LOCKED, does not move it meanwhile). Live ones only.
 */
export async function lockSchedulingTiming(db: Db, scope: TenantScope, id: number) {
  const [row] = await db
    .select(timingColumns)
    .from(rotaSchedulings)
    .where(
      scope.where(
        rotaSchedulings,
        eq(rotaSchedulings.rota_schedulings_id, id),
        scope.robots(rotaSchedulings.rota_robots_id),
        isNull(rotaSchedulings.deleted_at),
      ),
    )
    .for('update');
  return row;
}

export type SchedulingTiming = NonNullable<Awaited<ReturnType<typeof lockSchedulingTiming>>>;

/** The live schedulings of the client (every team's) that name the calendar, locked. */
export async function lockSchedulingsOfCalendar(db: Db, scope: TenantScope, calendarId: number) {
  return db
    .select(timingColumns)
    .from(rotaSchedulings)
    .where(
      scope.where(
        rotaSchedulings,
        eq(rotaSchedulings.rota_calendars_id, calendarId),
        isNull(rotaSchedulings.deleted_at),
      ),
    )
    .orderBy(asc(rotaSchedulings.rota_schedulings_id))
    .for('update');
}

/** Stores each scheduling's next run, in one statement. */
export async function setNextRuns(
  db: Db,
  scope: TenantScope,
  rows: readonly { id: number; next_run_at: Date | null }[],
) {
  if (rows.length === 0) return;
  await db.execute(sql`update ${rotaSchedulings}
       set ${col(rotaSchedulings.next_run_at)} = v.next_run_at
      from unnest(${intArray(rows.map((r) => r.id))}, ${instantArray(rows.map((r) => r.next_run_at))})
             as v(id, next_run_at)
     where ${rotaSchedulings.rota_schedulings_id} = v.id
       and ${rotaSchedulings.rota_clients_id} = ${scope.clientId}`);
}

/**
 * Deleted schedulings let go of the calendar (so it can be deleted); answers how many live ones
 * still name it.
 */
export async function releaseCalendar(
  db: Db,
  scope: TenantScope,
  calendarId: number,
): Promise<number> {
  await db
    .update(rotaSchedulings)
    .set({ rota_calendars_id: null })
    .where(
      scope.where(
        rotaSchedulings,
        eq(rotaSchedulings.rota_calendars_id, calendarId),
        isNotNull(rotaSchedulings.deleted_at),
      ),
    );
  const [row] = await db
    .select({ n: count() })
    .from(rotaSchedulings)
    .where(
      scope.where(
        rotaSchedulings,
        eq(rotaSchedulings.rota_calendars_id, calendarId),
        isNull(rotaSchedulings.deleted_at),
      ),
    );
  return row?.n ?? 0;
}
