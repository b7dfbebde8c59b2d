import { eq, inArray, sql } from 'drizzle-orm';
import type { CalendarListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaCalendars } from '../../db/schema/calendars.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

const sortable = {
  name: rotaCalendars.name,
  created_at: rotaCalendars.created_at,
} as const;

function selectCalendars(db: Db) {
  return db
    .select({
      rota_calendars_id: rotaCalendars.rota_calendars_id,
      name: rotaCalendars.name,
      time_zone: rotaCalendars.time_zone,
      excluded_dates: rotaCalendars.excluded_dates,
      created_at: rotaCalendars.created_at,
      updated_at: rotaCalendars.updated_at,
    })
    .from(rotaCalendars);
}

export type CalendarRow = Awaited<ReturnType<typeof selectCalendars>>[number];

export interface CalendarValues {
  name: string;
  time_zone: string;
  excluded_dates: string[];
}

export async function listCalendars<R>(
  db: Db,
  scope: TenantScope,
  query: CalendarListQuery,
  map: (row: CalendarRow) => R,
) {
  const where = scope.where(rotaCalendars, searchAny(query.search, [rotaCalendars.name]));
  return pageOf(
    query,
    selectCalendars(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, rotaCalendars.rota_calendars_id))
      .$dynamic(),
    // A client has a handful of calendars: counting them is cheap without a maintained count.
    db.select({ total: count() }).from(rotaCalendars).where(where),
    map,
  );
}

export async function findCalendar(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<CalendarRow | undefined> {
  const [row] = await selectCalendars(db).where(
    scope.where(rotaCalendars, eq(rotaCalendars.rota_calendars_id, id)),
  );
  return row;
}

/** The calendars of `ids` that are the scope's (another client's id is simply not there). */
export async function calendarsByIds(db: Db, scope: TenantScope, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return selectCalendars(db).where(
    scope.where(rotaCalendars, inArray(rotaCalendars.rota_calendars_id, [...ids])),
  );
}

export async function insertCalendar(db: Db, scope: TenantScope, values: CalendarValues) {
  const [row] = await db
    .insert(rotaCalendars)
    .values(scope.stamp(values))
    .returning({ id: rotaCalendars.rota_calendars_id });
  return row!.id;
}

export async function updateCalendar(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Partial<CalendarValues>,
): Promise<boolean> {
  const updated = await db
    .update(rotaCalendars)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(rotaCalendars, eq(rotaCalendars.rota_calendars_id, id)))
    .returning({ id: rotaCalendars.rota_calendars_id });
  return updated.length > 0;
}

/** Schedulings keep their calendar (RESTRICT): the service clears deleted ones' first. */
export async function deleteCalendar(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(rotaCalendars)
    .where(scope.where(rotaCalendars, eq(rotaCalendars.rota_calendars_id, id)))
    .returning({ id: rotaCalendars.rota_calendars_id });
  return deleted.length > 0;
}
