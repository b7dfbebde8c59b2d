import { and, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type {
  PackageVersionListQuery,
  RobotPackageFormat,
  RobotVersionListQuery,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaRobotVersions } from '../../db/schema/robot-versions.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { artifactBlobs } from '../artifacts/views.js';
import { packageKeyNames as keys } from '../packages/views.js';
import { robotSummaries as robots } from '../robots/views.js';

const v = rotaRobotVersions;

const columns = {
  rota_robot_versions_id: v.rota_robot_versions_id,
  rota_packages_id: v.rota_packages_id,
  rota_robots_id: v.rota_robots_id,
  version: v.version,
  notes: v.notes,
  file_name: v.file_name,
  format: v.format,
  sha256: v.sha256,
  size_bytes: v.size_bytes,
  signature: v.signature,
  signer_name: keys.name,
  signer_fingerprint: keys.fingerprint,
  current: sql<boolean>`coalesce(${robots.current_version_id} = ${v.rota_robot_versions_id}, false)`,
  created_at: v.created_at,
};

const sortable = { created_at: v.created_at, version: v.version } as const;

/**
 * `current` is about one robot: the one `robotJoin` names (the robot being listed), else the
 * one the version was uploaded through.
 */
function selectVersions(db: Db, robotJoin?: SQL) {
  return db
    .select(columns)
    .from(v)
    .leftJoin(robots, robotJoin ?? eq(robots.rota_robots_id, v.rota_robots_id))
    .leftJoin(keys, eq(keys.rota_package_keys_id, v.rota_package_keys_id));
}

export type RobotVersionRow = Awaited<ReturnType<typeof selectVersions>>[number];

export async function listRobotVersions<R>(
  db: Db,
  scope: TenantScope,
  query: RobotVersionListQuery,
  map: (row: RobotVersionRow) => R,
) {
  // The robot's versions are its package's, whichever robot they were uploaded through.
  const join = and(
    eq(robots.rota_robots_id, query.rota_robots_id),
    eq(robots.rota_packages_id, v.rota_packages_id),
  )!;
  const where = scope.where(
    v,
    eq(robots.rota_robots_id, query.rota_robots_id),
    scope.robots(robots.rota_robots_id),
    searchAny(query.search, [v.version, v.notes, v.file_name]),
  );
  return pageOf(
    query,
    selectVersions(db, join)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, v.rota_robot_versions_id))
      .$dynamic(),
    db.select({ total: count() }).from(v).innerJoin(robots, join).where(where),
    map,
  );
}

/** A package's versions (the package's client checked by the caller). */
export async function listPackageVersions<R>(
  db: Db,
  scope: TenantScope,
  query: PackageVersionListQuery,
  map: (row: RobotVersionRow) => R,
) {
  const where = scope.where(
    v,
    eq(v.rota_packages_id, query.rota_packages_id),
    searchAny(query.search, [v.version, v.notes, v.file_name]),
  );
  return pageOf(
    query,
    selectVersions(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, v.rota_robot_versions_id))
      .$dynamic(),
    db.select({ total: count() }).from(v).where(where),
    map,
  );
}

/** One version of the scope, whichever robot (if any) it came through. */
export async function findPackageVersion(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<RobotVersionRow | undefined> {
  const [row] = await selectVersions(db).where(scope.where(v, eq(v.rota_robot_versions_id, id)));
  return row;
}

/** The newest approved version of a package of the scope. */
export async function latestVersionOf(db: Db, scope: TenantScope, packageId: number) {
  const [row] = await db
    .select({ id: v.rota_robot_versions_id, version: v.version })
    .from(v)
    .where(scope.where(v, eq(v.rota_packages_id, packageId), eq(v.status, 'approved')))
    .orderBy(desc(v.rota_robot_versions_id))
    .limit(1);
  return row;
}

/** Whether any robot (of the version's client) runs this version now. */
export async function versionRunByAnyRobot(db: Db, scope: TenantScope, id: number) {
  const [row] = await db
    .select({ total: count() })
    .from(robots)
    .where(and(eq(robots.current_version_id, id), scope.owns(robots.rota_clients_id)));
  return (row?.total ?? 0) > 0;
}

/** One version of the scope. */
export async function findRobotVersion(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<RobotVersionRow | undefined> {
  const [row] = await selectVersions(db).where(
    scope.where(v, eq(v.rota_robot_versions_id, id), scope.robots(v.rota_robots_id)),
  );
  return row;
}

export async function insertRobotVersion(
  db: Db,
  scope: TenantScope,
  values: {
    rota_packages_id: number;
    rota_robots_id: number | null;
    version: string;
    notes: string | null;
    file_name: string;
    format: RobotPackageFormat;
    sha256: string;
    size_bytes: number;
    created_by: number | null;
    signature: string | null;
    rota_package_keys_id: number | null;
  },
): Promise<number> {
  const [row] = await db
    .insert(v)
    .values(scope.stamp(values))
    .returning({ id: v.rota_robot_versions_id });
  return row!.id;
}

export async function updateRobotVersionNotes(
  db: Db,
  scope: TenantScope,
  id: number,
  notes: string | null,
): Promise<void> {
  await db
    .update(v)
    .set({ notes })
    .where(scope.where(v, eq(v.rota_robot_versions_id, id)));
}

export async function deleteRobotVersion(db: Db, scope: TenantScope, id: number): Promise<void> {
  await db.delete(v).where(scope.where(v, eq(v.rota_robot_versions_id, id)));
}

/**
 * Whether any version other than `exceptId`, of any client, still points at a package file.
 * Deliberately not scoped: packages are shared by content across clients, and only the
 * answer yes/no leaves this function.
 */
export async function packageStillUsed(db: Db, sha256: string, exceptId: number) {
  const [row] = await db
    .select({ total: count() })
    .from(v)
    .where(and(eq(v.sha256, sha256), ne(v.rota_robot_versions_id, exceptId)));
  if ((row?.total ?? 0) > 0) return true;
  // A run's artifact with the same bytes shares the blob (artifacts module).
  const [artifact] = await db
    .select({ name: artifactBlobs.blob_name })
    .from(artifactBlobs)
    .where(eq(artifactBlobs.blob_name, sha256))
    .limit(1);
  return artifact !== undefined;
}
