import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Permission } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { profiles, sessions, userClients, users } from '../../db/schema.js';

export const sessionUserColumns = {
  users_id: users.users_id,
  name: users.name,
  last_name: users.last_name,
  email: users.email,
  group: users.group,
  avatar: users.avatar,
  password_change_required: users.password_change_required,
  is_platform_admin: users.is_platform_admin,
  rota_clients_id_selected: users.rota_clients_id_selected,
};

/** The session behind a token hash, its user, and the profile held in the selected client: one query a request. */
export async function findSessionByTokenHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      sessions_id: sessions.sessions_id,
      expires_at: sessions.expires_at,
      revoked_at: sessions.revoked_at,
      user: sessionUserColumns,
      membership_client_id: userClients.rota_clients_id,
      permissions: profiles.permissions,
      // Teams (issue 5): a member of any team of the client sees only those teams' robots.
      team_robot_ids: sql<number[] | null>`case when exists (
          select 1 from team_users tu
          where tu.users_id = ${users.users_id} and tu.rota_clients_id = ${userClients.rota_clients_id})
        then array(
          select distinct tr.rota_robots_id from team_users tu
          join team_robots tr on tr.teams_id = tu.teams_id
          where tu.users_id = ${users.users_id} and tu.rota_clients_id = ${userClients.rota_clients_id})
        end`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.users_id, sessions.users_id))
    .leftJoin(
      userClients,
      and(
        eq(userClients.users_id, users.users_id),
        eq(userClients.rota_clients_id, users.rota_clients_id_selected),
      ),
    )
    .leftJoin(profiles, eq(profiles.profiles_id, userClients.profiles_id))
    .where(eq(sessions.token_hash, tokenHash));
  if (!row) return undefined;
  return { ...row, permissions: (row.permissions ?? []) as Permission[] };
}

export async function insertSession(
  db: Db,
  values: {
    users_id: number;
    token_hash: string;
    expires_at: Date;
    ip: string | null;
    user_agent: string | null;
  },
) {
  const [row] = await db.insert(sessions).values(values).returning({ id: sessions.sessions_id });
  return row!.id;
}

export async function revokeSession(db: Db, sessionsId: number) {
  await db
    .update(sessions)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(sessions.sessions_id, sessionsId), isNull(sessions.revoked_at)));
}

/** Ends every open session of a user, but `keep` (the caller's own, after a self-service change). */
export async function revokeUserSessions(db: Db, usersId: number, keep?: number) {
  await db
    .update(sessions)
    .set({ revoked_at: sql`now()` })
    .where(
      and(
        eq(sessions.users_id, usersId),
        isNull(sessions.revoked_at),
        keep === undefined ? undefined : sql`${sessions.sessions_id} <> ${keep}`,
      ),
    );
}

/** Whether the user signed in from this address within `days` (it then skips the slow lane). */
export async function isKnownAddress(
  db: Db,
  usersId: number,
  ip: string,
  days: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.sessions_id })
    .from(sessions)
    .where(
      and(
        eq(sessions.users_id, usersId),
        eq(sessions.ip, ip),
        sql`${sessions.created_at} > now() - make_interval(days => ${days})`,
      ),
    )
    .limit(1);
  return Boolean(row);
}
