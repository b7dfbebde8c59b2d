import { eq, inArray, not, sql } from 'drizzle-orm';
import type { VmCount, VmCreate, VmListQuery, VmUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaVms } from '../../db/schema/vms.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { listTotal } from '../../lib/row-counts.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { agentIsActive } from '../agents/connectivity.js';
import { agentSummaries as agents } from '../agents/views.js';

/**
 * A VM's agent count and liveness, as subqueries correlated to the row, so a page of 20 VMs
 * looks at the agents of those 20 only (a grouped join read every agent of the client, ~150 ms
 * at 100,000). The VM's column is written out qualified because Drizzle leaves columns of a
 * single-table select unqualified, which would uncorrelate the subquery. Agents belong to their
 * VM's client (the agents service checks it), so no client condition is needed inside. The
 * agents' view is inlined by PostgreSQL: the same plan as on their table.
 */
const vmId = sql.raw('"rota_vms"."rota_vms_id"');
const agentsOfVm =
  sql<number>`(select count(*)::int from ${agents} where ${agents.rota_vms_id} = ${vmId})`.mapWith(
    Number,
  );
const vmIsActive = sql<boolean>`exists (select 1 from ${agents} where ${agents.rota_vms_id} = ${vmId} and ${agentIsActive(agents.last_seen_at)})`;
/**
 * The same, for a page's column: as an aggregate it stays a per-row index probe. Written as
 * `exists`, the planner hashes it into one scan of every agent of every VM (37 ms at 100,000
 * against 0.5 ms), which suits the filter above but not 20 rows.
 */
const vmIsActiveColumn = sql<boolean>`(select coalesce(bool_or(${agentIsActive(agents.last_seen_at)}), false) from ${agents} where ${agents.rota_vms_id} = ${vmId})`;

const sortable = {
  name: rotaVms.name,
  hostname: rotaVms.hostname,
  os: rotaVms.os,
  created_at: rotaVms.created_at,
} as const;

function selectVms(db: Db) {
  return db
    .select({
      rota_vms_id: rotaVms.rota_vms_id,
      name: rotaVms.name,
      hostname: rotaVms.hostname,
      label: rotaVms.label,
      os: rotaVms.os,
      description: rotaVms.description,
      agents: agentsOfVm,
      active: vmIsActiveColumn,
      created_at: rotaVms.created_at,
      updated_at: rotaVms.updated_at,
    })
    .from(rotaVms);
}

export type VmRow = Awaited<ReturnType<typeof selectVms>>[number];

export async function listVms<R>(
  db: Db,
  scope: TenantScope,
  query: VmListQuery,
  map: (row: VmRow) => R,
) {
  const filters = [
    searchAny(query.search, [rotaVms.name, rotaVms.hostname, rotaVms.label]),
    query.connectivity === undefined
      ? undefined
      : query.connectivity === 'active'
        ? vmIsActive
        : not(vmIsActive),
  ];
  const where = scope.where(rotaVms, ...filters);
  return pageOf(
    query,
    selectVms(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, rotaVms.rota_vms_id))
      .$dynamic(),
    // No filter beyond the client: the maintained count, not a scan of every row.
    listTotal(
      db,
      scope,
      'rota_vms',
      { whole: filters.every((f) => f === undefined), searched: Boolean(query.search) },
      () => db.select({ total: count() }).from(rotaVms).where(where),
    ),
    map,
  );
}

export async function findVm(db: Db, scope: TenantScope, id: number): Promise<VmRow | undefined> {
  const [row] = await selectVms(db).where(scope.where(rotaVms, eq(rotaVms.rota_vms_id, id)));
  return row;
}

export async function countVms(db: Db, scope: TenantScope): Promise<VmCount> {
  const [row] = await db
    .select({
      total: count(),
      active: sql<number>`count(*) filter (where ${vmIsActive})`.mapWith(Number),
    })
    .from(rotaVms)
    .where(scope.where(rotaVms));
  const total = row?.total ?? 0;
  const activeCount = row?.active ?? 0;
  return { total, active: activeCount, inactive: total - activeCount };
}

export async function insertVm(db: Db, scope: TenantScope, values: VmCreate) {
  const [row] = await db
    .insert(rotaVms)
    .values(scope.stamp(values))
    .returning({ id: rotaVms.rota_vms_id });
  return row!.id;
}

export async function updateVm(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Omit<VmUpdate, 'id'>,
): Promise<boolean> {
  const updated = await db
    .update(rotaVms)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(rotaVms, eq(rotaVms.rota_vms_id, id)))
    .returning({ id: rotaVms.rota_vms_id });
  return updated.length > 0;
}

/** Agents keep their VM: deleting one that still has any fails its foreign key (RESTRICT). */
export async function deleteVm(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(rotaVms)
    .where(scope.where(rotaVms, eq(rotaVms.rota_vms_id, id)))
    .returning({ id: rotaVms.rota_vms_id });
  return deleted.length > 0;
}

/** Which of `ids` are VMs of the scope (agents and schedulings may point only at those). */
export async function vmIdsInScope(
  db: Db,
  scope: TenantScope,
  ids: readonly number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: rotaVms.rota_vms_id })
    .from(rotaVms)
    .where(scope.where(rotaVms, inArray(rotaVms.rota_vms_id, [...ids])));
  return new Set(rows.map((r) => r.id));
}
