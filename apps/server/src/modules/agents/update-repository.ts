import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaNodes } from '../../db/schema/agents.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { clientAgentUpdatePolicies } from '../clients/views.js';

const updateColumns = {
  rota_nodes_id: rotaNodes.rota_nodes_id,
  version: rotaNodes.version,
  os: rotaNodes.os,
  facts: rotaNodes.facts,
  update_requested_at: rotaNodes.update_requested_at,
};

/** One agent's last hello, whether it was asked to update, and its client's policy. */
export async function findUpdateState(db: Db, agentId: number) {
  const [row] = await db
    .select({ ...updateColumns, auto_update: clientAgentUpdatePolicies.auto_update_agents })
    .from(rotaNodes)
    .innerJoin(
      clientAgentUpdatePolicies,
      eq(clientAgentUpdatePolicies.rota_clients_id, rotaNodes.rota_clients_id),
    )
    .where(eq(rotaNodes.rota_nodes_id, agentId));
  return row;
}

export type UpdateTarget = { ids: number[] } | { rota_vms_id: number } | { all: true };

/** The client's agents a request names (ids of another client are simply not among them). */
export function findUpdateCandidates(db: Db, scope: TenantScope, target: UpdateTarget) {
  const filter =
    'ids' in target
      ? inArray(rotaNodes.rota_nodes_id, target.ids)
      : 'rota_vms_id' in target
        ? eq(rotaNodes.rota_vms_id, target.rota_vms_id)
        : undefined;
  return db.select(updateColumns).from(rotaNodes).where(scope.where(rotaNodes, filter));
}

export async function markUpdateRequested(db: Db, scope: TenantScope, ids: number[]) {
  if (ids.length === 0) return;
  await db
    .update(rotaNodes)
    .set({ update_requested_at: sql`now()` })
    .where(scope.where(rotaNodes, inArray(rotaNodes.rota_nodes_id, ids)));
}

/** The agent is where it was asked to go (or can no longer go): the request is over. */
export async function clearUpdateRequested(db: Db, agentId: number) {
  await db
    .update(rotaNodes)
    .set({ update_requested_at: null })
    .where(and(eq(rotaNodes.rota_nodes_id, agentId), isNotNull(rotaNodes.update_requested_at)));
}
