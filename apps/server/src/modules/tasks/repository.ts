import {
  and,
  eq,
  gt,
  inArray,
  isNull,
  lte,
  notInArray,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { TaskListQuery, TaskSlaState } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaTaskHistory, rotaTasks } from '../../db/schema/tasks.js';
import { agentSummaries } from '../agents/views.js';
import { executionIsLive, executionSummaries } from '../executions/views.js';
import { largestTaskRiskMinutes, robotSummaries, taskRetriesOf } from '../robots/views.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { listTotal } from '../../lib/row-counts.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { withinDays } from '../../lib/date-range.js';

const t = rotaTasks;
const h = rotaTaskHistory;

/** A task is open (may still meet or breach its deadline) while pending or processing. */
const OPEN = ['pending', 'processing'];

/** An instant from the app's clock as a statement parameter. */
const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/**
 * A task's SLA state at `now` (the app's clock), in SQL so lists filter and count by it: see
 * TASK_SLA_STATES. A final task finished before the column existed counts its last change.
 */
function slaState(now: Date): SQL<TaskSlaState | null> {
  return sql<TaskSlaState | null>`case
    when ${t.deadline} is null then null
    when ${t.status} in ('pending', 'processing') then case
      when ${t.deadline} < ${at(now)} then 'breached'
      when ${t.deadline} < ${at(now)} + make_interval(mins => ${robotSummaries.task_risk_minutes}) then 'at_risk'
      else 'on_time' end
    when coalesce(${t.finished_at}, ${t.updated_at}) <= ${t.deadline} then 'met'
    else 'missed' end`;
}

/**
 * Tasks in `state` at `now`: the state itself, plus what lets the planner read only open tasks
 * with a deadline (rota_tasks_open_deadline_idx) or only finished ones.
 */
function slaFilter(state: TaskSlaState, now: Date): SQL {
  const open = state === 'on_time' || state === 'at_risk' || state === 'breached';
  return and(
    sql`${t.deadline} is not null`,
    open ? inArray(t.status, OPEN) : notInArray(t.status, OPEN),
    state === 'breached' ? sql`${t.deadline} < ${at(now)}` : undefined,
    sql`${slaState(now)} = ${state}`,
  )!;
}

const columns = {
  rota_tasks_id: t.rota_tasks_id,
  rota_robots_id: t.rota_robots_id,
  rota_robots_name: robotSummaries.name,
  label: t.label,
  data: t.data,
  priority: t.priority,
  expiration_date: t.expiration_date,
  status: t.status,
  business_error: t.business_error,
  attempts: t.attempts,
  deadline: t.deadline,
  postpone_until: t.postpone_until,
  finished_at: t.finished_at,
  created_at: t.created_at,
  updated_at: t.updated_at,
};

const sortable = {
  created_at: t.created_at,
  priority: t.priority,
  expiration_date: t.expiration_date,
  deadline: t.deadline,
  status: t.status,
  label: t.label,
} as const;

function selectTasks(db: Db, now: Date) {
  return db
    .select({ ...columns, sla_state: slaState(now) })
    .from(t)
    .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, t.rota_robots_id));
}

export type TaskRow = Awaited<ReturnType<typeof selectTasks>>[number];

export interface TaskValues {
  label?: string | null;
  data?: Record<string, unknown>;
  priority?: number;
  expiration_date?: Date;
  deadline?: Date | null;
  postpone_until?: Date | null;
}

