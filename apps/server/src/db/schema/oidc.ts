import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { rotaClients } from './clients.js';
import { profiles } from './profiles.js';

/** OpenID Connect claim value (a group) → client membership with a profile. */
export const oidcMappings = pgTable(
  'oidc_mappings',
  {
    oidc_mappings_id: integer('oidc_mappings_id').primaryKey().generatedAlwaysAsIdentity(),
    claim_value: text('claim_value').notNull(),
    rota_clients_id: integer('rota_clients_id')
      .notNull()
      .references(() => rotaClients.rota_clients_id, { onDelete: 'cascade' }),
    profiles_id: integer('profiles_id')
      .notNull()
      .references(() => profiles.profiles_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('oidc_mappings_claim_client_key').on(t.claim_value, t.rota_clients_id),
    index('oidc_mappings_client_idx').on(t.rota_clients_id),
  ],
);
