import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaExecutions as e } from '../../db/schema/executions.js';

/**
 * Every execution counted by client, robot, local day of `queued_at` in `zone` and status: what
 * the execution days are filled from when a server first records its zone.
 */
export function executionsByDay(zone: string): SQL {
  return sql`select ${e.rota_clients_id} as rota_clients_id, ${e.rota_robots_id} as rota_robots_id,
                    (${e.queued_at} at time zone ${zone})::date as day, ${e.status} as status,
                    count(*) as n
               from ${e} group by 1, 2, 3, 4`;
}

/**
 * Holds every write to the executions until the transaction ends (running ones finish first):
 * the fill then counts rows no trigger will count again, and misses none.
 */
export async function holdExecutionWrites(tx: Db): Promise<void> {
  await tx.execute(sql`lock table ${e} in share mode`);
}
