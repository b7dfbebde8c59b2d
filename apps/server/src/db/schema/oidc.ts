import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { rotaClients } from './clients.js';
import { profiles } from './profiles.js';
import { users } from './users.js';

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
    /**
     * E-mail domains (lower-case, exact) whose verified addresses link an identity in this group
     * to the existing account with that address; empty: never automatically.
     */
    auto_link_domains: text('auto_link_domains')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('oidc_mappings_claim_client_key').on(t.claim_value, t.rota_clients_id),
    index('oidc_mappings_client_idx').on(t.rota_clients_id),
  ],
);

/**
 * An identity of the provider (`iss` + `sub`) linked to one account: how single sign-on finds
 * who signs in. One identity per account. `issuer` is '' for a link made before issuers were
 * recorded: the first sign-in through the configured provider claims it.
 */
export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    oidc_identities_id: integer('oidc_identities_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('oidc_identities_issuer_subject_key').on(t.issuer, t.subject),
    uniqueIndex('oidc_identities_user_key').on(t.users_id),
  ],
);
