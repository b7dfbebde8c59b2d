import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TriggerListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaTriggerFires, rotaTriggers } from '../../db/schema/triggers.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { robotSummaries } from '../robots/views.js';

const T = rotaTriggers;
const F = rotaTriggerFires;

/** How long a fire's answer is kept for its Idempotency-Key. */
const IDEMPOTENCY_HOURS = 24;
const stale = sql`now() - make_interval(hours => ${IDEMPOTENCY_HOURS})`;

const sortable = { name: T.name, created_at: T.created_at } as const;

function selectTriggers(db: Db) {
  return db
    .select({
      rota_triggers_id: T.rota_triggers_id,
      rota_robots_id: T.rota_robots_id,
      robot_name: robotSummaries.name,
      name: T.name,
      token_hint: T.token_hint,
      revoked_at: T.revoked_at,
      last_fired_at: T.last_fired_at,
      created_at: T.created_at,
    })
    .from(T)
    .innerJoin(robotSummaries, eq(robotSummaries.rota_robots_id, T.rota_robots_id));
}

export type TriggerRow = Awaited<ReturnType<typeof selectTriggers>>[number];

/** The selected client's triggers of the robots its teams let it see. */
export async function listTriggers<R>(
  db: Db,
  scope: TenantScope,
  query: TriggerListQuery,
  map: (row: TriggerRow) => R,
) {
  const where = scope.where(
    T,
    scope.robots(T.rota_robots_id),
    query.rota_robots_id ? eq(T.rota_robots_id, query.rota_robots_id) : undefined,
    searchAny(query.search, [T.name]),
  );
  return pageOf(
    query,
    selectTriggers(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, T.rota_triggers_id))
      .$dynamic(),
    // A robot has a handful of triggers: counting them needs no maintained count.
    db.select({ total: count() }).from(T).where(where),
    map,
  );
}

export async function findTrigger(db: Db, scope: TenantScope, id: number) {
  const [row] = await selectTriggers(db).where(
    scope.where(T, eq(T.rota_triggers_id, id), scope.robots(T.rota_robots_id)),
  );
  return row;
}

export async function insertTrigger(
  db: Db,
  scope: TenantScope,
  values: {
    rota_robots_id: number;
    name: string;
    token_hash: string;
    token_hint: string;
    created_by: number | null;
  },
) {
  const [row] = await db
    .insert(T)
    .values(scope.stamp(values))
    .returning({ id: T.rota_triggers_id });
  return row!.id;
}

/** Changes a visible trigger; false when there is none. */
export async function updateTrigger(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Partial<Pick<typeof T.$inferInsert, 'name' | 'token_hash' | 'token_hint'>> & {
    /** true: revoked now (unless it already was); false: live again. */
    revoked?: boolean;
  },
): Promise<boolean> {
  const { revoked, ...columns } = values;
  const updated = await db
    .update(T)
    .set({
      ...columns,
      ...(revoked === true ? { revoked_at: sql`coalesce(${T.revoked_at}, now())` } : {}),
      ...(revoked === false ? { revoked_at: null } : {}),
      updated_at: sql`now()`,
    })
    .where(scope.where(T, eq(T.rota_triggers_id, id), scope.robots(T.rota_robots_id)))
    .returning({ id: T.rota_triggers_id });
  return updated.length > 0;
}

export async function deleteTrigger(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(T)
    .where(scope.where(T, eq(T.rota_triggers_id, id), scope.robots(T.rota_robots_id)))
    .returning({ id: T.rota_triggers_id });
  return deleted.length > 0;
}

/** The live trigger a token names (a deleted robot took its triggers along). */
export async function findLiveTriggerByHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      rota_triggers_id: T.rota_triggers_id,
      rota_clients_id: T.rota_clients_id,
      rota_robots_id: T.rota_robots_id,
      name: T.name,
    })
    .from(T)
    .where(and(eq(T.token_hash, tokenHash), isNull(T.revoked_at)));
  return row;
}

export async function markFired(db: Db, id: number) {
  await db
    .update(T)
    .set({ last_fired_at: sql`now()` })
    .where(eq(T.rota_triggers_id, id));
}

/** The answer a fire with this key gave within the last 24 hours, if any. */
export async function storedFire(db: Db, triggerId: number, key: string) {
  const [row] = await db
    .select({ response: F.response })
    .from(F)
    .where(
      and(
        eq(F.rota_triggers_id, triggerId),
        eq(F.idempotency_key, key),
        sql`${F.created_at} > ${stale}`,
      ),
    );
  return row?.response;
}

/**
 * Takes the key for this fire, first thing in its transaction: false when another fire holds
 * it. A concurrent fire with the same key waits here on the primary key until the first one
 * commits (then finds it taken) or rolls back (then takes it). A key older than 24 hours is
 * taken over.
 */
export async function claimFireKey(db: Db, triggerId: number, key: string): Promise<boolean> {
  const rows = await db
    .insert(F)
    .values({ rota_triggers_id: triggerId, idempotency_key: key, response: {} })
    .onConflictDoUpdate({
      target: [F.rota_triggers_id, F.idempotency_key],
      set: { response: {}, created_at: sql`now()` },
      setWhere: sql`${F.created_at} <= ${stale}`,
    })
    .returning({ id: F.rota_triggers_id });
  return rows.length > 0;
}

export async function saveFireAnswer(
  db: Db,
  triggerId: number,
  key: string,
  response: Record<string, unknown>,
) {
  await db
    .update(F)
    .set({ response })
    .where(and(eq(F.rota_triggers_id, triggerId), eq(F.idempotency_key, key)));
}

/** Drops keys past their 24 hours (by the created_at index; a few rows each time). */
export async function pruneFireKeys(db: Db) {
  await db.delete(F).where(sql`${F.created_at} <= ${stale}`);
}
