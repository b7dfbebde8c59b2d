import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { rotaClients } from './clients.js';

export const users = pgTable(
  'users',
  {
    users_id: integer('users_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    last_name: text('last_name').notNull().default(''),
    /** Stored lower-case; unique. */
    email: text('email').notNull(),
    /** The access identifier typed at sign-in; stored lower-case; unique. */
    access: text('access').notNull(),
    password_hash: text('password_hash').notNull(),
    group: text('group'),
    sector: text('sector'),
    work: text('work'),
    role: text('role'),
    avatar: text('avatar'),
    password_change_required: boolean('password_change_required').notNull().default(false),
    /** Platform administrators manage clients; the seeded admin is one. */
    /** The console's language and colour scheme, kept so they follow the user. */
    language: text('language'),
    color_scheme: text('color_scheme'),
    is_platform_admin: boolean('is_platform_admin').notNull().default(false),
    rota_clients_id_selected: integer('rota_clients_id_selected').references(
      () => rotaClients.rota_clients_id,
      { onDelete: 'set null' },
    ),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_access_key').on(t.access)],
);

/** Requests sent from /login/request-access; reviewed by platform administrators. */
export const accessRequests = pgTable(
  'access_requests',
  {
    access_requests_id: integer('access_requests_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    client_name: text('client_name').notNull(),
    message: text('message'),
    status: text('status').notNull().default('pending'),
    ip: text('ip'),
    created_at: createdAt(),
  },
  (t) => [index('access_requests_status_idx').on(t.status, t.created_at)],
);
