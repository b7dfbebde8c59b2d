import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { RobotCreate, RobotListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaRobots } from '../../db/schema/robots.js';
import {
  count,
  matchAny,
  orderBy,
  pageOf,
  searchAny,
  totalOfEndingPage,
} from '../../lib/list-query.js';
import { likePattern, listMeta, pageWindow } from '../../lib/pagination.js';
import { activeTotal, maintainedTotal, totalColumn } from '../../lib/row-counts.js';
import { hotStatement } from '../../lib/sql-rows.js';
import type { TenantScope } from '../../lib/tenant-scope.js';
import { packageSummaries as versions } from '../robot-versions/views.js';

const columns = {
  rota_robots_id: rotaRobots.rota_robots_id,
  name: rotaRobots.name,
  description: rotaRobots.description,
  executor: rotaRobots.executor,
  remote_root: rotaRobots.remote_root,
  active: rotaRobots.active,
  current_version_id: versions.rota_robot_versions_id,
  current_version: versions.version,
  rota_packages_id: rotaRobots.rota_packages_id,
  follow_latest: rotaRobots.follow_latest,
  task_sla_minutes: rotaRobots.task_sla_minutes,
  task_risk_minutes: rotaRobots.task_risk_minutes,
  task_retries: rotaRobots.task_retries,
  stall_minutes: rotaRobots.stall_minutes,
  stall_action: rotaRobots.stall_action,
  required_labels: rotaRobots.required_labels,
  created_at: rotaRobots.created_at,
  updated_at: rotaRobots.updated_at,
};

const sortable = {
  name: rotaRobots.name,
  executor: rotaRobots.executor,
  active: rotaRobots.active,
  created_at: rotaRobots.created_at,
  updated_at: rotaRobots.updated_at,
} as const;

function selectRobots(db: Db) {
  return db
    .select(columns)
    .from(rotaRobots)
    .leftJoin(
      versions,
      eq(versions.rota_robot_versions_id, rotaRobots.rota_robot_versions_id_current),
    );
}

export type RobotRow = Awaited<ReturnType<typeof selectRobots>>[number];

/** One robot of the client that the caller's teams let them see. */
const visibleRobot = (scope: TenantScope, id: number) =>
  scope.where(
    rotaRobots,
    eq(rotaRobots.rota_robots_id, id),
    scope.robots(rotaRobots.rota_robots_id),
  );

/** What the list's search looks in. */
const searchColumns = [rotaRobots.name, rotaRobots.executor, rotaRobots.description];

/** The list's conditions beyond the client (`scope.where` adds it). */
const listFilters = (scope: TenantScope, query: RobotListQuery) => [
  scope.robots(rotaRobots.rota_robots_id),
  searchAny(query.search, searchColumns),
  query.active === undefined ? undefined : eq(rotaRobots.active, query.active),
];

/** A row of a page statement: an unsearched page carries the list's total on each row. */
type PageRow = RobotRow & { total_rows?: string | number | null };

const pageStatements = new Map<string, ReturnType<typeof hotStatement<PageRow>>>();

/**
 * The list's rows as a raw statement names them, of the `client` placeholder's robots, with
 * `active` and `pattern` placeholders when filtered and searched; `extra` columns after them.
 */
function listRowsSelect(
  qb: QueryBuilder,
  { filtered, searched }: { filtered: boolean; searched: boolean },
  extra: Record<string, SQL.Aliased> = {},
) {
  return qb
    .select({
      ...columns,
      // Raw rows are named by their alias: the view's own column names would differ.
      current_version_id: sql`${versions.rota_robot_versions_id}`.as('current_version_id'),
      current_version: sql`${versions.version}`.as('current_version'),
      ...extra,
    })
    .from(rotaRobots)
    .leftJoin(
      versions,
      eq(versions.rota_robot_versions_id, rotaRobots.rota_robot_versions_id_current),
    )
    .where(
      and(
        eq(rotaRobots.rota_clients_id, sql.placeholder('client')),
        filtered ? eq(rotaRobots.active, sql.placeholder('active')) : undefined,
        searched ? matchAny(sql.placeholder('pattern'), searchColumns) : undefined,
      ),
    );
}

