import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

/** A user's TOTP second factor: the secret sealed with SecretBox; enabled once confirmed. */
export const userMfa = pgTable('user_mfa', {
  users_id: integer('users_id')
    .primaryKey()
    .references(() => users.users_id, { onDelete: 'cascade' }),
  secret_sealed: text('secret_sealed').notNull(),
  /** Null while enrolment waits for its first code. */
  enabled_at: timestamp('enabled_at', { withTimezone: true }),
  /** The last accepted time step, so one code is never accepted twice. */
  last_step: bigint('last_step', { mode: 'number' }),
  created_at: createdAt(),
});

/** Single-use recovery codes of a second factor; only their SHA-256 is kept. */
export const userMfaRecoveryCodes = pgTable(
  'user_mfa_recovery_codes',
  {
    user_mfa_recovery_codes_id: integer('user_mfa_recovery_codes_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    code_hash: text('code_hash').notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('user_mfa_recovery_codes_hash_key').on(t.users_id, t.code_hash)],
);

/** A password accepted, a second factor awaited: short-lived, single-use; only the SHA-256 is kept. */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    mfa_challenges_id: integer('mfa_challenges_id').primaryKey().generatedAlwaysAsIdentity(),
    users_id: integer('users_id')
      .notNull()
      .references(() => users.users_id, { onDelete: 'cascade' }),
    challenge_hash: text('challenge_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    failures: integer('failures').notNull().default(0),
    used_at: timestamp('used_at', { withTimezone: true }),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('mfa_challenges_hash_key').on(t.challenge_hash),
    index('mfa_challenges_user_idx').on(t.users_id),
  ],
);
