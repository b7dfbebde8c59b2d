import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';
import { rotaExecutions } from './executions.js';
import { rotaRobots } from './robots.js';

export const rotaTasks = pgTable(
  'rota_tasks',
  {
    rota_tasks_id: integer('rota_tasks_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references(() => rotaRobots.rota_robots_id, { onDelete: 'cascade' }),
    label: text('label'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    priority: integer('priority').notNull().default(50),
    expiration_date: timestamp('expiration_date', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('pending'),
    business_error: text('business_error'),
    attempts: integer('attempts').notNull().default(0),
    /** When the task should be finished (its SLA); null: none. */
    deadline: timestamp('deadline', { withTimezone: true }),
    /** Not handed out before this instant. */
    postpone_until: timestamp('postpone_until', { withTimezone: true }),
    /** When it reached a final status (success, business or application error, expired). */
    finished_at: timestamp('finished_at', { withTimezone: true }),
    /**
     * The SLA state last announced as a live event (`at_risk`, `breached`), so each transition
     * is announced once across instances; null: none yet, or the deadline changed since.
     */
    sla_announced: text('sla_announced'),
    /** The run holding the task while it is `processing`. */
    rota_executions_id: integer('rota_executions_id').references(
      (): AnyPgColumn => rotaExecutions.rota_executions_id,
      { onDelete: 'set null' },
    ),
    /**
     * The attended run this task was created with (a person's own data for their run): only that
     * run takes it while the run is queued or processing; once the run is final, any run may.
     */
    reserved_for: integer('reserved_for').references(
      (): AnyPgColumn => rotaExecutions.rota_executions_id,
      { onDelete: 'set null' },
    ),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('rota_tasks_execution_idx').on(t.rota_executions_id),
    index('rota_tasks_reserved_idx')
      .on(t.reserved_for)
      .where(sql`${t.reserved_for} is not null`),
    index('rota_tasks_pending_expiry_idx')
      .on(t.expiration_date)
      .where(sql`${t.status} = 'pending'`),
    index('rota_tasks_client_created_idx').on(t.rota_clients_id, t.created_at),
    index('rota_tasks_client_status_idx').on(t.rota_clients_id, t.status, t.created_at),
    // The order robots take their next pending task in.
    index('rota_tasks_next_idx').on(
      t.rota_robots_id,
      t.status,
      t.priority.desc(),
      t.deadline,
      t.created_at,
    ),
    // Unfinished tasks with a deadline: the SLA counts and filters read only these.
    index('rota_tasks_open_deadline_idx')
      .on(t.rota_clients_id, t.deadline)
      .where(sql`${t.status} in ('pending', 'processing') and ${t.deadline} is not null`),
    // What the engine's SLA duty reads every tick: open tasks not yet announced breached, by
    // deadline (those near it are a short range).
    index('rota_tasks_sla_watch_idx')
      .on(t.deadline)
      .where(
        sql`${t.status} in ('pending', 'processing') and ${t.deadline} is not null and ${t.sla_announced} is distinct from 'breached'`,
      ),
    index('rota_tasks_label_trgm').using('gin', t.label.op('gin_trgm_ops')),
  ],
);

/**
 * Each status a task went through and the execution that held it then, written by a
 * database trigger on every change of a task's status or holder (migration 0019).
 */
export const rotaTaskHistory = pgTable(
  'rota_task_history',
  {
    rota_task_history_id: bigint('rota_task_history_id', { mode: 'number' })
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_tasks_id: integer('rota_tasks_id')
      .notNull()
      .references(() => rotaTasks.rota_tasks_id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    /** The execution holding it, or the one that just let it go. */
    rota_executions_id: integer('rota_executions_id').references(
      () => rotaExecutions.rota_executions_id,
      { onDelete: 'set null' },
    ),
    attempts: integer('attempts').notNull(),
    business_error: text('business_error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('rota_task_history_task_idx').on(t.rota_tasks_id, t.rota_task_history_id),
    index('rota_task_history_execution_idx').on(t.rota_executions_id),
  ],
);
