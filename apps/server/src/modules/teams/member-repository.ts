import { asc, desc, eq } from 'drizzle-orm';
import type { TeamRobotListQuery, TeamUserListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { teamRobots, teamUsers } from '../../db/schema/teams.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { robotSummaries } from '../robots/views.js';
import { userAccounts } from '../users/views.js';

/* ---------- /teams/robots ---------- */

const robotSortable = {
  rota_robots_name: robotSummaries.name,
  created_at: teamRobots.created_at,
} as const;

function selectTeamRobots(db: Db) {
  return db
    .select({
      team_robots_id: teamRobots.team_robots_id,
      teams_id: teamRobots.teams_id,
      rota_robots_id: teamRobots.rota_robots_id,
      rota_robots_name: robotSummaries.name,
      created_at: teamRobots.created_at,
    })
    .from(teamRobots)
    .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, teamRobots.rota_robots_id));
}

export type TeamRobotRow = Awaited<ReturnType<typeof selectTeamRobots>>[number];

export async function listTeamRobots<R>(
  db: Db,
  scope: TenantScope,
  query: TeamRobotListQuery,
  map: (row: TeamRobotRow) => R,
) {
  const where = scope.where(
    teamRobots,
    query.teams_id === undefined ? undefined : eq(teamRobots.teams_id, query.teams_id),
    searchAny(query.search, [robotSummaries.name]),
  );
  return pageOf(
    query,
    selectTeamRobots(db)
      .where(where)
      .orderBy(...orderBy(robotSortable[query.sort], query.order, teamRobots.team_robots_id))
      .$dynamic(),
    db
      .select({ total: count() })
      .from(teamRobots)
      .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, teamRobots.rota_robots_id))
      .where(where),
    map,
  );
}

export async function findTeamRobot(db: Db, scope: TenantScope, id: number) {
  const [row] = await selectTeamRobots(db).where(
    scope.where(teamRobots, eq(teamRobots.team_robots_id, id)),
  );
  return row;
}

export async function insertTeamRobot(
  db: Db,
  scope: TenantScope,
  values: { teams_id: number; rota_robots_id: number },
) {
  const [row] = await db
    .insert(teamRobots)
    .values(scope.stamp(values))
    .returning({ id: teamRobots.team_robots_id });
  return row!.id;
}

export async function deleteTeamRobot(db: Db, scope: TenantScope, id: number) {
  const deleted = await db
    .delete(teamRobots)
    .where(scope.where(teamRobots, eq(teamRobots.team_robots_id, id)))
    .returning({ id: teamRobots.team_robots_id });
  return deleted.length > 0;
}

/* ---------- /teams/users ---------- */

const userSortable = {
  name: [userAccounts.name, userAccounts.last_name],
  created_at: [teamUsers.created_at],
} as const;

function selectTeamUsers(db: Db) {
  return db
    .select({
      team_users_id: teamUsers.team_users_id,
      teams_id: teamUsers.teams_id,
      users_id: teamUsers.users_id,
      name: userAccounts.name,
      last_name: userAccounts.last_name,
      created_at: teamUsers.created_at,
    })
    .from(teamUsers)
    .innerJoin(userAccounts, eq(userAccounts.users_id, teamUsers.users_id));
}

export type TeamUserRow = Awaited<ReturnType<typeof selectTeamUsers>>[number];

export async function listTeamUsers<R>(
  db: Db,
  scope: TenantScope,
  query: TeamUserListQuery,
  map: (row: TeamUserRow) => R,
) {
  const where = scope.where(
    teamUsers,
    query.teams_id === undefined ? undefined : eq(teamUsers.teams_id, query.teams_id),
    searchAny(query.search, [userAccounts.name, userAccounts.last_name]),
  );
  const direction = query.order === 'desc' ? desc : asc;
  return pageOf(
    query,
    selectTeamUsers(db)
      .where(where)
      // A name sort is "name, then last name", as people are read; the key keeps pages apart.
      .orderBy(
        ...userSortable[query.sort].map((column) => direction(column)),
        direction(teamUsers.team_users_id),
      )
      .$dynamic(),
    db
      .select({ total: count() })
      .from(teamUsers)
      .innerJoin(userAccounts, eq(userAccounts.users_id, teamUsers.users_id))
      .where(where),
    map,
  );
}

export async function findTeamUser(db: Db, scope: TenantScope, id: number) {
  const [row] = await selectTeamUsers(db).where(
    scope.where(teamUsers, eq(teamUsers.team_users_id, id)),
  );
  return row;
}

export async function insertTeamUser(
  db: Db,
  scope: TenantScope,
  values: { teams_id: number; users_id: number },
) {
  const [row] = await db
    .insert(teamUsers)
    .values(scope.stamp(values))
    .returning({ id: teamUsers.team_users_id });
  return row!.id;
}

export async function deleteTeamUser(db: Db, scope: TenantScope, id: number) {
  const deleted = await db
    .delete(teamUsers)
    .where(scope.where(teamUsers, eq(teamUsers.team_users_id, id)))
    .returning({ id: teamUsers.team_users_id });
  return deleted.length > 0;
}
