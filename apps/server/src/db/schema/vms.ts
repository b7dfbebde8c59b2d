import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';

export const rotaVms = pgTable(
  'rota_vms',
  {
    rota_vms_id: integer('rota_vms_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    hostname: text('hostname').notNull(),
    label: text('label'),
    os: text('os'),
    description: text('description'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_vms_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    index('rota_vms_client_name_idx').on(t.rota_clients_id, t.name),
    index('rota_vms_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    index('rota_vms_hostname_trgm').using('gin', t.hostname.op('gin_trgm_ops')),
    index('rota_vms_label_trgm').using('gin', t.label.op('gin_trgm_ops')),
    index('rota_vms_client_hostname_idx').on(t.rota_clients_id, t.hostname),
  ],
);
