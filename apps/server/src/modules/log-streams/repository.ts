import { eq, sql } from 'drizzle-orm';
import type { LogStreamListQuery } from '@rota/contract';
import type { Db } from '../../db/client.js';
import { rotaLogStreamOutbox, rotaLogStreams } from '../../db/schema/log-streams.js';
import { count, orderBy, pageOf, searchAny } from '../../lib/list-query.js';
import type { TenantScope } from '../../lib/tenant-scope.js';

const S = rotaLogStreams;
const O = rotaLogStreamOutbox;

const sortable = { name: S.name, created_at: S.created_at } as const;

// The outer row is named in full: drizzle writes a column without its table inside `sql`
// fields, which would compare the outbox's column with itself.
const waiting = (status: 'pending' | 'failed') =>
  sql<number>`(select count(*)::int from ${O} w
                where w.rota_log_streams_id = ${sql.raw('"rota_log_streams"."rota_log_streams_id"')}
                  and w.status = ${status})`;

function selectStreams(db: Db) {
  return db
    .select({
      rota_log_streams_id: S.rota_log_streams_id,
      rota_clients_id: S.rota_clients_id,
      name: S.name,
      active: S.active,
      transport: S.transport,
      host: S.host,
      port: S.port,
      events: S.events,
      ca_certificate: S.ca_certificate,
      pending: waiting('pending'),
      failed: waiting('failed'),
      created_at: S.created_at,
      updated_at: S.updated_at,
    })
    .from(S);
}

/** A stream as stored; `ca_certificate` is sealed and never leaves the service. */
export type LogStreamRow = Awaited<ReturnType<typeof selectStreams>>[number];

export interface LogStreamValues {
  name: string;
  active: boolean;
  transport: string;
  host: string;
  port: number;
  events: string[];
  ca_certificate: string | null;
}

export async function listLogStreams<R>(
  db: Db,
  scope: TenantScope,
  query: LogStreamListQuery,
  map: (row: LogStreamRow) => R,
) {
  const where = scope.where(
    S,
    searchAny(query.search, [S.name, S.host]),
    query.active === undefined ? undefined : eq(S.active, query.active),
  );
  return pageOf(
    query,
    selectStreams(db)
      .where(where)
      .orderBy(...orderBy(sortable[query.sort], query.order, S.rota_log_streams_id))
      .$dynamic(),
    // A client has a handful of streams.
    db.select({ total: count() }).from(S).where(where),
    map,
  );
}

export async function findLogStream(db: Db, scope: TenantScope, id: number) {
  const [row] = await selectStreams(db).where(scope.where(S, eq(S.rota_log_streams_id, id)));
  return row;
}

/** Any client's stream, for the worker (its outbox rows carry the client already). */
export async function findLogStreamById(db: Db, id: number) {
  const [row] = await selectStreams(db).where(eq(S.rota_log_streams_id, id));
  return row;
}

export async function insertLogStream(db: Db, scope: TenantScope, values: LogStreamValues) {
  const [row] = await db
    .insert(S)
    .values(scope.stamp(values))
    .returning({ id: S.rota_log_streams_id });
  return row!.id;
}

export async function updateLogStream(
  db: Db,
  scope: TenantScope,
  id: number,
  values: Partial<LogStreamValues>,
): Promise<boolean> {
  const updated = await db
    .update(S)
    .set({ ...values, updated_at: sql`now()` })
    .where(scope.where(S, eq(S.rota_log_streams_id, id)))
    .returning({ id: S.rota_log_streams_id });
  return updated.length > 0;
}

export async function deleteLogStream(db: Db, scope: TenantScope, id: number): Promise<boolean> {
  const deleted = await db
    .delete(S)
    .where(scope.where(S, eq(S.rota_log_streams_id, id)))
    .returning({ id: S.rota_log_streams_id });
  return deleted.length > 0;
}
