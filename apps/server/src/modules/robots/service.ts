import type { ListResponse, Robot, RobotCreate, RobotListQuery, RobotUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import {
  addRobotToTeamsOf,
  deleteRobot,
  findRobot,
  insertRobot,
  listRobots,
  updateRobot,
  type RobotRow,
} from './repository.js';

export const toRobot = (row: RobotRow): Robot => ({
  rota_robots_id: row.rota_robots_id,
  name: row.name,
  description: row.description,
  executor: row.executor,
  remote_root: row.remote_root,
  active: row.active,
  current_version:
    row.current_version_id !== null && row.current_version !== null
      ? { rota_robot_versions_id: row.current_version_id, version: row.current_version }
      : null,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** The scope once `robotId` joined the caller's teams. */
export const seenWith = (scope: TenantScope, robotId: number) => scope.withRobot(robotId);

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_robot_name' }]);

export class RobotService {
  constructor(private readonly db: Db) {}

  list(scope: TenantScope, query: RobotListQuery): Promise<ListResponse<Robot>> {
    return listRobots(this.db, scope, query, toRobot);
  }

  async show(scope: TenantScope, id: number): Promise<Robot> {
    const row = await findRobot(this.db, scope, id);
    if (!row) throw notFound();
    return toRobot(row);
  }

  /**
   * A member of teams (`usersId`, when the scope is limited by teams) puts the new robot in
   * their teams at once, so they keep seeing what they made; `seenWith` is then their view.
   */
  async create(scope: TenantScope, input: RobotCreate, usersId?: number): Promise<Robot> {
    let id: number;
    try {
      id = await this.db.transaction(async (tx) => {
        const created = await insertRobot(tx, scope, input);
        if (scope.robotIds && usersId !== undefined) {
          await addRobotToTeamsOf(tx, scope, usersId, created);
        }
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
    return this.show(seenWith(scope, id), id);
  }

  async update(scope: TenantScope, { id, ...changes }: RobotUpdate): Promise<void> {
    try {
      if (!(await updateRobot(this.db, scope, id, changes))) throw notFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async remove(scope: TenantScope, id: number): Promise<void> {
    try {
      if (!(await deleteRobot(this.db, scope, id))) throw notFound();
    } catch (error) {
      // Schedulings point at their robot and must go first (they keep execution history).
      if (isForeignKeyViolation(error))
        throw new AppError('conflict', [{ field: 'id', message: 'robot_in_use' }]);
      throw error;
    }
  }
}
