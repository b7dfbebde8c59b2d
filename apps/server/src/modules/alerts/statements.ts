import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaAlertDeliveries, rotaAlertEvents } from '../../db/schema/alerts.js';
import { boolArray, col, instantArray, intArray } from '../../lib/sql-refs.js';
import { rowsOf } from '../../lib/sql-rows.js';

const V = rotaAlertEvents;
const D = rotaAlertDeliveries;

/** A scheduling occurrence the scheduler found more than its grace late. */
export interface MissedRun {
  rota_clients_id: number;
  rota_robots_id: number;
  rota_schedulings_id: number;
  due_at: Date;
  missed_runs: string;
  /** Whether a late run was queued for it (`run_once`, and no run of it already waiting). */
  ran: boolean;
}

/**
 * `scheduling.missed` events, one per missed occurrence, for the scheduler to run in the
 * transaction that moves its schedulings (the other events are written by database triggers,
 * migration 0018). Empty input: a no-op statement.
 */
export function insertMissedRunEvents(missed: readonly MissedRun[], now: Date): SQL {
  if (missed.length === 0) return sql`select 1 where false`;
  const policies = `{${missed.map((m) => `"${m.missed_runs.replace(/["\\]/g, '')}"`).join(',')}}`;
  return sql`insert into ${V} (${col(V.rota_clients_id)}, ${col(V.type)}, ${col(V.rota_robots_id)},
                               ${col(V.data)}, ${col(V.occurred_at)})
             select v.client, 'scheduling.missed', v.robot,
                    jsonb_build_object('rota_schedulings_id', v.scheduling,
                                       'due_at', v.due_at,
                                       'missed_runs', v.policy,
                                       'ran', v.ran),
                    ${now.toISOString()}::timestamptz
               from unnest(${intArray(missed.map((m) => m.rota_clients_id))},
                           ${intArray(missed.map((m) => m.rota_robots_id))},
                           ${intArray(missed.map((m) => m.rota_schedulings_id))},
                           ${instantArray(missed.map((m) => m.due_at))},
                           ${policies}::text[],
                           ${boolArray(missed.map((m) => m.ran))})
                    as v(client, robot, scheduling, due_at, policy, ran)`;
}

/**
 * The nightly retention's share: deliveries created and events that occurred before
 * `before`, a batch per statement (deleting an event takes deliveries still naming it along).
 * Answers how many of each went.
 */
export async function pruneAlertHistory(
  db: Db,
  before: Date,
  batch: number,
): Promise<{ events: number; deliveries: number }> {
  const at = before.toISOString();
  const [deliveries] = await rowsOf<{ n: number }>(
    db,
    sql`with gone as (
          delete from ${D} where ${col(D.rota_alert_deliveries_id)} in (
            select ${col(D.rota_alert_deliveries_id)} from ${D}
             where ${col(D.created_at)} < ${at}::timestamptz and ${col(D.status)} <> 'pending'
             limit ${batch})
          returning 1)
        select count(*)::int as n from gone`,
  );
  const [events] = await rowsOf<{ n: number }>(
    db,
    sql`with gone as (
          delete from ${V} where ${col(V.rota_alert_events_id)} in (
            select ${col(V.rota_alert_events_id)} from ${V}
             where ${col(V.occurred_at)} < ${at}::timestamptz and ${col(V.fanned_out)}
             limit ${batch})
          returning 1)
        select count(*)::int as n from gone`,
  );
  return { events: events?.n ?? 0, deliveries: deliveries?.n ?? 0 };
}
