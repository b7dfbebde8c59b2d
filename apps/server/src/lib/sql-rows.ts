import { fillPlaceholders, type SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from '../db/client.js';

/** Rows of a raw statement; both drivers answer `{rows}`. */
export async function rowsOf<T>(db: Db, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}

interface QueryClient {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * A hot statement: written against column references with `sql.placeholder(name)` for its
 * values, rendered to SQL text once per process, and each run only fills the values. Rendering
 * a statement of some sixty column references costs more than running it (the
 * claim and the heartbeat measurably slower when they were rendered per call). On a PostgreSQL pool
 * it runs as a named prepared statement: each connection parses it once and, after a few runs,
 * keeps a generic plan (parse and plan were two thirds of the claim's database time). `db` may be
 * the database or a transaction: the statement goes straight to the driver's client, the pool's
 * or the one the transaction holds.
 */
export function hotStatement<T>(
  name: string,
  build: () => SQL,
  /**
   * false: rendered once, but sent unnamed, so PostgreSQL plans each run for its values (a
   * search's pattern: a generic plan cannot know how selective it is).
   */
  {
    prepared = true,
    types,
  }: {
    prepared?: boolean;
    /**
     * The pool's parsers for this statement's columns (pg's `types`), say to memoize one that
     * parses the same text on every run. PGlite parses its own.
     */
    types?: pg.CustomTypesConfig;
  } = {},
) {
  let rendered: { sql: string; params: unknown[] } | undefined;
  return async (db: Db, values: Record<string, unknown>): Promise<T[]> => {
    rendered ??= (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(build());
    const { sql: text, params: slots } = rendered;
    const params = fillPlaceholders(slots, values);
    // A database has its driver's client; a transaction, in its session, the connection it holds.
    const client =
      (db as unknown as { $client?: unknown }).$client ??
      (db as unknown as { session: { client: unknown } }).session.client;
    if (client instanceof pg.Pool || client instanceof pg.Client) {
      const result = await client.query<T & pg.QueryResultRow>(
        prepared ? { name, text, values: params, types } : { text, values: params, types },
      );
      return result.rows;
    }
    // PGlite: one in-process connection, which parses as fast as it would prepare.
    const result = await (client as QueryClient).query(text, params);
    return result.rows as T[];
  };
}
