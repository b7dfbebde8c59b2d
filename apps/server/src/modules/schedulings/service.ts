import type {
  ListResponse,
  MessageKey,
  Scheduling,
  SchedulingCreate,
  SchedulingListQuery,
  SchedulingUpdate,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { RobotService } from '../robots/service.js';
import type { VmService } from '../vms/service.js';
import {
  findScheduling,
  insertScheduling,
  listSchedulings,
  purgeDeletedSchedulingsOfRobot,
  replaceSchedulingVms,
  setSchedulingDeleted,
  updateScheduling,
  vmsOfSchedulings,
  type SchedulingRow,
} from './repository.js';

type VmRef = Scheduling['vms'][number];

export const toScheduling = (row: SchedulingRow, vms: VmRef[]): Scheduling => ({
  rota_schedulings_id: row.rota_schedulings_id,
  name: row.name,
  rota_robots_id: row.rota_robots_id,
  rota_robots_name: row.rota_robots_name,
  trigger_type: row.trigger_type as Scheduling['trigger_type'],
  interval_minutes: row.interval_minutes,
  cron: row.cron,
  time_zone: row.time_zone,
  missed_runs: row.missed_runs as Scheduling['missed_runs'],
  rota_calendars_id: row.rota_calendars_id,
  min_pending: row.min_pending,
  max_concurrent: row.max_concurrent,
  next_run_at:
    row.active && !row.deleted_at && row.trigger_type !== 'queue' ? isoOrNull(row.next_run_at) : null,
  timeout_minutes: row.timeout_minutes,
  retries: row.retries,
  priority: row.priority,
  sleep: row.sleep,
  active: row.active,
  vms,
  deleted_at: isoOrNull(row.deleted_at),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_scheduling_name' }]);

/**
 * A robot or VM checked a moment ago but deleted before the write fails its foreign key:
 * answer as if it had never been there.
 */
async function missingAs<T>(field: string, message: MessageKey, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw invalidField(field, message);
    throw error;
  }
}

export class SchedulingService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly robots: RobotService,
    private readonly vms: VmService,
  ) {}

  async list(scope: TenantScope, query: SchedulingListQuery): Promise<ListResponse<Scheduling>> {
    const page = await listSchedulings(this.db, scope, query);
    const vms = await this.vmsBySchedulings(
      this.db,
      scope,
      page.data.map((row) => row.rota_schedulings_id),
    );
    return {
      data: page.data.map((row) => toScheduling(row, vms.get(row.rota_schedulings_id) ?? [])),
      meta: page.meta,
    };
  }

  /** Deleted ones too, with their `deleted_at`. */
  show(scope: TenantScope, id: number): Promise<Scheduling> {
    return this.showIn(this.db, scope, id);
  }

  async create(
    scope: TenantScope,
    { vms, ...fields }: SchedulingCreate,
    author: AuditAuthor,
  ): Promise<Scheduling> {
    const vmIds = [...new Set(vms)];
    return this.write(() =>
      this.audit.recorded(
        author,
        auditOf.created('scheduling', (created) => created.rota_schedulings_id),
        async (tx) => {
          await this.assertReferences(tx, scope, fields.rota_robots_id, vmIds);
          const created = await missingAs(
            'rota_robots_id',
            'robot_not_found',
            insertScheduling(tx, scope, {
              ...fields,
              // Kept for a later switch back to `interval`; an hour when never given.
              interval_minutes: fields.interval_minutes ?? 60,
              time_zone: fields.time_zone ?? null,
              // TODO(issue 13, cron helper): a cron's first occurrence, calendars.
              next_run_at: fields.trigger_type === 'queue' ? null : new Date(),
            }),
          );
          await missingAs('vms', 'vm_not_found', replaceSchedulingVms(tx, scope, created, vmIds));
          return this.showIn(tx, scope, created);
        },
      ),
    );
  }

  /** `vms`, when sent, replaces the whole set in the same transaction. */
  async update(
    scope: TenantScope,
    { id, vms, ...changes }: SchedulingUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    const vmIds = vms === undefined ? undefined : [...new Set(vms)];
    await this.write(() =>
      this.audit.recorded(
        author,
        auditOf.changed('scheduling', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          await this.assertReferences(tx, scope, changes.rota_robots_id, vmIds ?? []);
          const found = await missingAs(
            'rota_robots_id',
            'robot_not_found',
            updateScheduling(tx, scope, id, changes),
          );
          if (!found) throw notFound();
          if (vmIds) {
            await missingAs('vms', 'vm_not_found', replaceSchedulingVms(tx, scope, id, vmIds));
          }
        },
      ),
    );
  }

  /** Soft: the row stays (executions point at it) with its `deleted_at`, until restored. */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('scheduling', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await setSchedulingDeleted(tx, scope, id, true))) throw notFound();
      },
    );
  }

  /** Restoring a live one changes nothing and says so the same way. */
  async restore(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.write(() =>
      this.audit.recorded(
        author,
        auditOf.changed('scheduling', id, (tx) => this.showIn(tx, scope, id), 'restore'),
        async (tx) => {
          // `before` found it, so a scheduling not restored here was live already.
          await setSchedulingDeleted(tx, scope, id, false);
        },
      ),
    );
  }

  /**
   * The schedulings of a robot that were deleted (soft) go, for good, in the transaction that
   * deletes the robot; a live one stays and keeps the robot (its foreign key).
   */
  removeDeletedOfRobot(tx: Db, scope: TenantScope, robotId: number): Promise<void> {
    return purgeDeletedSchedulingsOfRobot(tx, scope, robotId);
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Scheduling> {
    const row = await findScheduling(db, scope, id);
    if (!row) throw notFound();
    const vms = await this.vmsBySchedulings(db, scope, [id]);
    return toScheduling(row, vms.get(id) ?? []);
  }

  /** References must be rows of the scope; another client's id is refused as an unknown one. */
  private async assertReferences(
    tx: Db,
    scope: TenantScope,
    robotId: number | undefined,
    vmIds: readonly number[],
  ) {
    if (robotId !== undefined && !(await this.robots.existsIn(tx, scope, robotId)))
      throw invalidField('rota_robots_id', 'robot_not_found');
    const found = await this.vms.idsInScope(tx, scope, vmIds);
    if (vmIds.some((id) => !found.has(id))) throw invalidField('vms', 'vm_not_found');
  }

  private async write<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  private async vmsBySchedulings(db: Db, scope: TenantScope, ids: number[]) {
    const grouped = new Map<number, VmRef[]>();
    for (const { rota_schedulings_id, ...vm } of await vmsOfSchedulings(db, scope, ids)) {
      const list = grouped.get(rota_schedulings_id) ?? [];
      list.push(vm);
      grouped.set(rota_schedulings_id, list);
    }
    return grouped;
  }
}
