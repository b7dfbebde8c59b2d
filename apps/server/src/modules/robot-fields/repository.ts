import { eq, sql } from 'drizzle-orm';
import type { RobotFieldCreate, RobotFieldListQuery, RobotFieldUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaRobotFields } from '../../db/schema/robot-fields.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { listTotal } from '../../lib/row-counts.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

const f = rotaRobotFields;

const sortable = { name: f.name, label: f.label, type: f.type, created_at: f.created_at } as const;

export type RobotFieldRow = typeof f.$inferSelect;

export async function listRobotFields<R>(
  db: Db,
  scope: TenantScope,
  query: RobotFieldListQuery,
  map: (row: RobotFieldRow) => R,
) {
  const filters = [
    scope.robots(f.rota_robots_id),
    query.rota_robots_id === undefined ? undefined : eq(f.rota_robots_id, query.rota_robots_id),
    searchAny(query.search, [f.name, f.label]),
  ];
  const where = scope.where(f, ...filters);
  return pageOf(
    query,
    db
      .select()
      .from(f)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, f.rota_robot_fields_id))
      .$dynamic(),
    // No filter beyond the client: the maintained count, not a scan of every row.
    listTotal(
      db,
      scope,
      'rota_robot_fields',
      { whole: filters.every((f) => f === undefined), searched: Boolean(query.search) },
      () => db.select({ total: count() }).from(f).where(where),
    ),
    map,
  );
}

/** Every field of a robot of the scope, in the order they were added (a form's order). */
export function fieldsOfRobot(db: Db, scope: TenantScope, robotId: number) {
  return db
    .select()
    .from(f)
    .where(scope.where(f, eq(f.rota_robots_id, robotId), scope.robots(f.rota_robots_id)))
    .orderBy(f.rota_robot_fields_id);
}

export async function findRobotField(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<RobotFieldRow | undefined> {
  const [row] = await db
    .select()
    .from(f)
    .where(scope.where(f, eq(f.rota_robot_fields_id, id), scope.robots(f.rota_robots_id)));
  return row;
}

export async function insertRobotField(db: Db, scope: TenantScope, values: RobotFieldCreate) {
  const [row] = await db
    .insert(f)
    .values(scope.stamp(values))
    .returning({ id: f.rota_robot_fields_id });
  return row!.id;
}

export async function updateRobotField(
  db: Db,
  scope: TenantScope,
  { id, ...values }: RobotFieldUpdate,
): Promise<boolean> {
  const updated = await db
    .update(f)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(f, eq(f.rota_robot_fields_id, id), scope.robots(f.rota_robots_id)))
    .returning({ id: f.rota_robot_fields_id });
  return updated.length > 0;
}

export async function deleteRobotField(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(f)
    .where(scope.where(f, eq(f.rota_robot_fields_id, id), scope.robots(f.rota_robots_id)))
    .returning({ id: f.rota_robot_fields_id });
  return deleted.length > 0;
}
