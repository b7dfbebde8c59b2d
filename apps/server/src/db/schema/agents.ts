import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';
import { users } from './users.js';
import { rotaVms } from './vms.js';

/** Agents; the API calls them nodes. Only the SHA-256 of the token is kept. */
export const rotaNodes = pgTable(
  'rota_nodes',
  {
    rota_nodes_id: integer('rota_nodes_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    rota_vms_id: integer('rota_vms_id')
      .notNull()
      .references(() => rotaVms.rota_vms_id, { onDelete: 'restrict' }),
    token_hash: text('token_hash').notNull(),
    /**
     * The token a "generate new token" replaced: still good for the runs it had already claimed
     * (heartbeats, logs, results), never for a new claim.
     */
    retired_token_hash: text('retired_token_hash'),
    last_seen_at: timestamp('last_seen_at', { withTimezone: true }),
    version: text('version'),
    hostname: text('hostname'),
    os: text('os'),
    /** Connectivity last announced to the console; flips drive live `agent` events. */
    online: boolean('online').notNull().default(false),
    /**
     * The agent's last clean stop (goodbye), by the clock of the instance it said it to. A
     * presence flush leaves alone an agent signed off since its heartbeats began to be
     * gathered, whichever instance heard them.
     */
    signed_off_at: timestamp('signed_off_at', { withTimezone: true }),
    /**
     * When its stream closed without a goodbye (the machine or its network died), by the clock
     * of the instance that saw it; cleared when the agent is heard again. Connectivity keeps
     * its heartbeat window: this says the connection is gone before the window does.
     */
    connection_lost_at: timestamp('connection_lost_at', { withTimezone: true }),
    /**
     * What the machine said of itself in its last hello (OS version, architecture, CPUs, memory,
     * free disk, mode), as the contract's agent facts; null until an agent that sends them says
     * hello. Written on hello only, never by a heartbeat.
     */
    facts: jsonb('facts').$type<Record<string, unknown>>(),
    /**
     * When someone asked this agent to update itself (console or API); cleared by a hello that
     * says the shipped version, or any version an update is no longer available for.
     */
    update_requested_at: timestamp('update_requested_at', { withTimezone: true }),
    /** Labels an administrator set in the console (sorted, each once). */
    labels: text('labels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * What its last hello made it carry: the labels it declared and its OS and architecture
     * (sorted, each once). Written whole by every hello, like `facts`.
     */
    hello_labels: text('hello_labels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * The user an attended agent serves (its hello's `attended_user`): it takes only the runs
     * that user started as attended runs. Null: an unattended agent.
     */
    attended_users_id: integer('attended_users_id').references(() => users.users_id, {
      onDelete: 'set null',
    }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_nodes_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    uniqueIndex('rota_nodes_token_hash_key').on(t.token_hash),
    uniqueIndex('rota_nodes_retired_token_hash_key')
      .on(t.retired_token_hash)
      .where(sql`${t.retired_token_hash} is not null`),
    index('rota_nodes_vm_idx').on(t.rota_vms_id),
    index('rota_nodes_client_name_idx').on(t.rota_clients_id, t.name),
    // Not on last_seen_at: every heartbeat writes it, and an index on it would keep those writes
    // from being HOT updates. `online` flips rarely; the filters recheck last_seen_at.
    index('rota_nodes_client_online_idx').on(t.rota_clients_id, t.online),
    index('rota_nodes_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
  ],
);
