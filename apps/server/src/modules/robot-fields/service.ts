import type {
  ListResponse,
  RobotField,
  RobotFieldCreate,
  RobotFieldListQuery,
  RobotFieldType,
  RobotFieldUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { robotExists } from '../robots/repository.js';
import {
  deleteRobotField,
  findRobotField,
  insertRobotField,
  listRobotFields,
  updateRobotField,
  type RobotFieldRow,
} from './repository.js';

export const toRobotField = (row: RobotFieldRow): RobotField => ({
  rota_robot_fields_id: row.rota_robot_fields_id,
  rota_robots_id: row.rota_robots_id,
  name: row.name,
  label: row.label,
  type: row.type as RobotFieldType,
  required: row.required,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** A robot's field names are unique whatever their case (one index, lower(name)). */
const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_field_name' }]);

export class RobotFieldService {
  constructor(private readonly db: Db) {}

  list(scope: TenantScope, query: RobotFieldListQuery): Promise<ListResponse<RobotField>> {
    return listRobotFields(this.db, scope, query, toRobotField);
  }

  async show(scope: TenantScope, id: number): Promise<RobotField> {
    const row = await findRobotField(this.db, scope, id);
    if (!row) throw notFound();
    return toRobotField(row);
  }

  async create(scope: TenantScope, input: RobotFieldCreate): Promise<RobotField> {
    if (!(await robotExists(this.db, scope, input.rota_robots_id))) throw notFound();
    try {
      return await this.show(scope, await insertRobotField(this.db, scope, input));
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  /**
   * Tasks already written keep their `data`: a changed type or a new required field applies
   * to tasks created or edited from now on.
   */
  async update(scope: TenantScope, input: RobotFieldUpdate): Promise<void> {
    try {
      if (!(await updateRobotField(this.db, scope, input))) throw notFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async remove(scope: TenantScope, id: number): Promise<void> {
    if (!(await deleteRobotField(this.db, scope, id))) throw notFound();
  }
}
