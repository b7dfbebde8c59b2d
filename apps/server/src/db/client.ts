import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { postgresEventBus, type EventBus } from '../lib/event-bus.js';
import { SERVER_ROOT } from '../lib/server-root.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** Both drivers' databases (and their transactions) share this type. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'drizzle');

/** Serialises migrate + seed across server instances sharing one PostgreSQL. */
const MIGRATION_LOCK_ID = 7_274_274;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** NOTIFY/LISTEN between instances (claim wake-ups, live console events). */
  events: EventBus;
  /**
   * Where robots' output lines are written. On PostgreSQL a small pool of its own whose commits
   * do not wait for the WAL's flush (synchronous_commit off): a batch is answered before its
   * lines are on disk, so a crash of PostgreSQL itself may lose the last fraction of a second of
   * output, never a result, a claim or a lease — and any later synchronous commit (the run's
   * finish among them) flushes the lines before it. Absent: `db`.
   */
  logDb?: Db;
  /** Runs the committed migrations (and `then`, e.g. the seed) under a cross-instance lock. */
  migrate(then?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** A connection held apart from the pool until `release` (given an error, it is closed). */
export interface HeldConnection {
  db: Db;
  release(broken?: Error): void;
}

/**
 * One connection of `db`'s pool, held by the caller, as a database of its own; null where there
 * is a single connection (PGlite), which every statement shares anyway. Statements prepared on a
 * held connection stay prepared (and planned) there for its next holder.
 */
export async function holdConnection(db: Db): Promise<HeldConnection | null> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) return null;
  const held = await client.connect();
  return {
    db: drizzlePg({ client: held, schema }) as unknown as Db,
    release: (broken) => held.release(broken),
  };
}

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  // PostgreSQL's default random_page_cost (4) models spinning disks and makes the planner
  // prefer a full scan to the trigram indexes for searches sharing common trigrams (80 ms
  // instead of 15 ms at 100,000 rows); 1.1 is the usual value for SSDs. Only our sessions.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: '-c random_page_cost=1.1',
  });
  // An idle connection can die (server restart, admin termination); without a listener its
  // error event would crash the process. The pool replaces the connection on next use.
  pool.on('error', (error) => {
    process.stderr.write(`PostgreSQL connection lost: ${error.message}\n`);
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const logPool = new pg.Pool({
    connectionString: url,
    max: Math.max(2, Math.ceil(poolSize / 3)),
    options: '-c random_page_cost=1.1 -c synchronous_commit=off',
  });
  logPool.on('error', (error) => {
    process.stderr.write(`PostgreSQL connection lost: ${error.message}\n`);
  });
  const events = postgresEventBus(pool, url);
  return {
    db,
    logDb: drizzlePg({ client: logPool, schema }) as unknown as Db,
    kind: 'postgres',
    events,
    async migrate(then) {
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
        await then?.();
      } finally {
        await lock
          .query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID])
          .catch(() => undefined);
        lock.release();
      }
    },
    async close() {
      await events.close();
      await Promise.all([pool.end(), logPool.end()]);
    },
  };
}

/** DATABASE_URL selects PostgreSQL; otherwise an embedded PGlite lives in DATA_DIR/pglite. */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** The embedded database's backup before a migration: its key's fingerprint, where it went. */
  keyFingerprint?: string;
  onBackup?: (file: string) => void;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  // Loaded only for the embedded database: a server on PostgreSQL never holds PGlite's code.
  const { createPglite, openPglite } = await import('./pglite.js');
  const dir = path.resolve(options.dataDir, 'pglite');
  await mkdir(path.dirname(dir), { recursive: true });
  const pglite = await createPglite({ dataDir: dir });
  if (options.keyFingerprint === undefined) return openPglite(pglite);
  return openPglite(pglite, {
    dataDir: path.resolve(options.dataDir),
    keyFingerprint: options.keyFingerprint,
    onBackup: options.onBackup,
  });
}
