import { eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { TaskListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaRobots, rotaTasks } from '../../db/schema.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { listTotal } from '../../lib/row-counts.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { withinDays } from '../../lib/date-range.js';

const t = rotaTasks;

const columns = {
  rota_tasks_id: t.rota_tasks_id,
  rota_robots_id: t.rota_robots_id,
  rota_robots_name: rotaRobots.name,
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
    .innerJoin(rotaRobots, eq(rotaRobots.rota_robots_id, t.rota_robots_id));
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
