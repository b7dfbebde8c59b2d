import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  ROBOT_PACKAGE_MAX_BYTES,
  packageVersionCreateSchema,
  robotPackageFormat,
  robotVersionCreateSchema,
  type ListResponse,
  type MessageKey,
  type PackageUpdateRobots,
  type PackageVersionListQuery,
  type RobotPackage,
  type RobotPackageFormat,
  type RobotVersion,
  type RobotVersionListQuery,
  type RobotVersionUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import {
  AppError,
  fieldIssuesOf,
  invalidField,
  notFound,
  type FieldIssue,
} from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { BlobStore } from '../blobs/blob-store.js';
import type { PackageKeyService } from '../packages/key-service.js';
import type { PackageService } from '../packages/service.js';
import type { RobotService } from '../robots/service.js';
import { lockPackage } from './package-lock.js';
import { packageProblem } from './package-problems.js';
import { PackageStore, TooLarge, type ReceivedFile } from './package-store.js';
import {
  deleteRobotVersion,
  findPackageVersion,
  findRobotVersion,
  insertRobotVersion,
  latestVersionOf,
  listPackageVersions,
  listRobotVersions,
  packageStillUsed,
  versionRunByAnyRobot,
  updateRobotVersionNotes,
  type RobotVersionRow,
} from './repository.js';

export const toRobotVersion = (row: RobotVersionRow): RobotVersion => ({
  rota_robot_versions_id: row.rota_robot_versions_id,
  rota_packages_id: row.rota_packages_id,
  rota_robots_id: row.rota_robots_id,
  version: row.version,
  notes: row.notes,
  file_name: row.file_name,
  format: row.format as RobotPackageFormat,
  sha256: row.sha256,
  size_bytes: row.size_bytes,
  current: row.current,
  // A deleted key leaves the signature: it was valid when the version was accepted.
  signed_by: row.signature
    ? { fingerprint: row.signer_fingerprint ?? '', name: row.signer_name }
    : null,
  created_at: iso(row.created_at),
});

/** The `file` part once read: in a temp file, or refused before being kept. */
export interface IncomingPackage {
  fileName: string;
  format: RobotPackageFormat | null;
  file: ReceivedFile | null;
  problem: 'package_format' | 'package_too_large' | null;
}

export interface PackageDownload {
  stream: Readable;
  size: number;
  fileName: string;
  format: RobotPackageFormat;
  sha256: string;
}

