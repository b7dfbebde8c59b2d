import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { OidcMappingListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { oidcIdentities, oidcMappings } from '../../db/schema/oidc.js';
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
      auto_link_domains: M.auto_link_domains,
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

interface MappingValues {
  claim_value: string;
  rota_clients_id: number;
  profiles_id: number;
  auto_link_domains: string[];
}

export async function insertMapping(db: Db, values: MappingValues): Promise<number> {
  const [row] = await db.insert(M).values(values).returning({ id: M.oidc_mappings_id });
  return row!.id;
}

export async function updateMapping(db: Db, id: number, values: MappingValues) {
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
    .select({
      rota_clients_id: M.rota_clients_id,
      profiles_id: M.profiles_id,
      auto_link_domains: M.auto_link_domains,
    })
    .from(M)
    .where(inArray(M.claim_value, values))
    .orderBy(M.oidc_mappings_id);
}

/** Clients with at least one mapping: sign-in manages memberships in these only. */
export async function mappedClientIds(db: Db): Promise<Set<number>> {
  const rows = await db.selectDistinct({ id: M.rota_clients_id }).from(M);
  return new Set(rows.map((r) => r.id));
}

/* ---------- Identities linked to accounts ---------- */

const I = oidcIdentities;

const identityColumns = {
  oidc_identities_id: I.oidc_identities_id,
  users_id: I.users_id,
  issuer: I.issuer,
  subject: I.subject,
  created_at: I.created_at,
};

export type IdentityRow = Awaited<ReturnType<typeof identityOfUser>>;

/**
 * The account linked to `subject` at `issuer`; else a link whose issuer was not recorded
 * (made before issuers were), which the caller then claims for `issuer`.
 */
export async function findIdentity(db: Db, issuer: string, subject: string) {
  const [row] = await db
    .select(identityColumns)
    .from(I)
    .where(and(eq(I.subject, subject), inArray(I.issuer, [issuer, ''])))
    .orderBy(desc(I.issuer))
    .limit(1);
  return row;
}

export async function identityOfUser(db: Db, usersId: number) {
  const [row] = await db.select(identityColumns).from(I).where(eq(I.users_id, usersId)).limit(1);
  return row;
}

export async function insertIdentity(
  db: Db,
  values: { users_id: number; issuer: string; subject: string },
): Promise<number> {
  const [row] = await db.insert(I).values(values).returning({ id: I.oidc_identities_id });
  return row!.id;
}

/** A link made before issuers were recorded becomes the configured issuer's. */
export async function claimIdentity(db: Db, id: number, issuer: string) {
  await db
    .update(I)
    .set({ issuer })
    .where(and(eq(I.oidc_identities_id, id), eq(I.issuer, '')));
}

export async function deleteIdentity(db: Db, id: number) {
  await db.delete(I).where(eq(I.oidc_identities_id, id));
}
