import { bigint, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';

/**
 * Rows per client of the big operations tables, kept exact by statement-level triggers
 * (migration 0008), so an unfiltered list's total is one row read instead of a count over
 * every row. Schedulings count only those not deleted; robots also keep their inactive rows as
 * 'rota_robots.inactive' (migration 0022), so a list filtered on `active` reads its total too.
 * No foreign key: the triggers of a cascade that removes a client's rows must not trip over the
 * client going first.
 *
 * A count is the sum of its `slot` rows: each trigger adds to the slot of its database
 * connection (migration 0038), so writers on different connections never wait on one counter
 * row — with a single row, every task a fleet of robots added queued behind the others' commits.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    rota_clients_id: integer('rota_clients_id').notNull(),
    table_name: text('table_name').notNull(),
    slot: smallint('slot').notNull().default(0),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.rota_clients_id, t.table_name, t.slot] })],
);
