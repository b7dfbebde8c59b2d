import type { ListResponse, Robot, RobotCreate, RobotListQuery, RobotUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import {
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

  async create(scope: TenantScope, input: RobotCreate): Promise<Robot> {
    try {
      return await this.show(scope, await insertRobot(this.db, scope, input));
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
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
