import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Permission, SessionMethod } from '@rota/contract';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { count, pageOf } from '../../lib/list-query.js';
import { memoizedTextArrays } from '../../lib/memoized-text-arrays.js';
import { hotStatement } from '../../lib/sql-rows.js';
import { sessions } from '../../db/schema/auth.js';
import { profileGrants } from '../profiles/views.js';
import { teamRobotIdsOf } from '../teams/views.js';
import { memberships } from '../user-clients/views.js';
import { userAccounts } from '../users/views.js';

const sessionUserColumns = {
  users_id: userAccounts.users_id,
  name: userAccounts.name,
  last_name: userAccounts.last_name,
  email: userAccounts.email,
  group: userAccounts.group,
  avatar: userAccounts.avatar,
  language: userAccounts.language,
  color_scheme: userAccounts.color_scheme,
  password_change_required: userAccounts.password_change_required,
  is_platform_admin: userAccounts.is_platform_admin,
  rota_clients_id_selected: userAccounts.rota_clients_id_selected,
};

interface SessionRow {
  sessions_id: number;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  users_id: number;
  name: string;
  last_name: string;
  email: string;
  group: string;
  avatar: string | null;
  language: string | null;
  color_scheme: string | null;
  password_change_required: boolean;
  is_platform_admin: boolean;
  rota_clients_id_selected: number | null;
  membership_client_id: number | null;
  permissions: readonly string[] | null;
  team_robot_ids: number[] | null;
}

/**
 * Every authenticated request runs it: rendered once and prepared (see hotStatement). Building
 * this select in Drizzle cost more CPU than PostgreSQL spent running it. Its
 * permissions come parsed once per profile's list (memoizedTextArrays).
 */
const sessionStatement = hotStatement<SessionRow>(
  'rota_session_of',
  () =>
    new QueryBuilder()
      .select({
        sessions_id: sessions.sessions_id,
        expires_at: sessions.expires_at,
        revoked_at: sessions.revoked_at,
        // Read with the session so a fresh stamp costs no statement.
        last_used_at: sessions.last_used_at,
        ...sessionUserColumns,
        membership_client_id: sql`${memberships.rota_clients_id}`.as('membership_client_id'),
        permissions: profileGrants.permissions,
        // Teams: a member of any team of the client sees only those teams' robots.
        team_robot_ids:
          sql`${teamRobotIdsOf(userAccounts.users_id, memberships.rota_clients_id)}`.as(
            'team_robot_ids',
          ),
      })
      .from(sessions)
      .innerJoin(userAccounts, eq(userAccounts.users_id, sessions.users_id))
      .leftJoin(
        memberships,
        and(
          eq(memberships.users_id, userAccounts.users_id),
          eq(memberships.rota_clients_id, userAccounts.rota_clients_id_selected),
        ),
      )
      .leftJoin(profileGrants, eq(profileGrants.profiles_id, memberships.profiles_id))
      .where(eq(sessions.token_hash, sql.placeholder('hash')))
      .getSQL(),
  { types: memoizedTextArrays() },
);

/** The session behind a token hash, its user, and the profile held in the selected client: one query a request. */
export async function findSessionByTokenHash(db: Db, tokenHash: string) {
  const [row] = await sessionStatement(db, { hash: tokenHash });
  if (!row) return undefined;
  return {
    sessions_id: row.sessions_id,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
    user: {
      users_id: row.users_id,
      name: row.name,
      last_name: row.last_name,
      email: row.email,
      group: row.group,
      avatar: row.avatar,
      language: row.language,
      color_scheme: row.color_scheme,
      password_change_required: row.password_change_required,
      is_platform_admin: row.is_platform_admin,
      rota_clients_id_selected: row.rota_clients_id_selected,
    },
    membership_client_id: row.membership_client_id,
    permissions: (row.permissions ?? []) as Permission[],
    team_robot_ids: row.team_robot_ids,
  };
}

export async function insertSession(
  db: Db,
  values: {
    users_id: number;
    token_hash: string;
    expires_at: Date;
    ip: string | null;
    user_agent: string | null;
    method?: SessionMethod;
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

/**
 * Stamps a session's last use unless another request did within the minute: the condition is
 * in the statement, so concurrent requests of one session write it once.
 */
export async function touchSession(db: Db, sessionsId: number, now: Date) {
  const staleBefore = new Date(now.getTime() - 60_000);
  await db
    .update(sessions)
    .set({ last_used_at: now })
    .where(
      and(
        eq(sessions.sessions_id, sessionsId),
        or(isNull(sessions.last_used_at), sql`${sessions.last_used_at} < ${staleBefore}`),
      ),
    );
}

/**
 * A page of the user's live sessions (not revoked, not expired): `current` first, then the
 * others newest first; with the number of them all. Never their token hash.
 */
export function listUserSessions(
  db: Db,
  usersId: number,
  now: Date,
  current: number,
  page: { page: number; per_page: number },
) {
  const live = and(
    eq(sessions.users_id, usersId),
    isNull(sessions.revoked_at),
    gt(sessions.expires_at, now),
  );
  return pageOf(
    page,
    db
      .select({
        sessions_id: sessions.sessions_id,
        created_at: sessions.created_at,
        last_used_at: sessions.last_used_at,
        expires_at: sessions.expires_at,
        ip: sessions.ip,
        user_agent: sessions.user_agent,
        method: sessions.method,
      })
      .from(sessions)
      .where(live)
      .orderBy(
        desc(sql`${sessions.sessions_id} = ${current}`),
        desc(sessions.created_at),
        desc(sessions.sessions_id),
      )
      .$dynamic(),
    // Counted only when the page cannot tell (pageOf): most people's sessions fit on one.
    () => db.select({ total: count() }).from(sessions).where(live),
    (row) => row,
  );
}

/** Ends one of the user's own open sessions; false when it is not theirs or already ended. */
export async function revokeOwnSession(
  db: Db,
  usersId: number,
  sessionsId: number,
): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revoked_at: sql`now()` })
    .where(
      and(
        eq(sessions.sessions_id, sessionsId),
        eq(sessions.users_id, usersId),
        isNull(sessions.revoked_at),
      ),
    )
    .returning({ id: sessions.sessions_id });
  return rows.length > 0;
}