export async function listTasks<R>(
  db: Db,
  scope: TenantScope,
  query: TaskListQuery,
  now: Date,
  map: (row: TaskRow) => R,
) {
  const filters = [
    scope.robots(t.rota_robots_id),
    query.rota_robots_id === undefined ? undefined : eq(t.rota_robots_id, query.rota_robots_id),
    query.status === undefined ? undefined : eq(t.status, query.status),
    query.sla_state === undefined ? undefined : slaFilter(query.sla_state, now),
    query.rota_executions_id === undefined ? undefined : heldBy(query.rota_executions_id),
    searchAny(query.search, [t.label]),
    ...withinDays(t.created_at, query),
  ];
  const where = scope.where(t, ...filters);
  return pageOf(
    query,
    selectTasks(db, now)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, t.rota_tasks_id))
      .$dynamic(),
    // No filter beyond the client: the maintained count, not a scan of every row.
    listTotal(
      db,
      scope,
      'rota_tasks',
      { whole: filters.every((f) => f === undefined), searched: Boolean(query.search) },
      () => {
        const counted = db.select({ total: count() }).from(t).$dynamic();
        // Only the SLA state reads the robot (its risk minutes); every task has exactly one
        // robot, so without that filter the join changes no count and only costs: a hash of
        // every robot of the client (28–58 ms at 100,000, against an index-only count).
        return (
          query.sla_state === undefined
            ? counted
            : counted.innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, t.rota_robots_id))
        ).where(where);
      },
    ),
    map,
  );
}

/** Tasks the execution held at some point: its rows of the history (rota_task_history_execution_idx). */
function heldBy(executionId: number): SQL {
  return inArray(
    t.rota_tasks_id,
    sql`(select ${h.rota_tasks_id} from ${h} where ${h.rota_executions_id} = ${executionId})`,
  );
}

/**
 * A task's history, oldest first, each row with the execution it names while that still exists
 * (its agent's name too). The caller checked the task is the scope's.
 */
export function taskHistoryRows(db: Db, scope: TenantScope, taskId: number) {
  const e = executionSummaries;
  return db
    .select({
      rota_task_history_id: h.rota_task_history_id,
      status: h.status,
      at: h.at,
      attempts: h.attempts,
      business_error: h.business_error,
      rota_executions_id: h.rota_executions_id,
      execution_status: e.status,
      rota_nodes_name: agentSummaries.name,
      started_at: e.started_at,
      ended_at: e.ended_at,
    })
    .from(h)
    .leftJoin(
      e,
      and(eq(e.rota_executions_id, h.rota_executions_id), eq(e.rota_clients_id, h.rota_clients_id)),
    )
    .leftJoin(agentSummaries, eq(agentSummaries.rota_nodes_id, e.rota_nodes_id))
    .where(scope.where(h, eq(h.rota_tasks_id, taskId)))
    .orderBy(h.rota_task_history_id);
}

export type TaskHistoryRow = Awaited<ReturnType<typeof taskHistoryRows>>[number];

export async function findTask(
  db: Db,
  scope: TenantScope,
  id: number,
  now: Date,
): Promise<TaskRow | undefined> {
  const [row] = await selectTasks(db, now).where(
    scope.where(t, eq(t.rota_tasks_id, id), scope.robots(t.rota_robots_id)),
  );
  return row;
}

export async function insertTask(
  db: Db,
  scope: TenantScope,
  values: Required<TaskValues> & { rota_robots_id: number; reserved_for?: number | null },
): Promise<number> {
  const [row] = await db.insert(t).values(scope.stamp(values)).returning({ id: t.rota_tasks_id });
  return row!.id;
}

export async function updateTask(
  db: Db,
  scope: TenantScope,
  id: number,
  values: TaskValues,
): Promise<boolean> {
  const updated = await db
    .update(t)
    .set({
      ...values,
      // Another deadline: its transitions are announced afresh.
      ...(values.deadline !== undefined
        ? {
            sla_announced: sql`case when ${t.deadline} is not distinct from ${
              values.deadline === null ? sql`null::timestamptz` : at(values.deadline)
            } then ${t.sla_announced} end`,
          }
        : {}),
      updated_at: sql`now()`,
    })
    .where(scope.where(t, eq(t.rota_tasks_id, id), scope.robots(t.rota_robots_id)))
    .returning({ id: t.rota_tasks_id });
  return updated.length > 0;
}

