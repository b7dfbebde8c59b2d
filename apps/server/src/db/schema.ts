import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A client is a tenant (SPEC §3 `rota_clients_id`). */
export const rotaClients = pgTable(
  'rota_clients',
  {
    rota_clients_id: integer('rota_clients_id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('rota_clients_name_key').on(sql`lower(${t.name})`)],
);

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
    /** Platform administrators manage clients (issue 5); the seeded admin is one. */
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

/** A named permission set inside one client (DESIGN §5). */
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

/** Sign-in sessions; only the SHA-256 of the bearer token is kept. */
export const sessions = pgTable(
  'sessions',
  {
    sessions_id: integer('sessions_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.token_hash),
    index('sessions_user_idx').on(t.users_id),
  ],
);

/** Single-use password recovery codes; only their SHA-256 is kept. */
export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    password_reset_codes_id: integer('password_reset_codes_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('password_reset_codes_code_hash_key').on(t.code_hash),
    index('password_reset_codes_user_idx').on(t.users_id),
  ],
);

/** Fixed-window counters shared by every server instance (sign-in and recovery throttles). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  window_start: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/** Requests sent from /login/request-access (DESIGN §8); reviewed by platform administrators. */
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
