import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres, type Database } from '../../src/db/client.js';
import { createPglite, openPglite } from '../../src/db/pglite.js';

/**
 * A fresh, migrated database for one test file: PGlite from the template made in global
 * setup, or, when DATABASE_URL is set, a PostgreSQL copy of the migrated template, dropped at
 * close.
 */
export async function openTestDatabase(): Promise<Database & { url?: string }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dump = await readFile(inject('pgliteTemplate'));
    return openPglite(await createPglite({ loadDataDir: new Blob([dump]) }));
  }
  const name = `rota_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await copyTemplate(url, name, inject('postgresTemplate'));
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const database = await openPostgres(testUrl.toString(), 4);
  return {
    ...database,
    url: testUrl.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** PostgreSQL refuses a copy while another copy of the same template is being made: retry. */
async function copyTemplate(url: string, name: string, template: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database ${name} template ${template}`);
        return;
      } catch (error) {
        const busy = (error as { code?: string }).code === '55006';
        if (!busy || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 + attempt * 10));
      }
    }
  } finally {
    await admin.end();
  }
}
