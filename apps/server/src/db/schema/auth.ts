import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

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
    /** Stamped at most once a minute by the requests the session makes. */
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    /** How the session was opened: password, password+totp, recovery code or oidc. */
    method: text('method').notNull().default('password'),
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

/**
 * Sign-in throttles (migration 0012): per account-and-address pair, per account and the
 * account's slow lane. A row counts failures (and attempts in flight) and bars the key until
 * `blocked_until`; claimed and counted by one statement, so concurrent attempts cannot overrun it.
 */
export const signInThrottles = pgTable(
  'sign_in_throttles',
  {
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    last_failure_at: timestamp('last_failure_at', { withTimezone: true }).notNull(),
    blocked_until: timestamp('blocked_until', { withTimezone: true }),
  },
  (t) => [index('sign_in_throttles_last_failure_idx').on(t.last_failure_at)],
);

/** Recovery requests waiting to be mailed: the request path only adds a row. */
export const recoveryOutbox = pgTable(
  'recovery_outbox',
  {
    recovery_outbox_id: integer('recovery_outbox_id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    lang: text('lang').notNull(),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    created_at: createdAt(),
  },
  (t) => [index('recovery_outbox_next_attempt_idx').on(t.next_attempt_at)],
);

/**
 * Browsers that completed a sign-in (OWASP's device cookies): only the token's SHA-256 is kept.
 * A valid one lets its owner past the throttles other addresses' failures raise; forgotten after
 * DEVICE_COOKIE_DAYS unused.
 */
export const signInDevices = pgTable(
  'sign_in_devices',
  {
    sign_in_devices_id: integer('sign_in_devices_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    last_used_at: timestamp('last_used_at', { withTimezone: true }).notNull(),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('sign_in_devices_token_hash_key').on(t.token_hash),
    index('sign_in_devices_user_idx').on(t.users_id),
  ],
);
