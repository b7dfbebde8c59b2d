import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rowCounts } from '../db/schema.js';
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
  const [row] = await db
    .select({ total: rowCounts.n })
    .from(rowCounts)
    .where(and(eq(rowCounts.rota_clients_id, scope.clientId), eq(rowCounts.table_name, table)));
  return [{ total: Number(row?.total ?? 0) }];
}
