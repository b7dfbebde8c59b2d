import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';
import { rotaPackages } from './packages.js';
import { rotaRobotVersions } from './robot-versions.js';

export const rotaRobots = pgTable(
  'rota_robots',
  {
    rota_robots_id: integer('rota_robots_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    description: text('description'),
    executor: text('executor').notNull(),
    remote_root: text('remote_root'),
    active: boolean('active').notNull().default(true),
    rota_robot_versions_id_current: integer('rota_robot_versions_id_current').references(
      (): AnyPgColumn => rotaRobotVersions.rota_robot_versions_id,
      { onDelete: 'set null' },
    ),
    /** The package it runs; its version is `rota_robot_versions_id_current`. */
    rota_packages_id: integer('rota_packages_id').references(
      (): AnyPgColumn => rotaPackages.rota_packages_id,
      { onDelete: 'set null' },
    ),
    /** Follows the package's newest approved version (kept in the current version on change). */
    follow_latest: boolean('follow_latest').notNull().default(false),
    /** A task created without a deadline is due this many minutes after it was created. */
    task_sla_minutes: integer('task_sla_minutes'),
    /** An unfinished task whose deadline is closer than this is at risk. */
    task_risk_minutes: integer('task_risk_minutes'),
    /** How often a task that ended in an application error goes back to pending. */
    task_retries: integer('task_retries').notNull().default(0),
    /** A processing run with no activity (log, progress) for this long is stalled. */
    stall_minutes: integer('stall_minutes'),
    /** `flag` (mark it) or `kill` (end it as an application error, retried per its retries). */
    stall_action: text('stall_action').notNull().default('flag'),
    /** Labels an agent must carry to run it (sorted, each once); empty: any agent. */
    required_labels: text('required_labels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('rota_robots_client_name_key').on(t.rota_clients_id, sql`lower(${t.name})`),
    index('rota_robots_client_created_idx').on(t.rota_clients_id, t.created_at),
    // Lists sort by name by default and search by substring (pg_trgm, migration 0002).
    index('rota_robots_client_name_idx').on(t.rota_clients_id, t.name),
    index('rota_robots_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    index('rota_robots_executor_trgm').using('gin', t.executor.op('gin_trgm_ops')),
    index('rota_robots_description_trgm').using('gin', t.description.op('gin_trgm_ops')),
    // The active/inactive filter's total: an index-only count instead of reading every robot.
    index('rota_robots_client_active_idx').on(t.rota_clients_id, t.active),
  ],
);
