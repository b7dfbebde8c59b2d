import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/client.js';
import { rotaParameters } from '../src/db/schema/index.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { everyRow, seedWorkload, sha256, type Workload } from './helpers/backup.js';
import { executionOf } from './helpers/engine.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

const run = promisify(execFile);

const withoutLease = (row: string) => {
  const { lease_expires_at: _renewed, ...rest } = JSON.parse(row) as Record<string, unknown>;
  return JSON.stringify(rest);
};

/**
 * What docs/operations.md tells a PostgreSQL installation to do, done for real: Debian's
 * pg_dump -Fc of a server's database, pg_restore into a new database, and a server started on
 * the copy answering the same robots, package bytes (blobs live in the database), runs and
 * secrets.
 */
const url = process.env.DATABASE_URL;

describe.runIf(url)(
  'backup of a PostgreSQL installation with pg_dump',
  { timeout: 180_000 },
  () => {
    const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
    const names = { source: `rota_backup_src_${suffix}`, copy: `rota_backup_copy_${suffix}` };
    const urlOf = (name: string) => {
      const u = new URL(url!);
      u.pathname = `/${name}`;
      return u.toString();
    };
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    };
    const secretKey = randomBytes(32);
    let dir: string;
    let source: TestApp;
    let token: string;
    let work: Workload;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'rota-pgdump-'));
      await admin(`create database ${names.source}`);
      const database = await openPostgres(urlOf(names.source), 4);
      await database.migrate();
      source = await createTestApp({ database, secretKey });
      token = await signIn(source.app, ADMIN.access, ADMIN.password);
      work = await seedWorkload(source, token);
    });
    afterAll(async () => {
      await source?.close();
      await admin(`drop database if exists ${names.source} with (force)`);
      await admin(`drop database if exists ${names.copy} with (force)`);
      await rm(dir, { recursive: true, force: true });
    });

    it('tells a caller of the backup endpoint to use pg_dump, in English and Portuguese', async () => {
      for (const [lang, text] of [
        ['en', 'back it up with pg_dump'],
        ['pt', 'faça a cópia de segurança com pg_dump'],
      ] as const) {
        const res = await client(source.app, { token, lang }).post(
          '/api/rota/backup/api/v1/create',
        );
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('backup_on_postgres');
        expect(res.body.message).toContain(text);
      }
    });

    it('restores with pg_restore into a new database that a server answers from', async () => {
      const dump = path.join(dir, 'rota.dump');
      const query = (db: TestApp['db']) => (q: string) =>
        db.execute(q as never) as unknown as Promise<{ rows: Record<string, unknown>[] }>;
      const before = await everyRow(query(source.db));
      await run('pg_dump', ['-Fc', '--no-owner', '-f', dump, urlOf(names.source)]);
      await admin(`create database ${names.copy}`);
      await run('pg_restore', ['--no-owner', '--exit-on-error', '-d', urlOf(names.copy), dump]);

      const copy = await createTestApp({
        database: await openPostgres(urlOf(names.copy), 4),
        secretKey,
      });
      try {
        const rows = await everyRow(query(copy.db));
        expect([...rows.keys()]).toEqual([...before.keys()]);
        for (const [table, list] of before) {
          // Signing in on the copy writes its session after the dump: compared apart below.
          if (table === 'public.sessions') continue;
          // The source server keeps renewing the lease of the run in progress.
          expect(rows.get(table)!.map(withoutLease), table).toEqual(list.map(withoutLease));
        }
        expect(rows.get('public.sessions')!.length).toBeGreaterThanOrEqual(1);

        const as = client(copy.app, {
          token: await signIn(copy.app, ADMIN.access, ADMIN.password),
          lang: 'en',
        });
        const robots = await as.post('/api/rota/robot/api/v1/index', {});
        expect(robots.body.data.map((r: { name: string }) => r.name)).toContain('Backup robot');
        const download = await copy.app.inject({
          method: 'POST',
          url: '/api/rota/robot/version/api/v1/download',
          payload: { id: work.versionId },
          headers: { authorization: as.authorization! },
        });
        expect(download.statusCode).toBe(200);
        expect(sha256(download.rawPayload)).toBe(sha256(work.packageBytes));
        expect((await executionOf(as, work.runs[0]!)).status).toBe('processing');
        expect((await executionOf(as, work.runs[1]!)).status).toBe('queued');
        const [parameter] = await copy.db
          .select()
          .from(rotaParameters)
          .where(eq(rotaParameters.rota_parameters_id, work.parameterId));
        expect(new SecretBox(secretKey).open(parameter!.password_sealed!)).toBe(work.password);
      } finally {
        await copy.close();
      }
    });
  },
);
