import type {
  ListResponse,
  SchedulingVm,
  SchedulingVmCreate,
  SchedulingVmListQuery,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { vmExists } from '../vms/repository.js';
import { schedulingState } from './repository.js';
import {
  deleteSchedulingVm,
  findSchedulingVm,
  insertSchedulingVm,
  listSchedulingVms,
} from './vm-repository.js';

const unknownVm = () => invalidField('rota_vms_id', 'vm_not_found');

/**
 * /scheduling/vms: the VMs of one scheduling, one at a time. The scheduling is what the call
 * addresses, so another client's (or, for writes, a deleted one) answers 404; the VM is a
 * reference, so another client's answers 400 like an unknown one.
 */
export class SchedulingVmService {
  constructor(private readonly db: Db) {}

  async list(
    scope: TenantScope,
    query: SchedulingVmListQuery,
  ): Promise<ListResponse<SchedulingVm>> {
    if (!(await schedulingState(this.db, scope, query.rota_schedulings_id))) throw notFound();
    return listSchedulingVms(this.db, scope, query);
  }

  async create(scope: TenantScope, input: SchedulingVmCreate): Promise<SchedulingVm> {
    if ((await schedulingState(this.db, scope, input.rota_schedulings_id)) !== 'live')
      throw notFound();
    if (!(await vmExists(this.db, scope, input.rota_vms_id))) throw unknownVm();
    let id: number;
    try {
      id = await insertSchedulingVm(this.db, scope, input);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('conflict', [
          { field: 'rota_vms_id', message: 'duplicate_scheduling_vm' },
        ]);
      if (isForeignKeyViolation(error)) throw unknownVm();
      throw error;
    }
    const row = await findSchedulingVm(this.db, scope, id);
    if (!row) throw notFound();
    return row;
  }

  async remove(scope: TenantScope, id: number): Promise<void> {
    if (!(await deleteSchedulingVm(this.db, scope, id))) throw notFound();
  }
}
