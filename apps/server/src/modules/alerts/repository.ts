import { and, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AlertDeliveryListQuery, AlertListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import {
  alertReads,
  rotaAlertDeliveries,
  rotaAlertEvents,
  rotaAlerts,
} from '../../db/schema/alerts.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { robotSummaries } from '../robots/views.js';

const A = rotaAlerts;
const D = rotaAlertDeliveries;
const V = rotaAlertEvents;

const sortable = { name: A.name, created_at: A.created_at } as const;

function selectAlerts(db: Db) {
  return db
    .select({
      rota_alerts_id: A.rota_alerts_id,
      rota_clients_id: A.rota_clients_id,
      name: A.name,
      active: A.active,
      events: A.events,
      robot_ids: A.robot_ids,
      channel_type: A.channel_type,
      channel: A.channel,
      channel_secret: A.channel_secret,
      language: A.language,
      created_at: A.created_at,
      updated_at: A.updated_at,
    })
    .from(A);
}

/** A rule as stored; `channel_secret` is sealed and never leaves the service. */
export type AlertRow = Awaited<ReturnType<typeof selectAlerts>>[number];

export interface AlertValues {
  name: string;
  active: boolean;
  events: string[];
  robot_ids: number[];
  channel_type: string;
  channel: Record<string, unknown>;
  channel_secret: string | null;
  language: string;
}

export async function listAlerts<R>(
  db: Db,
  scope: TenantScope,
  query: AlertListQuery,
  map: (row: AlertRow) => R,
) {
  const where = scope.where(
    A,
    searchAny(query.search, [A.name]),
    query.active === undefined ? undefined : eq(A.active, query.active),
    query.channel_type ? eq(A.channel_type, query.channel_type) : undefined,
  );
  return pageOf(
    query,
    selectAlerts(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, A.rota_alerts_id))
      .$dynamic(),
    // A client has a handful of rules.
    db.select({ total: count() }).from(A).where(where),
    map,
  );
}

export async function findAlert(db: Db, scope: TenantScope, id: number) {
  const [row] = await selectAlerts(db).where(scope.where(A, eq(A.rota_alerts_id, id)));
  return row;
}

/** Any client's rule, for the worker (its deliveries carry the client already). */
export async function findAlertById(db: Db, id: number) {
  const [row] = await selectAlerts(db).where(eq(A.rota_alerts_id, id));
  return row;
}

export async function insertAlert(db: Db, scope: TenantScope, values: AlertValues) {
  const [row] = await db.insert(A).values(scope.stamp(values)).returning({ id: A.rota_alerts_id });
  return row!.id;
}

export async function updateAlert(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Partial<AlertValues>,
): Promise<boolean> {
  const updated = await db
    .update(A)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(A, eq(A.rota_alerts_id, id)))
    .returning({ id: A.rota_alerts_id });
  return updated.length > 0;
}

export async function deleteAlert(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(A)
    .where(scope.where(A, eq(A.rota_alerts_id, id)))
    .returning({ id: A.rota_alerts_id });
  return deleted.length > 0;
}

/** Of `ids`, the robots of the scope's client (and visible to it), with their names. */
export async function robotsOfScope(
  db: Db,
  scope: TenantScope,
  ids: readonly number[],
): Promise<{ rota_robots_id: number; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ rota_robots_id: robotSummaries.rota_robots_id, name: robotSummaries.name })
    .from(robotSummaries)
    .where(
      and(
        eq(robotSummaries.rota_clients_id, scope.clientId),
        inArray(robotSummaries.rota_robots_id, [...ids]),
        scope.robots(robotSummaries.rota_robots_id),
      ),
    );
}

function selectDeliveries(db: Db) {
  return db
    .select({
      rota_alert_deliveries_id: D.rota_alert_deliveries_id,
      delivery_uid: D.delivery_uid,
      rota_alerts_id: D.rota_alerts_id,
      event_type: D.event_type,
      rota_robots_id: D.rota_robots_id,
      robot_name: robotSummaries.name,
      count: D.count,
      status: D.status,
      attempts: D.attempts,
      response_code: D.response_code,
      last_error: D.last_error,
      next_attempt_at: D.next_attempt_at,
      delivered_at: D.delivered_at,
      created_at: D.created_at,
    })
    .from(D)
    .leftJoin(robotSummaries, eq(robotSummaries.rota_robots_id, D.rota_robots_id));
}

