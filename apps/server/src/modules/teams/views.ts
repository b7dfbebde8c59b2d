import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { teamRobots, teamUsers } from '../../db/schema/teams.js';

/**
 * Read-only statement fragment for the session query (one query a request): the robots a user
 * sees in a client through their teams, or null when they are in no team there (every robot).
 * Built here so the team tables stay this module's; a leaf (it imports the schema only).
 */
export function teamRobotIdsOf(usersId: AnyPgColumn, clientId: AnyPgColumn): SQL<number[] | null> {
  return sql<number[] | null>`case when exists (
      select 1 from ${teamUsers} tu
      where tu.users_id = ${usersId} and tu.rota_clients_id = ${clientId})
    then array(
      select distinct tr.rota_robots_id from ${teamUsers} tu
      join ${teamRobots} tr on tr.teams_id = tu.teams_id
      where tu.users_id = ${usersId} and tu.rota_clients_id = ${clientId})
    end`;
}
