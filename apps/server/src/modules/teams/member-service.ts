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
import type { AuditAuthor, AuditService } from '../audit/service.js';
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

/** What differs between a team's robots and its users; the rules are the same. */
interface MemberKind<Item, Row, Query, Create> {
  /** What its audit records name. */
  entity: 'team_robot' | 'team_user';
  /** The link's own id in an item. */
  idOf: (item: Item) => number;
  /** The field naming the member in a create, and what an unknown one answers. */
  field: 'rota_robots_id' | 'users_id';
  unknown: 'robot_not_found' | 'user_not_found';
  memberOf: (input: Create) => number;
  idsOfClient: (db: Db, scope: TenantScope, ids: readonly number[]) => Promise<Set<number>>;
  list: (
    db: Db,
    scope: TenantScope,
    query: Query,
    map: (row: Row) => Item,
  ) => Promise<ListResponse<Item>>;
  find: (db: Db, scope: TenantScope, id: number) => Promise<Row | undefined>;
  insert: (db: Db, scope: TenantScope, input: Create) => Promise<number>;
  remove: (db: Db, scope: TenantScope, id: number) => Promise<boolean>;
  toItem: (row: Row) => Item;
}

/** A team's members of one kind, one at a time (/teams/robots, /teams/users). */
class TeamMemberService<
  Item,
  Row,
  Query extends { teams_id?: number | undefined },
  Create extends { teams_id: number },
> {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly kind: MemberKind<Item, Row, Query, Create>,
  ) {}

  async list(scope: TenantScope, query: Query): Promise<ListResponse<Item>> {
    await assertTeam(this.db, scope, query.teams_id);
    return this.kind.list(this.db, scope, query, this.kind.toItem);
  }

  show(scope: TenantScope, id: number): Promise<Item> {
    return this.showIn(this.db, scope, id);
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Item> {
    const row = await this.kind.find(db, scope, id);
    if (!row) throw notFound();
    return this.kind.toItem(row);
  }

  async create(scope: TenantScope, input: Create, author: AuditAuthor): Promise<Item> {
    const { kind } = this;
    await assertTeam(this.db, scope, input.teams_id);
    const member = kind.memberOf(input);
    const unknown = () => invalidField(kind.field, kind.unknown);
    if (!(await kind.idsOfClient(this.db, scope, [member])).has(member)) throw unknown();
    try {
      return await this.audit.recorded(
        author,
        {
          action: 'create',
          entity: kind.entity,
          entity_id: kind.idOf,
          after: async (_tx, item) => item,
        },
        async (tx) => this.showIn(tx, scope, await kind.insert(tx, scope, input)),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateMember(kind.field);
      // The team or the member went away meanwhile.
      if (isForeignKeyViolation(error)) {
        await assertTeam(this.db, scope, input.teams_id);
        throw unknown();
      }
      throw error;
    }
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      {
        action: 'delete',
        entity: this.kind.entity,
        entity_id: id,
        before: (tx) => this.showIn(tx, scope, id),
      },
      async (tx) => {
        if (!(await this.kind.remove(tx, scope, id))) throw notFound();
      },
    );
  }
}

export class TeamRobotService extends TeamMemberService<
  TeamRobot,
  TeamRobotRow,
  TeamRobotListQuery,
  TeamRobotCreate
> {
  constructor(db: Db, audit: AuditService) {
    super(db, audit, {
      entity: 'team_robot',
      idOf: (item) => item.team_robots_id,
      field: 'rota_robots_id',
      unknown: 'robot_not_found',
      memberOf: (input) => input.rota_robots_id,
      idsOfClient: robotIdsOfClient,
      list: listTeamRobots,
      find: findTeamRobot,
      insert: insertTeamRobot,
      remove: deleteTeamRobot,
      toItem: toTeamRobot,
    });
  }
}

export class TeamUserService extends TeamMemberService<
  TeamUser,
  TeamUserRow,
  TeamUserListQuery,
  TeamUserCreate
> {
  constructor(db: Db, audit: AuditService) {
    super(db, audit, {
      entity: 'team_user',
      idOf: (item) => item.team_users_id,
      field: 'users_id',
      unknown: 'user_not_found',
      memberOf: (input) => input.users_id,
      idsOfClient: userIdsOfClient,
      list: listTeamUsers,
      find: findTeamUser,
      insert: insertTeamUser,
      remove: deleteTeamUser,
      toItem: toTeamUser,
    });
  }
}
