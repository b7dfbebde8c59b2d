import { AGENT_ACTIVE_WINDOW_SECONDS, type Connectivity } from '@rota/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * An agent is active while its last heartbeat is under AGENT_ACTIVE_WINDOW_SECONDS old.
 * The database clock decides, so every server instance and the heartbeat writes
 * agree on "now"; never seen counts as inactive (false, not null, so `not` works on it).
 * `lastSeen` is the agent's `last_seen_at`: the table's column in this module's repository,
 * `agentSummaries.last_seen_at` (views.ts) elsewhere.
 */
export const agentIsActive = (lastSeen: AnyPgColumn): SQL<boolean> =>
  sql<boolean>`coalesce(${lastSeen} > now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS}), false)`;

/**
 * The same rule as filters, written so the index on (rota_clients_id, online) serves them when
 * `online` is given: `coalesce(...)` above would hide the columns from the planner. Same meaning:
 * `online` is true whenever last seen is inside the window, since every write of `last_seen_at`
 * sets `online` and `online` only turns false once last seen is at the window's edge or older
 * (markQuietOffline, markSignedOff). `lastSeen` alone: the rule on `last_seen_at` only.
 */
export const agentIsActiveFilter = (lastSeen: AnyPgColumn, online?: AnyPgColumn): SQL =>
  online
    ? sql`(${online} and ${lastSeen} > now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS}))`
    : sql`${lastSeen} > now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS})`;
export const agentIsInactiveFilter = (lastSeen: AnyPgColumn, online?: AnyPgColumn): SQL =>
  online
    ? sql`(not ${online} or ${lastSeen} is null or ${lastSeen} <= now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS}))`
    : sql`(${lastSeen} is null or ${lastSeen} <= now() - make_interval(secs => ${AGENT_ACTIVE_WINDOW_SECONDS}))`;

export const connectivityOf = (active: boolean): Connectivity => (active ? 'active' : 'inactive');
