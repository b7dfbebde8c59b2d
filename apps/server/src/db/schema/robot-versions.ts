import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { tenant } from './clients.js';
import { rotaPackageKeys, rotaPackages } from './packages.js';
import { rotaRobots } from './robots.js';
import { users } from './users.js';

export const rotaRobotVersions = pgTable(
  'rota_robot_versions',
  {
    rota_robot_versions_id: integer('rota_robot_versions_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_packages_id: integer('rota_packages_id')
      .notNull()
      .references((): AnyPgColumn => rotaPackages.rota_packages_id, { onDelete: 'cascade' }),
    /** The robot it was uploaded through (the per-robot short path); null from the feed. */
    rota_robots_id: integer('rota_robots_id').references(
      (): AnyPgColumn => rotaRobots.rota_robots_id,
      { onDelete: 'set null' },
    ),
    version: text('version').notNull(),
    notes: text('notes'),
    file_name: text('file_name').notNull(),
    format: text('format').notNull(),
    /** Hex SHA-256 of the package; the file lives at DATA_DIR/packages/<sha256>. */
    sha256: text('sha256').notNull(),
    size_bytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    created_by: integer('created_by').references(() => users.users_id, { onDelete: 'set null' }),
    /** Base64 Ed25519 signature over the package's SHA-256 (hex, as text); null: unsigned. */
    signature: text('signature'),
    rota_package_keys_id: integer('rota_package_keys_id').references(
      () => rotaPackageKeys.rota_package_keys_id,
      { onDelete: 'set null' },
    ),
    /** `approved` (runnable) or `proposed` (waiting for a second user's approval). */
    status: text('status').notNull().default('approved'),
    approved_by: integer('approved_by').references(() => users.users_id, { onDelete: 'set null' }),
    approved_at: timestamp('approved_at', { withTimezone: true }),
    /** Where an imported version came from: the ref asked for and the commit it named. */
    git_ref: text('git_ref'),
    git_commit: text('git_commit'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('rota_robot_versions_package_version_key').on(
      t.rota_packages_id,
      sql`lower(${t.version})`,
    ),
    index('rota_robot_versions_package_created_idx').on(t.rota_packages_id, t.created_at),
    index('rota_robot_versions_sha256_idx').on(t.sha256),
    index('rota_robot_versions_robot_created_idx').on(t.rota_robots_id, t.created_at),
  ],
);
