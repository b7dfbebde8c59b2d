import type {
  ListResponse,
  Package,
  PackageCreate,
  PackageListQuery,
  PackageUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import {
  deletePackage,
  findPackage,
  insertPackage,
  listPackages,
  lockPackageRow,
  packageNameTaken,
  updatePackage,
  type PackageRow,
} from './repository.js';

export const toPackage = (row: PackageRow): Package => ({
  rota_packages_id: row.rota_packages_id,
  name: row.name,
  description: row.description,
  versions: Number(row.versions),
  latest_version:
    row.latest_id !== null && row.latest_version !== null
      ? { rota_robot_versions_id: Number(row.latest_id), version: row.latest_version }
      : null,
  robots: Number(row.robots),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_package_name' }]);

/** The client's package feed: the packages themselves (their versions: RobotVersionService). */
export class PackageService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  list(scope: TenantScope, query: PackageListQuery): Promise<ListResponse<Package>> {
    return listPackages(this.db, scope, query, toPackage);
  }

  show(scope: TenantScope, id: number): Promise<Package> {
    return this.showIn(this.db, scope, id);
  }

  async create(scope: TenantScope, input: PackageCreate, author: AuditAuthor): Promise<Package> {
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('package', (pkg: Package) => pkg.rota_packages_id),
        async (tx) => this.showIn(tx, scope, await insertPackage(tx, scope, input)),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async update(scope: TenantScope, { id, ...input }: PackageUpdate, author: AuditAuthor) {
    try {
      await this.audit.recorded(
        author,
        auditOf.changed('package', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await updatePackage(tx, scope, id, input))) throw notFound();
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  /** Its versions go with it; a package robots still run stays. */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('package', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await lockPackageRow(tx, scope, id))) throw notFound();
        if ((await this.showIn(tx, scope, id)).robots > 0) throw inUse();
        try {
          await deletePackage(tx, scope, id);
        } catch (error) {
          // A robot's current version of it (a robot pointed at it meanwhile).
          if (isForeignKeyViolation(error)) throw inUse();
          throw error;
        }
      },
    );
  }

  /** Holds the package until `tx` ends; not found when the scope does not see it. */
  async lockIn(tx: Db, scope: TenantScope, id: number): Promise<void> {
    if (!(await lockPackageRow(tx, scope, id))) throw notFound();
  }

  /**
   * The package a robot's first upload creates, named after the robot (or, when a package has
   * that name already, after the robot and its id).
   */
  async createFor(tx: Db, scope: TenantScope, robot: { id: number; name: string }) {
    const name = (await packageNameTaken(tx, scope, robot.name))
      ? `${robot.name} (#${robot.id})`
      : robot.name;
    return insertPackage(tx, scope, { name, description: null });
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Package> {
    const row = await findPackage(db, scope, id);
    if (!row) throw notFound();
    return toPackage(row);
  }
}

const inUse = () => new AppError('conflict', [{ field: 'id', message: 'package_in_use' }]);
