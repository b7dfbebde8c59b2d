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
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { RobotService } from '../robots/service.js';
import {
  deleteRobotField,
  fieldsOfRobot,
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
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly robots: RobotService,
  ) {}

  list(scope: TenantScope, query: RobotFieldListQuery): Promise<ListResponse<RobotField>> {
    return listRobotFields(this.db, scope, query, toRobotField);
  }

  show(scope: TenantScope, id: number): Promise<RobotField> {
    return this.showIn(this.db, scope, id);
  }

  /** Every field of a robot the scope sees, in the order they were added (a form's order). */
  async fieldsOfRobot(scope: TenantScope, robotId: number): Promise<RobotField[]> {
    return (await fieldsOfRobot(this.db, scope, robotId)).map(toRobotField);
  }

  async create(
    scope: TenantScope,
    input: RobotFieldCreate,
    author: AuditAuthor,
  ): Promise<RobotField> {
    if (!(await this.robots.exists(scope, input.rota_robots_id))) throw notFound();
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('robot_field', (field) => field.rota_robot_fields_id),
        async (tx) => this.showIn(tx, scope, await insertRobotField(tx, scope, input)),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  /**
   * Tasks already written keep their `data`: a changed type or a new required field applies
   * to tasks created or edited from now on.
   */
  async update(scope: TenantScope, input: RobotFieldUpdate, author: AuditAuthor): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        auditOf.changed('robot_field', input.id, (tx) => this.showIn(tx, scope, input.id)),
        async (tx) => {
          if (!(await updateRobotField(tx, scope, input))) throw notFound();
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('robot_field', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await deleteRobotField(tx, scope, id))) throw notFound();
      },
    );
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<RobotField> {
    const row = await findRobotField(db, scope, id);
    if (!row) throw notFound();
    return toRobotField(row);
  }
}
