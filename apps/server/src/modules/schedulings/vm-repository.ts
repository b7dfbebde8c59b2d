import { eq, inArray } from 'drizzle-orm';
import type { SchedulingVmCreate, SchedulingVmListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaSchedulingVms } from '../../db/schema/schedulings.js';
import { count, orderBy, pageOf } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { vmNames } from '../vms/views.js';
import { liveSchedulingIds } from './repository.js';

const sortable = { name: vmNames.name } as const;

function selectSchedulingVms(db: Db, scope: TenantScope) {
  return db
    .select({
      rota_scheduling_vms_id: rotaSchedulingVms.rota_scheduling_vms_id,
      rota_schedulings_id: rotaSchedulingVms.rota_schedulings_id,
      rota_vms_id: rotaSchedulingVms.rota_vms_id,
      name: vmNames.name,
      hostname: vmNames.hostname,
    })
    .from(rotaSchedulingVms)
    .innerJoin(
      vmNames,
      scope.where(vmNames, eq(vmNames.rota_vms_id, rotaSchedulingVms.rota_vms_id)),
    );
}

export type SchedulingVmRow = Awaited<ReturnType<typeof selectSchedulingVms>>[number];

export async function listSchedulingVms(db: Db, scope: TenantScope, query: SchedulingVmListQuery) {
  const where = scope.where(
    rotaSchedulingVms,
    eq(rotaSchedulingVms.rota_schedulings_id, query.rota_schedulings_id),
  );
  return pageOf(
    query,
    selectSchedulingVms(db, scope)
      .where(where)
      .orderBy(
        ...orderBy(sortable[query.sort], query.order, rotaSchedulingVms.rota_scheduling_vms_id),
      )
      .$dynamic(),
    db.select({ total: count() }).from(rotaSchedulingVms).where(where),
    (row) => row,
  );
}

export async function findSchedulingVm(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<SchedulingVmRow | undefined> {
  const [row] = await selectSchedulingVms(db, scope).where(
    scope.where(rotaSchedulingVms, eq(rotaSchedulingVms.rota_scheduling_vms_id, id)),
  );
  return row;
}

export async function insertSchedulingVm(db: Db, scope: TenantScope, values: SchedulingVmCreate) {
  const [row] = await db
    .insert(rotaSchedulingVms)
    .values(scope.stamp(values))
    .returning({ id: rotaSchedulingVms.rota_scheduling_vms_id });
  return row!.id;
}

/** Only from a live scheduling: a deleted one is read-only until restored. */
export async function deleteSchedulingVm(db: Db, scope: TenantScope, id: number) {
  const deleted = await db
    .delete(rotaSchedulingVms)
    .where(
      scope.where(
        rotaSchedulingVms,
        eq(rotaSchedulingVms.rota_scheduling_vms_id, id),
        inArray(rotaSchedulingVms.rota_schedulings_id, liveSchedulingIds(db, scope)),
      ),
    )
    .returning({ id: rotaSchedulingVms.rota_scheduling_vms_id });
  return deleted.length > 0;
}
