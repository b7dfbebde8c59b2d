import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rotaAlertDeliveries, rotaAlertEvents, rotaAlerts } from '../../db/schema/alerts.js';
import { col } from '../../lib/sql-refs.js';
import { rowsOf } from '../../lib/sql-rows.js';
import { robotSummaries } from '../robots/views.js';

const A = rotaAlerts;
const D = rotaAlertDeliveries;
const V = rotaAlertEvents;

/** Repeats of one event type for one robot within this window make one message. */
export const GROUP_MS = 10 * 60 * 1000;

export interface PendingEvent {
  id: number;
  client: number;
  type: string;
  robot: number | null;
}

/** Events not yet fanned out, oldest first, locked so one instance handles each. */
export async function lockUnfannedEvents(tx: Db, batch: number): Promise<PendingEvent[]> {
  const rows = await rowsOf<{
    id: string | number;
    client: number;
    type: string;
    robot: number | null;
  }>(
    tx,
    sql`select ${V.rota_alert_events_id} as id, ${V.rota_clients_id} as client, ${V.type} as type,
               ${V.rota_robots_id} as robot
          from ${V}
         where not ${V.fanned_out}
         order by ${V.rota_alert_events_id}
         limit ${batch}
         for update skip locked`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export interface RuleMatch {
  id: number;
  events: string[];
  robot_ids: number[];
}

/** The active rules of some clients, to match their events against. */
export async function activeRules(tx: Db, clients: number[]) {
  if (clients.length === 0) return [];
  return tx
    .select({
      id: A.rota_alerts_id,
      client: A.rota_clients_id,
      events: A.events,
      robot_ids: A.robot_ids,
    })
    .from(A)
    .where(and(eq(A.active, true), inArray(A.rota_clients_id, clients)));
}

/**
 * Adds one event to a rule's deliveries: folded into a pending, never-attempted delivery of the
 * same (rule, type, robot); else a new one due when the group's last delivery is ten minutes old
 * (now, when it is older or there is none).
 */
export async function addToDeliveries(
  tx: Db,
  client: number,
  rule: number,
  event: PendingEvent,
  now: Date,
) {
  const sameGroup = and(
    eq(D.rota_alerts_id, rule),
    eq(D.event_type, event.type),
    event.robot === null ? isNull(D.rota_robots_id) : eq(D.rota_robots_id, event.robot),
  );
  // Two instances fanning out events of one group at once would each start a delivery: the
  // group is taken for the rest of the transaction first.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`alert-group:${rule}:${event.type}:${event.robot ?? ''}`}))`,
  );
  const folded = await tx
    .update(D)
    .set({
      count: sql`${D.count} + 1`,
      rota_alert_events_id: event.id,
      updated_at: now,
    })
    .where(
      and(
        sameGroup,
        eq(D.status, 'pending'),
        eq(D.attempts, 0),
        or(isNull(D.locked_until), lte(D.locked_until, now)),
      ),
    )
    .returning({ id: D.rota_alert_deliveries_id });
  if (folded.length > 0) return;
  const [last] = await tx
    .select({ created_at: D.created_at })
    .from(D)
    .where(sameGroup)
    .orderBy(desc(D.created_at))
    .limit(1);
  const held = last && now.getTime() - last.created_at.getTime() < GROUP_MS;
  await tx.insert(D).values({
    rota_clients_id: client,
    rota_alerts_id: rule,
    rota_alert_events_id: event.id,
    event_type: event.type,
    rota_robots_id: event.robot,
    next_attempt_at: held ? new Date(last.created_at.getTime() + GROUP_MS) : now,
    created_at: now,
    updated_at: now,
  });
}

export async function markFannedOut(tx: Db, ids: number[]) {
  if (ids.length === 0) return;
  await tx.update(V).set({ fanned_out: true }).where(inArray(V.rota_alert_events_id, ids));
}

/** A delivery locked for sending, with what its channel needs. */
export interface LockedDelivery {
  id: number;
  delivery_uid: string;
  client: number;
  rule: number;
  event_type: string;
  robot: number | null;
  robot_name: string | null;
  count: number;
  attempts: number;
  first_attempt_at: Date | string | null;
  created_at: Date | string;
  event_uid: string | null;
  occurred_at: Date | string | null;
  data: Record<string, unknown> | null;
}

/**
 * Locks due deliveries (or the one `only`) for a minute and answers them: sent outside any
 * transaction after this commits; a crash mid-send leaves the lock to expire, then another pass
 * sends again (at least once).
 */
export async function lockDueDeliveries(
  db: Db,
  now: Date,
  batch: number,
  only?: number,
): Promise<LockedDelivery[]> {
  const at = now.toISOString();
  const which =
    only === undefined
      ? sql`${D.next_attempt_at} <= ${at}::timestamptz`
      : sql`${D.rota_alert_deliveries_id} = ${only}`;
  const rows = await rowsOf<LockedDelivery & { id: string | number }>(
    db,
    sql`with picked as (
          update ${D} set ${col(D.locked_until)} = ${at}::timestamptz + interval '60 seconds'
           where ${D.rota_alert_deliveries_id} in (
             select ${D.rota_alert_deliveries_id} from ${D}
              where ${D.status} = 'pending' and ${which}
                and (${D.locked_until} is null or ${D.locked_until} < ${at}::timestamptz)
              order by ${D.next_attempt_at}
              limit ${batch}
              for update skip locked)
          returning *)
        select p.rota_alert_deliveries_id as id, p.delivery_uid, p.rota_clients_id as client,
               p.rota_alerts_id as rule, p.event_type, p.rota_robots_id as robot,
               ${robotSummaries.name} as robot_name, p.count, p.attempts, p.first_attempt_at, p.created_at,
               v.event_uid, v.occurred_at, v.data
          from picked p
          left join ${V} v on v.rota_alert_events_id = p.rota_alert_events_id
          left join ${robotSummaries} on ${robotSummaries.rota_robots_id} = p.rota_robots_id`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export interface AttemptResult {
  status: 'delivered' | 'pending' | 'failed';
  response_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  first_attempt_at: Date;
  now: Date;
}

export async function recordAttempt(db: Db, id: number, result: AttemptResult) {
  await db
    .update(D)
    .set({
      status: result.status,
      attempts: sql`${D.attempts} + 1`,
      response_code: result.response_code,
      last_error: result.last_error,
      next_attempt_at: result.next_attempt_at,
      first_attempt_at: result.first_attempt_at,
      delivered_at: result.status === 'delivered' ? result.now : null,
      locked_until: null,
      updated_at: result.now,
    })
    .where(and(eq(D.rota_alert_deliveries_id, id), eq(D.status, 'pending')));
}
