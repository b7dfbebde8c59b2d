import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ApiKeyListQuery, Permission } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { userApiKeys } from '../../db/schema/api-keys.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { profileGrants } from '../profiles/views.js';
import { teamRobotIdsOf } from '../teams/views.js';
import { memberships } from '../user-clients/views.js';
import { userAccounts } from '../users/views.js';

const K = userApiKeys;

/** `last_used_at` is written at most this often per key (not on every call). */
const LAST_USED_EVERY_SECONDS = 60;

const sortable = {
  name: K.name,
  created_at: K.created_at,
  last_used_at: K.last_used_at,
} as const;

function selectKeys(db: Db) {
  return db
    .select({
      user_api_keys_id: K.user_api_keys_id,
      users_id: K.users_id,
      user_name: sql<string>`trim(${userAccounts.name} || ' ' || ${userAccounts.last_name})`,
      name: K.name,
      key_hint: K.key_hint,
      permissions: K.permissions,
      expires_at: K.expires_at,
      last_used_at: K.last_used_at,
      revoked_at: K.revoked_at,
      created_at: K.created_at,
    })
    .from(K)
    .innerJoin(userAccounts, eq(userAccounts.users_id, K.users_id));
}

export type ApiKeyRow = Awaited<ReturnType<typeof selectKeys>>[number];

/** The keys of a client: one user's, or (usersId null) everyone's. */
export async function listApiKeys<R>(
  db: Db,
  clientId: number,
  usersId: number | null,
  query: ApiKeyListQuery,
  map: (row: ApiKeyRow) => R,
) {
  const where = and(
    eq(K.rota_clients_id, clientId),
    usersId === null ? undefined : eq(K.users_id, usersId),
    searchAny(query.search, [K.name]),
  );
  return pageOf(
    query,
    selectKeys(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, K.user_api_keys_id))
      .$dynamic(),
    // A client has a few keys per user: a plain count is cheap.
    db.select({ total: count() }).from(K).where(where),
    map,
  );
}

export async function findApiKey(db: Db, clientId: number, id: number) {
  const [row] = await selectKeys(db).where(
    and(eq(K.rota_clients_id, clientId), eq(K.user_api_keys_id, id)),
  );
  return row;
}

export async function insertApiKey(
  db: Db,
  values: {
    users_id: number;
    rota_clients_id: number;
    name: string;
    key_hash: string;
    key_hint: string;
    permissions: Permission[] | null;
    expires_at: Date | null;
  },
) {
  const [row] = await db.insert(K).values(values).returning({ id: K.user_api_keys_id });
  return row!.id;
}

/** Revokes a live key of the client (of one user unless usersId is null); false when none. */
export async function revokeApiKey(
  db: Db,
  clientId: number,
  id: number,
  usersId: number | null,
): Promise<boolean> {
  const updated = await db
    .update(K)
    .set({ revoked_at: sql`coalesce(${K.revoked_at}, now())` })
    .where(
      and(
        eq(K.rota_clients_id, clientId),
        eq(K.user_api_keys_id, id),
        usersId === null ? undefined : eq(K.users_id, usersId),
      ),
    )
    .returning({ id: K.user_api_keys_id });
  return updated.length > 0;
}

/**
 * A key by its hash with what a request needs of it: its user, the user's membership of the
 * key's client and that membership's permissions and team robots, the way a session is read
 * (auth/session-repository.ts), in one query. `membership_client_id` null: no longer a member.
 */
export async function findApiKeyByHash(db: Db, keyHash: string) {
  const [row] = await db
    .select({
      user_api_keys_id: K.user_api_keys_id,
      name: K.name,
      rota_clients_id: K.rota_clients_id,
      key_permissions: K.permissions,
      expires_at: K.expires_at,
      revoked_at: K.revoked_at,
      last_used_at: K.last_used_at,
      user: {
        users_id: userAccounts.users_id,
        name: userAccounts.name,
        last_name: userAccounts.last_name,
        email: userAccounts.email,
        group: userAccounts.group,
        avatar: userAccounts.avatar,
        password_change_required: userAccounts.password_change_required,
        is_platform_admin: userAccounts.is_platform_admin,
        rota_clients_id_selected: userAccounts.rota_clients_id_selected,
      },
      membership_client_id: memberships.rota_clients_id,
      permissions: profileGrants.permissions,
      team_robot_ids: teamRobotIdsOf(userAccounts.users_id, K.rota_clients_id),
    })
    .from(K)
    .innerJoin(userAccounts, eq(userAccounts.users_id, K.users_id))
    .leftJoin(
      memberships,
      and(eq(memberships.users_id, K.users_id), eq(memberships.rota_clients_id, K.rota_clients_id)),
    )
    .leftJoin(profileGrants, eq(profileGrants.profiles_id, memberships.profiles_id))
    .where(eq(K.key_hash, keyHash));
  return row;
}

/** Notes a use, at most once a minute per key (a busy key writes no row per call). */
export async function touchApiKey(db: Db, id: number) {
  await db
    .update(K)
    .set({ last_used_at: sql`now()` })
    .where(
      and(
        eq(K.user_api_keys_id, id),
        isNull(K.revoked_at),
        sql`(${K.last_used_at} is null or ${K.last_used_at} <= now() - make_interval(secs => ${LAST_USED_EVERY_SECONDS}))`,
      ),
    );
}
