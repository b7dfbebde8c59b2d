import { and, asc, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  SEARCH_COUNT_LIMIT,
  type ActivityExportQuery,
  type ActivityListQuery,
  type PendingReason,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import {
  rotaExecutionAttempts,
  rotaExecutionLogs,
  rotaExecutions,
} from '../../db/schema/executions.js';
import { agentIsActiveFilter } from '../agents/connectivity.js';
import { agentSummaries } from '../agents/views.js';
import { packageSummaries } from '../robot-versions/views.js';
import { robotSummaries } from '../robots/views.js';
import { schedulingSummaries } from '../schedulings/views.js';
import { userNameOf } from '../users/views.js';
import { vmNames } from '../vms/views.js';
import { count as countRows, orderBy, pageOf } from '../../lib/list-query.js';
import { tableAs } from '../../lib/sql-refs.js';
import { rowsOf } from '../../lib/sql-rows.js';
import { likePattern } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { withinDays } from '../../lib/date-range.js';

const e = rotaExecutions;

const att = rotaExecutionAttempts;

/**
 * How long its attempts ran, summed (the current one up to now), in seconds; null before its
 * first attempt. The waits in the queue between attempts are not in it.
 */
const runTime = sql`(select extract(epoch from sum(coalesce(${att.ended_at}, now()) - ${att.started_at}))
                       from ${att} where ${att.rota_executions_id} = ${e.rota_executions_id})`;

/** An ended execution's duration: its attempts' run time, never the queue time between them. */
const duration = sql<
  number | null
>`(case when ${e.ended_at} is null then null else round(${runTime} * 1000)::bigint end)`;

/** The current attempt's start: null while queued (a retry waiting names no agent or start). */
const attemptStart = sql<Date | null>`(select ${att.started_at} from ${att}
   where ${att.rota_executions_id} = ${e.rota_executions_id}
     and ${att.attempt} = ${e.attempts} and ${e.status} = 'processing')`.mapWith(att.started_at);

/** Flagged and still processing: a run that ended after its flag is no longer stalled. */
const stalledNow = sql<boolean>`(${e.stalled} and ${e.status} = 'processing')`;

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
  message_code: e.message_code,
  message_params: e.message_params,
  queued_at: e.queued_at,
  start_date: e.started_at,
  end_date: e.ended_at,
  duration_ms: duration,
  run_seconds: sql<number | null>`round(${runTime})::int`,
  queued_seconds: sql<number>`greatest(0, round(extract(epoch from coalesce(${e.ended_at}, now()) - ${e.queued_at}) - coalesce(${runTime}, 0)))::int`,
  attempt_start_date: attemptStart,
  cancel_requested: sql<boolean>`${e.cancel_requested_at} is not null`,
  progress_percent: e.progress_percent,
  progress_message: e.progress_message,
  last_activity_at: e.last_activity_at,
  stalled: stalledNow,
  connection_lost_at: e.connection_lost_at,
  labels: e.labels,
  attended_by: e.attended_by,
  attended_by_name: userNameOf(e.attended_by),
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
    query.stalled === undefined ? undefined : query.stalled ? stalledNow : sql`not ${stalledNow}`,
    searchCondition(query.search),
    ...withinDays(e.queued_at, query),
  );
}

export async function listExecutions<R>(
  db: Db,
  scope: TenantScope,
  query: ActivityListQuery,
  map: (row: ExecutionListRow) => R,
  /** A total kept elsewhere (the counted days), null when it cannot tell: then it is counted. */
  counted?: (scope: TenantScope) => Promise<{ total: number }[] | null>,
) {
  const where = filters(scope, query);
  // A search's matches are counted up to the limit and no further: an exact count of a name
  // that matches one run in twenty reads every run of the history, and grows with it.
  let capped = false;
  const countMatches = async () => {
    const matching = db
      .select({ one: sql`1` })
      .from(e)
      .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, e.rota_robots_id))
      .leftJoin(agentSummaries, eq(agentSummaries.rota_nodes_id, e.rota_nodes_id))
      .where(where)
      .limit(SEARCH_COUNT_LIMIT + 1)
      .as('matching');
    const [row] = await db.select({ total: countRows() }).from(matching);
    capped = (row?.total ?? 0) > SEARCH_COUNT_LIMIT;
    return [{ total: capped ? SEARCH_COUNT_LIMIT : (row?.total ?? 0) }];
  };
  const count = () =>
    query.search ? countMatches() : db.select({ total: countRows() }).from(e).where(where);
  const total = counted ? counted(scope).then((kept) => kept ?? count()) : count();
  const page = await pageOf(
    query,
    selectExecutions(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, e.rota_executions_id))
      .$dynamic(),
    total,
    map,
  );
  return capped ? { ...page, meta: { ...page.meta, total_capped: true } } : page;
}

