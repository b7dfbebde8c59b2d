/** What both benches open: an in-memory PGlite, or a throw-away database on DATABASE_URL. */
import { openPostgres, type Database } from '../apps/server/src/db/client.js';
import { createPglite, openPglite } from '../apps/server/src/db/pglite.js';
import { createScratchDatabase } from './scratch-database.js';

export async function openBenchDatabase(): Promise<{
  database: Database;
  label: string;
  /** The throw-away database's address (PostgreSQL only). */
  url?: string;
  drop?: () => Promise<void>;
}> {
  const url = process.env.DATABASE_URL;
  if (!url)
    return {
      database: await openPglite(await createPglite()),
      label: 'PGlite 0.5.16 (in memory)',
    };
  const scratch = await createScratchDatabase(url, 'rota_bench');
  return {
    database: await openPostgres(scratch.url, 10),
    label: 'PostgreSQL 15 (pg pool of 10)',
    url: scratch.url,
    drop: scratch.drop,
  };
}
