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
import { robotExists } from '../robots/repository.js';
import { vmIdsInScope } from '../vms/repository.js';
import {
  findScheduling,
  insertScheduling,
  listSchedulings,
  replaceSchedulingVms,
  schedulingState,
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
  interval_minutes: row.interval_minutes,
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

/** References must be rows of the scope; another client's id is refused as an unknown one. */
async function assertReferences(
  db: Db,
  scope: TenantScope,
  robotId: number | undefined,
  vmIds: readonly number[],
) {
  if (robotId !== undefined && !(await robotExists(db, scope, robotId)))
    throw invalidField('rota_robots_id', 'robot_not_found');
  const found = await vmIdsInScope(db, scope, vmIds);
  if (vmIds.some((id) => !found.has(id))) throw invalidField('vms', 'vm_not_found');
}

export class SchedulingService {
  constructor(private readonly db: Db) {}

  async list(scope: TenantScope, query: SchedulingListQuery): Promise<ListResponse<Scheduling>> {
    const page = await listSchedulings(this.db, scope, query);
    const vms = await this.vmsBySchedulings(
      scope,
      page.data.map((row) => row.rota_schedulings_id),
    );
    return {
      data: page.data.map((row) => toScheduling(row, vms.get(row.rota_schedulings_id) ?? [])),
      meta: page.meta,
    };
  }

  /** Deleted ones too, with their `deleted_at`. */
  async show(scope: TenantScope, id: number): Promise<Scheduling> {
    const row = await findScheduling(this.db, scope, id);
    if (!row) throw notFound();
    const vms = await this.vmsBySchedulings(scope, [id]);
    return toScheduling(row, vms.get(id) ?? []);
  }

  async create(scope: TenantScope, { vms, ...fields }: SchedulingCreate): Promise<Scheduling> {
    const vmIds = [...new Set(vms)];
    const id = await this.write(async (tx) => {
      await assertReferences(tx, scope, fields.rota_robots_id, vmIds);
      const created = await missingAs(
        'rota_robots_id',
        'robot_not_found',
        insertScheduling(tx, scope, fields),
      );
      await missingAs('vms', 'vm_not_found', replaceSchedulingVms(tx, scope, created, vmIds));
      return created;
    });
    return this.show(scope, id);
  }

  /** `vms`, when sent, replaces the whole set in the same transaction. */
  async update(scope: TenantScope, { id, vms, ...changes }: SchedulingUpdate): Promise<void> {
    const vmIds = vms === undefined ? undefined : [...new Set(vms)];
    await this.write(async (tx) => {
      await assertReferences(tx, scope, changes.rota_robots_id, vmIds ?? []);
      const found = await missingAs(
        'rota_robots_id',
        'robot_not_found',
        updateScheduling(tx, scope, id, changes),
      );
      if (!found) throw notFound();
      if (vmIds) await missingAs('vms', 'vm_not_found', replaceSchedulingVms(tx, scope, id, vmIds));
    });
  }

  async remove(scope: TenantScope, id: number): Promise<void> {
    if (!(await setSchedulingDeleted(this.db, scope, id, true))) throw notFound();
  }

  /** Restoring a live one changes nothing and says so the same way. */
  async restore(scope: TenantScope, id: number): Promise<void> {
    let restored: boolean;
    try {
      restored = await setSchedulingDeleted(this.db, scope, id, false);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
    if (!restored && (await schedulingState(this.db, scope, id)) !== 'live') throw notFound();
  }

  private async write<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  private async vmsBySchedulings(scope: TenantScope, ids: number[]) {
    const grouped = new Map<number, VmRef[]>();
    for (const { rota_schedulings_id, ...vm } of await vmsOfSchedulings(this.db, scope, ids)) {
      const list = grouped.get(rota_schedulings_id) ?? [];
      list.push(vm);
      grouped.set(rota_schedulings_id, list);
    }
    return grouped;
  }
}
