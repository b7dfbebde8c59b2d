import { and, asc, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { ActivityExportQuery, ActivityListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaExecutionAttempts, rotaExecutionLogs, rotaExecutions } from '../../db/schema.js';
import { agentSummaries } from '../agents/views.js';
import { packageSummaries } from '../robot-versions/views.js';
import { robotSummaries } from '../robots/views.js';
import { schedulingSummaries } from '../schedulings/views.js';
import { vmNames } from '../vms/views.js';
import { count, orderBy, pageOf } from '../../lib/list-query.js';
import { likePattern } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { withinDays } from '../../lib/date-range.js';

const e = rotaExecutions;

const duration = sql<
  number | null
>`(extract(epoch from (${e.ended_at} - ${e.started_at})) * 1000)::bigint`;

const columns = {
  execution_id: e.rota_executions_id,
  rota_robots_id: e.rota_robots_id,
  rota_robots_name: robotSummaries.name,
  rota_schedulings_id: e.rota_schedulings_id,
  rota_schedulings_name: schedulingSummaries.name,
  rota_vms_id: e.rota_vms_id,
  rota_vms_name: vmNames.name,
  rota_nodes_id: e.rota_nodes_id,
  rota_executor_name: agentSummaries.name,
  rota_robot_versions_id: e.rota_robot_versions_id,
  version: packageSummaries.version,
  status: e.status,
  trigger: e.trigger,
  priority: e.priority,
  timeout_minutes: sql<number>`ceil(${e.timeout_seconds} / 60.0)::int`,
  retries: e.retries,
  attempts: e.attempts,
  exit_code: e.exit_code,
  message: e.message,
  queued_at: e.queued_at,
  start_date: e.started_at,
  end_date: e.ended_at,
  duration_ms: duration,
  cancel_requested: sql<boolean>`${e.cancel_requested_at} is not null`,
};

const sortable = {
  queued_at: e.queued_at,
  start_date: e.started_at,
  end_date: e.ended_at,
  rota_robots_name: robotSummaries.name,
  rota_executor_name: agentSummaries.name,
  status: e.status,
  duration,
  execution_id: e.rota_executions_id,
} as const;

function selectExecutions(db: Db) {
  return db
    .select(columns)
    .from(e)
    .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, e.rota_robots_id))
    .leftJoin(
      schedulingSummaries,
      eq(schedulingSummaries.rota_schedulings_id, e.rota_schedulings_id),
    )
    .leftJoin(vmNames, eq(vmNames.rota_vms_id, e.rota_vms_id))
    .leftJoin(agentSummaries, eq(agentSummaries.rota_nodes_id, e.rota_nodes_id))
    .leftJoin(
      packageSummaries,
      eq(packageSummaries.rota_robot_versions_id, e.rota_robot_versions_id),
    );
}

export type ExecutionListRow = Awaited<ReturnType<typeof selectExecutions>>[number];

/** Robot or agent name, or the execution's number. */
function searchCondition(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const pattern = likePattern(search);
  const byName = sql`(${robotSummaries.name} ilike ${pattern} or ${agentSummaries.name} ilike ${pattern})`;
  const digits = search.replace(/^#/, '');
  if (/^\d{1,9}$/.test(digits)) {
    return sql`(${byName} or ${e.rota_executions_id} = ${Number(digits)})`;
  }
  return byName;
}

function filters(
  scope: TenantScope,
  query: Omit<ActivityExportQuery, 'startDate' | 'endDate'> & {
    startDate?: string | undefined;
    endDate?: string | undefined;
  },
) {
  return scope.where(
    e,
    scope.robots(e.rota_robots_id),
    query.status === undefined ? undefined : eq(e.status, query.status),
    query.rota_robots_id === undefined ? undefined : eq(e.rota_robots_id, query.rota_robots_id),
    query.rota_schedulings_id === undefined
      ? undefined
      : eq(e.rota_schedulings_id, query.rota_schedulings_id),
    query.rota_nodes_id === undefined ? undefined : eq(e.rota_nodes_id, query.rota_nodes_id),
    searchCondition(query.search),
    ...withinDays(e.queued_at, query),
  );
}

export async function listExecutions<R>(
  db: Db,
  scope: TenantScope,
  query: ActivityListQuery,
  map: (row: ExecutionListRow) => R,
) {
  const where = filters(scope, query);
  // The count joins only what the search needs to see.
  const total = query.search
    ? db
        .select({ total: count() })
        .from(e)
        .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, e.rota_robots_id))
        .leftJoin(agentSummaries, eq(agentSummaries.rota_nodes_id, e.rota_nodes_id))
        .where(where)
    : db.select({ total: count() }).from(e).where(where);
  return pageOf(
    query,
    selectExecutions(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, e.rota_executions_id))
      .$dynamic(),
    total,
    map,
  );
}

/** Every execution of the range, in pages of `batch` (the CSV export streams them). */
export async function* exportExecutions(
  db: Db,
  scope: TenantScope,
  query: ActivityExportQuery,
  batch = 1000,
): AsyncGenerator<ExecutionListRow[]> {
  const where = filters(scope, query);
  let after = 0;
  for (;;) {
    const rows = await selectExecutions(db)
      .where(and(where, gt(e.rota_executions_id, after)))
      .orderBy(asc(e.rota_executions_id))
      .limit(batch);
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.execution_id;
    if (rows.length < batch) return;
  }
}

export async function findExecution(db: Db, scope: TenantScope, id: number) {
  const [row] = await selectExecutions(db).where(
    scope.where(e, eq(e.rota_executions_id, id), scope.robots(e.rota_robots_id)),
  );
  return row;
}

export async function listAttempts(db: Db, scope: TenantScope, id: number) {
  const a = rotaExecutionAttempts;
  return db
    .select({
      attempt: a.attempt,
      rota_nodes_id: a.rota_nodes_id,
      rota_executor_name: agentSummaries.name,
      status: a.status,
      exit_code: a.exit_code,
      message: a.message,
      start_date: a.started_at,
      end_date: a.ended_at,
      late_status: a.late_status,
      late_exit_code: a.late_exit_code,
      late_message: a.late_message,
      late_reported_at: a.late_reported_at,
      refused_calls: a.refused_calls,
    })
    .from(a)
    .leftJoin(agentSummaries, eq(agentSummaries.rota_nodes_id, a.rota_nodes_id))
    .where(scope.where(a, eq(a.rota_executions_id, id)))
    .orderBy(asc(a.attempt));
}

export async function listLogLines(
  db: Db,
  scope: TenantScope,
  id: number,
  after: number,
  limit: number,
) {
  const l = rotaExecutionLogs;
  const select = () =>
    db
      .select({
        seq: l.rota_execution_logs_id,
        attempt: l.attempt,
        stream: l.stream,
        line: l.line,
        at: l.at,
      })
      .from(l);
  if (after === 0) {
    // A first load shows the tail: the newest lines, still answered oldest first.
    const newest = await select()
      .where(scope.where(l, eq(l.rota_executions_id, id)))
      .orderBy(desc(l.rota_execution_logs_id))
      .limit(limit);
    return newest.reverse();
  }
  return select()
    .where(scope.where(l, eq(l.rota_executions_id, id), gt(l.rota_execution_logs_id, after)))
    .orderBy(asc(l.rota_execution_logs_id))
    .limit(limit);
}
