import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { TeamListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { teamRobots, teams, teamUsers } from '../../db/schema/teams.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { robotSummaries } from '../robots/views.js';
import { memberships } from '../user-clients/views.js';

/**
 * Member counts as subqueries correlated to the row (a page of 20 teams counts the members of
 * those 20 only). Qualified by hand: Drizzle leaves a single-table select's columns unqualified,
 * which would uncorrelate the subquery.
 */
const teamId = sql.raw('"teams"."teams_id"');
const robotsOfTeam =
  sql<number>`(select count(*)::int from ${teamRobots} where ${teamRobots.teams_id} = ${teamId})`.mapWith(
    Number,
  );
const usersOfTeam =
  sql<number>`(select count(*)::int from ${teamUsers} where ${teamUsers.teams_id} = ${teamId})`.mapWith(
    Number,
  );

const sortable = { name: teams.name, created_at: teams.created_at } as const;

function selectTeams(db: Db) {
  return db
    .select({
      teams_id: teams.teams_id,
      name: teams.name,
      description: teams.description,
      robots: robotsOfTeam,
      users: usersOfTeam,
      created_at: teams.created_at,
      updated_at: teams.updated_at,
    })
    .from(teams);
}

export type TeamRow = Awaited<ReturnType<typeof selectTeams>>[number];

export async function listTeams<R>(
  db: Db,
  scope: TenantScope,
  query: TeamListQuery,
  map: (row: TeamRow) => R,
) {
  const where = scope.where(teams, searchAny(query.search, [teams.name, teams.description]));
  return pageOf(
    query,
    selectTeams(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, teams.teams_id))
      .$dynamic(),
    db.select({ total: count() }).from(teams).where(where),
    map,
  );
}

export async function findTeam(db: Db, scope: TenantScope, id: number) {
  const [row] = await selectTeams(db).where(scope.where(teams, eq(teams.teams_id, id)));
  return row;
}

/** The robots and users of one team, for `show` (what the edit form starts from). */
export async function membersOfTeam(db: Db, scope: TenantScope, id: number) {
  const [robots, users] = await Promise.all([
    db
      .select({ id: teamRobots.rota_robots_id })
      .from(teamRobots)
      .where(scope.where(teamRobots, eq(teamRobots.teams_id, id)))
      .orderBy(teamRobots.rota_robots_id),
    db
      .select({ id: teamUsers.users_id })
      .from(teamUsers)
      .where(scope.where(teamUsers, eq(teamUsers.teams_id, id)))
      .orderBy(teamUsers.users_id),
  ]);
  return { robot_ids: robots.map((r) => r.id), user_ids: users.map((u) => u.id) };
}

export async function insertTeam(
  db: Db,
  scope: TenantScope,
  values: { name: string; description: string | null },
) {
  const [row] = await db
    .insert(teams)
    .values(scope.stamp(values))
    .returning({ id: teams.teams_id });
  return row!.id;
}

export async function updateTeam(
  db: Db,
  scope: TenantScope,
  id: number,
  values: { name?: string; description?: string | null },
): Promise<boolean> {
  const updated = await db
    .update(teams)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(teams, eq(teams.teams_id, id)))
    .returning({ id: teams.teams_id });
  return updated.length > 0;
}

/** Its robot and user rows go with it (cascade). */
export async function deleteTeam(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(teams)
    .where(scope.where(teams, eq(teams.teams_id, id)))
    .returning({ id: teams.teams_id });
  return deleted.length > 0;
}

/**
 * Which of `ids` are robots of the client. Deliberately the whole client, not the caller's own
 * team view: teams are administration (USUARIOS), and whoever manages them manages every robot's
 * place in them.
 */
export async function robotIdsOfClient(db: Db, scope: TenantScope, ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db
    .select({ id: robotSummaries.rota_robots_id })
    .from(robotSummaries)
    .where(scope.where(robotSummaries, inArray(robotSummaries.rota_robots_id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** Which of `ids` are users holding a membership in the client. */
export async function userIdsOfClient(db: Db, scope: TenantScope, ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db
    .select({ id: memberships.users_id })
    .from(memberships)
    .where(scope.where(memberships, inArray(memberships.users_id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/**
 * Makes the team's robots exactly `robotIds`. Rows it keeps stay as they are, so their ids (what
 * /teams/robots deletes by) do not change under the console.
 */
export async function replaceTeamRobots(
  db: Db,
  scope: TenantScope,
  id: number,
  robotIds: readonly number[],
) {
  await db
    .delete(teamRobots)
    .where(
      scope.where(
        teamRobots,
        eq(teamRobots.teams_id, id),
        robotIds.length > 0 ? notInArray(teamRobots.rota_robots_id, [...robotIds]) : undefined,
      ),
    );
  if (robotIds.length === 0) return;
  await db
    .insert(teamRobots)
    .values(robotIds.map((robotId) => scope.stamp({ teams_id: id, rota_robots_id: robotId })))
    .onConflictDoNothing();
}

/** As replaceTeamRobots, for users. */
export async function replaceTeamUsers(
  db: Db,
  scope: TenantScope,
  id: number,
  userIds: readonly number[],
) {
  await db
    .delete(teamUsers)
    .where(
      scope.where(
        teamUsers,
        eq(teamUsers.teams_id, id),
        userIds.length > 0 ? notInArray(teamUsers.users_id, [...userIds]) : undefined,
      ),
    );
  if (userIds.length === 0) return;
  await db
    .insert(teamUsers)
    .values(userIds.map((userId) => scope.stamp({ teams_id: id, users_id: userId })))
    .onConflictDoNothing();
}

export async function teamExists(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: teams.teams_id })
    .from(teams)
    .where(scope.where(teams, eq(teams.teams_id, id)));
  return Boolean(row);
}

/** A user leaves every team of a client (their membership of the client ends). */
export async function deleteTeamUsersOfClient(db: Db, usersId: number, clientId: number) {
  await db
    .delete(teamUsers)
    .where(and(eq(teamUsers.users_id, usersId), eq(teamUsers.rota_clients_id, clientId)));
}

/* ---------- Added by group B (robots): a new robot joins its creator's teams. ---------- */

/** Puts a robot in every team its creator belongs to in the client (the robots module asks). */
export async function addRobotToTeamsOfUser(
  db: Db,
  scope: TenantScope,
  usersId: number,
  robotId: number,
) {
  await db.execute(
    sql`insert into ${teamRobots} (rota_clients_id, teams_id, rota_robots_id)
        select ${teamUsers.rota_clients_id}, ${teamUsers.teams_id}, ${robotId}::int
          from ${teamUsers}
         where ${scope.where(teamUsers, eq(teamUsers.users_id, usersId))}
        on conflict do nothing`,
  );
}
