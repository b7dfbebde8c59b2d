import type { ListResponse, Vm, VmCount, VmCreate, VmListQuery, VmUpdate } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import { iso } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { connectivityOf } from '../agents/connectivity.js';
import {
  countVms,
  deleteVm,
  findVm,
  insertVm,
  listVms,
  updateVm,
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

export class VmService {
  constructor(private readonly db: Db) {}

  list(scope: TenantScope, query: VmListQuery): Promise<ListResponse<Vm>> {
    return listVms(this.db, scope, query, toVm);
  }

  count(scope: TenantScope): Promise<VmCount> {
    return countVms(this.db, scope);
  }

  async show(scope: TenantScope, id: number): Promise<Vm> {
    const row = await findVm(this.db, scope, id);
    if (!row) throw notFound();
    return toVm(row);
  }

  async create(scope: TenantScope, input: VmCreate): Promise<Vm> {
    try {
      return await this.show(scope, await insertVm(this.db, scope, input));
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  async update(scope: TenantScope, { id, ...changes }: VmUpdate): Promise<void> {
    try {
      if (!(await updateVm(this.db, scope, id, changes))) throw notFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateName();
      throw error;
    }
  }

  /** Agents keep their VM (409 while any is left); its place in schedulings goes with it. */
  async remove(scope: TenantScope, id: number): Promise<void> {
    const outcome = await deleteVm(this.db, scope, id);
    if (outcome === 'absent') throw notFound();
    if (outcome === 'in_use')
      throw new AppError('conflict', [{ field: 'id', message: 'vm_in_use' }]);
  }
}
