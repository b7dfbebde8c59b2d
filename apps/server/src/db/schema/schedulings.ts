import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { tenant } from './clients.js';
import { rotaCalendars } from './calendars.js';
import { rotaRobots } from './robots.js';
import { rotaVms } from './vms.js';

export const rotaSchedulings = pgTable(
  'rota_schedulings',
  {
    rota_schedulings_id: integer('rota_schedulings_id').primaryKey().generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    name: text('name').notNull(),
    rota_robots_id: integer('rota_robots_id')
      .notNull()
      .references(() => rotaRobots.rota_robots_id, { onDelete: 'restrict' }),
    /** `interval`, `cron` or `queue` (contract SCHEDULING_TRIGGERS). */
    trigger_type: text('trigger_type').notNull().default('interval'),
    /** Used by `interval`; kept (not read) for the other triggers. */
    interval_minutes: integer('interval_minutes').notNull(),
    /** A 5-field cron expression, for `cron`. */
    cron: text('cron'),
    /** IANA time zone `cron` is read in. */
    time_zone: text('time_zone'),
    /** `run_once` or `skip`: what a run missed while no server was up becomes. */
    missed_runs: text('missed_runs').notNull().default('run_once'),
    /** No run is queued on the calendar's excluded dates. */
    rota_calendars_id: integer('rota_calendars_id').references(
      (): AnyPgColumn => rotaCalendars.rota_calendars_id,
      { onDelete: 'restrict' },
    ),
    /** `queue`: pending due tasks that start a run, and how many runs at most at once. */
    min_pending: integer('min_pending').notNull().default(1),
    max_concurrent: integer('max_concurrent').notNull().default(1),
    timeout_minutes: integer('timeout_minutes').notNull(),
    retries: integer('retries').notNull().default(0),
    priority: integer('priority').notNull().default(50),
    sleep: integer('sleep').notNull().default(0),
    /** Labels its runs need beside the robot's required ones (sorted, each once). */
    labels: text('labels')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    active: boolean('active').notNull().default(true),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
    /**
     * When the scheduler queues its next run; moved on by whichever instance queues it. Null
     * when time never makes it due (a `queue` trigger, a cron without a next occurrence).
     */
    next_run_at: timestamp('next_run_at', { withTimezone: true }).defaultNow(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('rota_schedulings_due_idx')
      .on(t.next_run_at)
      .where(sql`${t.active} and ${t.deleted_at} is null`),
    uniqueIndex('rota_schedulings_client_name_key')
      .on(t.rota_clients_id, sql`lower(${t.name})`)
      .where(sql`${t.deleted_at} is null`),
    index('rota_schedulings_robot_idx').on(t.rota_robots_id),
    index('rota_schedulings_calendar_idx').on(t.rota_calendars_id),
    // The queue triggers the scheduler re-checks.
    index('rota_schedulings_queue_idx')
      .on(t.rota_robots_id)
      .where(sql`${t.trigger_type} = 'queue' and ${t.active} and ${t.deleted_at} is null`),
    index('rota_schedulings_client_name_idx').on(t.rota_clients_id, t.name),
    index('rota_schedulings_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    // "Deleted schedulings": their total without reading the live ones.
    index('rota_schedulings_client_deleted_idx')
      .on(t.rota_clients_id, t.deleted_at)
      .where(sql`${t.deleted_at} is not null`),
  ],
);

export const rotaSchedulingVms = pgTable(
  'rota_scheduling_vms',
  {
    rota_scheduling_vms_id: integer('rota_scheduling_vms_id')
      .primaryKey()
      .generatedAlwaysAsIdentity(),
    rota_clients_id: tenant(),
    rota_schedulings_id: integer('rota_schedulings_id')
      .notNull()
      .references(() => rotaSchedulings.rota_schedulings_id, { onDelete: 'cascade' }),
    rota_vms_id: integer('rota_vms_id')
      .notNull()
      .references(() => rotaVms.rota_vms_id, { onDelete: 'cascade' }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('rota_scheduling_vms_key').on(t.rota_schedulings_id, t.rota_vms_id),
    index('rota_scheduling_vms_vm_idx').on(t.rota_vms_id),
  ],
);