export class RobotVersionService {
  readonly store: PackageStore;

  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly robots: RobotService,
    private readonly packages: PackageService,
    private readonly keys: PackageKeyService,
    dataDir: string,
    blobs: BlobStore,
    /** Injectable so a test can pass the limit without sending 100 MB. */
    readonly maxPackageBytes: number = ROBOT_PACKAGE_MAX_BYTES,
  ) {
    this.store = new PackageStore(dataDir, blobs);
  }

  list(scope: TenantScope, query: RobotVersionListQuery): Promise<ListResponse<RobotVersion>> {
    return listRobotVersions(this.db, scope, query, toRobotVersion);
  }

  async show(scope: TenantScope, id: number): Promise<RobotVersion> {
    return toRobotVersion(await this.rowIn(this.db, scope, id));
  }

  async listInPackage(
    scope: TenantScope,
    query: PackageVersionListQuery,
  ): Promise<ListResponse<RobotVersion>> {
    await this.packages.show(scope, query.rota_packages_id);
    return listPackageVersions(this.db, scope, query, toRobotVersion);
  }

  /**
   * Takes the uploaded file as it streams in. A name that is neither .zip nor .tar.gz is not
   * written anywhere (its bytes are read and dropped so the parts after it still arrive).
   */
  async receive(fileName: string, stream: Readable): Promise<IncomingPackage> {
    const format = robotPackageFormat(fileName);
    if (!format) {
      stream.resume();
      await finished(stream);
      return { fileName, format, file: null, problem: 'package_format' };
    }
    try {
      const file = await this.store.receive(stream, this.maxPackageBytes);
      return { fileName, format, file, problem: null };
    } catch (error) {
      if (error instanceof TooLarge) {
        return { fileName, format, file: null, problem: 'package_too_large' };
      }
      throw error;
    }
  }

  /** Drops what `receive` kept; safe to call twice and after `create` kept it. */
  async discard(incoming: IncomingPackage | undefined): Promise<void> {
    if (incoming?.file) await this.store.discard(incoming.file.tempPath);
  }

  /**
   * The per-robot short path: the version goes to the robot's package, made (after the robot)
   * on its first upload.
   */
  create(
    scope: TenantScope,
    author: AuditAuthor,
    fields: unknown,
    incoming: IncomingPackage | undefined,
  ): Promise<RobotVersion> {
    const parsed = robotVersionCreateSchema.safeParse(fields);
    return this.upload(scope, author, parsed, incoming, 'duplicate_version', {
      exists: (input) => this.robots.exists(scope, input.rota_robots_id),
      packageIn: async (tx, input) => {
        const robotId = input.rota_robots_id;
        // Two first uploads of one robot must not make two packages.
        if (!(await this.robots.lockIn(tx, scope, robotId))) throw notFound();
        const robot = await this.robots.packageOf(tx, scope, robotId);
        if (!robot) throw notFound();
        if (robot.rota_packages_id !== null) return { packageId: robot.rota_packages_id, robotId };
        const packageId = await this.packages.createFor(tx, scope, { id: robotId, ...robot });
        await this.robots.setPackage(tx, scope, robotId, { rota_packages_id: packageId });
        return { packageId, robotId };
      },
    });
  }

  /** An upload to the feed: a version of a package, for any robot on it. */
  createInPackage(
    scope: TenantScope,
    author: AuditAuthor,
    fields: unknown,
    incoming: IncomingPackage | undefined,
  ): Promise<RobotVersion> {
    const parsed = packageVersionCreateSchema.safeParse(fields);
    return this.upload(scope, author, parsed, incoming, 'duplicate_package_version', {
      exists: (input) =>
        this.packages.show(scope, input.rota_packages_id).then(
          () => true,
          (error: unknown) =>
            error instanceof AppError && error.code === 'not_found' ? false : Promise.reject(error),
        ),
      packageIn: async (tx, input) => {
        await this.packages.lockIn(tx, scope, input.rota_packages_id);
        return { packageId: input.rota_packages_id, robotId: null };
      },
    });
  }

  /**
   * All field problems are told together; the archive is checked only once everything else is
   * right, and the temp file is gone when this ends, kept as the blob of its sha256 only when
   * the row was written. Robots following the package's latest version run it at once.
   */
  private async upload<
    I extends { version: string; notes: string | null; signature: string | null },
  >(
    scope: TenantScope,
    author: AuditAuthor,
    parsed:
      { success: true; data: I } | { success: false; error: Parameters<typeof fieldIssuesOf>[0] },
    incoming: IncomingPackage | undefined,
    duplicate: MessageKey,
    target: {
      exists: (input: I) => Promise<boolean>;
      packageIn: (tx: Db, input: I) => Promise<{ packageId: number; robotId: number | null }>;
    },
  ): Promise<RobotVersion> {
    try {
      const issues: FieldIssue[] = parsed.success ? [] : fieldIssuesOf(parsed.error);
      if (!incoming) issues.push({ field: 'file', message: 'required_file' });
      else if (incoming.problem) issues.push({ field: 'file', message: incoming.problem });
      if (!parsed.success || !incoming?.file || !incoming.format || issues.length > 0) {
        throw new AppError('invalid_input', issues);
      }
      const input = parsed.data;
      const { file, format } = incoming;
      if (!(await target.exists(input))) throw notFound();
      const problem = await packageProblem(file.tempPath, format);
      if (problem) throw invalidField('file', problem);
      return await this.audit.recorded(
        author,
        auditOf.created('robot_version', (version) => version.rota_robot_versions_id),
        async (tx) => {
          const { packageId, robotId } = await target.packageIn(tx, input);
          const signed = await this.keys.check(tx, scope, file.sha256, input.signature);
          await lockPackage(tx, file.sha256);
          const inserted = await insertRobotVersion(tx, scope, {
            rota_packages_id: packageId,
            rota_robots_id: robotId,
            version: input.version,
            notes: input.notes,
            file_name: incoming.fileName,
            format,
            sha256: file.sha256,
            size_bytes: file.size,
            created_by: author.user?.users_id ?? null,
            signature: signed?.signature ?? null,
            rota_package_keys_id: signed?.rota_package_keys_id ?? null,
          });
          // Inside the transaction: if keeping the bytes fails, no row points at a missing
          // blob (on PostgreSQL the blob is written in this very transaction).
          await this.store.commit(tx, file);
          await this.robots.followLatest(tx, scope, packageId, inserted);
          return toRobotVersion(await this.rowIn(tx, scope, inserted));
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('conflict', [{ field: 'version', message: duplicate }]);
      }
      throw error;
    } finally {
      await this.discard(incoming);
    }
  }

  /** A robot runs a package: one of its versions, or (null) its newest, following it. */
  async pointRobot(scope: TenantScope, input: RobotPackage, author: AuditAuthor): Promise<void> {
    const { id, rota_packages_id: packageId, rota_robot_versions_id: versionId } = input;
    await this.db.transaction(async (tx) => {
      await this.packages.lockIn(tx, scope, packageId);
      if (!(await this.robots.lockIn(tx, scope, id))) throw notFound();
      const before = await this.robots.showIn(tx, scope, id);
      let runs: number;
      if (versionId === null) {
        const latest = await latestVersionOf(tx, scope, packageId);
        if (!latest) throw invalidField('rota_robot_versions_id', 'package_has_no_version');
        runs = latest.id;
      } else {
        const row = await findPackageVersion(tx, scope, versionId);
        if (!row || row.rota_packages_id !== packageId) {
          throw invalidField('rota_robot_versions_id', 'version_not_in_package');
        }
        runs = versionId;
      }
      await this.robots.setPackage(tx, scope, id, {
        rota_packages_id: packageId,
        rota_robot_versions_id_current: runs,
        follow_latest: versionId === null,
      });
      await this.audit.write(tx, author, {
        action: 'update',
        entity: 'robot',
        entity_id: id,
        before,
        after: await this.robots.showIn(tx, scope, id),
      });
    });
  }

  /** These robots run the package's newest approved version from now on (one record each). */
  async updateRobots(scope: TenantScope, input: PackageUpdateRobots, author: AuditAuthor) {
    return this.db.transaction(async (tx) => {
      await this.packages.lockIn(tx, scope, input.rota_packages_id);
      const latest = await latestVersionOf(tx, scope, input.rota_packages_id);
      if (!latest) throw invalidField('rota_packages_id', 'package_has_no_version');
      const updated = await this.robots.pointAt(
        tx,
        scope,
        input.ids,
        input.rota_packages_id,
        latest.id,
      );
      for (const id of new Set(input.ids)) {
        await this.audit.write(tx, author, {
          action: 'update',
          entity: 'robot',
          entity_id: id,
          after: {
            rota_packages_id: input.rota_packages_id,
            rota_robot_versions_id: latest.id,
            version: latest.version,
          },
        });
      }
      return { rota_robot_versions_id: latest.id, updated };
    });
  }

  /** `current: true` makes it the version agents run (an older one for a rollback). */
  async update(
    scope: TenantScope,
    { id, current, notes }: RobotVersionUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row =
        current === true ? await this.lockedRow(tx, scope, id) : await this.rowIn(tx, scope, id);
      if (notes !== undefined) await updateRobotVersionNotes(tx, scope, id, notes);
      if (current) {
        // A feed version is made current through the robot's package, not here.
        if (row.rota_robots_id === null) throw invalidField('current', 'invalid_value');
        await this.robots.setCurrentVersion(tx, scope, row.rota_robots_id, id);
      }
      await this.audit.write(tx, author, {
        action: 'update',
        entity: 'robot_version',
        entity_id: id,
        before: toRobotVersion(row),
        after: toRobotVersion(await this.rowIn(tx, scope, id)),
      });
    });
  }

  /** The current version stays; the file goes with the last version that uses it. */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.lockedRow(tx, scope, id);
      if (row.current || (await versionRunByAnyRobot(tx, scope, id))) {
        throw new AppError('conflict', [{ field: 'id', message: 'version_in_use' }]);
      }
      await lockPackage(tx, row.sha256);
      await deleteRobotVersion(tx, scope, id);
      // Before the file goes (on disk it cannot come back with a rollback).
      await this.audit.write(tx, author, {
        action: 'delete',
        entity: 'robot_version',
        entity_id: id,
        before: toRobotVersion(row),
      });
      // Removed under the lock, before commit: an upload of the same bytes waits for us and
      // then finds no file, so it moves its own in.
      if (!(await packageStillUsed(tx, row.sha256, id))) await this.store.remove(tx, row.sha256);
    });
  }

  async download(scope: TenantScope, id: number): Promise<PackageDownload> {
    const row = await this.rowIn(this.db, scope, id);
    const opened = await this.store.open(row.sha256);
    // A row without its blob means DATA_DIR lost it (the database never does: same transaction).
    if (!opened) throw new Error(`package ${row.sha256} of version ${id} is missing`);
    return {
      ...opened,
      fileName: row.file_name,
      format: row.format as RobotPackageFormat,
      sha256: row.sha256,
    };
  }

  private async rowIn(db: Db, scope: TenantScope, id: number): Promise<RobotVersionRow> {
    const row = await findRobotVersion(db, scope, id);
    if (!row) throw notFound();
    return row;
  }

  /**
   * The version with its robot's row held until `tx` ends: making a version current and
   * deleting one both decide on the robot's current version, so they must not interleave.
   * Read again once locked, since the current version may just have changed.
   */
  private async lockedRow(tx: Db, scope: TenantScope, id: number): Promise<RobotVersionRow> {
    const found = await this.rowIn(tx, scope, id);
    if (found.rota_robots_id === null) {
      await this.packages.lockIn(tx, scope, found.rota_packages_id);
    } else if (!(await this.robots.lockIn(tx, scope, found.rota_robots_id))) throw notFound();
    return this.rowIn(tx, scope, id);
  }
}
