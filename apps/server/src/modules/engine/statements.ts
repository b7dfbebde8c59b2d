import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { engineState, rotaExecutions } from '../../db/schema.js';
import { col } from '../../lib/sql-refs.js';
import { rowsOf } from '../../lib/sql-rows.js';

const e = rotaExecutions;

/**
 * Deletes at most `batch` executions of the client that ended before `before` (one short
 * statement: the caller repeats it until it answers fewer than `batch`). Their attempts, log
 * lines and artifacts go with them (ON DELETE CASCADE); a task still naming one keeps its row
 * (SET NULL). Reads rota_executions_client_ended_idx (migration 0016). Answers how many went.
 */
export async function pruneEndedExecutions(
  db: Db,
  clientId: number,
  before: Date,
  batch: number,
): Promise<number> {
  const rows = await rowsOf<{ n: number }>(
    db,
    sql`with gone as (
          delete from ${e} where ${col(e.rota_executions_id)} in (
            select ${col(e.rota_executions_id)} from ${e}
             where ${col(e.rota_clients_id)} = ${clientId}
               and ${col(e.ended_at)} is not null
               and ${col(e.ended_at)} < ${before.toISOString()}::timestamptz
             limit ${batch})
          returning 1)
        select count(*)::int as n from gone`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Takes a once-per-cluster duty (e.g. the nightly retention): stamps `now` on `key` when its
 * last stamp is at least `intervalSeconds` older, in one statement, so of several instances
 * only one gets `true` (the others wait on the row and then see the new stamp). A stamp more
 * than an interval ahead (the clock was set back) is taken too, so the duty cannot stall.
 */
export async function claimDuty(
  db: Db,
  key: string,
  now: Date,
  intervalSeconds: number,
): Promise<boolean> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await rowsOf<{ key: string }>(
    db,
    sql`insert into ${engineState} (${col(engineState.key)}, ${col(engineState.at)})
        values (${key}, ${at})
        on conflict (${col(engineState.key)}) do update set ${col(engineState.at)} = excluded.at
         where ${engineState.at} <= excluded.at - make_interval(secs => ${intervalSeconds})
            or ${engineState.at} > excluded.at + make_interval(secs => ${intervalSeconds})
        returning ${col(engineState.key)} as key`,
  );
  return rows.length > 0;
}

/** A count of executions by client and status, for the /metrics gauges. */
export interface ExecutionStatusCount {
  client: number;
  status: string;
  n: number;
}

/**
 * Executions per client and status, for a Prometheus scrape: every queued and processing run
 * (each arm reads its partial index: rota_executions_claim_idx, rota_executions_lease_idx),
 * and the runs that ended in the last `endedWithinSeconds` by their final status (through
 * rota_executions_client_ended_idx). Not the whole table: it holds the retention window (90
 * days by default) and a scrape every 15 s would read all of it (bench/metrics.ts).
 */
export function executionStatusCounts(
  db: Db,
  endedWithinSeconds: number,
): Promise<ExecutionStatusCount[]> {
  const client = sql`${col(e.rota_clients_id)} as client`;
  return rowsOf<ExecutionStatusCount>(
    db,
    sql`select ${client}, 'queued' as status, count(*)::int as n from ${e}
         where ${col(e.status)} = 'queued' group by 1
        union all
        select ${client}, 'processing', count(*)::int from ${e}
         where ${col(e.status)} = 'processing' group by 1
        union all
        select ${client}, ${col(e.status)}, count(*)::int from ${e}
         where ${col(e.ended_at)} is not null
           and ${col(e.ended_at)} > now() - make_interval(secs => ${endedWithinSeconds})
         group by 1, 2`,
  );
}

/** Queued executions per client and robot (the claim's partial index holds them). */
export function queueDepths(db: Db): Promise<{ client: number; robot: number; n: number }[]> {
  return rowsOf(
    db,
    sql`select ${col(e.rota_clients_id)} as client, ${col(e.rota_robots_id)} as robot,
               count(*)::int as n
          from ${e} where ${col(e.status)} = 'queued' group by 1, 2`,
  );
}
