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

export const connectivityOf = (active: boolean): Connectivity => (active ? 'active' : 'inactive');
