import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

/** A client is a tenant: every tenant-owned row carries its `rota_clients_id`. */
export const rotaClients = pgTable(
  'rota_clients',
  {
    rota_clients_id: integer('rota_clients_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** Executions (with their logs and artifacts) older than this many days are pruned. */
    retention_days: integer('retention_days').notNull().default(90),
    /** Audit records older than this many days are pruned. */
    audit_retention_days: integer('audit_retention_days').notNull().default(365),
    /** Members must sign in with a second factor; un-enrolled members enrol first. */
    require_mfa: boolean('require_mfa').notNull().default(false),
    /** Its agents update themselves to the build the server ships, without being asked one by one. */
    auto_update_agents: boolean('auto_update_agents').notNull().default(false),
    /** Versions must carry a valid Ed25519 signature by one of its trusted package keys. */
    require_signed_packages: boolean('require_signed_packages').notNull().default(false),
    /** A new version is proposed until a second user with ROBOS.APPROVE approves it. */
    require_package_approval: boolean('require_package_approval').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('rota_clients_name_key').on(sql`lower(${t.name})`)],
);

/** Every tenant-owned row carries its client's id; the client's removal takes the row along. */
export const tenant = () =>
  integer('rota_clients_id')
    .notNull()
    .references(() => rotaClients.rota_clients_id, { onDelete: 'cascade' });
