import { sql } from 'drizzle-orm';
import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { rotaClients } from './clients.js';

/** A named permission set inside one client. */
export const profiles = pgTable(
  'profiles',
  {
    profiles_id: integer('profiles_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: integer('rota_clients_id')
      .notNull()
      .references(() => rotaClients.rota_clients_id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('profiles_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`)],
);
