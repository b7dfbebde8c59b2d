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
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { VmService } from '../vms/service.js';
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
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly vms: VmService,
  ) {}

  async list(
    scope: TenantScope,
    query: SchedulingVmListQuery,
  ): Promise<ListResponse<SchedulingVm>> {
    if (!(await schedulingState(this.db, scope, query.rota_schedulings_id))) throw notFound();
    return listSchedulingVms(this.db, scope, query);
  }

  async create(
    scope: TenantScope,
    input: SchedulingVmCreate,
    author: AuditAuthor,
  ): Promise<SchedulingVm> {
    if ((await schedulingState(this.db, scope, input.rota_schedulings_id)) !== 'live')
      throw notFound();
    if (!(await this.vms.exists(scope, input.rota_vms_id))) throw unknownVm();
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('scheduling_vm', (row) => row.rota_scheduling_vms_id),
        async (tx) => this.showIn(tx, scope, await insertSchedulingVm(tx, scope, input)),
      );
    } catch (error) {
      if (isUniqueViolation(error))
        throw new AppError('conflict', [
          { field: 'rota_vms_id', message: 'duplicate_scheduling_vm' },
        ]);
      if (isForeignKeyViolation(error)) throw unknownVm();
      throw error;
    }
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('scheduling_vm', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await deleteSchedulingVm(tx, scope, id))) throw notFound();
      },
    );
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<SchedulingVm> {
    const row = await findSchedulingVm(db, scope, id);
    if (!row) throw notFound();
    return row;
  }
}
