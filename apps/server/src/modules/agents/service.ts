import type {
  Agent,
  AgentCreate,
  AgentListQuery,
  AgentUpdate,
  AgentWithToken,
  ListResponse,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { iso, isoOrNull } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { generateToken, hashToken } from '../../lib/tokens.js';
import { auditOf, type AuditAuthor, type AuditService } from '../audit/service.js';
import type { VmService } from '../vms/service.js';
import { connectivityOf } from './connectivity.js';
import { factsOf, isLowDisk } from './facts.js';
import { updateAvailable } from './update-offer.js';
import { effectiveLabels } from './labels.js';
import {
  deleteAgent,
  findAgent,
  insertAgent,
  listAgents,
  replaceAgentToken,
  updateAgent,
  type AgentRow,
  countAgents,
} from './repository.js';

export const toAgent = (row: AgentRow, shipped: string | null = null): Agent => {
  const facts = factsOf(row);
  const update = updateAvailable(row, shipped);
  return {
    rota_nodes_id: row.rota_nodes_id,
    name: row.name,
    rota_vms_id: row.rota_vms_id,
    rota_vms_name: row.rota_vms_name,
    connectivity: connectivityOf(row.active),
    last_seen_at: isoOrNull(row.last_seen_at),
    connection_lost_at: isoOrNull(row.connection_lost_at),
    version: row.version,
    hostname: row.hostname,
    facts,
    low_disk: isLowDisk(facts),
    update_available: update,
    update_requested: update && row.update_requested_at !== null,
    labels: row.labels,
    effective_labels: effectiveLabels(row),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
};

const duplicateName = () =>
  new AppError('conflict', [{ field: 'name', message: 'duplicate_agent_name' }]);
const unknownVm = () => invalidField('rota_vms_id', 'vm_not_found');

/** Name clashes answer 409; a VM deleted between our check and the write answers like an unknown one. */
function translateWriteError(error: unknown): unknown {
  if (isUniqueViolation(error)) return duplicateName();
  if (isForeignKeyViolation(error)) return unknownVm();
  return error;
}

export class AgentService {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly vms: VmService,
    /**
     * Called after an agent's identity changed (token, VM) or it was deleted: every instance
     * drops what it cached of it, so the old token stops working at its next call.
     */
    private readonly onIdentityChanged: (agentId: number) => void = () => {},
    /** The agent version this server ships (null: none), for `update_available`. */
    private readonly shippedVersion: () => Promise<string | null> = () => Promise.resolve(null),
  ) {}

  async list(scope: TenantScope, query: AgentListQuery): Promise<ListResponse<Agent>> {
    const shipped = await this.shippedVersion();
    return listAgents(this.db, scope, query, (row) => toAgent(row, shipped));
  }

  /** How many agents the client has, and how many are active now (the dashboard). */
  count(scope: TenantScope): Promise<{ active: number; total: number }> {
    return countAgents(this.db, scope);
  }

  show(scope: TenantScope, id: number): Promise<Agent> {
    return this.showIn(this.db, scope, id);
  }

  /** The only answer that carries the token: it is stored as its SHA-256 alone. */
  async create(
    scope: TenantScope,
    input: AgentCreate,
    author: AuditAuthor,
  ): Promise<AgentWithToken> {
    await this.assertVm(scope, input.rota_vms_id);
    const token = generateToken();
    try {
      const agent = await this.audit.recorded<Agent>(
        author,
        auditOf.created('agent', (created) => created.rota_nodes_id),
        async (tx) => {
          const id = await insertAgent(tx, scope, { ...input, token_hash: hashToken(token) });
          return this.showIn(tx, scope, id);
        },
      );
      return { ...agent, token };
    } catch (error) {
      throw translateWriteError(error);
    }
  }

  async update(
    scope: TenantScope,
    { id, ...changes }: AgentUpdate,
    author: AuditAuthor,
  ): Promise<void> {
    if (changes.rota_vms_id !== undefined) await this.assertVm(scope, changes.rota_vms_id);
    try {
      await this.audit.recorded(
        author,
        auditOf.changed('agent', id, (tx) => this.showIn(tx, scope, id)),
        async (tx) => {
          if (!(await updateAgent(tx, scope, id, changes))) throw notFound();
        },
      );
    } catch (error) {
      throw translateWriteError(error);
    }
    this.onIdentityChanged(id);
  }

  /**
   * A new token. The old one is retired, not dropped: it keeps serving the runs the agent has
   * already claimed (heartbeats, logs, results) so they finish, and never claims again.
   */
  async rotateToken(scope: TenantScope, id: number, author: AuditAuthor): Promise<string> {
    const token = generateToken();
    await this.audit.recorded(
      author,
      auditOf.changed('agent', id, (tx) => this.showIn(tx, scope, id), 'rotate_token'),
      async (tx) => {
        if (!(await replaceAgentToken(tx, scope, id, hashToken(token)))) throw notFound();
      },
    );
    this.onIdentityChanged(id);
    return token;
  }

  async remove(scope: TenantScope, id: number, author: AuditAuthor): Promise<void> {
    await this.audit.recorded(
      author,
      auditOf.deleted('agent', id, (tx) => this.showIn(tx, scope, id)),
      async (tx) => {
        if (!(await deleteAgent(tx, scope, id))) throw notFound();
      },
    );
    this.onIdentityChanged(id);
  }

  private async showIn(db: Db, scope: TenantScope, id: number): Promise<Agent> {
    const row = await findAgent(db, scope, id);
    if (!row) throw notFound();
    return toAgent(row, await this.shippedVersion());
  }

  private async assertVm(scope: TenantScope, vmId: number) {
    if (!(await this.vms.exists(scope, vmId))) throw unknownVm();
  }
}