/**
 * Every execution of the range in queue order, in pages of `batch` (the CSV export streams
 * them). Each page starts after the last row of the one before by (queued_at, id), read through
 * the client's queue-time index: a page costs its rows wherever the range lies in the history
 * (in id order, the primary key was scanned from the first run ever to reach the range). The
 * last row's queued_at is read back from the row, to the microsecond a JS date would cut; only
 * if that row was deleted meanwhile does its millisecond stand in.
 */
export async function* exportExecutions(
  db: Db,
  scope: TenantScope,
  query: ActivityExportQuery,
  batch = 1000,
): AsyncGenerator<ExecutionListRow[]> {
  const where = filters(scope, query);
  const last = alias(e, 'last_exported');
  let after: { at: Date; id: number } | null = null;
  for (;;) {
    let since: SQL | undefined;
    if (after) {
      const at: SQL = sql`coalesce((select ${last.queued_at} from ${last}
                                where ${last.rota_executions_id} = ${after.id}), ${after.at})`;
      since = sql`${e.queued_at} >= ${at} and (${e.queued_at} > ${at} or ${e.rota_executions_id} > ${after.id})`;
    }
    const rows: ExecutionListRow[] = await selectExecutions(db)
      .where(and(where, since))
      .orderBy(asc(e.queued_at), asc(e.rota_executions_id))
      .limit(batch);
    if (rows.length === 0) return;
    yield rows;
    const end: ExecutionListRow = rows[rows.length - 1]!;
    after = { at: end.queued_at, id: end.execution_id };
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
      message_code: a.message_code,
      message_params: a.message_params,
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

/** What a log line answers: its seq (the row id), attempt, stream, text and time. */
const logColumns = {
  seq: rotaExecutionLogs.rota_execution_logs_id,
  attempt: rotaExecutionLogs.attempt,
  stream: rotaExecutionLogs.stream,
  line: rotaExecutionLogs.line,
  at: rotaExecutionLogs.at,
  code: rotaExecutionLogs.code,
  params: rotaExecutionLogs.params,
};

export async function listLogLines(
  db: Db,
  scope: TenantScope,
  id: number,
  after: number,
  limit: number,
  search?: string,
) {
  const l = rotaExecutionLogs;
  const select = () => db.select(logColumns).from(l);
  // A search reads the run's lines through the (execution, id) index and filters them: a run's
  // 100,000 lines are scanned in tens of milliseconds, without a trigram index to maintain.
  const matching = search ? sql`${l.line} ilike ${likePattern(search)}` : undefined;
  if (after === 0) {
    // A first load shows the tail: the newest lines, still answered oldest first.
    const newest = await select()
      .where(scope.where(l, eq(l.rota_executions_id, id), matching))
      .orderBy(desc(l.rota_execution_logs_id))
      .limit(limit);
    return newest.reverse();
  }
  return select()
    .where(
      scope.where(l, eq(l.rota_executions_id, id), gt(l.rota_execution_logs_id, after), matching),
    )
    .orderBy(asc(l.rota_execution_logs_id))
    .limit(limit);
}

/** An execution's whole log, oldest first, `batch` lines per query (the download). */
export async function* allLogLines(db: Db, scope: TenantScope, id: number, batch: number) {
  const l = rotaExecutionLogs;
  let after = 0;
  for (;;) {
    const lines = await db
      .select(logColumns)
      .from(l)
      .where(scope.where(l, eq(l.rota_executions_id, id), gt(l.rota_execution_logs_id, after)))
      .orderBy(asc(l.rota_execution_logs_id))
      .limit(batch);
    if (lines.length === 0) return;
    yield lines;
    after = Number(lines.at(-1)!.seq);
  }
}

/**
 * Why each of these queued executions of the client still waits (PENDING_REASONS; null: an
 * agent is about to claim it); executions not queued are absent from the answer. One statement
 * for a page's queued rows. The rules follow the claim: a run may go to an agent of its client
 * whose VM it allows (`vm_ids` null: any of the client's VMs) and that carries all of its labels;
 * an agent is active within the connectivity window, free while it runs nothing (the server does
 * not know an agent's `--concurrency`, so an agent running one run counts as busy); a free agent
 * takes the higher-priority (then older) queued runs first, so a run waits while at least as many
 * runs that one of its free agents could take as there are free agents for it are ahead of it.
 */
export async function pendingReasonsOf(
  db: Db,
  clientId: number,
  executionIds: number[],
): Promise<Map<number, { reason: PendingReason | null; missing_labels: string[] }>> {
  if (executionIds.length === 0) return new Map();
  const q = alias(rotaExecutions, 'q');
  const busy = alias(rotaExecutions, 'busy');
  const ahead = alias(rotaExecutions, 'ahead');
  const r = robotSummaries;
  const n = agentSummaries;
  const v = vmNames;
  const allowsVm = (vm: SQL) => sql`(${q.vm_ids} is null or ${vm} = any(${q.vm_ids}))`;
  const carried = sql`(${n.labels} || ${n.hello_labels})`;
  // An agent that may take it: of its VMs, carrying every label it needs.
  const capable = sql`${n.rota_clients_id} = ${clientId} and ${allowsVm(sql`${n.rota_vms_id}`)}
                      and ${q.labels} <@ ${carried}`;
  const rows = await rowsOf<{
    id: number;
    reason: PendingReason | null;
    missing_labels: string[];
  }>(
    db,
    sql`with f as (
          select ${q.rota_executions_id} as id, ${q.priority} as priority, ${q.queued_at} as queued_at,
                 ${q.vm_ids} as vm_ids, ${q.labels} as labels,
                 ${r.current_version_id} is null as no_version,
                 exists (select 1 from ${v} where ${v.rota_clients_id} = ${clientId}
                            and ${allowsVm(sql`${v.rota_vms_id}`)}) as has_vm,
                 exists (select 1 from ${n} where ${capable}) as has_capable,
                 array(select l from unnest(${q.labels}) l
                        where not exists (select 1 from ${n}
                                           where ${n.rota_clients_id} = ${clientId}
                                             and ${allowsVm(sql`${n.rota_vms_id}`)}
                                             and l = any(${carried}))
                        order by l collate "C") as missing_labels,
                 exists (select 1 from ${n} where ${capable}
                            and ${agentIsActiveFilter(n.last_seen_at)}) as has_active,
                 coalesce((select array_agg(${n.rota_vms_id}) from ${n}
                            where ${capable}
                              and ${agentIsActiveFilter(n.last_seen_at)}
                              and not exists (select 1 from ${tableAs(busy)}
                                               where ${busy.rota_nodes_id} = ${n.rota_nodes_id}
                                                 and ${busy.status} = 'processing')),
                          '{}') as free_vms
            from ${tableAs(q)}
            join ${r} on ${r.rota_robots_id} = ${q.rota_robots_id}
           where ${q.rota_executions_id} = any(${`{${executionIds.join(',')}}`}::integer[])
             and ${q.rota_clients_id} = ${clientId} and ${q.status} = 'queued'
        )
        select f.id, case
                 when f.no_version then 'no_current_version'
                 when not f.has_vm then 'no_vm'
                 when not f.has_capable then 'no_agent_with_labels'
                 when not f.has_active then 'no_agent_active'
                 when cardinality(f.free_vms) = 0 then 'agents_busy'
                 when (select count(*) from (
                         select 1 from ${tableAs(ahead)}
                          where ${ahead.rota_clients_id} = ${clientId} and ${ahead.status} = 'queued'
                            and (${ahead.priority} > f.priority
                                 or (${ahead.priority} = f.priority
                                     and (${ahead.queued_at}, ${ahead.rota_executions_id}) < (f.queued_at, f.id)))
                            and exists (select 1 from ${n}
                                         where ${n.rota_clients_id} = ${clientId}
                                           and (f.vm_ids is null or ${n.rota_vms_id} = any(f.vm_ids))
                                           and f.labels <@ ${carried}
                                           and ${agentIsActiveFilter(n.last_seen_at)}
                                           and not exists (select 1 from ${tableAs(busy)}
                                                            where ${busy.rota_nodes_id} = ${n.rota_nodes_id}
                                                              and ${busy.status} = 'processing')
                                           and (${ahead.vm_ids} is null or ${n.rota_vms_id} = any(${ahead.vm_ids}))
                                           and ${ahead.labels} <@ ${carried})
                          limit cardinality(f.free_vms)) a) >= cardinality(f.free_vms)
                   then 'waiting_priority'
                 else null end as reason,
               f.missing_labels
          from f`,
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        reason: row.reason,
        missing_labels: row.reason === 'no_agent_with_labels' ? row.missing_labels : [],
      },
    ]),
  );
}