/** The page statement of one list shape (sort, order, filter on `active`, search), built once each. */
function pageStatement(query: RobotListQuery) {
  const filtered = query.active !== undefined;
  const searched = Boolean(query.search);
  const key = `${query.sort}_${query.order}${filtered ? '_active' : ''}${searched ? '_search' : ''}`;
  let statement = pageStatements.get(key);
  if (!statement) {
    statement = hotStatement<PageRow>(
      `rota_robot_page_${key}`,
      () =>
        listRowsSelect(
          new QueryBuilder(),
          { filtered, searched },
          // The maintained total in the same round trip (a search counts only a full page).
          searched
            ? {}
            : {
                total_rows: (filtered
                  ? totalColumn('rota_robots', true)
                  : totalColumn('rota_robots')
                ).as('total_rows'),
              },
        )
          .orderBy(...orderBy(sortable[query.sort], query.order, rotaRobots.rota_robots_id))
          .limit(sql.placeholder('limit') as unknown as number)
          .offset(sql.placeholder('offset') as unknown as number)
          .getSQL(),
      // A search is planned for its pattern on each run, as Drizzle's statement was.
      { prepared: !searched },
    );
    pageStatements.set(key, statement);
  }
  return statement;
}

/** A search with at most this many matches is answered from them alone (searchProbeStatement). */
const SEARCH_PROBE = 200;

type ProbeRow = RobotRow & { hit_count: string | number };
const probeStatements = new Map<string, ReturnType<typeof hotStatement<ProbeRow>>>();

/**
 * A search's first look: its matches, at most SEARCH_PROBE + 1 of them in no order,
 * then sorted and paged among themselves, with how many there were. PostgreSQL cannot estimate
 * how many rows `ilike '%…%'` matches, and guessed 1 % at 100,000 robots: for a search that
 * matched 20 it walked the name index in order, filtering every row to find a page that never
 * filled (320 ms), while the same search through the trigram indexes took 1 ms. With no order
 * inside, the look stops at SEARCH_PROBE + 1 matches whichever way it reads (1–20 ms measured);
 * a search with more matches than that is read in order as before, where that walk is usually
 * short (not when the matches all sort last: docs/performance.md, "a search's plan").
 */
function searchProbeStatement(query: RobotListQuery) {
  const filtered = query.active !== undefined;
  const key = `${query.sort}_${query.order}${filtered ? '_active' : ''}`;
  let statement = probeStatements.get(key);
  if (!statement) {
    statement = hotStatement<ProbeRow>(
      `rota_robot_search_probe_${key}`,
      () => {
        const qb = new QueryBuilder();
        const hits = qb
          .$with('hits')
          .as(listRowsSelect(qb, { filtered, searched: true }).limit(SEARCH_PROBE + 1));
        return qb
          .with(hits)
          .select({
            ...hits._.selectedFields,
            hit_count: sql`(select count(*) from ${hits})`.as('hit_count'),
          })
          .from(hits)
          .orderBy(...orderBy(hits[query.sort], query.order, hits.rota_robots_id))
          .limit(sql.placeholder('limit') as unknown as number)
          .offset(sql.placeholder('offset') as unknown as number)
          .getSQL();
      },
      // Planned for its pattern, as the searched page is.
      { prepared: false },
    );
    probeStatements.set(key, statement);
  }
  return statement;
}

export async function listRobots<R>(
  db: Db,
  scope: TenantScope,
  query: RobotListQuery,
  map: (row: RobotRow) => R,
) {
  // The console's robots page without a team limit, its most frequent call: its statements are
  // rendered once per shape and prepared (building them in Drizzle cost more CPU than
  // running them). A search's is rendered once too but not prepared (its pattern must reach the
  // planner, not a generic plan), and reads one row more, as pageOf does, to count only when
  // its page is full.
  if (query.search && !scope.robotIds) {
    const { limit, offset } = pageWindow(query);
    const pattern = likePattern(query.search);
    const probe = await searchProbeStatement(query)(db, {
      client: scope.clientId,
      active: query.active,
      pattern,
      limit,
      offset,
    });
    const hits = probe[0] ? Number(probe[0].hit_count) : offset === 0 ? 0 : undefined;
    // Few matches: they are the list. Past their end the page is empty and cannot say how many.
    if (hits !== undefined && hits <= SEARCH_PROBE) {
      return { data: probe.map(map), meta: listMeta(query, hits) };
    }
    const read = await pageStatement(query)(db, {
      client: scope.clientId,
      active: query.active,
      pattern,
      limit: limit + 1,
      offset,
    });
    const total =
      totalOfEndingPage(read.length, query) ??
      Number(
        (
          await db
            .select({ total: count() })
            .from(rotaRobots)
            .where(scope.where(rotaRobots, ...listFilters(scope, query)))
        )[0]?.total ?? 0,
      );
    return { data: read.slice(0, limit).map(map), meta: listMeta(query, total) };
  }
  if (!query.search && !scope.robotIds) {
    const { limit, offset } = pageWindow(query);
    const values = { client: scope.clientId, active: query.active, limit, offset };
    const rows = await pageStatement(query)(db, values);
    // Past the end (or no robot): no row carries the total, so it is read on its own.
    const total =
      rows[0]?.total_rows ??
      (
        await (query.active === undefined
          ? maintainedTotal(db, scope, 'rota_robots')
          : activeTotal(db, scope, 'rota_robots', query.active))
      )[0]?.total;
    return { data: rows.map(map), meta: listMeta(query, Number(total ?? 0)) };
  }
  const filters = listFilters(scope, query);
  const where = scope.where(rotaRobots, ...filters);
  return pageOf(
    query,
    selectRobots(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, rotaRobots.rota_robots_id))
      .$dynamic(),
    // No filter beyond the client: the maintained count, not a scan of every row; and a
    // search's count only when its page is full.
    () =>
      filters.every((f) => f === undefined)
        ? maintainedTotal(db, scope, 'rota_robots')
        : db.select({ total: count() }).from(rotaRobots).where(where),
    map,
  );
}

