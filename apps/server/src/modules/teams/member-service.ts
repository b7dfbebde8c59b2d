import type {
  ListResponse,
  TeamRobot,
  TeamRobotCreate,
  TeamRobotListQuery,
  TeamUser,
  TeamUserCreate,
  TeamUserListQuery,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import {
  deleteTeamRobot,
  deleteTeamUser,
  findTeamRobot,
  findTeamUser,
  insertTeamRobot,
  insertTeamUser,
  listTeamRobots,
  listTeamUsers,
  type TeamRobotRow,
  type TeamUserRow,
} from './member-repository.js';
import { robotIdsOfClient, teamExists, userIdsOfClient } from './repository.js';

const toTeamRobot = (row: TeamRobotRow): TeamRobot => ({ ...row, created_at: iso(row.created_at) });
const toTeamUser = (row: TeamUserRow): TeamUser => ({ ...row, created_at: iso(row.created_at) });

const duplicateMember = (field: string) =>
  new AppError('conflict', [{ field, message: 'duplicate_team_member' }]);

/**
 * The team is what these calls address, so another client's team answers 404; the robot or
 * user is a reference, so another client's answers 400 on its field, like an unknown one.
 */
async function assertTeam(db: Db, scope: TenantScope, teamId: number | undefined) {
  if (teamId !== undefined && !(await teamExists(db, scope, teamId))) throw notFound();
}

/** /teams/robots: the robots of a team, one at a time. */
export class TeamRobotService {
  constructor(private readonly db: Db) {}

  async list(scope: TenantScope, query: TeamRobotListQuery): Promise<ListResponse<TeamRobot>> {
    await assertTeam(this.db, scope, query.teams_id);
    return listTeamRobots(this.db, scope, query, toTeamRobot);
  }

  async show(scope: TenantScope, id: number): Promise<TeamRobot> {
    const row = await findTeamRobot(this.db, scope, id);
    if (!row) throw notFound();
    return toTeamRobot(row);
  }

  async create(scope: TenantScope, input: TeamRobotCreate): Promise<TeamRobot> {
    await assertTeam(this.db, scope, input.teams_id);
    const unknown = () => invalidField('rota_robots_id', 'robot_not_found');
    if (!(await robotIdsOfClient(this.db, scope, [input.rota_robots_id])).has(input.rota_robots_id))
      throw unknown();
    let id: number;
    try {
      id = await insertTeamRobot(this.db, scope, input);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateMember('rota_robots_id');
      // The team or the robot went away meanwhile.
      if (isForeignKeyViolation(error)) {
        await assertTeam(this.db, scope, input.teams_id);
        throw unknown();
      }
      throw error;
    }
    return this.show(scope, id);
  }

  async remove(scope: TenantScope, id: number): Promise<void> {
    if (!(await deleteTeamRobot(this.db, scope, id))) throw notFound();
  }
}

/** /teams/users: the users of a team, one at a time. */
export class TeamUserService {
  constructor(private readonly db: Db) {}

  async list(scope: TenantScope, query: TeamUserListQuery): Promise<ListResponse<TeamUser>> {
    await assertTeam(this.db, scope, query.teams_id);
    return listTeamUsers(this.db, scope, query, toTeamUser);
  }

  async show(scope: TenantScope, id: number): Promise<TeamUser> {
    const row = await findTeamUser(this.db, scope, id);
    if (!row) throw notFound();
    return toTeamUser(row);
  }

  async create(scope: TenantScope, input: TeamUserCreate): Promise<TeamUser> {
    await assertTeam(this.db, scope, input.teams_id);
    const unknown = () => invalidField('users_id', 'user_not_found');
    if (!(await userIdsOfClient(this.db, scope, [input.users_id])).has(input.users_id))
      throw unknown();
    let id: number;
    try {
      id = await insertTeamUser(this.db, scope, input);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateMember('users_id');
      if (isForeignKeyViolation(error)) {
        await assertTeam(this.db, scope, input.teams_id);
        throw unknown();
      }
      throw error;
    }
    return this.show(scope, id);
  }

  async remove(scope: TenantScope, id: number): Promise<void> {
    if (!(await deleteTeamUser(this.db, scope, id))) throw notFound();
  }
}
