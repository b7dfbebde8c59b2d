import { eq, sql } from 'drizzle-orm';
import type { AgentListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaNodes } from '../../db/schema/agents.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import { listTotal } from '../../lib/row-counts.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { vmNames } from '../vms/views.js';
import { agentIsActive, agentIsActiveFilter, agentIsInactiveFilter } from './connectivity.js';

const sortable = {
  name: rotaNodes.name,
  // Never seen sorts as the oldest heartbeat, so "most recent first" does not start with them.
  last_seen_at: sql`coalesce(${rotaNodes.last_seen_at}, '-infinity'::timestamptz)`,
  created_at: rotaNodes.created_at,
} as const;

/** Explicit columns: the token hash never leaves this module's writes. */
function selectAgents(db: Db, scope: TenantScope) {
  return db
    .select({
      rota_nodes_id: rotaNodes.rota_nodes_id,
      name: rotaNodes.name,
      rota_vms_id: rotaNodes.rota_vms_id,
      rota_vms_name: vmNames.name,
      active: agentIsActive(rotaNodes.last_seen_at),
      last_seen_at: rotaNodes.last_seen_at,
      connection_lost_at: rotaNodes.connection_lost_at,
      version: rotaNodes.version,
      hostname: rotaNodes.hostname,
      os: rotaNodes.os,
      facts: rotaNodes.facts,
      update_requested_at: rotaNodes.update_requested_at,
      labels: rotaNodes.labels,
      hello_labels: rotaNodes.hello_labels,
      created_at: rotaNodes.created_at,
      updated_at: rotaNodes.updated_at,
    })
    .from(rotaNodes)
    .innerJoin(vmNames, scope.where(vmNames, eq(vmNames.rota_vms_id, rotaNodes.rota_vms_id)));
}

export type AgentRow = Awaited<ReturnType<typeof selectAgents>>[number];

export async function listAgents<R>(
  db: Db,
  scope: TenantScope,
  query: AgentListQuery,
  map: (row: AgentRow) => R,
) {
  const filters = [
    searchAny(query.search, [rotaNodes.name]),
    query.rota_vms_id === undefined ? undefined : eq(rotaNodes.rota_vms_id, query.rota_vms_id),
    query.connectivity === undefined
      ? undefined
      : query.connectivity === 'active'
        ? agentIsActiveFilter(rotaNodes.last_seen_at, rotaNodes.online)
        : agentIsInactiveFilter(rotaNodes.last_seen_at, rotaNodes.online),
  ];
  const where = scope.where(rotaNodes, ...filters);
  return pageOf(
    query,
    selectAgents(db, scope)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, rotaNodes.rota_nodes_id))
      .$dynamic(),
    // No filter beyond the client: the maintained count, not a scan of every row.
    listTotal(
      db,
      scope,
      'rota_nodes',
      { whole: filters.every((f) => f === undefined), searched: Boolean(query.search) },
      () => db.select({ total: count() }).from(rotaNodes).where(where),
    ),
    map,
  );
}

export async function findAgent(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<AgentRow | undefined> {
  const [row] = await selectAgents(db, scope).where(
    scope.where(rotaNodes, eq(rotaNodes.rota_nodes_id, id)),
  );
  return row;
}

export async function insertAgent(
  db: Db,
  scope: TenantScope,
  values: { name: string; rota_vms_id: number; token_hash: string; labels?: string[] },
) {
  const [row] = await db
    .insert(rotaNodes)
    .values(scope.stamp(values))
    .returning({ id: rotaNodes.rota_nodes_id });
  return row!.id;
}

export async function updateAgent(
  db: Db,
  scope: TenantScope,
  id: number,
  values: { name?: string; rota_vms_id?: number; token_hash?: string; labels?: string[] },
): Promise<boolean> {
  const updated = await db
    .update(rotaNodes)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(rotaNodes, eq(rotaNodes.rota_nodes_id, id)))
    .returning({ id: rotaNodes.rota_nodes_id });
  return updated.length > 0;
}

export async function deleteAgent(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(rotaNodes)
    .where(scope.where(rotaNodes, eq(rotaNodes.rota_nodes_id, id)))
    .returning({ id: rotaNodes.rota_nodes_id });
  return deleted.length > 0;
}

/** The client's agents, and how many of them are active now. */
export async function countAgents(db: Db, scope: TenantScope) {
  const [row] = await db
    .select({
      active: sql<number>`count(*) filter (where ${agentIsActiveFilter(rotaNodes.last_seen_at, rotaNodes.online)})::int`,
      total: count(),
    })
    .from(rotaNodes)
    .where(scope.where(rotaNodes));
  return row ?? { active: 0, total: 0 };
}

/**
 * A new token: the current one moves to `retired_token_hash` (replacing any older retired one),
 * so the runs the agent already holds can finish with it.
 */
export async function replaceAgentToken(
  db: Db,
  scope: TenantScope,
  id: number,
  tokenHash: string,
): Promise<boolean> {
  const updated = await db
    .update(rotaNodes)
    .set({
      retired_token_hash: sql`${rotaNodes.token_hash}`,
      token_hash: tokenHash,
      updated_at: sql`now()`,
    })
    .where(scope.where(rotaNodes, eq(rotaNodes.rota_nodes_id, id)))
    .returning({ id: rotaNodes.rota_nodes_id });
  return updated.length > 0;
}
