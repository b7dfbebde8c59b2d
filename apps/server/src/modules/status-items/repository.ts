import { eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  DEFAULT_STATUS_ITEMS,
  EXECUTION_STATUSES,
  STATUS_ITEM_CATEGORIES,
  type ExecutionStatus,
  type StatusItemCategory,
  type StatusItemListQuery,
  type StatusItemUpdate,
  type StatusPaletteEntry,
} from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaStatusItems } from '../../db/schema/status-items.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

/** Position of a value in a fixed list, so lists read in lifecycle order, not alphabetically. */
const positionIn = (values: readonly string[], column: AnyPgColumn) =>
  sql`array_position(array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[], ${column})`;

const sortable = {
  status: positionIn(EXECUTION_STATUSES, rotaStatusItems.status),
  category: positionIn(STATUS_ITEM_CATEGORIES, rotaStatusItems.category),
} as const;

function selectStatusItems(db: Db) {
  return db
    .select({
      rota_status_items_id: rotaStatusItems.rota_status_items_id,
      status: rotaStatusItems.status,
      category: rotaStatusItems.category,
      label: rotaStatusItems.label,
      color: rotaStatusItems.color,
      created_at: rotaStatusItems.created_at,
      updated_at: rotaStatusItems.updated_at,
    })
    .from(rotaStatusItems);
}

export type StatusItemRow = Awaited<ReturnType<typeof selectStatusItems>>[number];

/**
 * Gives the client an item for every status it lacks, with the default category. Clients get theirs
 * when made (migration 0007, provisionClient); this covers any made another way and any status
 * added later. Idempotent and safe against a concurrent call (the unique index decides).
 */
export async function ensureStatusItems(db: Db, scope: TenantScope): Promise<void> {
  await db
    .insert(rotaStatusItems)
    .values(DEFAULT_STATUS_ITEMS.map((item) => scope.stamp({ ...item })))
    .onConflictDoNothing();
}

export async function listStatusItems<R>(
  db: Db,
  scope: TenantScope,
  query: StatusItemListQuery,
  map: (row: StatusItemRow) => R,
) {
  const where = scope.where(
    rotaStatusItems,
    searchAny(query.search, [rotaStatusItems.status, rotaStatusItems.label]),
  );
  return pageOf(
    query,
    selectStatusItems(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, rotaStatusItems.rota_status_items_id))
      .$dynamic(),
    db.select({ total: count() }).from(rotaStatusItems).where(where),
    map,
  );
}

export async function findStatusItem(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<StatusItemRow | undefined> {
  const [row] = await selectStatusItems(db).where(
    scope.where(rotaStatusItems, eq(rotaStatusItems.rota_status_items_id, id)),
  );
  return row;
}

export async function updateStatusItem(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Omit<StatusItemUpdate, 'id'>,
): Promise<boolean> {
  const updated = await db
    .update(rotaStatusItems)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(rotaStatusItems, eq(rotaStatusItems.rota_status_items_id, id)))
    .returning({ id: rotaStatusItems.rota_status_items_id });
  return updated.length > 0;
}

const isStatus = (value: string): value is ExecutionStatus =>
  (EXECUTION_STATUSES as readonly string[]).includes(value);
const isCategory = (value: string): value is StatusItemCategory =>
  (STATUS_ITEM_CATEGORIES as readonly string[]).includes(value);

/**
 * How every status reads in the client: its item, or the default where it has none
 * (a read never writes). In EXECUTION_STATUSES order.
 */
export async function readPalette(db: Db, scope: TenantScope): Promise<StatusPaletteEntry[]> {
  const rows = await db
    .select({
      status: rotaStatusItems.status,
      category: rotaStatusItems.category,
      label: rotaStatusItems.label,
      color: rotaStatusItems.color,
    })
    .from(rotaStatusItems)
    .where(scope.where(rotaStatusItems));
  const stored = new Map(rows.filter((r) => isStatus(r.status)).map((r) => [r.status, r]));
  return DEFAULT_STATUS_ITEMS.map((fallback) => {
    const row = stored.get(fallback.status);
    if (!row) return { ...fallback };
    return {
      status: fallback.status,
      category: isCategory(row.category) ? row.category : fallback.category,
      label: row.label,
      color: row.color,
    };
  });
}

/** The client's category of each status (the dashboard counts robots with it). */
export async function statusCategories(
  db: Db,
  scope: TenantScope,
): Promise<Record<ExecutionStatus, StatusItemCategory>> {
  const palette = await readPalette(db, scope);
  return Object.fromEntries(palette.map((p) => [p.status, p.category])) as Record<
    ExecutionStatus,
    StatusItemCategory
  >;
}