/** Back to the queue: not a task a robot holds now, nor one already waiting. */
export async function requeueTasks(db: Db, scope: TenantScope, ids: number[]): Promise<number> {
  const updated = await db
    .update(t)
    .set({ status: 'pending', business_error: null, finished_at: null, updated_at: sql`now()` })
    .where(
      scope.where(
        t,
        inArray(t.rota_tasks_id, ids),
        scope.robots(t.rota_robots_id),
        notInArray(t.status, ['processing', 'pending']),
      ),
    )
    .returning({ id: t.rota_tasks_id });
  return updated.length;
}

export async function deleteTasks(db: Db, scope: TenantScope, ids: number[]): Promise<number> {
  const deleted = await db
    .delete(t)
    .where(scope.where(t, inArray(t.rota_tasks_id, ids), scope.robots(t.rota_robots_id)))
    .returning({ id: t.rota_tasks_id });
  return deleted.length;
}

/** Pending tasks past their expiration become `expired`, up to `limit` per pass. */
export async function expireDueTasks(db: Db, limit: number, now: Date): Promise<number> {
  const due = db
    .select({ id: t.rota_tasks_id })
    .from(t)
    .where(and(eq(t.status, 'pending'), lte(t.expiration_date, sql`now()`)))
    .limit(limit);
  const expired = await db
    .update(t)
    .set({ status: 'expired', finished_at: now, updated_at: sql`now()` })
    .where(inArray(t.rota_tasks_id, due))
    .returning({ id: t.rota_tasks_id });
  return expired.length;
}

/**
 * The robot's next due pending task (not postponed past `now`), now held by the run: the
 * highest priority, then the earliest deadline (none last), then the oldest (rota_tasks_next_idx).
 * An attended run takes the tasks created with it first; no run takes a task reserved for
 * another run that is still queued or processing. SKIP LOCKED: two runs of one robot never get
 * the same task.
 */
export async function takeNextTask(
  db: Db,
  scope: TenantScope,
  run: { rota_robots_id: number; rota_executions_id: number; attended: boolean },
  now: Date,
) {
  const due = [
    eq(t.rota_robots_id, run.rota_robots_id),
    eq(t.status, 'pending'),
    gt(t.expiration_date, sql`now()`),
    or(isNull(t.postpone_until), lte(t.postpone_until, at(now))),
  ];
  if (run.attended) {
    const reserved = await holdTask(
      db,
      run,
      db
        .select({ id: t.rota_tasks_id })
        .from(t)
        .where(scope.where(t, eq(t.reserved_for, run.rota_executions_id), ...due))
        .orderBy(t.rota_tasks_id)
        .limit(1)
        .for('update', { skipLocked: true }),
    );
    if (reserved) return reserved;
  }
  const unreserved = or(isNull(t.reserved_for), sql`not ${executionIsLive(t.reserved_for)}`);
  return holdTask(
    db,
    run,
    db
      .select({ id: t.rota_tasks_id })
      .from(t)
      .where(scope.where(t, ...due, unreserved))
      // Spelled as rota_tasks_next_idx is (priority DESC NULLS LAST): another spelling sorts
      // every pending task instead of reading the index.
      .orderBy(
        sql`${t.priority} desc nulls last`,
        sql`${t.deadline} asc nulls last`,
        t.created_at,
        t.rota_tasks_id,
      )
      .limit(1)
      .for('update', { skipLocked: true }),
  );
}

/** The task `next` selects (one id), now processing and held by the run. */
async function holdTask(db: Db, run: { rota_executions_id: number }, next: SQLWrapper) {
  const [task] = await db
    .update(t)
    .set({
      status: 'processing',
      attempts: sql`${t.attempts} + 1`,
      rota_executions_id: run.rota_executions_id,
      business_error: null,
      updated_at: sql`now()`,
    })
    .where(eq(t.rota_tasks_id, sql`(${next})`))
    .returning({
      rota_tasks_id: t.rota_tasks_id,
      label: t.label,
      data: t.data,
      priority: t.priority,
      expiration_date: t.expiration_date,
      deadline: t.deadline,
      attempts: t.attempts,
    });
  return task;
}

/**
 * A held task's outcome; answers false when the run does not hold it (any more). An
 * application error goes back to pending while its attempts have not passed the robot's
 * `task_retries`, and is final (finished at `now`) after.
 */
