import { bigint, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Rows per client of the big operations tables, kept exact by statement-level triggers
 * (migration 0008), so an unfiltered list's total is one row read instead of a count over
 * every row. Schedulings count only those not deleted; robots also keep their inactive rows as
 * 'rota_robots.inactive' (migration 0022), so a list filtered on `active` reads its total too.
 * No foreign key: the triggers of a cascade that removes a client's rows must not trip over the
 * client going first.
 */
export const rowCounts = pgTable(
  'row_counts',
  {
    rota_clients_id: integer('rota_clients_id').notNull(),
    table_name: text('table_name').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.rota_clients_id, t.table_name] })],
);
