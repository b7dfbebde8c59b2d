import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { tenant } from './clients.js';
import { rotaNodes } from './agents.js';
import { rotaRobotVersions } from './robot-versions.js';
import { rotaRobots } from './robots.js';
import { rotaSchedulings } from './schedulings.js';
import { users } from './users.js';
import { rotaVms } from './vms.js';

/** One run of a robot; retried attempts stay on the same execution. */
export const rotaExecutions = pgTable(
  'rota_executions',
  {
    rota_executions_id: integer('rota_executions_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references((): AnyPgColumn => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    rota_schedulings_id: integer('rota_schedulings_id').references(
      () => rotaSchedulings.rota_schedulings_id,
      { onDelete: 'set null' },
    ),
    /** VMs allowed to run it; null: any VM of the client. */
    vm_ids: integer('vm_ids').array(),
    /** The VM of the latest attempt. */
    rota_vms_id: integer('rota_vms_id').references(() => rotaVms.rota_vms_id, {
      onDelete: 'set null',
    }),
    rota_nodes_id: integer('rota_nodes_id').references(() => rotaNodes.rota_nodes_id, {
      onDelete: 'set null',
    }),
    rota_robot_versions_id: integer('rota_robot_versions_id').references(
      () => rotaRobotVersions.rota_robot_versions_id,
      { onDelete: 'set null' },
    ),
    status: text('status').notNull().default('queued'),
    trigger: text('trigger').notNull(),
    priority: integer('priority').notNull(),
    /** Seconds (the API speaks minutes; seconds let tests and future settings be finer). */
    timeout_seconds: integer('timeout_seconds').notNull(),
    retries: integer('retries').notNull().default(0),
    sleep_seconds: integer('sleep_seconds').notNull().default(0),
    /**
     * What an agent must carry to claim it (sorted, each once): the robot's required labels and
     * its scheduling's or Run now's, fixed when it was queued.
     */
    labels: text('labels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * An attended run: only an agent attended by this user takes it (and such an agent takes
     * nothing else). Null: any unattended agent may.
     */
    attended_by: integer('attended_by').references(() => users.users_id, { onDelete: 'set null' }),
    attempts: integer('attempts').notNull().default(0),
    exit_code: integer('exit_code'),
    message: text('message'),
    /** `message` as a code of the run-message catalogue and its values, shown in the user's language. */
    message_code: text('message_code'),
    message_params: jsonb('message_params').$type<Record<string, string | number>>(),
    queued_at: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    started_at: timestamp('started_at', { withTimezone: true }),
    ended_at: timestamp('ended_at', { withTimezone: true }),
    lease_expires_at: timestamp('lease_expires_at', { withTimezone: true }),
    cancel_requested_at: timestamp('cancel_requested_at', { withTimezone: true }),
    /**
     * A stop asked with a grace: the robot gets SIGTERM and this many seconds before its tree is
     * killed; null with `cancel_requested_at` set is a kill now.
     */
    stop_grace_seconds: integer('stop_grace_seconds'),
    /** What the robot last said of its progress (robot API `progress`). */
    progress_percent: integer('progress_percent'),
    progress_message: text('progress_message'),
    /** The later of its last log line and its last progress call (since the attempt started). */
    last_activity_at: timestamp('last_activity_at', { withTimezone: true }),
    /** Processing with no activity for its robot's `stall_minutes`; cleared when activity resumes. */
    stalled: boolean('stalled').notNull().default(false),
    /**
     * Its agent's stream closed without a goodbye while it ran: the run waits for the agent to
     * come back within its lease. If it does not, the attempt ends at this moment, not at the
     * lease's end, so its duration leaves the wait out. Cleared when the attempt ends or the
     * agent is heard again.
     */
    connection_lost_at: timestamp('connection_lost_at', { withTimezone: true }),
    /** SHA-256 of the robot API token of the current attempt; cleared when it ends. */
    run_token_hash: text('run_token_hash'),
    created_by: integer('created_by').references(() => users.users_id, { onDelete: 'set null' }),
  },
  (t) => [
    // The claim order (priority first, then the oldest), only over what waits.
    index('rota_executions_claim_idx')
      .on(t.rota_clients_id, t.priority.desc(), t.queued_at, t.rota_executions_id)
      .where(sql`${t.status} = 'queued'`),
    index('rota_executions_lease_idx')
      .on(t.lease_expires_at)
      .where(sql`${t.status} = 'processing'`),
    index('rota_executions_client_queued_idx').on(t.rota_clients_id, t.queued_at),
    index('rota_executions_robot_queued_idx').on(t.rota_robots_id, t.queued_at),
    index('rota_executions_node_idx')
      .on(t.rota_nodes_id)
      .where(sql`${t.status} = 'processing'`),
    index('rota_executions_scheduling_idx').on(t.rota_schedulings_id, t.status),
    // Retention prunes by age, a client at a time.
    index('rota_executions_client_ended_idx')
      .on(t.rota_clients_id, t.ended_at)
      .where(sql`${t.ended_at} is not null`),
    uniqueIndex('rota_executions_run_token_key').on(t.run_token_hash),
  ],
);

export const rotaExecutionAttempts = pgTable(
  'rota_execution_attempts',
  {
    rota_execution_attempts_id: integer('rota_execution_attempts_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_executions_id: integer('rota_executions_id')
      .notNull()
      .references(() => rotaExecutions.rota_executions_id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    rota_nodes_id: integer('rota_nodes_id').references(() => rotaNodes.rota_nodes_id, {
      onDelete: 'set null',
    }),
    rota_vms_id: integer('rota_vms_id').references(() => rotaVms.rota_vms_id, {
      onDelete: 'set null',
    }),
    status: text('status').notNull().default('processing'),
    exit_code: integer('exit_code'),
    message: text('message'),
    message_code: text('message_code'),
    message_params: jsonb('message_params').$type<Record<string, string | number>>(),
    started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    ended_at: timestamp('ended_at', { withTimezone: true }),
    /** The attempt's robot API token (its fencing credential): a stale one is told apart. */
    run_token_hash: text('run_token_hash'),
    /** `agent` (its result), `server` (lease lost, agent stopped): a later result is late. */
    ended_by: text('ended_by'),
    /** A result the agent delivered after the server had settled the attempt: kept, not applied. */
    late_status: text('late_status'),
    late_exit_code: integer('late_exit_code'),
    late_message: text('late_message'),
    late_reported_at: timestamp('late_reported_at', { withTimezone: true }),
    /** Robot API calls refused because this attempt was no longer current. */
    refused_calls: integer('refused_calls').notNull().default(0),
  },
  (t) => [
    uniqueIndex('rota_execution_attempts_key').on(t.rota_executions_id, t.attempt),
    uniqueIndex('rota_execution_attempts_run_token_key').on(t.run_token_hash),
  ],
);

export const rotaExecutionLogs = pgTable(
  'rota_execution_logs',
  {
    rota_execution_logs_id: bigint('rota_execution_logs_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_executions_id: integer('rota_executions_id')
      .notNull()
      .references(() => rotaExecutions.rota_executions_id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    seq: integer('seq').notNull(),
    stream: text('stream').notNull(),
    line: text('line').notNull(),
    /** A system line as a code of the run-message catalogue and its values. */
    code: text('code'),
    params: jsonb('params').$type<Record<string, string | number>>(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('rota_execution_logs_key').on(t.rota_executions_id, t.attempt, t.seq),
    index('rota_execution_logs_tail_idx').on(t.rota_executions_id, t.rota_execution_logs_id),
  ],
);
