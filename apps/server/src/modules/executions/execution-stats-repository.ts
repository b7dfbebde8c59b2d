import { and, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { ExecutionStatus } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaExecutions } from '../../db/schema/executions.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { robotSummaries } from '../robots/views.js';

const e = rotaExecutions;
const r = robotSummaries;

/** A range of queue times, from inclusive, to exclusive. */
export interface QueuedRange {
  from: Date;
  to: Date;
}

const inRange = (range: QueuedRange) => [gte(e.queued_at, range.from), lt(e.queued_at, range.to)];

/** How many of the visible robots had each status as their latest in the range (null: none). */
export async function latestStatusCounts(db: Db, scope: TenantScope, range: QueuedRange) {
  const latest = db
    .select({ status: e.status })
    .from(e)
    .where(and(eq(e.rota_robots_id, r.rota_robots_id), ...inRange(range)))
    .orderBy(desc(e.queued_at))
    .limit(1)
    .as('latest');
  return db
    .select({ status: sql<ExecutionStatus | null>`${latest.status}`, robots: count() })
    .from(r)
    .leftJoinLateral(latest, sql`true`)
    .where(and(scope.owns(r.rota_clients_id), scope.robots(r.rota_robots_id)))
    .groupBy(latest.status);
}

/** Executions of the visible robots per day (in `timeZone`) and status. */
export async function countsPerDay(
  db: Db,
  scope: TenantScope,
  range: QueuedRange,
  timeZone: string,
) {
  const day = sql<string>`to_char(${e.queued_at} at time zone ${timeZone}, 'YYYY-MM-DD')`;
  return (
    db
      .select({ day, status: sql<ExecutionStatus>`${e.status}`, n: count() })
      .from(e)
      .where(scope.where(e, scope.robots(e.rota_robots_id), ...inRange(range)))
      // By position: the day's expression carries the time zone as a parameter, and a second
      // copy of it in GROUP BY would be another parameter PostgreSQL cannot tell is the same.
      .groupBy(sql`1`, sql`2`)
  );
}

/** The five visible robots with the most executions in `failures` in the range. */
export async function mostFailing(
  db: Db,
  scope: TenantScope,
  range: QueuedRange,
  failures: readonly ExecutionStatus[],
) {
  // No status filed under Failure: nothing fails.
  if (failures.length === 0) return [];
  const failed = sql<number>`count(*) filter (where ${inArray(e.status, [...failures])})::int`;
  return db
    .select({ id: r.rota_robots_id, name: r.name, failures: failed, executions: count() })
    .from(e)
    .innerJoin(r, eq(r.rota_robots_id, e.rota_robots_id))
    .where(scope.where(e, scope.robots(e.rota_robots_id), ...inRange(range)))
    .groupBy(r.rota_robots_id, r.name)
    .having(sql`${failed} > 0`)
    .orderBy(desc(failed), r.name)
    .limit(5);
}

/** Runs of the visible robots processing now and flagged stalled. */
export async function stalledCount(db: Db, scope: TenantScope): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(e)
    .where(
      scope.where(
        e,
        scope.robots(e.rota_robots_id),
        eq(e.status, 'processing'),
        eq(e.stalled, true),
      ),
    );
  return row?.n ?? 0;
}
