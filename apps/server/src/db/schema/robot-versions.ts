import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { tenant } from './clients.js';
import { rotaRobots } from './robots.js';
import { users } from './users.js';

export const rotaRobotVersions = pgTable(
  'rota_robot_versions',
  {
    rota_robot_versions_id: integer('rota_robot_versions_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references((): AnyPgColumn => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    notes: text('notes'),
    file_name: text('file_name').notNull(),
    format: text('format').notNull(),
    /** Hex SHA-256 of the package; the file lives at DATA_DIR/packages/<sha256>. */
    sha256: text('sha256').notNull(),
    size_bytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    created_by: integer('created_by').references(() => users.users_id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('rota_robot_versions_robot_version_key').on(
      t.rota_robots_id,
      sql`lower(${t.version})`,
    ),
    index('rota_robot_versions_sha256_idx').on(t.sha256),
    index('rota_robot_versions_robot_created_idx').on(t.rota_robots_id, t.created_at),
  ],
);
