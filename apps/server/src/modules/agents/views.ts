import { QueryBuilder } from 'drizzle-orm/pg-core';
import { rotaNodes } from '../../db/schema/agents.js';

const qb = new QueryBuilder();

/** Read-only: an agent's name and presence, for lists of other modules that join on it. */
export const agentSummaries = qb
  .select({
    rota_nodes_id: rotaNodes.rota_nodes_id,
    rota_clients_id: rotaNodes.rota_clients_id,
    rota_vms_id: rotaNodes.rota_vms_id,
    name: rotaNodes.name,
    online: rotaNodes.online,
    last_seen_at: rotaNodes.last_seen_at,
    labels: rotaNodes.labels,
    hello_labels: rotaNodes.hello_labels,
    attended_users_id: rotaNodes.attended_users_id,
  })
  .from(rotaNodes)
  .as('agent_summaries');
