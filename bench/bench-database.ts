/** What both benches open: an in-memory PGlite, or a throw-away database on DATABASE_URL. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  createPglite,
  openPglite,
  openPostgres,
  type Database,
} from '../apps/server/src/db/client.js';

export async function openBenchDatabase(): Promise<{
  database: Database;
  label: string;
  drop?: () => Promise<void>;
}> {
  const url = process.env.DATABASE_URL;
  if (!url)
    return {
      database: await openPglite(await createPglite()),
      label: 'PGlite 0.5.16 (in memory)',
    };
  const name = `rota_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    database: await openPostgres(target.toString(), 10),
    label: 'PostgreSQL 15 (pg pool of 10)',
    drop: async () => {
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    },
  };
}
