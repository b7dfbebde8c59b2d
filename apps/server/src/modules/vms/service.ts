import type { ListResponse, Vm, VmCount, VmCreate, VmListQuery, VmUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { connectivityOf } from '../agents/connectivity.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import {
  countVms,
  deleteVm,
  findVm,
  insertVm,
  listVms,
  updateVm,
  vmIdsInScope,
  type VmRow,
} from './repository.js';

export const toVm = (row: VmRow): Vm => ({
  rota_vms_id: row.rota_vms_id,
  name: row.name,
  hostname: row.hostname,
  label: row.label,
  os: row.os,
  description: row.description,
  connectivity: connectivityOf(row.active),
  agents: row.agents,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_vm_name' }]);

const vmInUse = () => new AppError('conflict', [{ field: 'id', message: 'vm_in_use' }]);

export class VmService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
  ) {}

  list(scope: TenantScope, query: VmListQuery): Promise<ListResponse<Vm>> {
    return listVms(this.db, scope, query, toVm);
  }

  count(scope: TenantScope): Promise<VmCount> {
    return countVms(this.db, scope);
  }

  show(scope: TenantScope, id: number): Promise<Vm> {
    return this.showIn(this.db, scope, id);
  }

  /** A VM of the scope exists (what an agent or a scheduling may point at). */
  async exists(scope: TenantScope, id: number): Promise<boolean> {
    return (await this.idsInScope(this.db, scope, [id])).has(id);
  }

  /** Which of `ids` are VMs of the scope, read with `db` (a caller's transaction). */
  idsInScope(db: Db, scope: TenantScope, ids: readonly number[]): Promise<Set<number>> {
    return vmIdsInScope(db, scope, ids);
  }

  async create(scope: TenantScope, input: VmCreate, author: AuditAuthor): Promise<Vm> {
    try {
      return await this.audit.recorded(
        author,
        auditOf.created('vm', (vm) => vm.rota_vms_id),
        async (tx) => this.showIn(tx, scope, await insertVm(tx, scope, input)),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async update(
    scope: TenantScope,
    { id, ...changes }: VmUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        auditOf.changed('vm', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await updateVm(tx, scope, id, changes))) throw notFound();
        },
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  /** Agents keep their VM (409 while any is left); its place in schedulings goes with it. */
  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    try {
      await this.audit.recorded(
        author,
        auditOf.deleted('vm', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await deleteVm(tx, scope, id))) throw notFound();
        },
      );
    } catch (error) {
      if (isForeignKeyViolation(error)) throw vmInUse();
      throw error;
    }
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Vm> {
    const row = await findVm(db, scope, id);
    if (!row) throw notFound();
    return toVm(row);
  }
}
