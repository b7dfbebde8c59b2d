import { eq } from 'drizzle-orm';
import type { PackageKeyListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaPackageKeys as k } from '../../db/schema/packages.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

const columns = {
  rota_package_keys_id: k.rota_package_keys_id,
  name: k.name,
  public_key: k.public_key,
  fingerprint: k.fingerprint,
  created_at: k.created_at,
};

const sortable = { name: k.name, created_at: k.created_at } as const;

function selectKeys(db: Db) {
  return db.select(columns).from(k);
}

export type PackageKeyRow = Awaited<ReturnType<typeof selectKeys>>[number];

export function listPackageKeys<R>(
  db: Db,
  scope: TenantScope,
  query: PackageKeyListQuery,
  map: (row: PackageKeyRow) => R,
) {
  const where = scope.where(k, searchAny(query.search, [k.name, k.fingerprint]));
  return pageOf(
    query,
    selectKeys(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, k.rota_package_keys_id))
      .$dynamic(),
    db.select({ total: count() }).from(k).where(where),
    map,
  );
}

export async function findPackageKey(db: Db, scope: TenantScope, id: number) {
  const [row] = await selectKeys(db).where(scope.where(k, eq(k.rota_package_keys_id, id)));
  return row;
}

/** Every key the client trusts (a handful): what an upload's signature is checked against. */
export function trustedKeys(db: Db, scope: TenantScope) {
  return selectKeys(db).where(scope.where(k));
}

export async function insertPackageKey(
  db: Db,
  scope: TenantScope,
  values: { name: string; public_key: string; fingerprint: string },
) {
  const [row] = await db
    .insert(k)
    .values(scope.stamp(values))
    .returning({ id: k.rota_package_keys_id });
  return row!.id;
}

export async function renamePackageKey(db: Db, scope: TenantScope, id: number, name: string) {
  const updated = await db
    .update(k)
    .set({ name })
    .where(scope.where(k, eq(k.rota_package_keys_id, id)))
    .returning({ id: k.rota_package_keys_id });
  return updated.length > 0;
}

export async function deletePackageKey(db: Db, scope: TenantScope, id: number) {
  await db.delete(k).where(scope.where(k, eq(k.rota_package_keys_id, id)));
}
