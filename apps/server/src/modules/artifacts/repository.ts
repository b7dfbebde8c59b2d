import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaArtifacts } from '../../db/schema/artifacts.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { executionRobots } from '../executions/views.js';

const a = rotaArtifacts;

const columns = {
  rota_artifacts_id: a.rota_artifacts_id,
  rota_executions_id: a.rota_executions_id,
  name: a.name,
  media_type: a.media_type,
  size: a.size,
  sha256: a.sha256,
  blob_name: a.blob_name,
  created_at: a.created_at,
};

export type ArtifactRow = {
  [K in keyof typeof columns]: (typeof columns)[K]['_']['data'];
};

export async function countArtifacts(db: Db, scope: TenantScope, executionId: number) {
  const [row] = await db
    .select({ n: count() })
    .from(a)
    .where(scope.where(a, eq(a.rota_executions_id, executionId)));
  return row?.n ?? 0;
}

export async function insertArtifact(
  db: Db,
  scope: TenantScope,
  values: {
    rota_executions_id: number;
    name: string;
    media_type: string;
    size: number;
    sha256: string;
    blob_name: string;
  },
): Promise<ArtifactRow> {
  const [row] = await db.insert(a).values(scope.stamp(values)).returning(columns);
  return row!;
}

/** An execution's artifacts, oldest first; a run the scope (client, teams) cannot see has none. */
export function listArtifacts(db: Db, scope: TenantScope, executionId: number) {
  const e = executionRobots;
  return db
    .select(columns)
    .from(a)
    .innerJoin(e, eq(e.rota_executions_id, a.rota_executions_id))
    .where(scope.where(a, eq(a.rota_executions_id, executionId), scope.robots(e.rota_robots_id)))
    .orderBy(asc(a.rota_artifacts_id));
}

export async function findArtifact(db: Db, scope: TenantScope, id: number) {
  const e = executionRobots;
  const [row] = await db
    .select(columns)
    .from(a)
    .innerJoin(e, eq(e.rota_executions_id, a.rota_executions_id))
    .where(and(scope.where(a, eq(a.rota_artifacts_id, id)), scope.robots(e.rota_robots_id)))
    .limit(1);
  return row;
}

/** Whether the execution exists for the scope (client and teams). */
export async function executionVisible(db: Db, scope: TenantScope, executionId: number) {
  const e = executionRobots;
  const [row] = await db
    .select({ id: e.rota_executions_id })
    .from(e)
    .where(
      and(
        eq(e.rota_executions_id, executionId),
        scope.owns(e.rota_clients_id),
        scope.robots(e.rota_robots_id),
      ),
    )
    .limit(1);
  return row !== undefined;
}
