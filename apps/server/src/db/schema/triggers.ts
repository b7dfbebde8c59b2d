import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';
import { rotaRobots } from './robots.js';
import { users } from './users.js';

/** A robot's run trigger: another system fires it with its token (only the SHA-256 is kept). */
export const rotaTriggers = pgTable(
  'rota_triggers',
  {
    rota_triggers_id: integer('rota_triggers_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references(() => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    token_hash: text('token_hash').notNull(),
    /** The token's last four characters, to tell tokens apart in the console. */
    token_hint: text('token_hint').notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    last_fired_at: timestamp('last_fired_at', { withTimezone: true }),
    created_by: integer('created_by').references(() => users.users_id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_triggers_token_hash_key').on(t.token_hash),
    uniqueIndex('rota_triggers_robot_name_key').on(t.rota_robots_id, sql`lower(${t.name})`),
    index('rota_triggers_client_idx').on(t.rota_clients_id, t.rota_robots_id),
  ],
);

/** A fire's answer by its `Idempotency-Key`, kept 24 hours: the same key answers it again. */
export const rotaTriggerFires = pgTable(
  'rota_trigger_fires',
  {
    rota_triggers_id: integer('rota_triggers_id')
      .notNull()
      .references(() => rotaTriggers.rota_triggers_id, { onDelete: 'cascade' }),
    idempotency_key: text('idempotency_key').notNull(),
    response: jsonb('response').$type<Record<string, unknown>>().notNull(),
    created_at: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.rota_triggers_id, t.idempotency_key] }),
    index('rota_trigger_fires_created_idx').on(t.created_at),
  ],
);
