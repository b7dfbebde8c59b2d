import { and, eq, gt, inArray, lte, notInArray, sql } from 'drizzle-orm';
import type { TaskListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaTasks } from '../../db/schema.js';
import { robotSummaries } from '../robots/views.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { listTotal } from '../../lib/row-counts.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { withinDays } from '../../lib/date-range.js';

const t = rotaTasks;

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
  created_at: t.created_at,
  updated_at: t.updated_at,
};

const sortable = {
  created_at: t.created_at,
  priority: t.priority,
  expiration_date: t.expiration_date,
  status: t.status,
  label: t.label,
} as const;

function selectTasks(db: Db) {
  return db
    .select(columns)
    .from(t)
    .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, t.rota_robots_id));
}

export type TaskRow = Awaited<ReturnType<typeof selectTasks>>[number];

export interface TaskValues {
  label?: string | null;
  data?: Record<string, unknown>;
  priority?: number;
  expiration_date?: Date;
}

export async function listTasks<R>(
  db: Db,
  scope: TenantScope,
  query: TaskListQuery,
  map: (row: TaskRow) => R,
) {
  const filters = [
    scope.robots(t.rota_robots_id),
    query.rota_robots_id === undefined ? undefined : eq(t.rota_robots_id, query.rota_robots_id),
    query.status === undefined ? undefined : eq(t.status, query.status),
    searchAny(query.search, [t.label]),
    ...withinDays(t.created_at, query),
  ];
  const where = scope.where(t, ...filters);
  return pageOf(
    query,
    selectTasks(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, t.rota_tasks_id))
      .$dynamic(),
    // No filter beyond the client: the maintained count, not a scan of every row.
    listTotal(
      db,
      scope,
      'rota_tasks',
      filters.every((f) => f === undefined),
      () => db.select({ total: count() }).from(t).where(where),
    ),
    map,
  );
}

export async function findTask(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<TaskRow | undefined> {
  const [row] = await selectTasks(db).where(
    scope.where(t, eq(t.rota_tasks_id, id), scope.robots(t.rota_robots_id)),
  );
  return row;
}

export async function insertTask(
  db: Db,
  scope: TenantScope,
  values: Required<TaskValues> & { rota_robots_id: number },
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
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(t, eq(t.rota_tasks_id, id), scope.robots(t.rota_robots_id)))
    .returning({ id: t.rota_tasks_id });
  return updated.length > 0;
}

/** Back to the queue: not a task a robot holds now, nor one already waiting. */
export async function requeueTasks(db: Db, scope: TenantScope, ids: number[]): Promise<number> {
  const updated = await db
    .update(t)
    .set({ status: 'pending', business_error: null, updated_at: sql`now()` })
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
export async function expireDueTasks(db: Db, limit: number): Promise<number> {
  const due = db
    .select({ id: t.rota_tasks_id })
    .from(t)
    .where(and(eq(t.status, 'pending'), lte(t.expiration_date, sql`now()`)))
    .limit(limit);
  const expired = await db
    .update(t)
    .set({ status: 'expired', updated_at: sql`now()` })
    .where(inArray(t.rota_tasks_id, due))
    .returning({ id: t.rota_tasks_id });
  return expired.length;
}

/**
 * The robot's next pending task, now held by the run: the highest priority, then the oldest.
 * SKIP LOCKED: two runs of one robot never get the same task.
 */
export async function takeNextTask(
  db: Db,
  scope: TenantScope,
  run: { rota_robots_id: number; rota_executions_id: number },
) {
  const next = db
    .select({ id: t.rota_tasks_id })
    .from(t)
    .where(
      scope.where(
        t,
        eq(t.rota_robots_id, run.rota_robots_id),
        eq(t.status, 'pending'),
        gt(t.expiration_date, sql`now()`),
      ),
    )
    .orderBy(sql`${t.priority} desc nulls last`, t.created_at, t.rota_tasks_id)
    .limit(1)
    .for('update', { skipLocked: true });
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
      attempts: t.attempts,
    });
  return task;
}

/** A held task's outcome; answers false when the run does not hold it (any more). */
export async function finishHeldTask(
  db: Db,
  scope: TenantScope,
  executionId: number,
  outcome: { id: number; status: 'success' | 'business_error'; business_error: string | null },
): Promise<boolean> {
  const updated = await db
    .update(t)
    .set({
      status: outcome.status,
      business_error: outcome.business_error,
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
