import { sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { rotaExecutions } from '../../db/schema/executions.js';
import { robotSummaries } from '../robots/views.js';
import { labelsAtQueue } from './row-statements.js';
import { col, tableAs } from '../../lib/sql-refs.js';
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

/**
 * The scheduler's insert, run as one statement with the schedulings' move (`moved`, an update
 * answering each scheduling's run settings and whether it runs now): one run for each that runs,
 * of an active robot, unless the scheduling's previous run still waits in the queue.
 */
export function insertScheduledRuns(moved: SQL): SQL {
  const q = alias(rotaExecutions, 'q');
  const r = robotSummaries;
  const E = rotaExecutions;
  return sql`with moved as (${moved})
          insert into ${E}
            (${col(E.rota_clients_id)}, ${col(E.rota_robots_id)}, ${col(E.rota_schedulings_id)},
             ${col(E.vm_ids)}, ${col(E.trigger)}, ${col(E.priority)}, ${col(E.timeout_seconds)},
             ${col(E.retries)}, ${col(E.sleep_seconds)}, ${col(E.labels)})
          select m.rota_clients_id, m.rota_robots_id, m.rota_schedulings_id, m.vm_ids, 'schedule',
                 m.priority, m.timeout_minutes * 60, m.retries, m.sleep,
                 ${labelsAtQueue(sql`m.rota_robots_id`, sql`m.labels`)}
            from moved m
            join ${r} on ${r.rota_robots_id} = m.rota_robots_id and ${r.active}
           where m.run
             and not exists (select 1 from ${tableAs(q)}
                              where ${q.rota_schedulings_id} = m.rota_schedulings_id
                                and ${q.status} = 'queued')
          returning ${E.rota_executions_id} as id, ${E.rota_clients_id} as client,
                    ${E.rota_robots_id} as robot, ${E.vm_ids} as vm_ids,
                    ${E.labels} as labels, ${E.rota_schedulings_id} as scheduling`;
}
