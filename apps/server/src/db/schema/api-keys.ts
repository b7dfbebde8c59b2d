import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { tenant } from './clients.js';
import { users } from './users.js';

/**
 * A user's personal API key for one client (only the SHA-256 is kept). `permissions` null: all
 * the user holds there, at each use; otherwise those of them the user still holds.
 */
export const userApiKeys = pgTable(
  'user_api_keys',
  {
    user_api_keys_id: integer('user_api_keys_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    key_hash: text('key_hash').notNull(),
    key_hint: text('key_hint').notNull(),
    permissions: text('permissions').array(),
    expires_at: timestamp('expires_at', { withTimezone: true }),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('user_api_keys_key_hash_key').on(t.key_hash),
    index('user_api_keys_user_idx').on(t.users_id, t.rota_clients_id),
    index('user_api_keys_client_idx').on(t.rota_clients_id),
  ],
);
