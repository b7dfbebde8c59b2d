import { index, integer, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { rotaClients } from './clients.js';
import { profiles } from './profiles.js';
import { users } from './users.js';

/** Membership: a user works for a client with one profile there. */
export const userClients = pgTable(
  'user_clients',
  {
    user_clients_id: integer('user_clients_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    rota_clients_id: integer('rota_clients_id')
      .notNull()
      .references(() => rotaClients.rota_clients_id, { onDelete: 'cascade' }),
    profiles_id: integer('profiles_id')
      .notNull()
      .references(() => profiles.profiles_id, { onDelete: 'restrict' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('user_clients_user_client_key').on(t.users_id, t.rota_clients_id),
    index('user_clients_client_idx').on(t.rota_clients_id),
    index('user_clients_profile_idx').on(t.profiles_id),
  ],
);
