import { asc, eq, sql } from 'drizzle-orm';
import type { EnvironmentListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaEnvironments } from '../../db/schema/environments.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

/** The columns stored as given; the two secrets are stored sealed beside them. */
export interface EnvironmentValues {
  title: string;
  db_url: string | null;
  db_name: string | null;
  db_user: string | null;
  db_port: number | null;
  rota_api_url: string | null;
  db_pass_sealed: string | null;
  /** The target db_pass was typed for (see EnvironmentService); null when none is stored. */
  db_pass_target: string | null;
  rota_token_sealed: string | null;
}

const sortable = {
  title: rotaEnvironments.title,
  created_at: rotaEnvironments.created_at,
} as const;

/** Answers say whether each secret is set, never what it is: the sealed columns are not read. */
function selectEnvironments(db: Db) {
  return db
    .select({
      rota_environments_id: rotaEnvironments.rota_environments_id,
      title: rotaEnvironments.title,
      db_url: rotaEnvironments.db_url,
      db_name: rotaEnvironments.db_name,
      db_user: rotaEnvironments.db_user,
      db_port: rotaEnvironments.db_port,
      rota_api_url: rotaEnvironments.rota_api_url,
      has_db_pass: sql<boolean>`${rotaEnvironments.db_pass_sealed} is not null`,
      has_rota_token: sql<boolean>`${rotaEnvironments.rota_token_sealed} is not null`,
      created_at: rotaEnvironments.created_at,
      updated_at: rotaEnvironments.updated_at,
    })
    .from(rotaEnvironments);
}

export type EnvironmentRow = Awaited<ReturnType<typeof selectEnvironments>>[number];

export async function listEnvironments<R>(
  db: Db,
  scope: TenantScope,
  query: EnvironmentListQuery,
  map: (row: EnvironmentRow) => R,
) {
  const where = scope.where(
    rotaEnvironments,
    searchAny(query.search, [
      rotaEnvironments.title,
      rotaEnvironments.db_url,
      rotaEnvironments.db_name,
      rotaEnvironments.rota_api_url,
    ]),
  );
  return pageOf(
    query,
    selectEnvironments(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, rotaEnvironments.rota_environments_id))
      .$dynamic(),
    db.select({ total: count() }).from(rotaEnvironments).where(where),
    map,
  );
}

export async function findEnvironment(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<EnvironmentRow | undefined> {
  const [row] = await selectEnvironments(db).where(
    scope.where(rotaEnvironments, eq(rotaEnvironments.rota_environments_id, id)),
  );
  return row;
}

/** What the connection test needs, the password still sealed. */
export async function readConnection(db: Db, scope: TenantScope, id: number) {
  const [row] = await db
    .select({
      db_url: rotaEnvironments.db_url,
      db_name: rotaEnvironments.db_name,
      db_user: rotaEnvironments.db_user,
      db_port: rotaEnvironments.db_port,
      db_pass_sealed: rotaEnvironments.db_pass_sealed,
      db_pass_target: rotaEnvironments.db_pass_target,
    })
    .from(rotaEnvironments)
    .where(scope.where(rotaEnvironments, eq(rotaEnvironments.rota_environments_id, id)));
  return row;
}

/** The connection settings, the row locked until the transaction ends. */
export async function lockConnection(db: Db, scope: TenantScope, id: number) {
  const [row] = await db
    .select({
      db_url: rotaEnvironments.db_url,
      db_name: rotaEnvironments.db_name,
      db_user: rotaEnvironments.db_user,
      db_port: rotaEnvironments.db_port,
    })
    .from(rotaEnvironments)
    .where(scope.where(rotaEnvironments, eq(rotaEnvironments.rota_environments_id, id)))
    .for('update');
  return row;
}

/** Every environment of the client with its sealed secrets, for a run's robot API. */
export async function readEnvironmentsForRun(db: Db, scope: TenantScope) {
  return db
    .select()
    .from(rotaEnvironments)
    .where(scope.where(rotaEnvironments))
    .orderBy(asc(rotaEnvironments.title));
}

export async function insertEnvironment(db: Db, scope: TenantScope, values: EnvironmentValues) {
  const [row] = await db
    .insert(rotaEnvironments)
    .values(scope.stamp(values))
    .returning({ id: rotaEnvironments.rota_environments_id });
  return row!.id;
}

export async function updateEnvironment(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Partial<EnvironmentValues>,
): Promise<boolean> {
  const updated = await db
    .update(rotaEnvironments)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(rotaEnvironments, eq(rotaEnvironments.rota_environments_id, id)))
    .returning({ id: rotaEnvironments.rota_environments_id });
  return updated.length > 0;
}

export async function deleteEnvironment(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(rotaEnvironments)
    .where(scope.where(rotaEnvironments, eq(rotaEnvironments.rota_environments_id, id)))
    .returning({ id: rotaEnvironments.rota_environments_id });
  return deleted.length > 0;
}
