import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';

export const rotaParameters = pgTable(
  'rota_parameters',
  {
    rota_parameters_id: integer('rota_parameters_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    value: text('value'),
    /** AES-256-GCM sealed (lib/secret-box.ts); never answered. */
    password_sealed: text('password_sealed'),
    description: text('description'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_parameters_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    index('rota_parameters_client_name_idx').on(t.rota_clients_id, t.name),
    index('rota_parameters_client_updated_idx').on(t.rota_clients_id, t.updated_at),
    index('rota_parameters_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    index('rota_parameters_description_trgm').using('gin', t.description.op('gin_trgm_ops')),
  ],
);