export async function finishHeldTask(
  db: Db,
  scope: TenantScope,
  executionId: number,
  outcome: {
    id: number;
    status: 'success' | 'business_error' | 'application_error';
    business_error: string | null;
  },
  now: Date,
): Promise<boolean> {
  const retried =
    outcome.status === 'application_error'
      ? sql`${t.attempts} <= ${taskRetriesOf(t.rota_robots_id)}`
      : sql`false`;
  const updated = await db
    .update(t)
    .set({
      status: sql`case when ${retried} then 'pending' else ${outcome.status} end`,
      business_error: outcome.business_error,
      finished_at: sql`case when ${retried} then null else ${at(now)} end`,
      rota_executions_id: null,
      updated_at: sql`now()`,
    })
    .where(
      scope.where(
        t,
        eq(t.rota_tasks_id, outcome.id),
        eq(t.rota_executions_id, executionId),
        eq(t.status, 'processing'),
      ),
    )
    .returning({ id: t.rota_tasks_id });
  return updated.length > 0;
}

/**
 * Per robot of the scope with any: unfinished tasks at risk and past their deadline at `now`,
 * most breached first (reads rota_tasks_open_deadline_idx).
 */
export async function slaCountsPerRobot(db: Db, scope: TenantScope, now: Date) {
  const breached = sql<number>`count(*) filter (where ${t.deadline} < ${at(now)})::int`;
  const atRisk = sql<number>`count(*) filter (where ${t.deadline} >= ${at(now)})::int`;
  return db
    .select({
      rota_robots_id: t.rota_robots_id,
      rota_robots_name: robotSummaries.name,
      at_risk: atRisk,
      breached,
    })
    .from(t)
    .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, t.rota_robots_id))
    .where(
      scope.where(
        t,
        scope.robots(t.rota_robots_id),
        inArray(t.status, ['pending', 'processing']),
        sql`${t.deadline} is not null`,
        sql`${t.deadline} < ${at(now)} + make_interval(mins => coalesce(${robotSummaries.task_risk_minutes}, 0))`,
      ),
    )
    .groupBy(t.rota_robots_id, robotSummaries.name)
    .orderBy(sql`${breached} desc`, sql`${atRisk} desc`, robotSummaries.name)
    .limit(50);
}

/**
 * Open tasks whose SLA state at `now` is `at_risk` or `breached` and was not announced yet: marks
 * them announced and answers them, up to `limit` per pass. SKIP LOCKED: two instances never
 * announce one transition twice. A task that is at risk and breached before a pass is announced
 * once, as breached.
 */
export async function markSlaTransitions(db: Db, now: Date, limit: number) {
  const state = sql`case when ${t.deadline} < ${at(now)} then 'breached' else 'at_risk' end`;
  const due = db
    .select({ id: t.rota_tasks_id })
    .from(t)
    .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, t.rota_robots_id))
    .where(
      and(
        // rota_tasks_sla_watch_idx's predicate, then a range of it: no robot's risk reaches
        // further than the largest.
        sql`${t.status} in ('pending', 'processing') and ${t.deadline} is not null and ${t.sla_announced} is distinct from 'breached'`,
        sql`${t.deadline} < ${at(now)} + make_interval(mins => ${largestTaskRiskMinutes()})`,
        sql`${t.deadline} < ${at(now)} + make_interval(mins => coalesce(${robotSummaries.task_risk_minutes}, 0))`,
        sql`${t.sla_announced} is distinct from ${state}`,
      ),
    )
    .limit(limit)
    .for('update', { of: t, skipLocked: true });
  return db
    .update(t)
    .set({ sla_announced: state })
    .where(inArray(t.rota_tasks_id, due))
    .returning({
      rota_clients_id: t.rota_clients_id,
      rota_tasks_id: t.rota_tasks_id,
      rota_robots_id: t.rota_robots_id,
      sla_state: sql<'at_risk' | 'breached'>`${t.sla_announced}`,
    });
}
