import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { AuditLogListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { auditLogs } from '../../db/schema.js';
import { withinDays } from '../../lib/date-range.js';
import { pageWindow } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

export type AuditLogInsert = typeof auditLogs.$inferInsert;

export async function insertAuditLog(db: Db, row: AuditLogInsert) {
  await db.insert(auditLogs).values(row);
}

/** The selected client's records, newest first unless asked otherwise. */
export async function listAuditLogs(db: Db, scope: TenantScope, query: AuditLogListQuery) {
  const conditions: (SQL | undefined)[] = [
    query.action ? eq(auditLogs.action, query.action) : undefined,
    query.entity ? eq(auditLogs.entity, query.entity) : undefined,
    query.users_id ? eq(auditLogs.users_id, query.users_id) : undefined,
    ...withinDays(auditLogs.created_at, query),
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
