import type { ListResponse, Team, TeamCreate, TeamListQuery, TeamUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import {
  addRobotToTeamsOfUser,
  deleteTeam,
  deleteTeamUsersOfClient,
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
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  list(scope: TenantScope, query: TeamListQuery): Promise<ListResponse<Team>> {
    return listTeams(this.db, scope, query, toTeam);
  }

  /** With the ids of its robots and users. */
  show(scope: TenantScope, id: number): Promise<Team> {
    return this.showIn(this.db, scope, id);
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Team> {
    const row = await findTeam(db, scope, id);
    if (!row) throw notFound();
    return { ...toTeam(row), ...(await membersOfTeam(db, scope, id)) };
  }

  async create(scope: TenantScope, input: TeamCreate, author: AuditAuthor): Promise<Team> {
    const robots = unique(input.robots) ?? [];
    const users = unique(input.users) ?? [];
    return this.write(scope, { robots, users }, () =>
      this.audit.recorded(
        author,
        auditOf.created('team', (team) => team.teams_id),
        async (tx) => {
          await assertMembers(tx, scope, robots, users);
          const created = await insertTeam(tx, scope, {
            name: input.name,
            description: input.description,
          });
          await replaceTeamRobots(tx, scope, created, robots);
          await replaceTeamUsers(tx, scope, created, users);
          return this.showIn(tx, scope, created);
        },
      ),
    );
  }

  /** `robots` / `users`, when sent, replace the team's whole set in the same transaction. */
  async update(scope: TenantScope, { id, ...input }: TeamUpdate, author: AuditAuthor) {
    const robots = unique(input.robots);
    const users = unique(input.users);
    await this.write(scope, { robots, users }, () =>
      this.audit.recorded(
        author,
        {
          action: 'update',
          entity: 'team',
          entity_id: id,
          // The team first: another client's team is 404 whatever the sets hold.
          before: (tx) => this.showIn(tx, scope, id),
          after: (tx) => this.showIn(tx, scope, id),
        },
        async (tx) => {
          const found = await updateTeam(tx, scope, id, {
            name: input.name,
            description: input.description,
          });
          if (!found) throw notFound();
          await assertMembers(tx, scope, robots, users);
          if (robots) await replaceTeamRobots(tx, scope, id, robots);
          if (users) await replaceTeamUsers(tx, scope, id, users);
        },
      ),
    );
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('team', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await deleteTeam(tx, scope, id))) throw notFound();
      },
    );
  }

  /**
   * A user leaves every team of a client, in the caller's transaction: their membership of it
   * ends (UserClientService), and a team gathers members of its client only.
   */
  leaveClient(db: Db, usersId: number, clientId: number): Promise<void> {
    return deleteTeamUsersOfClient(db, usersId, clientId);
  }

  /** Maps what a lost race looks like (a name taken, a member deleted) to the answer. */
  private async write<T>(
    scope: TenantScope,
    members: { robots: readonly number[] | undefined; users: readonly number[] | undefined },
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
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

  /* ---------- Added by group B (robots): a new robot joins its creator's teams. ---------- */

  /**
   * A robot a team member just created joins every team they belong to in the client, in the
   * transaction that creates it (RobotService.create), so they keep seeing what they made.
   */
  addRobotToTeamsOf(tx: Db, scope: TenantScope, usersId: number, robotId: number): Promise<void> {
    return addRobotToTeamsOfUser(tx, scope, usersId, robotId);
  }
}
