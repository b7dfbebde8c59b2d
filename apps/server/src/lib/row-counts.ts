import { and, eq, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.js';
import { rowCounts } from '../db/schema/lib/row-counts.js';
import { hotStatement } from './sql-rows.js';
import type { TenantScope } from './tenant-scope.js';

/** Tables whose rows per client triggers keep in `row_counts` (migration 0008), summed over slots. */
export type CountedTable =
  | 'rota_robots'
  | 'rota_robot_fields'
  | 'rota_tasks'
  | 'rota_vms'
  | 'rota_nodes'
  | 'rota_parameters'
  /** Those not deleted. */
  | 'rota_schedulings';

type Total = { total: number }[];

/**
 * A list's total, as pageOf takes it. When the list is the whole table as the client sees it
 * (`whole`: no search, no filter, no team limit), the maintained count answers in one row read,
 * beside the page. A filtered list runs `count` with its filters beside the page too: a filter's
 * pages are usually full, so it would be counted anyway. A searched one hands `count` itself to
 * pageOf, which runs it only when the page is full: most searches end on their first page, and
 * skip the second scan (with 8 users clicking, one statement a click instead of two). All exact.
 */
export function listTotal(
  db: Db,
  scope: TenantScope,
  table: CountedTable,
  shape: { whole: boolean; searched: boolean },
  count: () => Promise<Total>,
): Promise<Total> | (() => Promise<Total>) {
  if (shape.searched) return count;
  if (!shape.whole) return count();
  return maintainedTotal(db, scope, table);
}

/** The client's rows of the table, from the maintained count. */
export async function maintainedTotal(
  db: Db,
  scope: TenantScope,
  table: CountedTable,
): Promise<Total> {
  const [row] = await countStatement(db, { client: scope.clientId, table });
  return [{ total: Number(row?.total ?? 0) }];
}

/**
 * The maintained total as a column of a hot page statement: one statement and one
 * round trip for a page and its total instead of two side by side. `byActive`: the rows whose
 * `active` is the statement's `active` placeholder, from the inactive split below. The
 * placeholders (`client`, `active`) are the page statement's own. A page past the end has no row
 * to carry it: the caller counts then (listTotal, activeTotal).
 */
export function totalColumn(table: ActiveCountedTable, byActive: true): SQL;
export function totalColumn(table: CountedTable): SQL;
export function totalColumn(table: CountedTable, byActive = false): SQL {
  const client = sql.placeholder('client');
  if (!byActive) {
    return sql`(select sum(${rowCounts.n})::bigint from ${rowCounts}
                 where ${rowCounts.rota_clients_id} = ${client}
                   and ${rowCounts.table_name} = ${table})`;
  }
  const inactive = `${table}.inactive`;
  return sql`(select case when ${sql.placeholder('active')}::boolean
                          then coalesce(sum(${rowCounts.n}) filter (where ${rowCounts.table_name} = ${table}), 0)
                             - coalesce(sum(${rowCounts.n}) filter (where ${rowCounts.table_name} = ${inactive}), 0)
                          else coalesce(sum(${rowCounts.n}) filter (where ${rowCounts.table_name} = ${inactive}), 0)
                     end
                from ${rowCounts}
               where ${rowCounts.rota_clients_id} = ${client}
                 and ${rowCounts.table_name} in (${table}, ${inactive}))`;
}

/** Every unfiltered list page reads it: rendered once and prepared (see hotStatement). */
const countStatement = hotStatement<{ total: number | string }>('rota_row_count', () =>
  new QueryBuilder()
    .select({ total: sql`sum(${rowCounts.n})::bigint`.as('total') })
    .from(rowCounts)
    .where(
      and(
        eq(rowCounts.rota_clients_id, sql.placeholder('client')),
        eq(rowCounts.table_name, sql.placeholder('table')),
      ),
    )
    .getSQL(),
);

/** Tables whose inactive rows `row_counts` also keeps, as '<table>.inactive' (migration 0022). */
export type ActiveCountedTable = 'rota_robots';

/**
 * The total of a list filtered on `active` alone (no search, no team limit): the inactive rows
 * as kept, or the table's count less them; one read of two rows instead of a count over every
 * matching row.
 */
export async function activeTotal(
  db: Db,
  scope: TenantScope,
  table: ActiveCountedTable,
  active: boolean,
): Promise<{ total: number }[]> {
  const [row] = await activeSplitStatement(db, { client: scope.clientId, table });
  const all = Number(row?.total ?? 0);
  const inactive = Number(row?.inactive ?? 0);
  return [{ total: active ? all - inactive : inactive }];
}

const activeSplitStatement = hotStatement<{ total: number | string; inactive: number | string }>(
  'rota_row_count_active_split',
  () => {
    const table = sql`${sql.placeholder('table')}::text`;
    return sql`select coalesce(sum(${rowCounts.n}) filter (where ${rowCounts.table_name} = ${table}), 0) as total,
                      coalesce(sum(${rowCounts.n}) filter (where ${rowCounts.table_name} <> ${table}), 0) as inactive
                 from ${rowCounts}
                where ${rowCounts.rota_clients_id} = ${sql.placeholder('client')}
                  and ${rowCounts.table_name} in (${table}, ${table} || '.inactive')`;
  },
);
