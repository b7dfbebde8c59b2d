import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { pgliteEventBus } from '../lib/event-bus.js';
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

export async function openPglite(pglite: PGlite): Promise<Database> {
  await pglite.waitReady;
  await pglite.exec('set random_page_cost = 1.1');
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  const events = pgliteEventBus(pglite);
  return {
    db,
    kind: 'pglite',
    events,
    async migrate(then) {
      // One process owns an embedded database: no lock needed.
      await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
      await then?.();
    },
    async close() {
      await events.close();
      await pglite.close();
    },
  };
}
