import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { UserClientListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { profiles, rotaClients, teamUsers, userClients, users } from '../../db/schema.js';
import { count, orderBy, pageOf } from '../../lib/list-query.js';
import { likePattern } from '../../lib/pagination.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

const userName = sql<string>`trim(${users.name} || ' ' || ${users.last_name})`;

const sortable = {
  user_name: userName,
  profile_name: profiles.name,
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
      profile_name: profiles.name,
      created_at: userClients.created_at,
    })
    .from(userClients)
    .innerJoin(users, eq(users.users_id, userClients.users_id))
    .innerJoin(profiles, eq(profiles.profiles_id, userClients.profiles_id));
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
          ilike(users.name, pattern),
          ilike(users.last_name, pattern),
          ilike(users.email, pattern),
          ilike(profiles.name, pattern),
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
      .innerJoin(users, eq(users.users_id, userClients.users_id))
      .innerJoin(profiles, eq(profiles.profiles_id, userClients.profiles_id))
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
      client_name: rotaClients.name,
      profiles_id: userClients.profiles_id,
      profile_name: profiles.name,
    })
    .from(userClients)
    .innerJoin(rotaClients, eq(rotaClients.rota_clients_id, userClients.rota_clients_id))
    .innerJoin(profiles, eq(profiles.profiles_id, userClients.profiles_id))
    .where(
      and(
        inArray(userClients.users_id, [...usersIds]),
        clientIds ? inArray(userClients.rota_clients_id, clientIds) : undefined,
      ),
    )
    .orderBy(asc(rotaClients.name), asc(rotaClients.rota_clients_id));
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

export async function isMember(db: Db, clientId: number, usersId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: userClients.user_clients_id })
    .from(userClients)
    .where(and(eq(userClients.users_id, usersId), eq(userClients.rota_clients_id, clientId)))
    .limit(1);
  return Boolean(row);
}

/** Which of `profileIds` are profiles of `clientId`. */
export async function profileOfClient(db: Db, clientId: number, profileId: number) {
  const [row] = await db
    .select({ id: profiles.profiles_id })
    .from(profiles)
    .where(and(eq(profiles.profiles_id, profileId), eq(profiles.rota_clients_id, clientId)));
  return Boolean(row);
}

export async function existingClientIds(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: rotaClients.rota_clients_id })
    .from(rotaClients)
    .where(inArray(rotaClients.rota_clients_id, [...ids]));
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

/**
 * Ends a membership, and with it the user's teams in that client (a team gathers members of
 * its client only).
 */
export async function deleteMembership(
  db: Db,
  membership: { user_clients_id: number; users_id: number; rota_clients_id: number },
) {
  await db
    .delete(teamUsers)
    .where(
      and(
        eq(teamUsers.users_id, membership.users_id),
        eq(teamUsers.rota_clients_id, membership.rota_clients_id),
      ),
    );
  await db.delete(userClients).where(eq(userClients.user_clients_id, membership.user_clients_id));
}

/**
 * After memberships changed: a user whose selected client is no longer theirs moves to the
 * first client they still belong to, so their next request works there at once.
 */
export async function repairSelectedClient(db: Db, usersId: number) {
  const stillMember: SQL = sql`exists (select 1 from ${userClients} uc
    where uc.users_id = ${usersId} and uc.rota_clients_id = ${users.rota_clients_id_selected})`;
  await db
    .update(users)
    .set({
      rota_clients_id_selected: sql`(select uc.rota_clients_id from ${userClients} uc
        join ${rotaClients} c on c.rota_clients_id = uc.rota_clients_id
        where uc.users_id = ${usersId} order by c.name, c.rota_clients_id limit 1)`,
    })
    .where(
      and(
        eq(users.users_id, usersId),
        or(sql`${users.rota_clients_id_selected} is null`, sql`not ${stillMember}`),
      ),
    );
}

/** Serialises membership changes of one user, so "keep at least one" holds under races. */
export async function lockUser(db: Db, usersId: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.users_id })
    .from(users)
    .where(eq(users.users_id, usersId))
    .for('update');
  return rows.length > 0;
}
