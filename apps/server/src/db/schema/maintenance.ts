import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { rotaClients } from './clients.js';
import { rotaSchedulings } from './schedulings.js';
import { users } from './users.js';
import { rotaVms } from './vms.js';

/**
 * Maintenance windows: the whole cluster (no client) or one VM (its client). A window is active
 * while `ended_at` is null; at most one is active per target, so a second start is a conflict.
 */
export const rotaMaintenanceWindows = pgTable(
  'rota_maintenance_windows',
  {
    rota_maintenance_windows_id: integer('rota_maintenance_windows_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    scope: text('scope').notNull(),
    rota_clients_id: integer('rota_clients_id').references(() => rotaClients.rota_clients_id, {
      onDelete: 'cascade',
    }),
    rota_vms_id: integer('rota_vms_id').references(() => rotaVms.rota_vms_id, {
      onDelete: 'cascade',
    }),
    mode: text('mode').notNull(),
    message: text('message').notNull(),
    started_by_users_id: integer('started_by_users_id').references(() => users.users_id, {
      onDelete: 'set null',
    }),
    started_by_name: text('started_by_name').notNull(),
    started_at: timestamp('started_at', { withTimezone: true }).notNull(),
    ended_by_users_id: integer('ended_by_users_id').references(() => users.users_id, {
      onDelete: 'set null',
    }),
    ended_at: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('rota_maintenance_windows_active_key')
      .on(sql`coalesce(${t.rota_vms_id}, 0)`)
      .where(sql`${t.ended_at} is null`),
    index('rota_maintenance_windows_client_idx').on(t.rota_clients_id),
  ],
);

/** A scheduling that came due during a window and queued nothing: once per window. */
export const rotaMaintenanceSkips = pgTable(
  'rota_maintenance_skips',
  {
    rota_maintenance_skips_id: bigint('rota_maintenance_skips_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_maintenance_windows_id: integer('rota_maintenance_windows_id')
      .notNull()
      .references(() => rotaMaintenanceWindows.rota_maintenance_windows_id, {
        onDelete: 'cascade',
      }),
    rota_clients_id: integer('rota_clients_id')
      .notNull()
      .references(() => rotaClients.rota_clients_id, { onDelete: 'cascade' }),
    rota_schedulings_id: integer('rota_schedulings_id')
      .notNull()
      .references(() => rotaSchedulings.rota_schedulings_id, { onDelete: 'cascade' }),
    due_at: timestamp('due_at', { withTimezone: true }).notNull(),
    skipped_at: timestamp('skipped_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rota_maintenance_skips_window_scheduling_key').on(
      t.rota_maintenance_windows_id,
      t.rota_schedulings_id,
    ),
    index('rota_maintenance_skips_client_scheduling_idx').on(
      t.rota_clients_id,
      t.rota_schedulings_id,
    ),
  ],
);
