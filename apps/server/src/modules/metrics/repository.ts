import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../lib/sql-rows.js';
import { agentIsActive } from '../agents/connectivity.js';
import { agentSummaries } from '../agents/views.js';
import { executionStatusCounts, queueDepths } from '../executions/statements.js';

// Metrics own no table: each gauge reads its owner's statement or view, one query a gauge.
export { executionStatusCounts, queueDepths };

const a = agentSummaries;

/** Agents per client and connectivity, by the rule the console's agent list shows. */
export function agentCounts(db: Db): Promise<{ client: number; active: boolean; n: number }[]> {
  return rowsOf(
    db,
    sql`select ${a.rota_clients_id} as client, ${agentIsActive(a.last_seen_at)} as active,
               count(*)::int as n
          from ${a} group by 1, 2`,
  );
}
