import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { pgliteEventBus } from '../lib/event-bus.js';
import { backupBeforeMigrating } from './backup/pre-migration.js';
import { MIGRATIONS_DIR, type Database, type Db } from './client.js';
import * as schema from './schema/index.js';

/**
 * The embedded database (no DATABASE_URL). Its own module so that `openDatabase` loads PGlite
 * only when it is used.
 */

/** Extensions the migrations use; PGlite must load them when it opens a database. */
const PGLITE_EXTENSIONS = { pg_trgm };

/** A PGlite with Rota's extensions: in memory without `dataDir`, or on disk. */
export function createPglite(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, extensions: PGLITE_EXTENSIONS });
}

/** An embedded database in a DATA_DIR: backed up there before a migration changes it. */
export interface PgliteMigrationOptions {
  dataDir: string;
  keyFingerprint: string;
  /** The migrations to apply; a test gives its own. */
  migrationsFolder?: string;
  /** Told where the backup taken before migrating went. */
  onBackup?: (file: string) => void;
}

export async function openPglite(
  pglite: PGlite,
  options?: PgliteMigrationOptions,
): Promise<Database> {
  const migrationsFolder = options?.migrationsFolder ?? MIGRATIONS_DIR;
  await pglite.waitReady;
  await pglite.exec('set random_page_cost = 1.1');
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  const events = pgliteEventBus(pglite);
  return {
    db,
    kind: 'pglite',
    events,
    async migrate(then) {
      if (options) {
        const file = await backupBeforeMigrating({ pglite, ...options, migrationsFolder });
        if (file) options.onBackup?.(file);
      }
      // One process owns an embedded database: no lock needed. Every pending migration runs
      // in one transaction, so a failing one leaves the database as it was.
      await migratePglite(db as never, { migrationsFolder });
      await then?.();
    },
    async close() {
      await events.close();
      await pglite.close();
    },
  };
}
