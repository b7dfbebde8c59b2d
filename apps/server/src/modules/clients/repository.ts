import { eq, sql } from 'drizzle-orm';
import type { ClientListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaClients } from '../../db/schema/clients.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { profileGrants } from '../profiles/views.js';
import { memberships } from '../user-clients/views.js';

/** Members of the client; its key written qualified (a single-table select leaves it bare). */
const membersOfClient = sql<number>`(select count(*)::int from ${memberships} where ${memberships.rota_clients_id} = ${sql.raw('"rota_clients"."rota_clients_id"')})`;

const sortable = { name: rotaClients.name, created_at: rotaClients.created_at } as const;

function selectClients(db: Db) {
  return db
    .select({
      rota_clients_id: rotaClients.rota_clients_id,
      name: rotaClients.name,
      users: membersOfClient,
      retention_days: rotaClients.retention_days,
      audit_retention_days: rotaClients.audit_retention_days,
      require_mfa: rotaClients.require_mfa,
      require_signed_packages: rotaClients.require_signed_packages,
      created_at: rotaClients.created_at,
      updated_at: rotaClients.updated_at,
    })
    .from(rotaClients);
}

export type ClientRow = Awaited<ReturnType<typeof selectClients>>[number];

/** Every client: tenants are not scoped, only platform administrators reach this. */
export async function listClients<R>(db: Db, query: ClientListQuery, map: (row: ClientRow) => R) {
  const where = searchAny(query.search, [rotaClients.name]);
  return pageOf(
    query,
    selectClients(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, rotaClients.rota_clients_id))
      .$dynamic(),
    db.select({ total: count() }).from(rotaClients).where(where),
    map,
  );
}

export async function findClient(db: Db, id: number): Promise<ClientRow | undefined> {
  const [row] = await selectClients(db).where(eq(rotaClients.rota_clients_id, id));
  return row;
}

/** What an update may change; retention left out stays as it is. */
export interface ClientChanges {
  name: string;
  retention_days?: number | undefined;
  audit_retention_days?: number | undefined;
  require_mfa?: boolean | undefined;
  require_signed_packages?: boolean | undefined;
}

export async function updateClient(db: Db, id: number, changes: ClientChanges): Promise<boolean> {
  const updated = await db
    .update(rotaClients)
    .set({
      name: changes.name,
      ...(changes.retention_days !== undefined && { retention_days: changes.retention_days }),
      ...(changes.audit_retention_days !== undefined && {
        audit_retention_days: changes.audit_retention_days,
      }),
      ...(changes.require_mfa !== undefined && { require_mfa: changes.require_mfa }),
      ...(changes.require_signed_packages !== undefined && {
        require_signed_packages: changes.require_signed_packages,
      }),
      updated_at: sql`now()`,
    })
    .where(eq(rotaClients.rota_clients_id, id))
    .returning({ id: rotaClients.rota_clients_id });
  return updated.length > 0;
}

/** A client's retention, when set at creation (the columns' defaults otherwise). */
export interface ClientRetention {
  retention_days?: number | undefined;
  audit_retention_days?: number | undefined;
  require_mfa?: boolean | undefined;
}

export async function insertClient(db: Db, name: string, retention: ClientRetention = {}) {
  const [client] = await db
    .insert(rotaClients)
    .values({
      name,
      ...(retention.retention_days !== undefined && { retention_days: retention.retention_days }),
      ...(retention.audit_retention_days !== undefined && {
        audit_retention_days: retention.audit_retention_days,
      }),
      ...(retention.require_mfa !== undefined && { require_mfa: retention.require_mfa }),
    })
    .returning();
  return client!;
}

/** A client's profiles by name (through the profiles module's view). */
export function listClientProfiles(db: Db, id: number) {
  return db
    .select({ profiles_id: profileGrants.profiles_id, name: profileGrants.name })
    .from(profileGrants)
    .where(eq(profileGrants.rota_clients_id, id))
    .orderBy(profileGrants.name, profileGrants.profiles_id);
}
