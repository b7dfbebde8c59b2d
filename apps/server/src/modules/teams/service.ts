import type { ListResponse, Team, TeamCreate, TeamListQuery, TeamUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import {
  deleteTeam,
  findTeam,
  insertTeam,
  listTeams,
  membersOfTeam,
  replaceTeamRobots,
  replaceTeamUsers,
  robotIdsOfClient,
  updateTeam,
  userIdsOfClient,
  type TeamRow,
} from './repository.js';

export const toTeam = (row: TeamRow): Team => ({
  teams_id: row.teams_id,
  name: row.name,
  description: row.description,
  robots: row.robots,
  users: row.users,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

export const duplicateTeamName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_team_name' }]);

/**
 * Robots and users a team may hold: the client's robots, and users who are members of the
 * client. Another client's id is refused like an unknown one (400 on the field).
 */
export async function assertMembers(
  db: Db,
  scope: TenantScope,
  robotIds: readonly number[] | undefined,
  userIds: readonly number[] | undefined,
) {
  if (robotIds && robotIds.length > 0) {
    const found = await robotIdsOfClient(db, scope, robotIds);
    if (robotIds.some((id) => !found.has(id))) throw invalidField('robots', 'robot_not_found');
  }
  if (userIds && userIds.length > 0) {
    const found = await userIdsOfClient(db, scope, userIds);
    if (userIds.some((id) => !found.has(id))) throw invalidField('users', 'user_not_found');
  }
}

const unique = (ids: readonly number[] | undefined) => (ids ? [...new Set(ids)] : undefined);

/**
 * Teams of the selected client. Membership changes reach the members at their next request:
 * the session's robot visibility is read per request (auth/session-repository).
 */
export class TeamService {
  constructor(private readonly db: Db) {}

  list(scope: TenantScope, query: TeamListQuery): Promise<ListResponse<Team>> {
    return listTeams(this.db, scope, query, toTeam);
  }

  /** With the ids of its robots and users. */
  async show(scope: TenantScope, id: number): Promise<Team> {
    const row = await findTeam(this.db, scope, id);
    if (!row) throw notFound();
    return { ...toTeam(row), ...(await membersOfTeam(this.db, scope, id)) };
  }

  async create(scope: TenantScope, input: TeamCreate): Promise<Team> {
    const robots = unique(input.robots) ?? [];
    const users = unique(input.users) ?? [];
    const id = await this.write(scope, { robots, users }, async (tx) => {
      await assertMembers(tx, scope, robots, users);
      const created = await insertTeam(tx, scope, {
        name: input.name,
        description: input.description,
      });
      await replaceTeamRobots(tx, scope, created, robots);
      await replaceTeamUsers(tx, scope, created, users);
      return created;
    });
    return this.show(scope, id);
  }

  /** `robots` / `users`, when sent, replace the team's whole set in the same transaction. */
  async update(scope: TenantScope, { id, ...input }: TeamUpdate): Promise<void> {
    const robots = unique(input.robots);
    const users = unique(input.users);
    await this.write(scope, { robots, users }, async (tx) => {
      // The team first: another client's team is 404 whatever the sets hold.
      const found = await updateTeam(tx, scope, id, {
        name: input.name,
        description: input.description,
      });
      if (!found) throw notFound();
      await assertMembers(tx, scope, robots, users);
      if (robots) await replaceTeamRobots(tx, scope, id, robots);
      if (users) await replaceTeamUsers(tx, scope, id, users);
    });
  }

  async remove(scope: TenantScope, id: number): Promise<void> {
    if (!(await deleteTeam(this.db, scope, id))) throw notFound();
  }

  private async write<T>(
    scope: TenantScope,
    members: { robots: readonly number[] | undefined; users: readonly number[] | undefined },
    work: (tx: Db) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateTeamName();
      // A robot or user checked a moment ago was deleted before the insert: checking again
      // names the field, as if it had never been there.
      if (isForeignKeyViolation(error)) {
        await assertMembers(this.db, scope, members.robots, members.users);
      }
      throw error;
    }
  }
}
