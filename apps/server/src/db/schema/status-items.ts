import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';

/** How each execution status reads on the dashboard; one row per status and client. */
export const rotaStatusItems = pgTable(
  'rota_status_items',
  {
    rota_status_items_id: integer('rota_status_items_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    status: text('status').notNull(),
    category: text('category').notNull(),
    /** Null: the console shows the status's own translated name. */
    label: text('label'),
    color: text('color').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('rota_status_items_client_status_key').on(t.rota_clients_id, t.status)],
);
