import { and, asc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Permission, UserClientListQuery } from '@rota/contract';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { hotStatement } from '../../lib/sql-rows.js';
import { userClients } from '../../db/schema/user-clients.js';
import { count, orderBy, pageOf } from '../../lib/list-query.js';
import { likePattern } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { clientNames } from '../clients/views.js';
import { profileGrants } from '../profiles/views.js';
import { userAccounts } from '../users/views.js';

const userName = sql<string>`trim(${userAccounts.name} || ' ' || ${userAccounts.last_name})`;

const sortable = {
  user_name: userName,
  profile_name: profileGrants.name,
  created_at: userClients.created_at,
} as const;

function selectUserClients(db: Db) {
  return db
    .select({
      user_clients_id: userClients.user_clients_id,
      users_id: userClients.users_id,
      user_name: userName,
      rota_clients_id: userClients.rota_clients_id,
      profiles_id: userClients.profiles_id,
      profile_name: profileGrants.name,
      created_at: userClients.created_at,
    })
    .from(userClients)
    .innerJoin(userAccounts, eq(userAccounts.users_id, userClients.users_id))
    .innerJoin(profileGrants, eq(profileGrants.profiles_id, userClients.profiles_id));
}

export type UserClientRow = Awaited<ReturnType<typeof selectUserClients>>[number];

export async function listUserClients<R>(
  db: Db,
  scope: TenantScope,
  query: UserClientListQuery,
  map: (row: UserClientRow) => R,
) {
  const pattern = query.search ? likePattern(query.search) : undefined;
  const where = scope.where(
    userClients,
    pattern
      ? or(
          ilike(userAccounts.name, pattern),
          ilike(userAccounts.last_name, pattern),
          ilike(userAccounts.email, pattern),
          ilike(profileGrants.name, pattern),
        )
      : undefined,
    query.users_id ? eq(userClients.users_id, query.users_id) : undefined,
    query.profiles_id ? eq(userClients.profiles_id, query.profiles_id) : undefined,
  );
  return pageOf(
    query,
    selectUserClients(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, userClients.user_clients_id))
      .$dynamic(),
    db
      .select({ total: count() })
      .from(userClients)
      .innerJoin(userAccounts, eq(userAccounts.users_id, userClients.users_id))
      .innerJoin(profileGrants, eq(profileGrants.profiles_id, userClients.profiles_id))
      .where(where),
    map,
  );
}

export async function findUserClient(db: Db, scope: TenantScope, id: number) {
  const [row] = await selectUserClients(db).where(
    scope.where(userClients, eq(userClients.user_clients_id, id)),
  );
  return row;
}

/** A user's memberships: client and profile of each, by client name. */
export async function membershipsOf(
  db: Db,
  usersIds: readonly number[],
  clientIds: number[] | null,
) {
  if (usersIds.length === 0 || clientIds?.length === 0) return [];
  return db
    .select({
      users_id: userClients.users_id,
      rota_clients_id: userClients.rota_clients_id,
      client_name: clientNames.name,
      profiles_id: userClients.profiles_id,
      profile_name: profileGrants.name,
    })
    .from(userClients)
    .innerJoin(clientNames, eq(clientNames.rota_clients_id, userClients.rota_clients_id))
    .innerJoin(profileGrants, eq(profileGrants.profiles_id, userClients.profiles_id))
    .where(
      and(
        inArray(userClients.users_id, [...usersIds]),
        clientIds ? inArray(userClients.rota_clients_id, clientIds) : undefined,
      ),
    )
    .orderBy(asc(clientNames.name), asc(clientNames.rota_clients_id));
}

/** The clients a user works for, with the profile held in each (sign-in, the session's user). */
/** `me` and every sign-in read it: rendered once and prepared (see hotStatement). */
const membershipsStatement = hotStatement<{
  rota_clients_id: number;
  name: string;
  permissions: string[];
}>('rota_memberships_of', () =>
  new QueryBuilder()
    .select({
      rota_clients_id: clientNames.rota_clients_id,
      name: clientNames.name,
      permissions: profileGrants.permissions,
    })
    .from(userClients)
    .innerJoin(clientNames, eq(clientNames.rota_clients_id, userClients.rota_clients_id))
    .innerJoin(profileGrants, eq(profileGrants.profiles_id, userClients.profiles_id))
    .where(eq(userClients.users_id, sql.placeholder('user')))
    .orderBy(asc(clientNames.name), asc(clientNames.rota_clients_id))
    .getSQL(),
);

export async function listMemberships(db: Db, usersId: number) {
  const rows = await membershipsStatement(db, { user: usersId });
  return rows.map((r) => ({ ...r, permissions: r.permissions as Permission[] }));
}

/** A user's own memberships: client → permissions of the profile held there (Authority). */
export async function grantsOf(db: Db, usersId: number) {
  const rows = await db
    .select({ clientId: userClients.rota_clients_id, permissions: profileGrants.permissions })
    .from(userClients)
    .innerJoin(profileGrants, eq(profileGrants.profiles_id, userClients.profiles_id))
    .where(eq(userClients.users_id, usersId));
  return rows.map((r) => ({ ...r, permissions: r.permissions as Permission[] }));
}

/** The clients a user belongs to, with the membership's key and profile. */
export async function clientIdsOf(db: Db, usersId: number) {
  return db
    .select({
      user_clients_id: userClients.user_clients_id,
      rota_clients_id: userClients.rota_clients_id,
      profiles_id: userClients.profiles_id,
    })
    .from(userClients)
    .where(eq(userClients.users_id, usersId));
}

/** Whether `profileId` is a profile of `clientId`. */
export async function profileOfClient(db: Db, clientId: number, profileId: number) {
  const [row] = await db
    .select({ id: profileGrants.profiles_id })
    .from(profileGrants)
    .where(
      and(eq(profileGrants.profiles_id, profileId), eq(profileGrants.rota_clients_id, clientId)),
    );
  return Boolean(row);
}

export async function existingClientIds(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: clientNames.rota_clients_id })
    .from(clientNames)
    .where(inArray(clientNames.rota_clients_id, [...ids]));
  return new Set(rows.map((r) => r.id));
}

export async function insertMembership(
  db: Db,
  values: { users_id: number; rota_clients_id: number; profiles_id: number },
) {
  const [row] = await db
    .insert(userClients)
    .values(values)
    .returning({ id: userClients.user_clients_id });
  return row!.id;
}

export async function setMembershipProfile(db: Db, userClientsId: number, profilesId: number) {
  await db
    .update(userClients)
    .set({ profiles_id: profilesId })
    .where(eq(userClients.user_clients_id, userClientsId));
}

export async function deleteMembership(db: Db, userClientsId: number) {
  await db.delete(userClients).where(eq(userClients.user_clients_id, userClientsId));
}
