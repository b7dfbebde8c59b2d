import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * Executions per client, robot, day and status, kept exact by triggers on `rota_executions`
 * (migration 0032), so the dashboard and the activity list's totals read a few rows a day
 * instead of every execution of their range. A trigger only appends a change (`merged` false:
 * +1 for the new status, −1 for the old), so concurrent runs never wait on one counter row or
 * deadlock over two; the merge folds those into one row a key (`merged` true). Readers sum both
 * kinds, so a total is exact before and after a merge. No foreign keys: a robot's or client's
 * delete cascades through the executions, whose trigger appends the −1s.
 */
export const rotaExecutionDays = pgTable(
  'rota_execution_days',
  {
    rota_clients_id: integer('rota_clients_id').notNull(),
    rota_robots_id: integer('rota_robots_id').notNull(),
    /** The local day of `queued_at`, in the zone of `rota_execution_days_zone`. */
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    merged: boolean('merged').notNull().default(false),
  },
  (t) => [
    // Covering: the dashboard's days (grouped in its order) and failing robots read the index
    // alone, a few thousand entries a month whatever the history.
    index('rota_execution_days_client_day_status_idx').on(
      t.rota_clients_id,
      t.day,
      t.status,
      t.rota_robots_id,
      t.n,
    ),
    uniqueIndex('rota_execution_days_key')
      .on(t.rota_clients_id, t.day, t.rota_robots_id, t.status)
      .where(sql`${t.merged}`),
    index('rota_execution_days_unmerged_idx')
      .on(t.rota_clients_id)
      .where(sql`not ${t.merged}`),
  ],
);

/**
 * The one time zone the days above are counted in: the server's, recorded by the first server
 * that starts after the migration (which fills the days then). Null until then: the triggers
 * count nothing and readers count the executions themselves.
 */
export const rotaExecutionDaysZone = pgTable('rota_execution_days_zone', {
  only: boolean('only').primaryKey().default(true),
  zone: text('zone'),
});

/**
 * The merged days of each client and status summed over every day and robot, folded by the same
 * merge in the same transaction: a list's total over all time (no dates, no robot) reads these
 * few rows and the changes not merged yet, instead of a row per robot and day.
 */
export const rotaExecutionTotals = pgTable(
  'rota_execution_totals',
  {
    rota_clients_id: integer('rota_clients_id').notNull(),
    status: text('status').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.rota_clients_id, t.status] })],
);
