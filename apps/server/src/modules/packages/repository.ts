import { and, eq, sql } from 'drizzle-orm';
import type { PackageCreate, PackageListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaPackages as p } from '../../db/schema/packages.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { packageSummaries as v } from '../robot-versions/views.js';
import { robotSummaries as r } from '../robots/views.js';

/**
 * The package's id qualified with its table, for the correlated subqueries below: drizzle writes
 * a column of the selected table bare, and inside a subquery over versions or robots a bare
 * `rota_packages_id` is theirs, which counted every row of the client.
 */
const packageId = sql`${p}.${sql.identifier(p.rota_packages_id.name)}`;

/** The newest approved version, as `id`, then the version's name. */
const latest = (field: typeof v.rota_robot_versions_id | typeof v.version) => sql`(
  select ${field} from ${v}
  where ${v.rota_packages_id} = ${packageId} and ${v.status} = 'approved'
  order by ${v.rota_robot_versions_id} desc limit 1)`;

const columns = {
  rota_packages_id: p.rota_packages_id,
  name: p.name,
  description: p.description,
  versions: sql<number>`(select count(*)::int from ${v} where ${v.rota_packages_id} = ${packageId})`,
  latest_id: sql<number | null>`${latest(v.rota_robot_versions_id)}`,
  latest_version: sql<string | null>`${latest(v.version)}`,
  robots: sql<number>`(select count(*)::int from ${r} where ${r.rota_packages_id} = ${packageId})`,
  created_at: p.created_at,
  updated_at: p.updated_at,
};

const sortable = { name: p.name, created_at: p.created_at } as const;

function selectPackages(db: Db) {
  return db.select(columns).from(p);
}

export type PackageRow = Awaited<ReturnType<typeof selectPackages>>[number];

export async function listPackages<R>(
  db: Db,
  scope: TenantScope,
  query: PackageListQuery,
  map: (row: PackageRow) => R,
) {
  const where = scope.where(p, searchAny(query.search, [p.name, p.description]));
  return pageOf(
    query,
    selectPackages(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, p.rota_packages_id))
      .$dynamic(),
    db.select({ total: count() }).from(p).where(where),
    map,
  );
}

export async function findPackage(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<PackageRow | undefined> {
  const [row] = await selectPackages(db).where(scope.where(p, eq(p.rota_packages_id, id)));
  return row;
}

/** Holds a package's row until the transaction ends; false when the scope does not see it. */
export async function lockPackageRow(db: Db, scope: TenantScope, id: number) {
  const [row] = await db
    .select({ id: p.rota_packages_id })
    .from(p)
    .where(scope.where(p, eq(p.rota_packages_id, id)))
    .for('update');
  return row !== undefined;
}

export async function packageNameTaken(db: Db, scope: TenantScope, name: string) {
  const [row] = await db
    .select({ id: p.rota_packages_id })
    .from(p)
    .where(and(scope.owns(p.rota_clients_id), sql`lower(${p.name}) = lower(${name})`));
  return row !== undefined;
}

export async function insertPackage(db: Db, scope: TenantScope, values: PackageCreate) {
  const [row] = await db
    .insert(p)
    .values(scope.stamp(values))
    .returning({ id: p.rota_packages_id });
  return row!.id;
}

export async function updatePackage(
  db: Db,
  scope: TenantScope,
  id: number,
  values: PackageCreate,
): Promise<boolean> {
  const updated = await db
    .update(p)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(p, eq(p.rota_packages_id, id)))
    .returning({ id: p.rota_packages_id });
  return updated.length > 0;
}

export async function deletePackage(db: Db, scope: TenantScope, id: number) {
  await db.delete(p).where(scope.where(p, eq(p.rota_packages_id, id)));
}
