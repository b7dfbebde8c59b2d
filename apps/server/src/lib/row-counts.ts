import { and, eq, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.js';
import { rowCounts } from '../db/schema.js';
import { hotStatement } from './sql-rows.js';
import type { TenantScope } from './tenant-scope.js';

/** Tables whose rows per client triggers keep in `row_counts` (migration 0008). */
export type CountedTable =
  | 'rota_robots'
  | 'rota_robot_fields'
  | 'rota_tasks'
  | 'rota_vms'
  | 'rota_nodes'
  | 'rota_parameters'
  /** Those not deleted. */
  | 'rota_schedulings';

/**
 * A list's total. When the list is the whole table as the client sees it (`whole`: no search,
 * no filter, no team limit), the maintained count answers in one row read; otherwise `count`
 * runs with the list's filters. Both are exact.
 */
export async function listTotal(
  db: Db,
  scope: TenantScope,
  table: CountedTable,
  whole: boolean,
  count: () => Promise<{ total: number }[]>,
): Promise<{ total: number }[]> {
  if (!whole) return count();
  const [row] = await countStatement(db, { client: scope.clientId, table });
  return [{ total: Number(row?.total ?? 0) }];
}

/** Every unfiltered list page reads it: rendered once and prepared (see hotStatement). */
const countStatement = hotStatement<{ total: number | string }>('rota_row_count', () =>
  new QueryBuilder()
    .select({ total: sql`${rowCounts.n}`.as('total') })
    .from(rowCounts)
    .where(
      and(
        eq(rowCounts.rota_clients_id, sql.placeholder('client')),
        eq(rowCounts.table_name, sql.placeholder('table')),
      ),
    )
    .getSQL(),
);