export async function findRobot(
  db: Db,
  scope: TenantScope,
  id: number,
): Promise<RobotRow | undefined> {
  const [row] = await selectRobots(db).where(visibleRobot(scope, id));
  return row;
}

export async function insertRobot(db: Db, scope: TenantScope, values: RobotCreate) {
  const [row] = await db
    .insert(rotaRobots)
    .values(scope.stamp(values))
    .returning({ id: rotaRobots.rota_robots_id });
  return row!.id;
}

export async function updateRobot(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Partial<RobotCreate> & {
    rota_robot_versions_id_current?: number | null;
    rota_packages_id?: number | null;
    follow_latest?: boolean;
  },
): Promise<boolean> {
  const updated = await db
    .update(rotaRobots)
    .set({ ...values, updated_at: sql`now()` })
    .where(visibleRobot(scope, id))
    .returning({ id: rotaRobots.rota_robots_id });
  return updated.length > 0;
}

/**
 * Deletes a robot with its versions, fields and tasks (cascade). A scheduling still pointing at
 * it makes the delete fail (RESTRICT): the service has the deleted ones go first.
 */
export async function deleteRobot(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(rotaRobots)
    .where(visibleRobot(scope, id))
    .returning({ id: rotaRobots.rota_robots_id });
  return deleted.length > 0;
}

/**
 * A robot of the scope exists and the caller's teams let them see it (used by the modules that
 * hang off a robot): a hidden robot is as absent as another client's. `lock` holds its row
 * until the transaction ends.
 */
export async function robotExists(
  db: Db,
  scope: TenantScope,
  id: number,
  options: { lock?: boolean } = {},
): Promise<boolean> {
  const query = db
    .select({ id: rotaRobots.rota_robots_id })
    .from(rotaRobots)
    .where(visibleRobot(scope, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return Boolean(row);
}

/** The package a robot of the scope runs (null: none yet); undefined when it is not visible. */
export async function robotPackageOf(db: Db, scope: TenantScope, id: number) {
  const [row] = await db
    .select({ rota_packages_id: rotaRobots.rota_packages_id, name: rotaRobots.name })
    .from(rotaRobots)
    .where(visibleRobot(scope, id));
  return row;
}

/** Robots of the scope following `packageId`'s newest version now run `versionId`. */
export async function followLatest(
  db: Db,
  scope: TenantScope,
  packageId: number,
  versionId: number,
) {
  await db
    .update(rotaRobots)
    .set({ rota_robot_versions_id_current: versionId, updated_at: sql`now()` })
    .where(
      scope.where(
        rotaRobots,
        eq(rotaRobots.rota_packages_id, packageId),
        eq(rotaRobots.follow_latest, true),
      ),
    );
}

/** Points robots of the scope (all visible, else none) at a package's version; their count. */
export async function pointRobots(
  db: Db,
  scope: TenantScope,
  ids: readonly number[],
  values: {
    rota_packages_id: number;
    rota_robot_versions_id_current: number;
    follow_latest?: boolean;
  },
): Promise<number> {
  const updated = await db
    .update(rotaRobots)
    .set({ ...values, updated_at: sql`now()` })
    .where(
      scope.where(
        rotaRobots,
        inArray(rotaRobots.rota_robots_id, [...ids]),
        scope.robots(rotaRobots.rota_robots_id),
      ),
    )
    .returning({ id: rotaRobots.rota_robots_id });
  return updated.length;
}

/** How many robots of the scope run a version of `packageId`. */
export async function robotsOnPackage(db: Db, scope: TenantScope, packageId: number) {
  const [row] = await db
    .select({ total: count() })
    .from(rotaRobots)
    .where(scope.where(rotaRobots, eq(rotaRobots.rota_packages_id, packageId)));
  return row?.total ?? 0;
}
