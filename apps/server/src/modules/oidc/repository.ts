import { and, eq, inArray, sql } from 'drizzle-orm';
import type { OidcMappingListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { oidcMappings } from '../../db/schema/oidc.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { clientNames } from '../clients/views.js';
import { profileGrants } from '../profiles/views.js';

const M = oidcMappings;

const sortable = { claim_value: M.claim_value, created_at: M.created_at } as const;

function selectMappings(db: Db) {
  return db
    .select({
      oidc_mappings_id: M.oidc_mappings_id,
      claim_value: M.claim_value,
      rota_clients_id: M.rota_clients_id,
      client_name: clientNames.name,
      profiles_id: M.profiles_id,
      profile_name: profileGrants.name,
      created_at: M.created_at,
      updated_at: M.updated_at,
    })
    .from(M)
    .innerJoin(clientNames, eq(clientNames.rota_clients_id, M.rota_clients_id))
    .innerJoin(profileGrants, eq(profileGrants.profiles_id, M.profiles_id));
}

export type MappingRow = Awaited<ReturnType<typeof selectMappings>>[number];

export async function listMappings<R>(
  db: Db,
  query: OidcMappingListQuery,
  map: (row: MappingRow) => R,
) {
  const where = and(
    query.rota_clients_id === undefined ? undefined : eq(M.rota_clients_id, query.rota_clients_id),
    searchAny(query.search, [M.claim_value]),
  );
  return pageOf(
    query,
    selectMappings(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, M.oidc_mappings_id))
      .$dynamic(),
    db.select({ total: count() }).from(M).where(where),
    map,
  );
}

export async function findMapping(db: Db, id: number) {
  const [row] = await selectMappings(db).where(eq(M.oidc_mappings_id, id));
  return row;
}

export async function insertMapping(
  db: Db,
  values: { claim_value: string; rota_clients_id: number; profiles_id: number },
): Promise<number> {
  const [row] = await db.insert(M).values(values).returning({ id: M.oidc_mappings_id });
  return row!.id;
}

export async function updateMapping(
  db: Db,
  id: number,
  values: { claim_value: string; rota_clients_id: number; profiles_id: number },
) {
  await db
    .update(M)
    .set({ ...values, updated_at: sql`now()` })
    .where(eq(M.oidc_mappings_id, id));
}

export async function deleteMapping(db: Db, id: number) {
  await db.delete(M).where(eq(M.oidc_mappings_id, id));
}

/** The mappings matching any of the claim's values, oldest first (the first wins per client). */
export async function mappingsFor(db: Db, values: string[]) {
  if (values.length === 0) return [];
  return db
    .select({ rota_clients_id: M.rota_clients_id, profiles_id: M.profiles_id })
    .from(M)
    .where(inArray(M.claim_value, values))
    .orderBy(M.oidc_mappings_id);
}

/** Clients with at least one mapping: sign-in manages memberships in these only. */
export async function mappedClientIds(db: Db): Promise<Set<number>> {
  const rows = await db.selectDistinct({ id: M.rota_clients_id }).from(M);
  return new Set(rows.map((r) => r.id));
}
