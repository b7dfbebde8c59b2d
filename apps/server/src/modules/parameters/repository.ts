import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { ParameterListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaParameters } from '../../db/schema/parameters.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { listTotal } from '../../lib/row-counts.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

/** What is stored for the value: exactly one of the two is set. */
export interface StoredValue {
  value: string | null;
  password_sealed: string | null;
}

export type ParameterValues = { name: string; description: string | null } & StoredValue;

const sortable = {
  name: rotaParameters.name,
  created_at: rotaParameters.created_at,
  updated_at: rotaParameters.updated_at,
} as const;

/** Answers say whether there is a password, never what it is: the sealed column is not read. */
function selectParameters(db: Db) {
  return db
    .select({
      rota_parameters_id: rotaParameters.rota_parameters_id,
      name: rotaParameters.name,
      value: rotaParameters.value,
      has_password: sql<boolean>`${rotaParameters.password_sealed} is not null`,
      description: rotaParameters.description,
      created_at: rotaParameters.created_at,
      updated_at: rotaParameters.updated_at,
    })
    .from(rotaParameters);
}

export type ParameterRow = Awaited<ReturnType<typeof selectParameters>>[number];

export async function listParameters<R>(
  db: Db,
  scope: TenantScope,
  query: ParameterListQuery,
  map: (row: ParameterRow) => R,
) {
  const filters = [searchAny(query.search, [rotaParameters.name, rotaParameters.description])];
  const where = scope.where(rotaParameters, ...filters);
  return pageOf(
    query,
    selectParameters(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, rotaParameters.rota_parameters_id))
      .$dynamic(),
    // No filter beyond the client: the maintained count, not a scan of every row.
    listTotal(
      db,
      scope,
      'rota_parameters',
      { whole: filters.every((f) => f === undefined), searched: Boolean(query.search) },
      () => db.select({ total: count() }).from(rotaParameters).where(where),
    ),
    map,
  );
}

export async function findParameter(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<ParameterRow | undefined> {
  const [row] = await selectParameters(db).where(
    scope.where(rotaParameters, eq(rotaParameters.rota_parameters_id, id)),
  );
  return row;
}

export async function insertParameter(db: Db, scope: TenantScope, values: ParameterValues) {
  const [row] = await db
    .insert(rotaParameters)
    .values(scope.stamp(values))
    .returning({ id: rotaParameters.rota_parameters_id });
  return row!.id;
}

export async function updateParameter(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Partial<ParameterValues>,
): Promise<boolean> {
  const updated = await db
    .update(rotaParameters)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(rotaParameters, eq(rotaParameters.rota_parameters_id, id)))
    .returning({ id: rotaParameters.rota_parameters_id });
  return updated.length > 0;
}

export async function deleteParameter(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(rotaParameters)
    .where(scope.where(rotaParameters, eq(rotaParameters.rota_parameters_id, id)))
    .returning({ id: rotaParameters.rota_parameters_id });
  return deleted.length > 0;
}

/** Name, value and sealed password of the scope's parameters (all, or those named, any case). */
export async function readStoredParameters(
  db: Db,
  scope: TenantScope,
  names?: readonly string[],
): Promise<({ name: string } & StoredValue)[]> {
  return db
    .select({
      name: rotaParameters.name,
      value: rotaParameters.value,
      password_sealed: rotaParameters.password_sealed,
    })
    .from(rotaParameters)
    .where(
      scope.where(
        rotaParameters,
        names === undefined
          ? undefined
          : inArray(
              sql`lower(${rotaParameters.name})`,
              names.map((n) => n.toLowerCase()),
            ),
      ),
    )
    .orderBy(asc(rotaParameters.name));
}
