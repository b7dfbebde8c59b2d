import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaMaintenanceSkips, rotaMaintenanceWindows } from '../../db/schema/maintenance.js';
import { rowsOf } from '../../lib/sql-rows.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { dueSchedulingsAt } from '../schedulings/statements.js';
import { schedulingSummaries } from '../schedulings/views.js';
import { vmNames } from '../vms/views.js';

const W = rotaMaintenanceWindows;
const S = rotaMaintenanceSkips;

export type WindowRow = typeof W.$inferSelect;
export type NewWindow = typeof W.$inferInsert;

/** Every active window, of every client: what each instance's claim gate holds in memory. */
export function activeWindows(db: Db): Promise<Pick<WindowRow, 'scope' | 'rota_vms_id'>[]> {
  return db
    .select({ scope: W.scope, rota_vms_id: W.rota_vms_id })
    .from(W)
    .where(isNull(W.ended_at));
}

/** The active windows a user of `scope`'s client sees: the cluster's and its own VMs'. */
export function activeWindowsSeenBy(db: Db, scope: TenantScope) {
  return db
    .select({
      rota_maintenance_windows_id: W.rota_maintenance_windows_id,
      scope: W.scope,
      rota_vms_id: W.rota_vms_id,
      vm_name: vmNames.name,
      mode: W.mode,
      message: W.message,
      started_by: W.started_by_name,
      started_at: W.started_at,
    })
    .from(W)
    .leftJoin(vmNames, eq(vmNames.rota_vms_id, W.rota_vms_id))
    .where(
      and(isNull(W.ended_at), or(eq(W.scope, 'cluster'), eq(W.rota_clients_id, scope.clientId))),
    )
    .orderBy(asc(W.started_at));
}

/** The active window of one target (the cluster: `vmId` null), locked for its end. */
export async function lockActiveWindow(tx: Db, vmId: number | null): Promise<WindowRow | null> {
  const [row] = await tx
    .select()
    .from(W)
    .where(
      and(isNull(W.ended_at), vmId === null ? eq(W.scope, 'cluster') : eq(W.rota_vms_id, vmId)),
    )
    .for('update');
  return row ?? null;
}

export async function insertWindow(tx: Db, row: NewWindow): Promise<WindowRow> {
  const [inserted] = await tx.insert(W).values(row).returning();
  return inserted!;
}

export async function endWindow(tx: Db, id: number, userId: number, at: Date): Promise<void> {
  await tx
    .update(W)
    .set({ ended_at: at, ended_by_users_id: userId })
    .where(eq(W.rota_maintenance_windows_id, id));
}

/**
 * Every interval or cron scheduling due at `now` counts as skipped by the active cluster window,
 * once per window (a scheduling left due is seen again every tick). Answers how many were new.
 */
export async function recordClusterSkips(db: Db, now: Date): Promise<number> {
  const id = (name: string) => sql.identifier(name);
  const inserted = await rowsOf<{ id: number }>(
    db,
    sql`insert into ${S} (${id('rota_maintenance_windows_id')}, ${id('rota_clients_id')},
                          ${id('rota_schedulings_id')}, ${id('due_at')}, ${id('skipped_at')})
        select w.${id('rota_maintenance_windows_id')}, d.client, d.id, d.due_at,
               ${now.toISOString()}::timestamptz
          from (${dueSchedulingsAt(now)}) d
          join ${W} w on w.${id('scope')} = 'cluster' and w.${id('ended_at')} is null
        on conflict do nothing
        returning ${id('rota_maintenance_skips_id')} as id`,
  );
  return inserted.length;
}

/** The schedulings of `scope`'s client the windows skipped, earliest first. */
export function skipsOf(db: Db, scope: TenantScope, windowIds: readonly number[]) {
  return db
    .select({
      rota_maintenance_windows_id: S.rota_maintenance_windows_id,
      rota_schedulings_id: S.rota_schedulings_id,
      scheduling_name: schedulingSummaries.name,
      due_at: S.due_at,
      skipped_at: S.skipped_at,
    })
    .from(S)
    .leftJoin(
      schedulingSummaries,
      eq(schedulingSummaries.rota_schedulings_id, S.rota_schedulings_id),
    )
    .where(
      and(
        eq(S.rota_clients_id, scope.clientId),
        inArray(S.rota_maintenance_windows_id, [...windowIds]),
      ),
    )
    .orderBy(asc(S.due_at), asc(S.rota_schedulings_id));
}
