import { eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { ExecutionStatus } from '@rota/contract';
import type { Db } from '../../db/client.js';
import {
  rotaExecutionDays as d,
  rotaExecutionDaysZone,
  rotaExecutionTotals as totals,
} from '../../db/schema/execution-days.js';
import { rowsOf } from '../../lib/sql-rows.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { executionsByDay, holdExecutionWrites } from '../executions/day-statements.js';
import { robotSummaries as r } from '../robots/views.js';

/** First key of this module's advisory locks (an arbitrary constant). */
const DAYS_LOCK_SPACE = 7_274_440;
const MERGE_LOCK = 1;

/** Inclusive local days (`YYYY-MM-DD`); a bound left out is open. */
export interface DayRange {
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** What the counted executions must match besides the client and the days. */
export interface DayFilter {
  status?: ExecutionStatus | undefined;
  rota_robots_id?: number | undefined;
}

function conditions(scope: TenantScope, days: DayRange, filter: DayFilter = {}): SQL {
  return scope.where(
    d,
    scope.robots(d.rota_robots_id),
    days.startDate ? gte(d.day, days.startDate) : undefined,
    days.endDate ? lte(d.day, days.endDate) : undefined,
    filter.status === undefined ? undefined : eq(d.status, filter.status),
    filter.rota_robots_id === undefined ? undefined : eq(d.rota_robots_id, filter.rota_robots_id),
  );
}

export async function recordedZone(db: Db): Promise<string | null> {
  const [row] = await db.select({ zone: rotaExecutionDaysZone.zone }).from(rotaExecutionDaysZone);
  return row?.zone ?? null;
}

/**
 * Records `zone` and fills the days from every execution, unless a zone is recorded already
 * (another server did it first): the zone it finds. The executions' writes wait meanwhile.
 */
export async function adoptZone(db: Db, zone: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ zone: rotaExecutionDaysZone.zone })
      .from(rotaExecutionDaysZone)
      .for('update');
    if (row?.zone) return row.zone;
    await holdExecutionWrites(tx);
    await tx.delete(d);
    await tx.execute(sql`insert into ${d} (rota_clients_id, rota_robots_id, day, status, n, merged)
                         select rota_clients_id, rota_robots_id, day, status, n, true
                           from (${executionsByDay(zone)}) counted`);
    await tx.delete(totals);
    await tx.execute(sql`insert into ${totals} (rota_clients_id, status, n)
                         select rota_clients_id, status, sum(n) from ${d} group by 1, 2`);
    await tx.update(rotaExecutionDaysZone).set({ zone });
    return zone;
  });
}

/** Executions per day and status. */
export async function countsPerDay(db: Db, scope: TenantScope, days: DayRange) {
  // Each row's count fits an int; an int sum is a bigint, cheaper than bigint's numeric sum.
  const n = sql<number>`sum(${d.n}::int)::int`;
  const rows = await db
    .select({ day: sql<string>`${d.day}::text`, status: d.status, n })
    .from(d)
    .where(conditions(scope, days))
    .groupBy(d.day, d.status)
    .having(sql`sum(${d.n}::int) <> 0`);
  return rows as { day: string; status: ExecutionStatus; n: number }[];
}

/** The five visible robots with the most executions in `failures` over the days. */
export async function mostFailing(
  db: Db,
  scope: TenantScope,
  days: DayRange,
  failures: readonly ExecutionStatus[],
) {
  if (failures.length === 0) return [];
  const failed = sql<number>`(sum(${d.n}::int) filter (where ${inArray(d.status, [...failures])}))::int`;
  return db
    .select({
      id: r.rota_robots_id,
      name: r.name,
      failures: failed,
      executions: sql<number>`sum(${d.n}::int)::int`,
    })
    .from(d)
    .innerJoin(r, eq(r.rota_robots_id, d.rota_robots_id))
    .where(conditions(scope, days))
    .groupBy(r.rota_robots_id, r.name)
    .having(sql`${failed} > 0`)
    .orderBy(sql`${failed} desc`, r.name)
    .limit(5);
}

/** How many executions match. */
export async function total(db: Db, scope: TenantScope, days: DayRange, filter: DayFilter) {
  const allTime =
    !days.startDate && !days.endDate && filter.rota_robots_id === undefined && !scope.robotIds;
  if (allTime) {
    const status = filter.status === undefined ? undefined : eq(totals.status, filter.status);
    const [row] = await rowsOf<{ total: number }>(
      db,
      sql`select (coalesce((select sum(${totals.n}) from ${totals}
                             where ${scope.where(totals, status)}), 0)
                + coalesce((select sum(${d.n}) from ${d}
                             where ${scope.where(d, sql`not ${d.merged}`, filter.status === undefined ? undefined : eq(d.status, filter.status))}), 0))::int as total`,
    );
    return row?.total ?? 0;
  }
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${d.n}), 0)::int` })
    .from(d)
    .where(conditions(scope, days, filter));
  return row?.total ?? 0;
}

/**
 * Folds up to `batch` appended changes into their keys' merged rows and into the all-time
 * totals, in one statement, and drops the merged rows that reached zero (a pruned day, a
 * deleted robot). One server at a time (the others skip); the sums are the same before and
 * after. Answers how many changes it folded.
 */
export async function mergeDays(db: Db, batch: number): Promise<number> {
  return db.transaction(async (tx) => {
    const [lock] = await rowsOf<{ ok: boolean }>(
      tx,
      sql`select pg_try_advisory_xact_lock(${DAYS_LOCK_SPACE}, ${MERGE_LOCK}) as ok`,
    );
    if (!lock?.ok) return 0;
    const folded = await rowsOf<{
      c: number;
      day: string;
      r: number;
      s: string;
      n: string;
      moved: number;
    }>(
      tx,
      sql`with moved as (
            delete from ${d} where ctid in (select ctid from ${d} where not ${d.merged} limit ${batch})
            returning rota_clients_id, rota_robots_id, day, status, n),
          folded as (
            insert into ${d} as kept (rota_clients_id, rota_robots_id, day, status, n, merged)
            select rota_clients_id, rota_robots_id, day, status, sum(n), true
              from moved group by 1, 2, 3, 4
            on conflict (rota_clients_id, day, rota_robots_id, status) where merged
            do update set n = kept.n + excluded.n
            returning kept.rota_clients_id as c, kept.day::text as day, kept.rota_robots_id as r,
                      kept.status as s, kept.n),
          summed as (
            insert into ${totals} as kept (rota_clients_id, status, n)
            select rota_clients_id, status, sum(n) from moved group by 1, 2
            on conflict (rota_clients_id, status) do update set n = kept.n + excluded.n)
          select c, day, r, s, n::text as n, (select count(*)::int from moved) as moved from folded`,
    );
    const zeros = folded
      .filter((f) => Number(f.n) === 0)
      .map(({ c, day, r, s }) => ({ c, day, r, s }));
    if (zeros.length > 0) {
      await tx.execute(sql`delete from ${d}
        using jsonb_to_recordset(${JSON.stringify(zeros)}::jsonb) as z(c int, day date, r int, s text)
        where ${d.merged} and ${d.n} = 0 and ${d.rota_clients_id} = z.c and ${d.day} = z.day
          and ${d.rota_robots_id} = z.r and ${d.status} = z.s`);
    }
    return folded[0]?.moved ?? 0;
  });
}
