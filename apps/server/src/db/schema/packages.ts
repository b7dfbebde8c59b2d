import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';

/**
 * A client's package feed: a named package whose versions (rota_robot_versions) any of the
 * client's robots may run. A Git source, when set, is where versions can be imported from; its
 * password (for http(s) URLs) is sealed (SecretBox) and never answered.
 */
export const rotaPackages = pgTable(
  'rota_packages',
  {
    rota_packages_id: integer('rota_packages_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    description: text('description'),
    git_url: text('git_url'),
    git_path: text('git_path'),
    git_username: text('git_username'),
    git_password_sealed: text('git_password_sealed'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_packages_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    index('rota_packages_client_name_idx').on(t.rota_clients_id, t.name),
  ],
);

/** Ed25519 public keys a client trusts to sign its packages (SPKI PEM). */
export const rotaPackageKeys = pgTable(
  'rota_package_keys',
  {
    rota_package_keys_id: integer('rota_package_keys_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    public_key: text('public_key').notNull(),
    /** Hex SHA-256 of the key's DER (SPKI) bytes: what a signature names its key by. */
    fingerprint: text('fingerprint').notNull(),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('rota_package_keys_client_fingerprint_key').on(t.rota_clients_id, t.fingerprint),
  ],
);
