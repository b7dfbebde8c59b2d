import { and, asc, count, desc, eq, inArray, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { AuditLogListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { auditLogs } from '../../db/schema/audit.js';
import { withinDays } from '../../lib/date-range.js';
import { pageWindow } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { executionRobots } from '../executions/views.js';
import { schedulingSummaries } from '../schedulings/views.js';

export type AuditLogInsert = typeof auditLogs.$inferInsert;

export async function insertAuditLog(db: Db, row: AuditLogInsert) {
  await db.insert(auditLogs).values(row);
}

/** Entities whose records are about one robot: team visibility applies to them. */
export const ROBOT_ENTITIES = [
  'robot',
  'robot_version',
  'robot_field',
  'task',
  'scheduling',
  'scheduling_vm',
  'execution',
  'team_robot',
  'trigger',
] as const;

/** A text as an integer id, or null when it is not one (never a cast error). */
const asId = (text: SQL) => sql`(case when ${text} ~ '^[0-9]{1,9}$' then (${text})::int end)`;

/**
 * The robot a record is about: the robot's own id, the `rota_robots_id` its row carried (a
 * version, field, task, scheduling or team link, created, changed or deleted), or the robot of
 * the execution or of the scheduling a scheduling VM belongs to. Null when it cannot be told
 * (a bulk task retry, a scheduling VM whose scheduling is gone): such records of robot entities
 * are hidden from users who see only their teams' robots.
 */
const robotOfRecord = sql`(case ${auditLogs.entity}
  when 'robot' then ${asId(sql`${auditLogs.entity_id}`)}
  when 'execution' then (select ${executionRobots.rota_robots_id} from ${executionRobots}
    where ${executionRobots.rota_executions_id} = ${asId(sql`${auditLogs.entity_id}`)}
      and ${executionRobots.rota_clients_id} = ${auditLogs.rota_clients_id})
  when 'scheduling_vm' then (select ${schedulingSummaries.rota_robots_id} from ${schedulingSummaries}
    where ${schedulingSummaries.rota_schedulings_id} = ${asId(
      sql`coalesce(${auditLogs.after} ->> 'rota_schedulings_id', ${auditLogs.before} ->> 'rota_schedulings_id')`,
    )}
      and ${schedulingSummaries.rota_clients_id} = ${auditLogs.rota_clients_id})
  else ${asId(
    sql`coalesce(${auditLogs.after} ->> 'rota_robots_id', ${auditLogs.before} ->> 'rota_robots_id')`,
  )}
end)`;

/** Team visibility (TenantScope.robotIds): records about robots the user does not see go. */
function visibleToTeams(scope: TenantScope): SQL | undefined {
  if (!scope.robotIds) return undefined;
  const otherEntities = notInArray(auditLogs.entity, [...ROBOT_ENTITIES]);
  if (scope.robotIds.length === 0) return otherEntities;
  return or(otherEntities, inArray(robotOfRecord, [...scope.robotIds]));
}

/** The selected client's records, newest first unless asked otherwise. */
export async function listAuditLogs(db: Db, scope: TenantScope, query: AuditLogListQuery) {
  const conditions: (SQL | undefined)[] = [
    query.action ? eq(auditLogs.action, query.action) : undefined,
    query.entity ? eq(auditLogs.entity, query.entity) : undefined,
    query.users_id ? eq(auditLogs.users_id, query.users_id) : undefined,
    ...withinDays(auditLogs.created_at, query),
    visibleToTeams(scope),
  ];
  const where = and(eq(auditLogs.rota_clients_id, scope.clientId), ...conditions);
  const direction = query.order === 'asc' ? asc : desc;
  const { limit, offset } = pageWindow(query);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(auditLogs)
      .where(where)
      .orderBy(direction(auditLogs.created_at), direction(auditLogs.audit_logs_id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(auditLogs).where(where),
  ]);
  return { rows, total: totals?.total ?? 0 };
}
