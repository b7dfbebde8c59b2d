import { AGENT_ACTIVE_WINDOW_SECONDS, type Connectivity } from '@rota/contract';
import { sql, type SQL } from 'drizzle-orm';
import { rotaNodes } from '../../db/schema.js';

/**
 * An agent is active while its last heartbeat is under AGENT_ACTIVE_WINDOW_SECONDS old
 * (DESIGN §6). The database clock decides, so every server instance and the heartbeat writes
 * agree on "now"; never seen counts as inactive (false, not null, so `not` works on it).
 * Only usable in queries that join or name `rota_nodes` explicitly.
 */
export const agentIsActive = (): SQL<boolean> =>
  sql<boolean>`coalesce(${rotaNodes.last_seen_at} > now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS}), false)`;

/**
 * The same rule as filters, written so an index on (rota_clients_id, last_seen_at) serves them:
 * `coalesce(...)` above would hide the column from the planner.
 */
export const agentIsActiveFilter = (): SQL =>
  sql`${rotaNodes.last_seen_at} > now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS})`;
export const agentIsInactiveFilter = (): SQL =>
  sql`(${rotaNodes.last_seen_at} is null or ${rotaNodes.last_seen_at} <= now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS}))`;

export const connectivityOf = (active: boolean): Connectivity => (active ? 'active' : 'inactive');
