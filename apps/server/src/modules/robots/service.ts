import type { ListResponse, Robot, RobotCreate, RobotListQuery, RobotUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import { purgeDeletedSchedulingsOfRobot } from '../schedulings/statements.js';
import type { TeamService } from '../teams/service.js';
import {
  deleteRobot,
  findRobot,
  insertRobot,
  listRobots,
  followLatest,
  pointRobots,
  robotExists,
  robotPackageOf,
  robotsOnPackage,
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
  rota_packages_id: row.rota_packages_id,
  follow_latest: row.follow_latest,
  task_sla_minutes: row.task_sla_minutes,
  task_risk_minutes: row.task_risk_minutes,
  task_retries: row.task_retries,
  stall_minutes: row.stall_minutes,
  stall_action: row.stall_action === 'kill' ? 'kill' : 'flag',
  required_labels: row.required_labels,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_robot_name' }]);

export class RobotService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly teams: TeamService,
  ) {}

  list(scope: TenantScope, query: RobotListQuery): Promise<ListResponse<Robot>> {
    return listRobots(this.db, scope, query, toRobot);
  }

  show(scope: TenantScope, id: number): Promise<Robot> {
    return this.showIn(this.db, scope, id);
  }

  /** A robot the scope sees exists: what fields, versions, tasks and schedulings may hang off. */
  exists(scope: TenantScope, id: number): Promise<boolean> {
    return robotExists(this.db, scope, id);
  }

  /** The robot's task SLA settings (null: the scope does not see it). */
  async taskSettings(
    scope: TenantScope,
    id: number,
  ): Promise<Pick<Robot, 'task_sla_minutes' | 'task_risk_minutes' | 'task_retries'> | null> {
    const row = await findRobot(this.db, scope, id);
    return row
      ? {
          task_sla_minutes: row.task_sla_minutes,
          task_risk_minutes: row.task_risk_minutes,
          task_retries: row.task_retries,
        }
      : null;
  }

  /** `exists`, read in the caller's transaction. */
  existsIn(tx: Db, scope: TenantScope, id: number): Promise<boolean> {
    return robotExists(tx, scope, id);
  }

  /**
   * Holds the robot's row until `tx` ends (false: the scope does not see it): what decides on
   * its current version (making one current, deleting one) must not interleave.
   */
  lockIn(tx: Db, scope: TenantScope, id: number): Promise<boolean> {
    return robotExists(tx, scope, id, { lock: true });
  }

  /** Makes `versionId` (a version of this robot) the one agents run, in the caller's transaction. */
  async setCurrentVersion(
    tx: Db,
    scope: TenantScope,
    id: number,
    versionId: number,
  ): Promise<void> {
    if (!(await updateRobot(tx, scope, id, { rota_robot_versions_id_current: versionId })))
      throw notFound();
  }

  /** The robot's package and name, in the caller's transaction; undefined when not visible. */
  packageOf(tx: Db, scope: TenantScope, id: number) {
    return robotPackageOf(tx, scope, id);
  }

  /** Makes the robot run `packageId` (at `versionId`, or its newest when following latest). */
  async setPackage(
    tx: Db,
    scope: TenantScope,
    id: number,
    values: {
      rota_packages_id: number;
      rota_robot_versions_id_current?: number | null;
      follow_latest?: boolean;
    },
  ): Promise<void> {
    if (!(await updateRobot(tx, scope, id, values))) throw notFound();
  }

  /** Followers of the package's latest version move to `versionId`, in the caller's transaction. */
  followLatest(tx: Db, scope: TenantScope, packageId: number, versionId: number) {
    return followLatest(tx, scope, packageId, versionId);
  }

  /** All of `ids` (visible to the scope) run `versionId` of `packageId`, or none does. */
  async pointAt(
    tx: Db,
    scope: TenantScope,
    ids: readonly number[],
    packageId: number,
    versionId: number,
  ): Promise<number> {
    const unique = [...new Set(ids)];
    const updated = await pointRobots(tx, scope, unique, {
      rota_packages_id: packageId,
      rota_robot_versions_id_current: versionId,
    });
    if (updated !== unique.length) throw notFound();
    return updated;
  }

  robotsOn(scope: TenantScope, packageId: number): Promise<number> {
    return robotsOnPackage(this.db, scope, packageId);
  }

  /**
   * A member of teams (the scope is limited by teams) puts the new robot in their teams at
   * once, so they keep seeing what they made; the answer and the record are read that way.
   */
  async create(scope: TenantScope, input: RobotCreate, author: AuditAuthor): Promise<Robot> {
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('robot', (robot) => robot.rota_robots_id),
        async (tx) => {
          const id = await insertRobot(tx, scope, input);
          const usersId = author.user?.users_id;
          if (scope.robotIds && usersId !== undefined) {
            await this.teams.addRobotToTeamsOf(tx, scope, usersId, id);
          }
          return this.showIn(tx, scope.withRobot(id), id);
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async update(scope: TenantScope, { id, ...changes }: RobotUpdate, author: AuditAuthor) {
    try {
      await this.audit.recorded(
        author,
        auditOf.changed('robot', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await updateRobot(tx, scope, id, changes))) throw notFound();
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  /**
   * With its versions, fields and tasks (the database cascades). Schedulings the user already
   * deleted (soft) go with it; a live one makes the delete fail, and the transaction puts the
   * deleted ones back.
   */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        auditOf.deleted('robot', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          await purgeDeletedSchedulingsOfRobot(tx, scope, id);
          if (!(await deleteRobot(tx, scope, id))) throw notFound();
        },
      );
    } catch (error) {
      // Schedulings point at their robot and must go first (they keep execution history).
      if (isForeignKeyViolation(error))
        throw new AppError('conflict', [{ field: 'id', message: 'robot_in_use' }]);
      throw error;
    }
  }

  /** What `show` answers, read with `db` (a transaction's, for its audit record). */
  async showIn(db: Db, scope: TenantScope, id: number): Promise<Robot> {
    const row = await findRobot(db, scope, id);
    if (!row) throw notFound();
    return toRobot(row);
  }
}