export type DeliveryRow = Awaited<ReturnType<typeof selectDeliveries>>[number];

export async function listDeliveries<R>(
  db: Db,
  scope: TenantScope,
  query: AlertDeliveryListQuery,
  map: (row: DeliveryRow) => R,
) {
  const where = scope.where(
    D,
    eq(D.rota_alerts_id, query.rota_alerts_id),
    query.status ? eq(D.status, query.status) : undefined,
  );
  return pageOf(
    query,
    selectDeliveries(db)
      .where(where)
      .orderBy(...orderBy(D.created_at, query.order, D.rota_alert_deliveries_id))
      .$dynamic(),
    db.select({ total: count() }).from(D).where(where),
    map,
  );
}

export async function findDelivery(db: Db, id: number) {
  const [row] = await selectDeliveries(db).where(eq(D.rota_alert_deliveries_id, id));
  return row;
}

/**
 * A "send test" delivery: no event, and never due (`next_attempt_at` null), so only the caller,
 * which attempts it at once, sends it: the worker's pass cannot take it first.
 */
export async function insertTestDelivery(
  db: Db,
  scope: TenantScope,
  alertId: number,
  eventType: string,
  now: Date,
) {
  const [row] = await db
    .insert(D)
    .values(
      scope.stamp({
        rota_alerts_id: alertId,
        event_type: eventType,
        next_attempt_at: null,
        created_at: now,
      }),
    )
    .returning({ id: D.rota_alert_deliveries_id });
  return row!.id;
}

/**
 * The events a user may see: of the `types` their permissions show (visibleAlertEventTypes)
 * and, for a member of teams, of their robots or about no robot (agents).
 */
function visibleEvents(scope: TenantScope, types: readonly string[]): SQL | undefined {
  const robots = scope.robots(V.rota_robots_id);
  return and(
    types.length === 0 ? sql`false` : inArray(V.type, [...types]),
    robots ? or(isNull(V.rota_robots_id), robots) : undefined,
  );
}

export async function feedEvents(
  db: Db,
  scope: TenantScope,
  types: readonly string[],
  limit: number,
) {
  return db
    .select({
      rota_alert_events_id: V.rota_alert_events_id,
      event_uid: V.event_uid,
      type: V.type,
      occurred_at: V.occurred_at,
      rota_robots_id: V.rota_robots_id,
      robot_name: robotSummaries.name,
      data: V.data,
    })
    .from(V)
    .leftJoin(robotSummaries, eq(robotSummaries.rota_robots_id, V.rota_robots_id))
    .where(scope.where(V, visibleEvents(scope, types)))
    .orderBy(desc(V.rota_alert_events_id))
    .limit(limit);
}

export async function seenEventId(db: Db, scope: TenantScope, userId: number): Promise<number> {
  const [row] = await db
    .select({ seen: alertReads.seen_event_id })
    .from(alertReads)
    .where(scope.where(alertReads, eq(alertReads.users_id, userId)));
  return row?.seen ?? 0;
}

export async function countUnread(
  db: Db,
  scope: TenantScope,
  types: readonly string[],
  after: number,
): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(V)
    .where(scope.where(V, gt(V.rota_alert_events_id, after), visibleEvents(scope, types)));
  return row?.total ?? 0;
}

/** Moves the user's read mark up to `upTo`, never back. */
export async function markSeen(db: Db, scope: TenantScope, userId: number, upTo: number) {
  await db
    .insert(alertReads)
    .values(
      scope.stamp({
        users_id: userId,
        // Never past the client's newest event: a mark ahead would hide events not yet written.
        seen_event_id: sql`least(${upTo}::bigint, (select coalesce(max(${V.rota_alert_events_id}), 0) from ${V} where ${V.rota_clients_id} = ${scope.clientId}))`,
      }),
    )
    .onConflictDoUpdate({
      target: [alertReads.users_id, alertReads.rota_clients_id],
      set: { seen_event_id: sql`greatest(${alertReads.seen_event_id}, excluded.seen_event_id)` },
    });
}
